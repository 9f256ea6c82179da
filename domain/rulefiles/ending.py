"""A file's scoring and end conditions as the `Ruleset`'s hooks: `end_of_turn` (the
scorings `at: end_of_turn`, then the end conditions, on the board as scored) and `on_enter`
(the scorings `enter: <step>`). Points are the core's `VictoryPointsScored`, the end its
`MatchEnded` (a turn limit through `domain.rulesets.base.end_by_points`, as the built-in
games end), so the log, the page and the reports say them as any other."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain import events as ev
from domain.context import Emit
from domain.errors import InvalidAction
from domain.rulefiles.evaluate import Compiled, Roles, Unreadable, compile_expression
from domain.rulefiles.model import RulesetFile
from domain.rulefiles.model_end import OPTION_TURNS_MOST, End, Scoring
from domain.rulefiles.sequence import sequence_of
from domain.rulefiles.types import BOOL, INT, STRING
from domain.rulefiles.view import Declared, types, values
from domain.rulesets.base import Hook, end_by_points, number_option
from domain.state import MatchState

SCORED_MOST = 10_000  # (ours) the points one scoring gives a side at most, either way


def ending(file: RulesetFile, declared: Declared, roles: Roles) -> dict[str, Any]:
    """The `Ruleset` fields (`end_of_turn`, `on_enter`) the file's scoring and end build."""
    view = {**types(declared), "side": STRING}
    scorings = [(s, _scorer(s, compile_expression(s.points, view, INT, declared, roles)))
                for s in file.scoring]
    out: dict[str, Any] = {}
    paths = sequence_of(file).steps()
    on_enter: dict[str, list[Hook]] = {}
    for scoring, hook in scorings:
        for path in paths if scoring.enter is not None else ():
            if path.rsplit("/", 1)[-1] == scoring.enter:
                on_enter.setdefault(path, []).append(hook)
    if on_enter:
        out["on_enter"] = {path: _all(hooks) for path, hooks in on_enter.items()}
    at_end = [hook for scoring, hook in scorings if scoring.at == "end_of_turn"]
    ends = _ends(file.end, declared, roles) if file.end is not None else []
    if at_end or ends:
        out["end_of_turn"] = _all([*at_end, *ends])
    return out


def _all(hooks: list[Hook]) -> Hook:
    """The hooks in order, each on the board the ones before it left; none once the match
    has ended."""
    def run(state: MatchState, emit: Emit) -> None:
        for hook in hooks:
            if emit.state.outcome is not None:
                return
            hook(emit.state, emit)
    return run


def _read(expression: Compiled, state: MatchState, rule: str, **more: Any) -> Any:
    view = values(state, expression.declared, expression.names, expression.roles,
                  needs=expression.needs)
    try:
        return expression.run({**view, **more})
    except Unreadable as error:
        raise InvalidAction(f"{rule}: this cannot be read now: {error}", rule=rule) from None


def _scorer(scoring: Scoring, points: Compiled) -> Hook:
    """Each side's points, all read on the same board, then scored (none when 0)."""
    def score(state: MatchState, emit: Emit) -> None:
        scored = {side: _read(points, state, scoring.rule, side=side)
                  for side in state.side_ids()}
        for side, value in scored.items():
            if isinstance(value, bool) or not isinstance(value, int) or not (
                    -SCORED_MOST <= value <= SCORED_MOST):
                raise InvalidAction(f"{scoring.rule}: the points read {value!r}, not a whole "
                                    f"number from {-SCORED_MOST} to {SCORED_MOST}",
                                    rule=scoring.rule)
            if value:
                emit(ev.VictoryPointsScored, side=side, points=value, rule=scoring.rule,
                     reason=scoring.title)
    return score


def _ends(end: End, declared: Declared, roles: Roles) -> list[Hook]:
    hooks: list[Hook] = []
    if end.turns is not None:
        hooks.append(end_by_points(end.turns, end.turn_word, end.rule))
    if end.turns_option is not None:
        hooks.append(_end_by_option(end, end.turns_option))
    if end.when is not None:
        hooks.append(_end_when(end, compile_expression(end.when, types(declared), BOOL,
                                                       declared, roles)))
    return hooks


def _end_by_option(end: End, option: str) -> Hook:
    """The turn limit the match's option `option` gives (a whole number from 1 to 100):
    checked as each turn ends; a match without it has no limit."""
    def end_if(state: MatchState, emit: Emit) -> None:
        limit = number_option(state.options, option, 1, OPTION_TURNS_MOST, "the number of "
                              f"{end.turn_word}s, a whole number", end.rule)
        end_by_points(limit, end.turn_word, end.rule)(state, emit)
    return end_if


def _end_when(end: End, when: Compiled) -> Callable[[MatchState, Emit], None]:
    """The match ends as a turn ends with `when` holding: most victory points wins, equal
    points are a tie (as end_by_points decides at a turn limit)."""
    def end_if(state: MatchState, emit: Emit) -> None:
        if _read(when, state, end.rule) is not True:
            return
        points = {side: vp.points for side, vp in state.vp.items()}
        best = max(points.values(), default=0)
        leaders = [side for side, p in points.items() if p == best]
        winner = leaders[0] if len(leaders) == 1 else None
        emit(ev.MatchEnded, winner=winner, rule=end.rule, reason=(
            (end.says or f"the end ({end.rule}) in {end.turn_word} {state.turn.turn}") + "; "
            + (f"{winner} has the most victory points" if winner else "victory points tied")))
    return end_if
