"""A file's `initiative:` (domain/rulefiles/initiative.py) rolls the initiative as the Python
rulesets do: Battlegroup's (BG-2..BG-4: d6 + the best CV among the side's Commanders on the
table, a lone natural 6 first, ties re-rolled among the tied) and Wing Command's (WC-1: d6 +
the CO's LV, by totals, ties re-rolled), on every throw of the table dice and on server dice
from many seeds, with Commanders of several values on and off the table: the same events."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from domain.decide import decide
from domain.errors import DomainError
from domain.evolve import evolve
from domain.rulefiles import check
from domain.rulefiles.compile import compile_file
from domain.rulesets import Ruleset
from domain.rulesets.battlegroup import battlegroup
from domain.rulesets.wing_command import wing_command
from domain.state import Position
from tests.unit.legal_play import ACTIONS, Match

BG_BONUS = ("highest(units.filter(u, u.side == side && u.kind == 'commander' && u.box == '')"
            ".map(u, u.attributes.cv), 0)")
WC_BONUS = "highest(units.filter(u, u.side == side && u.kind == 'co').map(u, u.attributes.lv), 0)"


def _file(kind: str, attribute: str, initiative: dict[str, Any], nested: bool) -> Ruleset:
    step = {"step": "initiative", "shared": True, "allows": ["roll_initiative"]}
    data = {
        "format_version": 1, "id": "initiative-test", "title": "Initiative test",
        "unit_kinds": {kind: {"attributes": {attribute: {"type": "integer", "minimum": -20,
                                                         "maximum": 20}}}},
        "actions": {"roll_initiative": {}}, "initiative": initiative,
        "sequence": [{"phase": "initiation", "steps": [step]} if nested else step]}
    checked = check(data)
    assert checked.ok and checked.file is not None, checked.problems
    return compile_file(checked.file)


BG_FILE = _file("commander", "cv", {"rule": "BG-2", "reroll_rule": "BG-4", "bonus": BG_BONUS,
                                    "lone_natural": 6}, nested=True)
WC_FILE = _file("co", "lv", {"rule": "WC-1", "bonus": WC_BONUS}, nested=False)


def _rolled(match: Match, ruleset: Ruleset, seat: str, body: dict[str, Any]
            ) -> tuple[str, Any]:
    """What deciding `body` on `ruleset` gives: the events' types and payloads, or the
    refusal's kind and rule."""
    try:
        events = decide(ACTIONS.validate_python(body), match.state, ruleset, match.context(seat))
    except DomainError as error:
        return "refused", (type(error).__name__, error.rule)
    return "events", [(type(e).__name__, e.model_dump(mode="json")) for e in events]


def _python(match: Match) -> Ruleset:
    """The Python ruleset of the match's game (the reference, whichever the match plays)."""
    state = match.state
    return (battlegroup if state.ruleset == "battlegroup" else wing_command)(state.options)


def _settle(match: Match, file: Ruleset, throws: list[dict[str, int]]) -> int:
    """Roll `throws` in turn (table dice; each tie re-rolled by the next), each on both
    rulesets, asserting the same outcome; the number of rolls made."""
    made = 0
    for results in throws:
        if match.state.done("initiative"):
            break
        groups = match.state.initiative_groups or (match.state.side_ids(),)
        rolling = [s for g in groups if len(g) > 1 for s in g]
        body = {"type": "roll_initiative", "source": "table",
                "results": {s: results[s] for s in rolling}}
        python = _rolled(match, _python(match), "referee", body)
        assert _rolled(match, file, "referee", body) == python
        assert python[0] == "events"
        for event in match.decide("referee", body):
            match.state = evolve(match.state, event)
        made += 1
    return made


def _with(match: Match, changes: dict[str, dict[str, Any]]) -> None:
    units = dict(match.state.units)
    for unit_id, update in changes.items():
        units[unit_id] = units[unit_id].model_copy(update=update)
    match.state = match.state.model_copy(update={"units": units})


# Battlegroup's demo: north's CV 2 on the table, south's CV 1 in a transport (not on the
# table for the initiative), west without a Commander; then variations
BG_BOARDS = [
    {},
    {"s-hq": {"position": None}},  # south's Commander steps onto the table
    {"n-hq": {"cv": 5}, "s-hq": {"position": Position(x=3, y=4), "cv": 5}},
    {"n-hq": {"removed": "destroyed"}},
    {"n-hq": {"cv": -2}},
]


@pytest.mark.parametrize("board", BG_BOARDS, ids=range(len(BG_BOARDS)))
def test_battlegroup_initiative_from_the_file_is_the_pythons_on_every_throw(
        board: dict[str, dict[str, Any]]) -> None:
    rerolls = 0
    for faces in itertools.product(range(1, 7), repeat=3):
        match = Match("battlegroup-demo")
        _with(match, board)
        first = dict(zip(match.state.side_ids(), faces, strict=True))
        # a tie is re-rolled with the faces turned round, then with every die a 6 less one
        throws = [first, {s: 7 - f for s, f in first.items()},
                  {s: i + 4 for i, s in enumerate(match.state.side_ids())}]
        rerolls += _settle(match, BG_FILE, throws) - 1
    assert rerolls > 0  # ties were re-rolled, and agreed on


@pytest.mark.parametrize("board", [{}, {"f-co": {"lv": 4}}, {"f-co": {"removed": "killed"}}],
                         ids=range(3))
def test_wing_command_initiative_from_the_file_is_the_pythons_on_every_throw(
        board: dict[str, dict[str, Any]]) -> None:
    for first in itertools.product(range(1, 7), repeat=2):
        match = Match("wing-command-demo")
        _with(match, board)
        sides = match.state.side_ids()
        throws = [dict(zip(sides, first, strict=True)), dict(zip(sides, (6, 1), strict=True))]
        _settle(match, WC_FILE, throws)


@pytest.mark.parametrize(("demo", "file"), [("battlegroup-demo", BG_FILE),
                                            ("wing-command-demo", WC_FILE)])
def test_server_dice_from_many_seeds_settle_the_same_order(demo: str, file: Ruleset) -> None:
    for seed in range(200):
        match = Match(demo, seed=f"initiative-{seed}".encode())
        for _ in range(6):  # until settled: each tie re-rolled on the server's next dice
            body = {"type": "roll_initiative", "source": "server"}
            python = _rolled(match, _python(match), "referee", body)
            assert _rolled(match, file, "referee", body) == python
            if python[0] != "events":
                break
            match.act("referee", body)
        assert match.state.done("initiative")


def test_table_dice_for_the_wrong_sides_are_refused_alike() -> None:
    match = Match("battlegroup-demo")
    body = {"type": "roll_initiative", "source": "table", "results": {"north": 3}}
    assert _rolled(match, BG_FILE, "referee", body) == _rolled(
        match, _python(match), "referee", body) == ("refused", ("InvalidAction", "BG-4"))


def test_a_bonus_is_checked_as_every_expression_is() -> None:
    base = {"format_version": 1, "id": "x", "title": "X", "actions": {"roll_initiative": {}},
            "sequence": [{"step": "a", "allows": ["roll_initiative"]}]}
    said = {bonus: [p.check for p in check({**base, "initiative": {"rule": "X-1",
                                                                    "bonus": bonus}}).problems]
            for bonus in ("highest(units.map(u, u.name), 0)", "highest([1, 2], 'none')",
                          "highest([1, 2])", "units.size() > 1", "size(sides) + nobody")}
    assert said == {"highest(units.map(u, u.name), 0)": ["expression-type"],
                    "highest([1, 2], 'none')": ["expression-type"],
                    "highest([1, 2])": ["unknown-function"],
                    "units.size() > 1": ["expression-type"],
                    "size(sides) + nobody": ["undeclared-name"]}
    undeclared = check({**base, "actions": {}, "sequence": [{"step": "a"}],
                        "initiative": {"rule": "X-1"}})
    assert [(p.check, p.path) for p in undeclared.problems] == [
        ("undeclared-action", ("initiative",))]
