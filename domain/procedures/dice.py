"""Dice procedures: a roll of the service's dice or of table dice (declared, then thrown),
and a roll the ruleset names and resolves itself."""

from __future__ import annotations

from typing import Any

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit
from domain.context import unit as _unit
from domain.dice import DiceSpec, parse
from domain.errors import InvalidAction, OutOfSequence
from domain.procedures.dispatch import handle as _handle
from domain.rulesets import Ruleset
from domain.state import Declared, MatchState


@_handle.register
def _(command: cmd.RollDice, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    if command.rule is not None and command.rule in ruleset.automated_rules:
        raise InvalidAction(f"{command.rule} is rolled by the service with its own action "
                            f"(rule_roll: {', '.join(ruleset.rolls) or 'none'}; fire; ...); "
                            "leave 'rule' out of a roll of your own", rule=command.rule,
                            allowed=list(ruleset.rolls))
    spec = parse(command.notation)
    for unit_id in command.unit_ids:
        _unit(state, unit_id, in_play=False)
    if command.source == "server":
        if command.results is not None:
            raise InvalidAction("server dice take no results; use source 'table' to record "
                                "physical dice", rule="core-dice")
        roll_index = emit.roll_index
        emit(ev.DiceRolled, notation=spec.notation,
             **_faces(spec, emit.context.dice.roll(spec, roll_index)), purpose=command.purpose,
             source="server", roll_index=roll_index, unit_ids=tuple(command.unit_ids),
             rule=command.rule, success=command.success)
        return
    if command.results is not None:
        _check_table(spec, command.results)
    declared = emit(ev.RollDeclared, notation=spec.notation, purpose=command.purpose,
                    unit_ids=tuple(command.unit_ids), success=command.success,
                    rule=command.rule)
    if command.results is not None:
        _thrown(spec, command.results, emit, declared)


def _check_table(spec: DiceSpec, results: list[int]) -> None:
    if len(results) != spec.count:
        raise InvalidAction(f"table dice need {spec.count} result(s), one per die",
                            rule="core-dice")
    if not all(1 <= r <= spec.sides for r in results):
        raise InvalidAction(f"each result of a d{spec.sides} is 1 to {spec.sides}",
                            rule="core-dice")


def _faces(spec: DiceSpec, faces: list[int]) -> dict[str, Any]:
    return {"dice": tuple(faces), "modifier": spec.modifier,
            "total": sum(faces) + spec.modifier}


def _thrown(spec: DiceSpec, results: list[int], emit: Emit,
            declared: ev.RollDeclared | Declared) -> None:
    """The faces of table dice, answering their declaration (for a roll made again on a
    ruling: with the modifier, the result to read and the roll replaced it carries)."""
    faces = _faces(spec, results)
    if declared.modifier is not None:
        faces.update(modifier=declared.modifier, total=sum(results) + declared.modifier)
    emit(ev.DiceRolled, notation=spec.notation, **faces,
         purpose=declared.purpose, source="table", unit_ids=declared.unit_ids,
         rule=declared.rule, success=declared.success, declared=declared.version,
         awaits=declared.awaits, replaces=declared.replaces)


@_handle.register
def _(command: cmd.RecordRoll, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    declared = state.awaiting.declared if state.awaiting is not None else None
    if declared is None:
        raise InvalidAction("no table roll is declared: roll_dice with source 'table' first",
                            rule="core-dice")
    spec = parse(declared.notation)
    _check_table(spec, command.results)
    _thrown(spec, command.results, emit, declared)


@_handle.register
def _(command: cmd.RuleRoll, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    roll = ruleset.rolls.get(command.roll)
    if roll is None:
        raise InvalidAction(f"{ruleset.title} has no roll '{command.roll}'", rule="core-rolls",
                            allowed=sorted(ruleset.rolls))
    if state.turn.step not in roll.steps:
        raise OutOfSequence(f"{roll.rule}: '{command.roll}' is rolled only in "
                            f"{' or '.join(roll.steps)}; current step: {state.turn.step}",
                            rule=roll.rule, allowed=list(roll.steps))
    roll.procedure(command, state, emit)


