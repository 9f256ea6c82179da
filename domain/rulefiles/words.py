"""The words the page shows for a file's steps: what each step `expects`, said as the
`Ruleset`'s `expects` (the turn marker's "what now", and the reason an advance gives when
the step is not over yet): plain words as they are, or the cases of `model_words.Said`,
read over the view of the match."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.errors import InvalidAction
from domain.rulefiles.evaluate import Compiled, Roles, Unreadable, compile_expression
from domain.rulefiles.model import Phase, RulesetFile, Step
from domain.rulefiles.types import BOOL, DYN
from domain.rulefiles.view import Declared, types
from domain.state import MatchState
from domain.text import one_line

Cases = tuple[tuple[Compiled | None, Compiled], ...]


def expects_of(file: RulesetFile, declared: Declared, roles: Roles) -> dict[str, Any]:
    """`expects`, when any step of the file says what it expects."""
    steps: dict[str, Step] = {}
    _walk(file.sequence, "", steps)
    view = types(declared)
    said: dict[str, str | Cases] = {}
    for path, step in steps.items():
        if isinstance(step.expects, str):
            if step.expects:
                said[path] = " ".join(step.expects.split())
        else:
            said[path] = tuple(
                (None if case.when is None else compile_expression(
                    case.when, view, BOOL, declared, roles),
                 compile_expression(case.says, view, DYN, declared, roles))
                for case in step.expects)
    if not said:
        return {}

    def expects(state: MatchState) -> list[str]:
        words = said.get(state.turn.step)
        if words is None or isinstance(words, str):
            return [words] if words else []
        return _first(words, state)
    out: Callable[[MatchState], list[str]] = expects
    return {"expects": out}


def _first(cases: Cases, state: MatchState) -> list[str]:
    try:
        for when, says in cases:
            if when is None or when(state) is True:
                words = says(state)
                if isinstance(words, str):  # computed words are cleaned as given ones
                    return [one_line(words)]
                if isinstance(words, list) and all(isinstance(w, str) for w in words):
                    return [one_line(w) for w in words]
                raise InvalidAction(f"a step's words read {str(words)[:80]!r}, not a text "
                                    "or a list of texts", rule="core-ruleset")
    except Unreadable as error:
        raise InvalidAction(f"a step's words cannot be read now: {error}",
                            rule="core-ruleset") from None
    return []


def _walk(nodes: tuple[Phase | Step, ...], prefix: str, steps: dict[str, Step]) -> None:
    for node in nodes:
        if isinstance(node, Step):
            steps[prefix + node.step] = node
        else:
            _walk(node.steps, f"{prefix}{node.phase}/", steps)
