"""What the service does as the marker arrives at a step (`on_enter:` of a ruleset file,
model_shows.Arrive): the `Ruleset.on_enter` hooks, by step path.

An arrival that `passes` moves the marker on at once, past the steps it names (as `advance`
would, reading the file's conditions), in one `PhaseAdvanced` naming its rule; then what the
file does on arriving where the marker lands is done (its effects; (ours) never a second
pass, so that arrivals cannot chase one another round a turn). Its `effects` fall on the
units their `falls_on` names, read on the board as the marker arrived (after a pass, as it
landed)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import events as ev
from domain.context import Emit
from domain.errors import InvalidAction
from domain.rulefiles.effects import Tracks, Words, apply, effect_words
from domain.rulefiles.evaluate import Compiled, Roles, Unreadable, compile_expression
from domain.rulefiles.model import RulesetFile
from domain.rulefiles.model_shows import Arrive
from domain.rulefiles.sequence import sequence_of
from domain.rulefiles.types import BOOL
from domain.rulefiles.view import Declared, types
from domain.rulesets.base import Hook
from domain.sequence import Conditions, SequenceOfPlay, following
from domain.state import MatchState

Compiledarrival = tuple[Arrive, Compiled | None, Words]


def arrivals(file: RulesetFile, declared: Declared, roles: Roles,
             conditions: Conditions) -> dict[str, Any]:
    """The file's `on_enter`, as the `Ruleset`'s (hooks by the path of each step they
    name); nothing when it has none."""
    if not file.on_enter:
        return {}
    view = types(declared)
    sequence = sequence_of(file)
    tracks: Tracks = {name: track.values or tuple(range(track.minimum or 0,
                                                        (track.maximum or 0) + 1))
                      for name, track in file.tracks.items()}
    compiled: list[Compiledarrival] = [
        (arrive, compile_expression(arrive.unless, view, BOOL, declared, roles)
         if arrive.unless else None, effect_words(list(arrive.effects), view, declared, roles))
        for arrive in file.on_enter]
    by_path: dict[str, list[Compiledarrival]] = {}
    for path in sequence.steps():
        leaf = path.rsplit("/", 1)[-1]
        for one in compiled:
            if leaf in one[0].steps:
                by_path.setdefault(path, []).append(one)

    def hook_for(path: str) -> Hook:
        def arrive(state: MatchState, emit: Emit) -> None:
            _arrive(by_path, path, state, emit, sequence, conditions, tracks, True)
        return arrive
    return {"on_enter": {path: hook_for(path) for path in by_path}}


def _arrive(by_path: Mapping[str, list[Compiledarrival]], path: str, state: MatchState,
            emit: Emit, sequence: SequenceOfPlay, conditions: Conditions, tracks: Tracks,
            may_pass: bool) -> None:
    for arrive, unless, words in by_path.get(path, ()):
        if unless is not None and _holds(unless, state, arrive.rule):
            continue
        if arrive.passes:
            if not may_pass:
                continue
            marker = state.turn
            while marker.step.rsplit("/", 1)[-1] in arrive.passes:
                marker = following(sequence, marker, state, conditions)
            emit(ev.PhaseAdvanced, origin=state.turn.step, marker=marker, rule=arrive.rule)
            _arrive(by_path, marker.step, emit.state, emit, sequence, conditions, tracks, False)
            return
        for effect in arrive.effects:
            apply(effect, None, state, emit, arrive.rule, tracks, None, words)


def _holds(expression: Compiled, state: MatchState, rule: str) -> Any:
    try:
        return expression(state) is True
    except Unreadable as error:
        raise InvalidAction(f"{rule}: what the step does on arrival cannot be read now: "
                            f"{error}", rule=rule) from None
