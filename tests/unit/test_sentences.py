"""Every event said in the players' words (`projections.sentences`): each event class has its
sentence (none falls back to JSON or to its class name), names stand for ids, and the
sentences the issue asked for: initiative with its re-roll and the order, dice tested one by
one counted as passes, undo and redo saying what they took back, a unit split off named by
its own name from then on, another side's hand never read."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from random import Random
from typing import Any
from uuid import uuid4

import pytest

from domain import events as ev
from domain.errors import DomainError
from domain.legal import legal_actions
from domain.state import Position, Side, TurnMarker, Unit
from projections.sentences import Names, Narrator, said
from tests.unit.legal_play import DEMOS, Match, offered_bodies

MATCH = uuid4()
T0 = datetime(2026, 1, 1, tzinfo=UTC)
SIDES = (Side(id="north", name="Northern Column"), Side(id="south", name="Southern Column"),
         Side(id="west", name="Western Column"))
SQ1 = Unit(id="sq1", side="north", name="1st Squad", figures=10,
           position=Position(x=1, y=1))
MG1 = Unit(id="mg1", side="south", name="MG team", figures=3, position=Position(x=9, y=9))
IDS = re.compile(r"\b(north|south|west|sq1|sq2|mg1|hq1)\b")
STILL = ("end_match", "concede", "reopen_match", "add_note", "open_dispute")


def make(cls: type[ev.Event], version: int, actor: str = "north", turn: int = 1,
         **fields: Any) -> ev.Event:
    return cls(originator_id=MATCH, originator_version=version, timestamp=T0, actor=actor,
               command_id=f"c{version}", turn=turn, **fields)


def created() -> ev.Event:
    return make(ev.MatchCreated, 1, actor="referee", ruleset="battlegroup", ruleset_version=1,
                scenario="Crossroads", sides=SIDES, dice_commitment="0" * 64,
                dice_seed="00", units=(SQ1, MG1), decks={"north": ("Ambush", "Barrage")})


MARKER = TurnMarker(turn=2, step="initiation/initiative", active_side="south")
EXAMPLES: dict[type[ev.Event], dict[str, Any]] = {  # every class, with realistic fields
    ev.SeatJoined: {"side": "north", "player": "Ann"},
    ev.SeatTokenIssued: {"seat": "join:south", "token_hash": "ab"},
    ev.SeatTokenRevoked: {"seat": "south", "token_hash": "ab"},
    ev.UnitDeployed: {"unit": Unit(id="hq1", side="south", name="Major Ortiz",
                                   position=Position(hex="0304"))},
    ev.UnitMoved: {"unit_id": "sq1", "origin": Position(x=1, y=1), "to": Position(x=3, y=4)},
    ev.UnitStatusChanged: {"unit_id": "sq1", "set": ("broken",), "cleared": ("pinned",)},
    ev.MarkerPlaced: {"kind": "suppression", "count": 2, "unit_id": "mg1"},
    ev.MarkerRemoved: {"kind": "smoke", "count": 1, "location": "0304"},
    ev.RollDeclared: {"notation": "2d6", "purpose": "sq1 fires at mg1", "unit_ids": ("sq1",),
                      "success": "total >= 7"},
    ev.DiceRolled: {"notation": "d6", "dice": (3,), "modifier": 0, "total": 3,
                    "purpose": "morale of sq1", "source": "server", "roll_index": 0},
    ev.UnitSplit: {"unit_id": "sq1", "new_unit": Unit(id="sq2", side="north",
                                                      name="2nd Squad", figures=4)},
    ev.UnitRallied: {"unit_id": "sq1", "cleared": ("broken",),
                     "markers_removed": {"suppression": 1}},
    ev.UnitRemoved: {"unit_id": "mg1", "reason": "destroyed"},
    ev.TrackSet: {"name": "weather", "value": "rain"},
    ev.VictoryPointsScored: {"side": "north", "points": 2, "reason": "the bridge"},
    ev.PhaseAdvanced: {"origin": "initiation/initiative", "marker": MARKER},
    ev.TurnAdvanced: {"marker": MARKER},
    ev.SideDone: {"side": "west", "step": "initiation/initiative"},
    ev.StandingPassStarted: {"side": "west"},
    ev.StandingPassEnded: {"side": "west", "why": "refused",
                           "reason": "'Initiative' is not over yet"},
    ev.NoteAdded: {"text": "watch the bridge", "about_version": 3},
    ev.ActionsUndone: {"to": 3, "resulting_turn": 1},
    ev.ActionsRedone: {"to": 3, "reverses": 4, "resulting_turn": 1},
    ev.MatchEnded: {"winner": "north", "reason": "held the crossroads"},
    ev.MatchEndProposed: {"winner": None, "reason": "out of time"},
    ev.MatchReopened: {"reason": "a rule was missed"},
    ev.UnitsActivated: {"side": "north", "unit_ids": ("sq1", "sq2"), "group": "sq1"},
    ev.InitiativeRolled: {"dice": {"north": 6, "south": 2}, "cv": {"north": 0, "south": 0},
                          "source": "server", "roll_index": 1,
                          "ranking": (("north",), ("south",))},
    ev.InitiativePassed: {"side": "north", "to": "south", "order": ("south", "north")},
    ev.CardsDrawn: {"side": "north", "cards": ("Ambush", "Barrage"), "count": 2},
    ev.CardsDiscarded: {"side": "north", "cards": ("Ambush",), "count": 1},
    ev.CardPlayed: {"side": "north", "card": "Barrage"},
    ev.DeckShuffled: {"side": "north", "order": ("Barrage", "Ambush"), "roll_index": 2},
    ev.DeckCut: {"side": "north", "by": "south", "at": 1},
    ev.ResultRecorded: {"of": "fire of sq1 at mg1", "result": "one figure lost"},
    ev.ReinforcementsAnnounced: {"side": "south", "unit_ids": ("mg1",), "entry": "the road"},
    ev.CombatDeclared: {"attackers": ("sq1",), "defenders": ("mg1",), "odds": "3:1",
                        "modifiers": {"terrain": -1}},
    ev.OperationDeclared: {"side": "north", "hqs": ("sq1",), "order": ("north", "south")},
    ev.StepLost: {"unit_id": "mg1", "steps": 1},
    ev.StepGained: {"unit_id": "mg1", "steps": 2},
    ev.DiceSeedRevealed: {"seed": "00", "dice_commitment": "0" * 64},
    ev.DiceCommitted: {"dice_commitment": "1" * 64, "dice_seed": "11"},
    ev.UndoRequested: {"to": 3, "resulting_turn": 1},
    ev.UndoAccepted: {"request": 4},
    ev.UndoDeclined: {"request": 4, "reason": "the dice are thrown"},
    ev.DisputeOpened: {"about_version": 3, "text": "that was out of range"},
    ev.DisputeRuled: {"dispute": 5, "ruling": "the move stands", "order": "undo", "to": 2},
    ev.ClockStarted: {"controls": {"north": {"total": 5400, "increment": 30, "per": "activation"},
                                   "south": {"total": 3600, "move_limit": 300}}},
    ev.ClockPaused: {"reason": "a phone call"},
    ev.ClockResumed: {},
    ev.ClockAdjusted: {"side": "south", "seconds": -90, "reason": "the board was knocked"},
    ev.FlagFell: {"side": "north"},
}


def test_the_clock_is_said_in_the_players_words() -> None:
    log = [created(), *(make(cls, v, actor="referee", **EXAMPLES[cls]) for v, cls in enumerate(
        (ev.ClockStarted, ev.ClockPaused, ev.ClockResumed, ev.ClockAdjusted, ev.FlagFell), 2))]
    out = said(log)
    assert out[2] == ("Referee started the clock: Northern Column 1:30:00 + 0:00:30 per "
                      "activation; Southern Column 1:00:00, at most 0:05:00 a move.")
    assert out[3] == "Referee paused the clock: “a phone call”"
    assert out[4] == "Referee restarted the clock."
    assert out[5] == "Referee took 0:01:30 from Southern Column on the clock: “the board was knocked”"
    stamp = log[-1].timestamp
    assert out[6] == (f"Northern Column's flag fell at {stamp:%H:%M:%S} UTC: its time ran out. "
                      "The referee rules on what it means.")


def test_every_event_class_has_an_example_and_a_sentence_of_its_own() -> None:
    classes = {cls for cls in ev.EVENT_TYPES.values() if cls is not ev.MatchCreated}
    assert classes == set(EXAMPLES), classes ^ set(EXAMPLES)
    for cls in ev.EVENT_TYPES.values():
        assert hasattr(Narrator, f"_say_{cls.__name__}"), cls.__name__


@pytest.mark.parametrize("cls", [ev.EVENT_TYPES[n] for n in sorted(ev.EVENT_TYPES) if n != "MatchCreated"],
                         ids=lambda c: getattr(c, "__name__", str(c)))
def test_each_event_is_one_sentence_in_names(cls: type[ev.Event]) -> None:
    log = [created(), make(ev.UnitSplit, 2, **EXAMPLES[ev.UnitSplit]),
           make(ev.UnitMoved, 3, **EXAMPLES[ev.UnitMoved]),
           make(ev.ActionsUndone, 4, **EXAMPLES[ev.ActionsUndone]),
           make(ev.DisputeOpened, 5, **EXAMPLES[ev.DisputeOpened]),
           make(cls, 6, **EXAMPLES[cls])]
    sentence = said(log, "north")[6]
    assert sentence and "{" not in sentence and "[" not in sentence, sentence
    assert not IDS.search(sentence), sentence
    assert cls.__name__ not in sentence and "an earlier event" not in sentence, sentence


def test_initiative_says_each_roll_the_re_roll_and_the_order() -> None:
    first = make(ev.InitiativeRolled, 2, turn=2, dice={"north": 6, "south": 4, "west": 4},
                 cv={"north": 0, "south": 0, "west": 0}, source="server", roll_index=0,
                 ranking=(("north",), ("south", "west")))
    again = make(ev.InitiativeRolled, 3, turn=2, dice={"south": 2, "west": 5},
                 cv={"south": 0, "west": 0}, source="server", roll_index=1,
                 ranking=(("north",), ("west",), ("south",)))
    out = said([created(), first, again])
    assert out[2] == ("Initiative: Northern Column 6, Southern Column 4, Western Column 4; "
                      "order: Northern Column, Southern Column and Western Column (tied: "
                      "roll again).")
    assert out[3] == ("Initiative: Northern Column 6, Western Column 4 (re-roll 5), Southern "
                      "Column 4 (re-roll 2); order: Northern Column, Western Column, "
                      "Southern Column.")
    # a page of the log that starts at the re-roll reads the first roll back
    narrator = Narrator(Names(), "", lambda a, u: [e for e in (created(), first, again)
                                                  if a < e.version <= u])
    narrator.see(again)
    assert narrator.sentence(again) == out[3]


def test_initiative_adds_what_the_game_adds() -> None:
    rolled = make(ev.InitiativeRolled, 2, dice={"north": 4, "south": 2}, cv={"north": 1,
                  "south": 2}, source="table", ranking=(("north",), ("south",)))
    assert said([created(), rolled])[2] == (
        "Initiative: Northern Column 4 + 1 = 5, Southern Column 2 + 2 = 4; order: "
        "Northern Column, Southern Column.")


def test_dice_tested_one_by_one_are_counted_as_passes() -> None:
    purpose = "WC-6 activation of sq1 (wing A): 3 dice against QV 4, 0 leadership"
    rolled = make(ev.DiceRolled, 2, notation="3d6", dice=(6, 4, 2), modifier=0, total=12,
                  purpose=purpose, source="server", roll_index=0, awaits="WC-6")
    sentence = said([created(), rolled])[2]
    assert sentence.startswith("Northern Column rolled 6, 4 and 2 for WC-6 activation of "
                               "1st Squad (wing A)")
    assert "2 of 3 dice passed (needed 4+)" in sentence and "12" not in sentence
    cubes = rolled.model_copy(update={"dice": (6, 4, 3), "purpose": purpose.replace(
        "0 leadership", "1 leadership")})
    assert "3 of 3 dice passed (needed 4+, with 1 leadership cube)" in said(
        [created(), cubes])[2]


def test_a_sum_is_said_with_its_modifier_and_the_declared_success() -> None:
    rolled = make(ev.DiceRolled, 2, notation="2d6+1", dice=(3, 5), modifier=1, total=9,
                  purpose="sq1 fires at mg1", source="table", success="total >= 8")
    assert said([created(), rolled])[2] == (
        "Northern Column threw 3 and 5 for 1st Squad fires at MG team (2d6+1): 9 (it "
        "succeeds when total >= 8).")


def test_undo_and_redo_say_how_much_and_back_to_before_what() -> None:
    log = [created(), make(ev.UnitMoved, 2, **EXAMPLES[ev.UnitMoved]),
           make(ev.SeatJoined, 3, actor="south", side="south", player="Bo"),
           make(ev.MarkerPlaced, 4, kind="suppression", count=1, unit_id="sq1"),
           make(ev.ActionsUndone, 5, actor="referee", to=1, resulting_turn=1,
                requested_by="north"),
           make(ev.ActionsRedone, 6, to=4, reverses=5, resulting_turn=1)]
    out = said(log)
    assert out[5] == ("Referee undid the last 2 events (back to before: Northern Column "
                      "moved 1st Squad from 1, 1 to 3, 4), as Northern Column asked.")
    assert out[6] == ("Northern Column redid what the undo took back: 2 events (back to "
                      "before: Northern Column moved 1st Squad from 1, 1 to 3, 4).")


def test_a_unit_split_off_is_named_from_then_on() -> None:
    split = make(ev.UnitSplit, 2, **EXAMPLES[ev.UnitSplit])
    moved = make(ev.UnitMoved, 3, unit_id="sq2", origin=None, to=Position(hex="0405"))
    out = said([created(), split, moved])
    assert out[2] == "Northern Column split 2nd Squad (4 figures) off 1st Squad."
    assert out[3] == "Northern Column moved 2nd Squad to hex 0405."


def test_another_sides_cards_are_never_read() -> None:
    drawn = make(ev.CardsDrawn, 2, **EXAMPLES[ev.CardsDrawn])
    assert said([created(), drawn], "south")[2] == "Northern Column drew 2 cards."
    assert said([created(), drawn], "north")[2] == "Northern Column drew 2 cards: Ambush and Barrage."
    note = make(ev.NoteAdded, 3, text="flank left", private=True)
    assert said([created(), drawn, note], "south")[3] == "Northern Column wrote a private note."


def walk(name: str, steps: int = 40, seed: int = 7) -> tuple[Match, list[ev.Event]]:
    """Random legal play of a demo through decide/evolve (notes, disputes, the end aside)."""
    m, rnd, log = Match(name), Random(seed), []
    for _ in range(steps):
        if m.state.outcome is not None:
            break
        options = [(seat, body) for seat in m.seats for _, body in offered_bodies(
            legal_actions(m.state, m.ruleset, seat, version=m.version))
            if body.get("type") not in STILL]
        advance = [o for o in options if o[1].get("type") == "advance"]
        seat, body = (rnd.choice(advance) if advance and rnd.random() < 0.25
                      else rnd.choice(options))
        try:
            log += m.act(seat, body)
        except DomainError:
            continue
    return m, log


@pytest.mark.parametrize("name", DEMOS)
def test_the_demos_played_are_said_in_the_games_words(name: str) -> None:
    m, log = walk(name)
    start = Match(name).state
    names = Names.of_state(start)
    ids = {*start.units, *start.side_ids(), *m.state.units}
    unit_names = sorted({u.name for u in m.state.units.values()}, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(i) for i in ids) + r")(?![\w-])")
    for version, sentence in said(log, "", names).items():
        rest = sentence
        for unit_name in unit_names:
            rest = rest.replace(unit_name, "")
        assert "{" not in rest and "[" not in rest.split(" (after leadership")[0], sentence
        assert not pattern.search(rest), (version, sentence)
        assert "/" not in rest.split(":")[0], sentence  # no step paths


def test_one_die_tested_against_the_qv_passes_or_fails() -> None:
    purpose = "WC-6 activation of sq1 (wing A): 1 dice against QV 3, 1 leadership"
    rolled = make(ev.DiceRolled, 2, notation="1d6", dice=(2,), modifier=0, total=2,
                  purpose=purpose, source="table", awaits="WC-6")
    assert said([created(), rolled])[2].startswith(
        "Northern Column threw 2 for WC-6 activation of 1st Squad (wing A): 1 dice against QV "
        "3, 1 leadership (1d6): passed (needed 3+, with 1 leadership cube)")


def test_a_players_own_words_keep_a_side_id_that_is_a_word() -> None:
    """Side ids are often words (`north`): said as names in the rules' texts, kept as typed
    in a player's; unit ids are said as names in both."""
    mine = make(ev.DiceRolled, 2, notation="d6", dice=(4,), modifier=0, total=4,
                purpose="sq1 crosses the north ford", source="server", roll_index=0)
    rules = mine.model_copy(update={"originator_version": 3,
                                    "purpose": "WC-3 unit morale of sq1 (north)"})
    ended = make(ev.MatchEnded, 4, actor="referee", rule="BG-8", winner="north",
                 reason="north has the most victory points")
    conceded = make(ev.MatchEnded, 5, actor="south", rule="core-end", winner="north",
                    reason="south conceded: the north bank is lost")
    out = said([created(), mine, rules, ended, conceded])
    assert "for 1st Squad crosses the north ford (d6)" in out[2]
    assert "for WC-3 unit morale of 1st Squad (Northern Column) (d6)" in out[3]
    assert out[4] == ("The match ended: won by Northern Column (Northern Column has the most "
                      "victory points).")
    assert out[5] == ("The match ended: won by Northern Column (Southern Column conceded: the "
                      "north bank is lost).")
