"""A file's rolls resolved by the service (`rule_roll` with `roll: <name>`): the
`Ruleset.rolls` that `behaviour` builds from `rolls:`.

Everything a roll reads is computed before its dice are thrown (whether it may be rolled,
the die of a chain, the modifiers, the target or the table's column), so a refusal leaves
no event. Then the dice (the server's, or table dice given as `results`) are rolled and
recorded (`DiceRolled`, tagged with the roll's rule and unit: once a turn is a `facts`
test), the outcome is found (a natural roll of its own, else the target or the table's
row) and its effects emitted as the core's own events; each outcome is said in one
sentence (`ResultRecorded`, the outcome the page shows). A roll that `awaits` has no
outcome here: the match waits for the players to enter it, as for any table it does not
hold. (ours) A total past a column's rows (a modifier past the dice's range) reads its
nearest row."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit
from domain.context import unit as unit_in_play
from domain.errors import InvalidAction
from domain.rulefiles.effects import Tracks, Words, apply, effect_words
from domain.rulefiles.evaluate import Compiled, Roles, Together, Unreadable, compile_expression
from domain.rulefiles.model import RulesetFile
from domain.rulefiles.model_rolls import Outcome, Roll, Row
from domain.rulefiles.sequence import sequence_of
from domain.rulefiles.spend import allot, spend
from domain.rulefiles.template import AFTER, BEFORE, Template, compile_template, view_of
from domain.rulefiles.types import BOOL, DYN, INT, STRING
from domain.rulefiles.view import Declared, types
from domain.rulesets.base import Roll as RulesetRoll
from domain.rulesets.base import roll as throw
from domain.state import MatchState, Unit

_ROWS = re.compile(r"^(-?[0-9]{1,3})(?:-(-?[0-9]{1,3}))?$")


@dataclass(frozen=True)
class _Compiled:
    when: Compiled | None
    modifiers: tuple[Compiled, ...]
    start: Compiled | None
    shift: Compiled | None
    target: Compiled | None
    column: Compiled | None
    count: Compiled | None = None
    each_die: Compiled | None = None
    helped_by: Compiled | None = None

    def all(self) -> list[Compiled]:
        return [e for e in (self.when, *self.modifiers, self.start, self.shift, self.target,
                            self.column, self.count, self.each_die, self.helped_by)
                if e is not None]


@dataclass(frozen=True)
class _Words:
    """A roll's words with placeholders, and what its effects read."""

    purpose: Template | None
    of: Template | None
    says: dict[str, Template]
    effects: Words
    refused: Template | None
    declared: Declared
    roles: Roles


def rolls_of(file: RulesetFile, declared: Declared, roles: Roles) -> dict[str, RulesetRoll]:
    """Each roll of the file as the `Ruleset`'s, in the steps whose ids it names."""
    view = types(declared, ("rule_roll",))
    paths = sequence_of(file).steps()
    tracks: Tracks = {name: track.values or tuple(range(track.minimum or 0,
                                                        (track.maximum or 0) + 1))
                      for name, track in file.tracks.items()}
    out = {}
    for name, roll in file.rolls.items():
        def compiled(text: str | None, wanted: Any) -> Compiled | None:
            return None if text is None else compile_expression(text, view, wanted, declared,
                                                                roles)
        chain = roll.chain
        target = roll.target
        expressions = _Compiled(
            compiled(roll.when, BOOL),
            tuple(e for e in (compiled(m, INT) for m in roll.modifiers) if e is not None),
            compiled(chain.start, STRING) if chain else None,
            compiled(chain.shift, INT) if chain else None,
            compiled((target.at_most or target.at_least) if target else None, INT),
            compiled(roll.table.column, DYN) if roll.table else None,
            compiled(roll.count, INT),
            compiled(roll.each_die.at_least, INT) if roll.each_die else None,
            compiled(roll.helped_by, DYN))
        steps = tuple(p for p in paths if p.rsplit("/", 1)[-1] in roll.steps)
        out[name] = RulesetRoll(roll.rule, steps, _procedure(
            name, roll, expressions, tracks, _words(roll, view, declared, roles)))
    return out


def _words(roll: Roll, view: dict[str, Any], declared: Declared, roles: Roles) -> _Words:
    before, after = {**view, **BEFORE}, {**view, **AFTER}
    effects = [e for o in _outcomes(roll) for e in o.effects] + list(roll.first)
    return _Words(
        compile_template(roll.purpose, before, declared, roles) if roll.purpose else None,
        compile_template(roll.of, before, declared, roles) if roll.of else None,
        {o.says: compile_template(o.says, after, declared, roles)
         for o in _outcomes(roll) if o.says},
        effect_words(effects, view, declared, roles),
        compile_template(roll.refused, view, declared, roles) if "{" in roll.refused else None,
        declared, roles)


def _outcomes(roll: Roll) -> list[Outcome]:
    rows = [row for rows in roll.table.columns.values() for row in rows] if roll.table else []
    return [*roll.natural, *(o for o in (roll.passes, roll.fails) if o), *rows]


def _procedure(name: str, roll: Roll, compiled: _Compiled, tracks: Tracks, words: _Words
               ) -> Callable[[Any, MatchState, Emit], None]:
    # `when` is read first, over the view it alone needs: most rolls the legal actions try
    # are refused there (the view is handed to the evaluator value by value)
    gate = Together([compiled.when] if compiled.when else [])
    rest = Together([e for e in compiled.all() if e is not compiled.when])

    def procedure(command: cmd.RuleRoll, state: MatchState, emit: Emit) -> None:
        rule = roll.rule
        unit = _roller(command, state, roll, name)
        actor = emit.context.actor

        def read(expression: Compiled, view: Any) -> Any:
            try:
                return expression.run(view)
            except Unreadable as error:
                raise InvalidAction(f"{rule}: {roll.title or name} cannot be read now: "
                                    f"{error}", rule=rule) from None

        def say(template: Template, extra: dict[str, Any]) -> str:
            try:
                return template.say(view_of([template], state, words.declared, words.roles,
                                            command, actor, extra))
            except Unreadable as error:
                raise InvalidAction(f"{rule}: {roll.title or name} cannot be said now: "
                                    f"{error}", rule=rule) from None

        if compiled.when is not None and read(
                compiled.when, gate.view(state, command, actor)) is not True:
            raise InvalidAction(f"{rule}: " + (say(words.refused, {}) if words.refused
                                                else roll.refused), rule=rule)
        view = rest.view(state, command, actor)
        count = _whole(read(compiled.count, view), rule) if compiled.count else None
        if count is not None and not 1 <= count <= 10:
            raise InvalidAction(f"{rule}: {count} dice: a roll throws 1 to 10", rule=rule)
        notation = (f"{count}{roll.dice}" if count is not None else roll.dice) or _chained(
            roll, read(compiled.start, view) if compiled.start else "",
            read(compiled.shift, view) if compiled.shift else 0, rule)
        modifier = sum(_whole(read(m, view), rule) for m in compiled.modifiers)
        target = _whole(read(compiled.target, view), rule) if compiled.target else None
        at_least = _whole(read(compiled.each_die, view), rule) if compiled.each_die else None
        rows = (_column(roll, read(compiled.column, view), rule) if compiled.column
                else None)
        helpers = read(compiled.helped_by, view) if compiled.helped_by else []
        if not isinstance(helpers, list) or not all(isinstance(h, str) for h in helpers):
            raise InvalidAction(f"{rule}: the units helping read {helpers!r}, not unit ids",
                                rule=rule)
        spent = spend(roll.spend, command, state, unit, emit, rule) if roll.spend else 0
        if roll.spend is not None and roll.spend.to == "total":
            modifier += spent
        for effect in roll.first:
            apply(effect, unit, state, emit, rule, tracks, command, words.effects)
        extra = {"modifier": modifier, "spent": spent, "target": target, "count": count}
        what = (say(words.of, extra) if words.of else
                f"{rule} {roll.title or name}" + (f" of {unit.id}" if unit else ""))
        purpose = say(words.purpose, extra) if words.purpose else (
            what + (f": {notation}" + (f" {modifier:+d}" if modifier else "")) + (
                "" if target is None or roll.target is None else
                f", passes at {target} or {'less' if roll.target.at_most else 'more'}"))
        faces = throw(command, notation, emit, purpose, roll.tag or rule,
                      ((unit.id,) if unit else ()) + tuple(helpers), modifier,
                      awaits=f"{what}: {roll.awaits}" if roll.awaits else None)
        if roll.awaits:
            return
        natural = sum(faces)
        total = natural + modifier
        points = spent if roll.spend is not None and roll.spend.to == "failing_dice" else 0
        scores, passed = (allot([f + modifier for f in faces], at_least, points)
                          if at_least is not None else (list(faces), 0))
        special = [n for n in roll.natural if n.total == natural]
        outcomes: list[Outcome] = list(special)
        if all(n.also for n in special):
            held = passed if at_least is not None else total
            if target is not None and roll.target is not None and roll.passes and roll.fails:
                passing = held <= target if roll.target.at_most else held >= target
                outcomes.append(roll.passes if passing else roll.fails)
            elif rows is not None:
                outcomes.append(_row(rows, held))
        after = {**extra, "faces": list(faces), "total": total, "passed": passed,
                 "scores": scores}
        for outcome in outcomes:
            for effect in outcome.effects:
                apply(effect, unit, state, emit, outcome.rule or rule, tracks, command,
                      words.effects)
            if outcome.says:
                emit(ev.ResultRecorded, of=what, result=say(words.says[outcome.says], after),
                     failed=outcome.failed, rule=rule)
    return procedure


def _roller(command: cmd.RuleRoll, state: MatchState, roll: Roll, name: str) -> Unit | None:
    if not roll.unit:
        return None
    if command.unit_id is None:
        raise InvalidAction(f"{roll.rule}: say which unit rolls {roll.title or name} "
                            "('unit_id')", rule=roll.rule)
    return unit_in_play(state, command.unit_id)


def _whole(value: Any, rule: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAction(f"{rule}: a modifier or target read {value!r}, not a whole number",
                            rule=rule)
    return value


def _chained(roll: Roll, start: Any, shift: Any, rule: str) -> str:
    assert roll.chain is not None
    dice = roll.chain.dice
    if start not in dice:
        raise InvalidAction(f"{rule}: the chain's die is {start!r}, none of "
                            f"{', '.join(dice)}", rule=rule)
    at = dice.index(start) + _whole(shift, rule)
    return dice[max(0, min(len(dice) - 1, at))]


def _column(roll: Roll, value: Any, rule: str) -> tuple[Row, ...]:
    assert roll.table is not None
    key = str(value) if isinstance(value, str | int) and not isinstance(value, bool) else ""
    rows = roll.table.columns.get(key)
    if rows is None:
        raise InvalidAction(f"{rule}: the table has no column {key or value!r} (it has: "
                            f"{', '.join(roll.table.columns)})", rule=rule,
                            allowed=list(roll.table.columns))
    return rows


def _bounds(row: Row) -> tuple[int, int]:
    matched = _ROWS.match(str(row.rolls))
    assert matched is not None  # the model's pattern
    first = int(matched[1])
    return first, int(matched[2]) if matched[2] is not None else first


def _row(rows: tuple[Row, ...], total: int) -> Row:
    """The row holding `total`, or the nearest one (a total past the column's ends)."""
    return min(rows, key=lambda row: (0 if _bounds(row)[0] <= total <= _bounds(row)[1] else
                                      min(abs(total - b) for b in _bounds(row))))
