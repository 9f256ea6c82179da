"""A whole number a file's expression gives for one side (`side`): the initiative's bonus,
a hand size. Read over the view of the match; a value that cannot be read, or that is no
whole number within `most` either way, is refused naming the block's rule."""

from __future__ import annotations

from collections.abc import Callable

from domain.errors import InvalidAction
from domain.rulefiles.evaluate import Compiled, Unreadable
from domain.rulefiles.view import values
from domain.state import MatchState


def whole_for_side(expression: Compiled, rule: str, what: str,
                   most: int) -> Callable[[MatchState, str], int]:
    def read(state: MatchState, side: str) -> int:
        view = values(state, expression.declared, expression.names, expression.roles,
                      needs=expression.needs)
        try:
            value = expression.run({**view, "side": side})
        except Unreadable as error:
            raise InvalidAction(f"{rule}: {what} cannot be read now: {error}",
                                rule=rule) from None
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > most:
            raise InvalidAction(f"{rule}: {what} read {value!r}, not a whole number from "
                                f"{-most} to {most}", rule=rule)
        return value
    return read
