"""What an action does when its file says it (`does:`, model_does.py): the `Ruleset.actions`
procedure that carries it out in place of the core's handling.

Everything it reads is read before anything is made (each die's unit, modifier and purpose,
how many table dice it needs), so a refusal leaves no event. Then, in order: the `first`
effects, its own event (a move's `UnitMoved`, a removal's `UnitRemoved`, and a casualty
marker where the removed unit stood), its dice one by one (`DiceRolled`, each for its unit,
the last awaiting the players' result), then its `effects`; each effect reads the board as
the events before it left it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain import events as ev
from domain.commands import Command
from domain.context import Emit
from domain.context import unit as unit_in_play
from domain.dice import parse
from domain.errors import InvalidAction
from domain.rulefiles.effects import Tracks, apply, effect_words
from domain.rulefiles.evaluate import Compiled, Roles, Unreadable, compile_expression
from domain.rulefiles.model import Action, RulesetFile
from domain.rulefiles.model_does import THROWN, ActionDie, Does
from domain.rulefiles.sequence import sequence_of
from domain.rulefiles.template import Template, compile_template
from domain.rulefiles.types import BOOL, DYN, INT, STRING
from domain.rulefiles.view import Declared, types, values
from domain.rulesets.base import roll
from domain.sequence import SequenceOfPlay
from domain.state import MatchState

Procedure = Callable[[Any, MatchState, Emit], None]


@dataclass(frozen=True)
class _Die:
    """One die of the action's: the server's, or one face of the table's."""

    source: str
    results: list[int] | None


@dataclass(frozen=True)
class _Thrown:
    spec: ActionDie
    units: Compiled
    modifier: Compiled
    purpose: Template
    when: Compiled | None = None


def actions_of(file: RulesetFile, declared: Declared, roles: Roles) -> dict[str, Procedure]:
    """Each action whose `does` the file gives, as its procedure."""
    sequence = sequence_of(file)
    tracks: Tracks = {name: track.values or tuple(range(track.minimum or 0,
                                                        (track.maximum or 0) + 1))
                      for name, track in file.tracks.items()}
    return {name: _procedure(action, action.does, types(declared, (name,)), declared, roles,
                             sequence, tracks)
            for name, action in file.actions.items() if action.does is not None}


def _procedure(action: Action, does: Does, view: dict[str, Any], declared: Declared,
               roles: Roles, sequence: SequenceOfPlay, tracks: Tracks) -> Procedure:
    with_each = {**view, "each": STRING}
    thrown = [_Thrown(die, compile_expression(die.unit or die.each or "", view, DYN, declared,
                                              roles),
                      compile_expression(die.modifier, with_each, INT, declared, roles),
                      compile_template(die.purpose, with_each, declared, roles),
                      compile_expression(die.when, view, BOOL, declared, roles)
                      if die.when else None)
              for die in does.dice]
    awaits = compile_template(does.awaits, view, declared, roles) if does.awaits else None
    words = effect_words([*does.first, *(e.model_copy(update={"when": None})
                                         for e in does.effects)], view, declared, roles)
    # whether one of the last effects is made also reads the faces of the dice (`faces`)
    thrown_whens = {e.when: compile_expression(e.when, {**view, **THROWN}, BOOL, declared, roles)
                    for e in does.effects if e.when}

    def procedure(command: Command, state: MatchState, emit: Emit) -> None:
        rule = (sequence.step(state.turn.step).rule if does.names == "step" else action.rule
                ) or "core-sequence"
        actor = emit.context.actor

        def data(names: frozenset[str], each: str = "") -> dict[str, Any]:
            """The view of the board as the events made so far left it (before any, the
            dice; after the dice, whether each last effect is made)."""
            now = emit.state if emit.apply is not None else state
            return {**values(now, declared, names, roles, command, actor), "each": each}

        def read(what: Compiled | Template, each: str = "",
                 faces: list[int] | None = None) -> Any:
            """An expression's value, or words said, for the die of `each` (after the dice,
            with their `faces`)."""
            try:
                given = {**data(what.names, each), "faces": faces or []}
                return what.say(given) if isinstance(what, Template) else what.run(given)
            except Unreadable as error:
                raise InvalidAction(f"{rule}: this action cannot be read now: {error}",
                                    rule=rule) from None

        dice: list[tuple[str, str, int, str, str]] = []  # unit, notation, modifier, purpose,
        for one in thrown:                                  # rule
            if one.when is not None and read(one.when) is not True:
                continue
            listed = read(one.units)
            ids = [listed] if one.spec.unit is not None else listed
            if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
                raise InvalidAction(f"{rule}: the units of the action's dice read {ids!r}, "
                                    "not unit ids", rule=rule)
            for unit_id in ids:
                modifier = read(one.modifier, unit_id)
                if isinstance(modifier, bool) or not isinstance(modifier, int):
                    raise InvalidAction(f"{rule}: a die's modifier read {modifier!r}",
                                        rule=rule)
                dice.append((unit_id, one.spec.dice, modifier, read(one.purpose, unit_id),
                             one.spec.rule or rule))
        faces = _faces(command, [notation for _, notation, _, _, _ in dice])
        waiting = read(awaits) if awaits is not None else None
        unit_id = getattr(command, "unit_id", None)
        unit = state.units.get(unit_id) if isinstance(unit_id, str) else None
        for effect in does.first:
            apply(effect, unit, state, emit, rule, tracks, command, words)
        if does.own:
            _own(command, state, emit, rule, does)
        thrown_faces: list[int] = []
        for index, ((rolled, notation, modifier, purpose, named), die) in enumerate(
                zip(dice, faces, strict=True)):
            thrown_faces += roll(die, notation, emit, purpose, named, (rolled,), modifier,
                                 awaits=waiting if index == len(dice) - 1 else None)
        for effect in does.effects:
            if effect.when is not None:
                if read(thrown_whens[effect.when], faces=thrown_faces) is not True:
                    continue
                effect = effect.model_copy(update={"when": None})  # read with the faces
            apply(effect, unit, state, emit, rule, tracks, command, words)
    return procedure


def _faces(command: Command, notations: list[str]) -> list[_Die]:
    """The action's rolls one by one; table dice need one face per die, in order."""
    source = getattr(command, "source", "server")
    results = getattr(command, "results", None)
    if source == "server":
        return [_Die("server", results)] * len(notations)  # results are refused by the roll
    counts = [parse(notation).count for notation in notations]
    if results is None or len(results) != sum(counts):
        raise InvalidAction(f"table dice: {sum(counts)} result(s), one per die, in the order "
                            "the file throws them", rule="core-dice")
    starts = [sum(counts[:i]) for i in range(len(counts))]
    return [_Die("table", list(results[at:at + n])) for at, n in zip(starts, counts,
                                                                      strict=True)]


def _own(command: Any, state: MatchState, emit: Emit, rule: str, does: Does) -> None:
    """The action's own event, as the core makes it, naming `rule`."""
    if command.type == "announce_reinforcements":
        units = [unit_in_play(state, unit_id) for unit_id in command.unit_ids]
        emit(ev.ReinforcementsAnnounced, side=units[0].side, unit_ids=tuple(command.unit_ids),
             entry=command.entry, rule=rule)
        return
    unit = unit_in_play(state, command.unit_id)
    if command.type == "move_unit":
        emit(ev.UnitMoved, unit_id=unit.id, origin=unit.position, to=command.to, rule=rule)
        return
    casualty = does.casualty
    if casualty is None or command.reason not in casualty.reasons:
        emit(ev.UnitRemoved, unit_id=unit.id, reason=command.reason, to_box=command.to_box,
             rule=rule)
        return
    emit(ev.UnitRemoved, unit_id=unit.id, reason=command.reason, rule=rule)
    if unit.position is not None and unit.position.box is None:
        emit(ev.MarkerPlaced, kind=casualty.marker, count=1, location=unit.position.label(),
             rule=rule)
