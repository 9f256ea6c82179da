"""Players' words in the log's sentences and refusals (issue 39): a hex the scenario names
said with its name ("1405 (Caen)") wherever a hex is said, cards by their titles,
battlegroups by the scenario's names; and the scan every browser screen passes
(`tests.players_words.screen_wrong`) finds what a player must never read."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import uuid4

from domain import events as ev
from domain.places import hex_label, with_hex_names
from domain.refusal_words import in_words
from domain.state import MatchState, Position, Side, TurnMarker, Unit
from projections.sentences import Names, Narrator
from tests.players_words import event_types, screen_wrong

MATCH = uuid4()
T0 = datetime(2026, 1, 1, tzinfo=UTC)
OPTIONS = {"city_names": {"1405": "Caen", "1610": "Bayeux"},
           "card_names": {"n-ambush": "Ambush", "n-barrage": "Barrage"},
           "battlegroup_names": {"n-1": "Hale's battlegroup"}}
SIDES = (Side(id="north", name="Northern Column"), Side(id="allied", name="Second Army"))
TANK = Unit(id="t1", side="allied", name="7th Armoured", position=Position(hex="1404"))


def make(cls: type[ev.Event], version: int, **fields: Any) -> ev.Event:
    return cls(originator_id=MATCH, originator_version=version, timestamp=T0, actor="allied",
               command_id=f"c{version}", turn=1, **fields)


def narrator() -> Narrator:
    return Narrator(Names(sides={s.id: s.name for s in SIDES}, units={TANK.id: TANK.name},
                          options=OPTIONS), viewer="referee")


def test_a_named_hex_is_said_with_its_name_and_only_a_named_one() -> None:
    assert hex_label("1405", OPTIONS) == "1405 (Caen)"
    assert hex_label("1406", OPTIONS) == "1406"
    assert with_hex_names("NO-2 combat at 1405: 2:1", OPTIONS) == "NO-2 combat at 1405 (Caen): 2:1"
    # said once, not twice; a number inside a longer one stays
    assert with_hex_names("at 1405 (Caen) and 14051", OPTIONS) == "at 1405 (Caen) and 14051"


def test_the_log_says_hexes_with_their_names() -> None:
    said = narrator()
    moved = make(ev.UnitMoved, 2, unit_id="t1", origin=Position(hex="1404"),
                 to=Position(hex="1405"))
    assert said.sentence(moved) == "Second Army moved 7th Armoured from hex 1404 to hex 1405 (Caen)."
    rolled = make(ev.DiceRolled, 3, notation="2d6", dice=(3, 4), modifier=0, total=7,
                  purpose="NO-2 combat at 1405: 2:1, modifiers +0", source="server",
                  unit_ids=("t1",))
    assert "combat at 1405 (Caen)" in said.sentence(rolled), said.sentence(rolled)
    placed = make(ev.MarkerPlaced, 4, kind="smoke", count=1, location="1610")
    assert "1610 (Bayeux)" in said.sentence(placed), said.sentence(placed)


def test_cards_and_battlegroups_are_said_by_the_scenarios_names() -> None:
    said = narrator()
    drawn = make(ev.CardsDrawn, 2, side="north", cards=("n-ambush", "n-barrage"), count=2)
    assert said.sentence(drawn) == "Northern Column drew 2 cards: Ambush and Barrage."
    played = make(ev.CardPlayed, 3, side="north", card="n-ambush")
    assert said.sentence(played) == "Northern Column played Ambush."
    group = make(ev.UnitsActivated, 4, side="north", unit_ids=("t1",), group="n-1")
    assert said.sentence(group) == "Northern Column activated Hale's battlegroup: 7th Armoured."


def test_a_refusal_says_a_named_hex_with_its_name() -> None:
    state = MatchState(ruleset="normandy", ruleset_version=1, scenario="x",
                       sides=SIDES, units={TANK.id: TANK}, options=OPTIONS,
                       turn=TurnMarker(turn=1, step="a"))
    assert in_words("t1 may not enter 1405", state) == "7th Armoured may not enter 1405 (Caen)"


def test_the_screen_scan_finds_what_a_player_must_never_read() -> None:
    named = {"n-ambush": "Ambush", "north": "Northern Column", "1405": "1405 (Caen)",
             "allied": "Second Army"}
    events = event_types()
    bad = screen_wrong([
        "Northern Column drew 1 card: n-ambush.",  # a card's id
        "Control of Caen: north",  # a side's id
        "combat at 1405: 2:1",  # a named hex without its name
        "MatchCreated",  # an event type
        "Hold the Towns v2",  # a version
        "could not be sent: ConnectError: [SSL: CERTIFICATE_VERIFY_FAILED]",  # exception text
    ], named, events)
    assert len(bad) == 6, bad
    assert screen_wrong([
        "Northern Column drew 1 card: Ambush.", "combat at 1405 (Caen): 2:1",
        "Player north joined as Northern Column.",  # a name the player typed
        "North wind", "the receiver's certificate is not valid",
        "A code is on its way to north@example.org: type it below to confirm.",
    ], named, events, typed=("Player north",)) == []


def test_a_list_of_scores_is_said_in_words() -> None:
    said = narrator()
    result = make(ev.ResultRecorded, 2, of="WC-6 activation of t1 (wing 1): dice against the QV",
                  result="2 of 3 pass (after leadership: [1, 4, 4])", failed=False)
    sentence = said.sentence(result)
    assert "(after leadership: 1, 4 and 4)" in sentence and "[" not in sentence, sentence


def test_the_report_names_the_game_by_its_title_without_a_version() -> None:
    from projections import report

    created = make(ev.MatchCreated, 1, ruleset="battlegroup", ruleset_version=2,
                   scenario="Crossroads", sides=SIDES, dice_commitment="0" * 64,
                   dice_seed="00", units=(TANK,), options=OPTIONS)
    made = report.build([created])
    assert made.ruleset == "Battlegroup"
    text = report.markdown(made)
    assert "- Game: Battlegroup" in text and "battlegroup v2" not in text, text


def test_a_tracks_values_that_are_sides_are_offered_by_the_sides_names() -> None:
    """Hold the Towns' "Control of Kell" offers North and South, not "north" (issue 39)."""
    from domain.legal.records import _values

    state = MatchState(ruleset="hold-the-towns", ruleset_version=1, scenario="x",
                       sides=SIDES, options=OPTIONS, turn=TurnMarker(turn=1, step="a"))
    [given, *_] = _values(["none", "north", "allied"], None, state)
    assert [v.label for v in given.values or ()] == ["none", "Northern Column", "Second Army"]
