"""The outcome of one action (`projections.sentences_outcome`): the deciding roll said first
whatever came before it, the units out of play for one reason said together with a unit's
pieces folded in, a table throw's declaration left out, nothing said for an action no rule
decided; and the events of an action found back from its last one."""

from __future__ import annotations

from domain import events as ev
from domain.state import Position, Unit
from projections.sentences import Names, Narrator
from projections.sentences_outcome import command_events, outcome
from tests.unit.test_sentences import MATCH, SIDES, T0

LINE = [Unit(id=i, side="north", name=n, position=Position(x=4, y=12)) for i, n in (
    ("line", "4e Ligne"), ("line-1", "4e Ligne, 1st battalion"),
    ("line-2", "4e Ligne, 2nd battalion"))]


def at(cls: type[ev.Event], version: int, command: str = "morale", **fields: object) -> ev.Event:
    return cls(originator_id=MATCH, originator_version=version, timestamp=T0, actor="north",
               command_id=command, turn=1, **fields)


def narrator() -> Narrator:
    return Narrator(Names(sides={s.id: s.name for s in SIDES},
                          units={u.id: u.name for u in LINE}))


def morale_failed() -> list[ev.Event]:
    return [
        at(ev.MarkerRemoved, 5, kind="leadership", count=1, unit_id="line"),
        at(ev.RollDeclared, 6, notation="d6+1", purpose="morale of line"),
        at(ev.DiceRolled, 7, notation="d6+1", dice=(2,), modifier=1, total=3,
           purpose="morale of line: d6+1 against QV 4", source="table", declared=6),
        *(at(ev.UnitRemoved, 8 + i, unit_id=u.id, reason="casualty")
          for i, u in enumerate(reversed(LINE))),
        at(ev.MarkerPlaced, 11, kind="unit_casualty", count=1, location="4,12"),
    ]


def test_a_failed_morale_check_says_the_roll_first_then_the_unit_and_its_pieces_gone() -> None:
    n = narrator()
    said = outcome(morale_failed(), n)
    assert said == (
        "Northern Column threw 2 for morale of 4e Ligne: d6+1 against QV 4: "
        "2 + 1 = 3, failed (needed 4+). Northern Column removed 1 leadership marker from 4e Ligne. "
        "Out of play (casualty): 4e Ligne and its 2 pieces. "
        "Northern Column placed 1 unit casualty marker at 4,12.")
    assert "declared" not in said  # the throw says the declaration


def test_an_action_no_rule_decided_has_no_outcome() -> None:
    moved = at(ev.UnitMoved, 5, unit_id="line", origin=None,
                  to=Position(x=5, y=12))
    assert outcome([moved], narrator()) == ""


def test_the_events_of_an_action_are_found_back_from_its_last() -> None:
    before = at(ev.UnitMoved, 4, command="move", unit_id="line", origin=None,
                  to=Position(x=5, y=12))
    events = [before, *morale_failed()]
    assert command_events(events, events[-1]) == events[1:]
    assert command_events(events, before) == [before]
