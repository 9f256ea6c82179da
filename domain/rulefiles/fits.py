"""What a match under a ruleset file must fit of what the file declares: its scenario's
units, and the option its end reads the turn limit from (`fits(file)`, asked at creation
and at import), and in play the markers, statuses and deployed units a command brings in
(`declared_check(file)`, one of the ruleset's `checks`). Pure: the file and the values only.

Each refusal names its rule and the unit: `core-unit-kinds` (a kind the file does not
declare), `core-attributes` (an attribute missing, of the wrong type, out of its bounds,
not one of its choices, or not declared for its kind), `core-markers` (a marker kind the
file does not declare, or more than its `most`), `core-statuses` (a status the file does
not declare), and the end's option rule (`end.turns_option` missing or out of 1 to
`OPTION_TURNS_MOST`). (ours) A file that declares no unit kinds, no marker kinds or no
statuses leaves that part free, as one that declares no tracks leaves `set_track` free;
a unit's own numbers (`qv`, `cv`, `figures`, ...) are checked only where the file declares
them as attributes of the unit's kind."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from domain.commands import Command, DeployUnit, PlaceMarker, SetStatus
from domain.errors import InvalidAction
from domain.rulefiles.model import RulesetFile
from domain.rulefiles.model_end import OPTION_TURNS_MOST
from domain.rulefiles.model_pieces import (
    ChoiceAttribute,
    FlagAttribute,
    IntegerAttribute,
    TextAttribute,
    UnitKind,
)
from domain.rulefiles.view import UNIT_NUMBERS
from domain.state import MatchState, Unit

Fits = Callable[[Mapping[str, Any], tuple[Unit, ...]], None]
FLAGS = (0, 1, "true", "false")  # (ours) how a unit gives a flag: 1 or "true" sets it


def fits(file: RulesetFile) -> Fits:
    """The check a match's options and units must pass to be created under `file`."""
    def check(options: Mapping[str, Any], units: tuple[Unit, ...]) -> None:
        check_turns_option(file, options)
        for unit in units:
            check_unit(file, unit)
    return check


def check_turns_option(file: RulesetFile, options: Mapping[str, Any]) -> None:
    """A match of a game whose end reads its turn limit from an option is refused without
    it, or with one that is no whole number from 1 to OPTION_TURNS_MOST (BG-1's `rounds`), as
    the Python rulesets refuse it."""
    end = file.end
    if end is None or end.turns_option is None:
        return
    name, rule = end.turns_option, end.option_rule or end.rule
    value = options.get(name)
    if value is None and not end.option_required:
        return
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= OPTION_TURNS_MOST:
        raise InvalidAction(f"{rule}: option '{name}' (the scenario's number of "
                            f"{end.turn_word}s, 1 to {OPTION_TURNS_MOST}) is required", rule=rule)


def check_unit(file: RulesetFile, unit: Unit) -> None:
    """Refuse a unit whose kind, attributes, markers or statuses the file does not declare."""
    who = f"unit '{unit.id}' ({unit.name})"
    if file.unit_kinds:
        kind = file.unit_kinds.get(unit.kind)
        if kind is None:
            raise InvalidAction(f"core-unit-kinds: {who} is of kind '{unit.kind}', which {file.title} does not "
                                "declare", rule="core-unit-kinds", allowed=sorted(file.unit_kinds))
        _check_attributes(kind, unit, who)
    check_markers(file, unit.markers, who)
    check_statuses(file, unit.status, who)


def check_markers(file: RulesetFile, markers: Mapping[str, int], who: str) -> None:
    if not file.marker_kinds:
        return
    for name, count in sorted(markers.items()):
        declared = file.marker_kinds.get(name)
        if declared is None:
            raise InvalidAction(f"core-markers: {who}: {file.title} declares no marker kind '{name}'",
                                rule="core-markers", allowed=sorted(file.marker_kinds))
        if declared.most is not None and count > declared.most:
            raise InvalidAction(f"core-markers: {who} carries at most {declared.most} '{name}', "
                                f"not {count}", rule="core-markers")


def check_statuses(file: RulesetFile, statuses: Iterable[str], who: str) -> None:
    if not file.statuses:
        return
    for name in sorted(statuses):
        if name not in file.statuses:
            raise InvalidAction(f"core-statuses: {who}: {file.title} declares no status '{name}'",
                                rule="core-statuses", allowed=sorted(file.statuses))


def _check_attributes(kind: UnitKind, unit: Unit, who: str) -> None:
    for name in sorted(unit.extra):
        if name not in kind.attributes:
            raise InvalidAction(f"core-attributes: {who}: a {unit.kind} has no attribute '{name}'",
                                rule="core-attributes", allowed=sorted(kind.attributes))
    for name, attribute in kind.attributes.items():
        value = unit.extra.get(name)
        if value is None and name in UNIT_NUMBERS:
            value = getattr(unit, name)
        if value is None:
            if not isinstance(attribute, FlagAttribute) and attribute.required:
                raise InvalidAction(f"core-attributes: {who}: a {unit.kind} must give its '{name}'",
                                    rule="core-attributes")
            continue
        wrong = _wrong(attribute, value)
        if wrong:
            raise InvalidAction(f"core-attributes: {who}: its '{name}' is {value!r}; it takes {wrong}",
                                rule="core-attributes")


def _wrong(attribute: Any, value: object) -> str | None:
    """What the attribute takes, if `value` is not that; None if it is."""
    if isinstance(attribute, IntegerAttribute):
        ok = isinstance(value, int) and attribute.minimum <= value <= attribute.maximum
        return None if ok else (f"a whole number from {attribute.minimum} to "
                                f"{attribute.maximum}")
    if isinstance(attribute, ChoiceAttribute):
        return None if value in attribute.values else "one of: " + ", ".join(attribute.values)
    if isinstance(attribute, TextAttribute):
        ok = isinstance(value, str) and len(value) <= attribute.max_length
        return None if ok else f"a text of at most {attribute.max_length} characters"
    assert isinstance(attribute, FlagAttribute)
    ok = isinstance(value, (int, str)) and value in FLAGS
    return None if ok else "a flag: 1 or \"true\", 0 or \"false\""


def declared_check(file: RulesetFile) -> Callable[[Command, MatchState, str], None] | None:
    """The in-play refusal of a marker kind or status the file does not declare, or a
    deployed unit that does not fit it; None if the file declares none of them."""
    if not (file.unit_kinds or file.marker_kinds or file.statuses):
        return None

    def check(command: Command, state: MatchState, actor: str) -> None:
        if isinstance(command, PlaceMarker) and command.unit_id is not None:
            held = state.units.get(command.unit_id)
            count = command.count + (held.markers.get(command.kind, 0) if held else 0)
            check_markers(file, {command.kind: count}, f"unit '{command.unit_id}'")
        elif isinstance(command, SetStatus):
            check_statuses(file, command.set, f"unit '{command.unit_id}'")
        elif isinstance(command, DeployUnit):
            check_unit(file, command.unit.as_unit(command.unit.id or "(new)"))
    return check
