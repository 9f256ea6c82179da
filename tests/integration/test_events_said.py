"""`GET .../events` gives each event its sentence (`said`) in the players' words, as the
reader may see it: another side's hand and a private note stay hidden in the words too; side
and unit names stand for their ids (a unit split off is named by its own name), and an undo
says what it took back."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient
from rulesets_helpers import Played

DECK = ["Ambush", "Barrage", "Counter-attack", "Dug in"]
MATCH = {"scenario": "Crossroads", "decks": {"north": DECK},
         "sides": [{"id": "north", "name": "Northern Column"},
                   {"id": "south", "name": "Southern Column"}],
         "units": [{"id": "sq1", "side": "north", "name": "1st Squad", "figures": 10,
                    "position": {"x": 1, "y": 1}},
                   {"id": "mg1", "side": "south", "name": "MG team", "figures": 3,
                    "position": {"x": 9, "y": 9}}]}
IDS = re.compile(r"\b(north|south|sq1|sq1b|mg1)\b")


def played(client: TestClient) -> Played:
    m = Played(client, MATCH)
    m.act("north", type="draw_cards", count=2)
    m.act("north", type="add_note", text="flank them on turn 3", private=True)
    m.act("north", type="roll_dice", notation="3d6", purpose="sq1 fires at mg1",
          success="total >= 10")
    m.act("north", type="split_unit", unit_id="sq1", new_unit_id="sq1b", figures=4)
    m.act("north", type="move_unit", unit_id="sq1b", to={"x": 4, "y": 2})
    return m


def said(m: Played, seat: str, **params: Any) -> list[dict[str, Any]]:
    events = m.get("/events", seat, limit=500, **params)["events"]
    assert all(isinstance(e["said"], str) and e["said"] for e in events)
    return list(events)


def by_type(events: list[dict[str, Any]], kind: str) -> list[str]:
    return [e["said"] for e in events if e["type"] == kind]


def test_each_event_is_said_in_names_not_ids(client: TestClient) -> None:
    m = played(client)
    events = said(m, "south")
    names = sorted((u["name"] for u in m.get("/board")["units"]), key=len, reverse=True)
    for e in events:
        words = e["said"]
        for name in names:  # a unit split off is named with a letter: "1st Squad B"
            words = words.replace(name, "")
        assert "{" not in words and not IDS.search(words), e
        assert {"version", "type", "actor", "turn", "timestamp"} <= set(e)  # kept as before
    split = by_type(events, "UnitSplit")[0]
    new_name = m.get("/board")["units"]
    assert "1st Squad" in split
    [moved] = by_type(events, "UnitMoved")
    named = next(u["name"] for u in new_name if u["id"] == "sq1b")
    assert moved == f"Northern Column moved {named} from 1, 1 to 4, 2."
    [rolled] = by_type(events, "DiceRolled")
    assert rolled.startswith("Northern Column rolled ") and "1st Squad fires at MG team (3d6)" in rolled
    assert rolled.endswith("(it succeeds when total >= 10).")
    assert by_type(events, "MatchCreated") == [
        "Referee set up Crossroads (Freeform): Northern Column against Southern Column."]


def test_another_sides_hand_and_private_note_stay_hidden_in_the_words(
        client: TestClient) -> None:
    m = played(client)
    drawn = {seat: by_type(said(m, seat), "CardsDrawn")[0]
             for seat in ("north", "south", "referee", "spectator")}
    cards = m.get("/events", "north", type="CardsDrawn")["events"][0]["cards"]
    for seat, sentence in drawn.items():
        sees = seat in ("north", "referee")
        assert all((card in sentence) == sees for card in cards), (seat, sentence)
        assert sentence.startswith("Northern Column drew 2 cards")
    for seat in ("south", "spectator"):
        [note] = by_type(said(m, seat), "NoteAdded")
        assert note == "Northern Column wrote a private note." and "flank" not in note
    [own] = by_type(said(m, "north"), "NoteAdded")
    assert "flank them on turn 3" in own


def test_an_undo_and_a_redo_say_what_they_took_back(client: TestClient) -> None:
    m = played(client)
    r = client.post(f"/api/matches/{m.match}/undo", json={}, headers=m.auth("north"))
    assert r.status_code in (200, 201), r.text
    [undone] = by_type(said(m, "south"), "ActionsUndone")
    assert undone == ("Northern Column undid the last event (back to before: Northern Column "
                      "moved 1st Squad B from 1, 1 to 4, 2).")
    r = client.post(f"/api/matches/{m.match}/redo", json={}, headers=m.auth("north"))
    assert r.status_code in (200, 201), r.text
    [redone] = by_type(said(m, "south"), "ActionsRedone")
    assert redone == ("Northern Column redid what the undo took back: one event (back to "
                      "before: Northern Column moved 1st Squad B from 1, 1 to 4, 2).")


def test_a_page_of_the_log_says_the_same_as_the_whole_log(client: TestClient) -> None:
    m = played(client)
    whole = {e["version"]: e["said"] for e in said(m, "referee")}
    page = said(m, "referee", after=m.version - 3)
    assert page and all(e["said"] == whole[e["version"]] for e in page)
