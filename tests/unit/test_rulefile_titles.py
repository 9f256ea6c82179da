"""A ruleset file's titles in every sentence and button of its game (issue 38): its
actions' and rolls' titles on the legal actions, its marker kinds', statuses' and tracks'
titles in the log's sentences (and so in the undo's words); over Hold the Towns and a test
file."""

from __future__ import annotations

import json
from typing import Any
from uuid import uuid4

from api.scenarios import HERE
from domain import commands as cmd
from domain import events as ev
from domain.commands import CreateMatch
from domain.decide import decide
from domain.dice import SeededDice, commitment
from domain.evolve import evolve
from domain.history import first_frame
from domain.legal import legal_actions
from domain.legal.words import title
from domain.rulefiles.compile import compile_file
from domain.rulefiles.identity import file_hash
from domain.rulesets import registry
from domain.state import MatchState, Side
from projections.rulefile_load import BUILT_IN, check_file, check_text
from projections.sentences import said
from projections.undo_words import taken_back
from tests.unit.differential import T0
from tests.unit.legal_play import Context

CLUB = """\
format_version: 1
id: raid
title: Raid
sides: {count: 2}
unit_kinds: {squad: {}}
marker_kinds: {ap: {title: Action points}}
statuses: {shaken: {title: Shaken by fire}}
tracks: {drawn: {title: Card drawn, values: [first, second]}}
actions:
  activate_unit: {title: Join the attack, rule: RA-2}
  place_marker: {title: Spend action points, rule: RA-3}
  set_status: {}
  set_track: {}
sequence:
  - step: raid
    acting: any
"""
SQUADS = [{"id": "r1", "side": "red", "name": "Red 1", "kind": "squad"},
          {"id": "b1", "side": "blue", "name": "Blue 1", "kind": "squad"}]


def _match(data: Any, body: dict[str, Any]) -> tuple[MatchState, list[ev.Event]]:
    """A match created under the file `data` (registered by its hash), and its log."""
    content_hash = file_hash(data)
    report = check_text(json.dumps(data), "file.json")
    assert report.ruleset is not None, report.lines()
    registry.register(content_hash, compile_file(report.ruleset))
    doc = CreateMatch.model_validate(body)
    created = ev.MatchCreated(
        originator_id=uuid4(), originator_version=1, timestamp=T0, actor="referee",
        command_id="create", turn=1, ruleset=doc.ruleset, ruleset_version=1,
        ruleset_hash=content_hash, scenario=doc.scenario,
        sides=tuple(Side(id=s.id, name=s.name) for s in doc.sides), casual=False,
        options=doc.options, dice_commitment=commitment(b"s"), dice_seed=b"s".hex(),
        units=tuple(u.to_unit() for u in doc.units))
    return first_frame(created).state, [created]


def _act(state: MatchState, log: list[ev.Event], seat: str, command: cmd.Command
         ) -> tuple[MatchState, list[ev.Event]]:
    ruleset = registry.registered(state.ruleset_hash or "")
    assert ruleset is not None
    events = decide(command, state, ruleset, Context(
        match_id=log[0].originator_id, version=len(log), actor=seat, command_id=f"c{len(log)}",
        now=T0, dice=SeededDice(b"s"), roll_index=0))
    for event in events:
        state = evolve(state, event)
    return state, [*log, *events]


def _at(state: MatchState, step: str) -> MatchState:
    return state.model_copy(update={"turn": state.turn.model_copy(update={"step": step})})


def _titles(state: MatchState, seat: str) -> dict[str, str]:
    ruleset = registry.registered(state.ruleset_hash or "")
    assert ruleset is not None
    return {a.id: a.title for a in legal_actions(state, ruleset, seat).actions}


def test_hold_the_towns_says_its_own_titles() -> None:
    data = check_file(BUILT_IN / "hold-the-towns.yaml").data
    body = json.loads((HERE / "files" / "hold-the-towns-demo.json").read_text())
    state, log = _match(data, body)
    state = _at(state, "player_turn/combat")
    ruleset = registry.registered(state.ruleset_hash or "")
    assert ruleset is not None
    # (naming is offered only where an attack can follow: here its title, as its button says)
    assert title("place_marker", state, ruleset)[0] == "Name the defender (HT-5)"
    # a roll the service has no words for: the file's title
    assert title("rule_roll", state, ruleset, "attack") == ("Attack (HT-5)", "HT-5")
    # (the referee's hand: no North unit stands next to one to attack it at this state)
    state, log = _act(state, log, "referee", cmd.PlaceMarker(kind="defender", count=1,
                                                             unit_id="s-fusiliers-2"))
    state = _at(state, "end_of_turn")
    state, log = _act(state, log, "referee", cmd.SetTrack(name="control.0203",
                                                          value="north"))
    placed, town = log[-2], log[-1]
    words = said(log)
    assert words[placed.version] == ("Referee placed 1 marker on 2nd Fusiliers: "
                                     "Named as the defender.")
    assert words[town.version] == "Referee set Control of Kell to North."
    combat = _at(state, "player_turn/combat")
    assert title("remove_marker", combat, ruleset)[0] == "Take a marker off (HT-6)"
    assert _titles(combat, "north")["move_unit"] == "Move (HT-4)"  # not "Move a unit"


def test_a_club_files_titles_in_its_sentences_and_buttons() -> None:
    data = check_text(CLUB, "raid.yaml").data
    state, log = _match(data, {"ruleset": "raid", "scenario": "Night raid",
                               "sides": [{"id": "red", "name": "Red"},
                                         {"id": "blue", "name": "Blue"}],
                               "units": SQUADS})
    buttons = _titles(state, "red")
    assert buttons["activate_unit"] == "Join the attack (RA-2)"  # not "Activate a unit"
    assert buttons["place_marker"] == "Spend action points (RA-3)"
    state, log = _act(state, log, "red", cmd.PlaceMarker(kind="ap", count=6, unit_id="r1"))
    state, log = _act(state, log, "red", cmd.SetTrack(name="drawn", value="second"))
    state, log = _act(state, log, "red", cmd.SetStatus(unit_id="r1", set=["shaken"]))
    state, log = _act(state, log, "red", cmd.ActivateUnit(unit_id="r1"))
    back = taken_back(lambda after, upto: [e for e in log if after < e.version <= upto],
                      state, 1, len(log), "red")
    assert back.said[0] == "Red placed 6 markers on Red 1: Action points."  # the undo's words
    words = [said(log)[e.version] for e in log[1:]]
    assert words == ["Red placed 6 markers on Red 1: Action points.",
                     "Red set Card drawn to second.",
                     "Red marked Red 1 shaken by fire.",
                     "Red activated Red 1."]
