"""Undo and rulings in the players' words through the API (issue 26): `GET .../undo` names
the action the seat's next undo takes back, whose it is and whether it asks first; a pending
request names what it takes back; a reissued link neither blocks a seat's own undo nor is
taken back; the disputes list says the disputed event and the ruling in words."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from rulesets_helpers import Played

MATCH = {"ruleset": "freeform", "scenario": "Hill 112",
         "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}],
         "units": [{"id": "r1", "side": "red", "name": "1st Squad", "figures": 8,
                    "position": {"x": 1, "y": 2}},
                   {"id": "b2", "side": "blue", "name": "2nd Squad", "figures": 8,
                    "position": {"x": 6, "y": 2}}]}


def undo(m: Played, seat: str) -> list[dict[str, Any]]:
    r = m.client.post(f"/api/matches/{m.match}/undo", json={"actions": 1}, headers=m.auth(seat))
    assert r.status_code == 201, r.text
    return list(r.json()["events"])


def test_the_undo_names_the_action_whose_it_is_and_whether_it_asks(client: TestClient) -> None:
    m = Played(client, MATCH)
    m.act("red", type="move_unit", unit_id="r1", to={"x": 3, "y": 2})
    mine = m.get("/undo", "red")["last"]
    assert mine["by"] == "red" and mine["immediate"] is True
    assert mine["said"] == ["Red moved 1st Squad from 1, 2 to 3, 2."]
    m.act("blue", type="move_unit", unit_id="b2", to={"x": 5, "y": 2})
    theirs = m.get("/undo", "red")["last"]
    assert theirs["by"] == "blue" and theirs["immediate"] is False
    assert theirs["said"] == ["Blue moved 2nd Squad from 6, 2 to 5, 2."]
    assert m.get("/undo", "referee")["last"]["immediate"] is True
    [asked] = undo(m, "red")
    assert asked["type"] == "UndoRequested"
    pending = m.get("/undo", "blue")["pending"]
    assert pending["by"] == "red"
    assert pending["takes_back"]["said"] == ["Blue moved 2nd Squad from 6, 2 to 5, 2."]


def test_a_reissued_link_does_not_stop_a_seats_own_undo(client: TestClient) -> None:
    """The finding: after the referee reissued red's link, red's own undo answered 201 with
    a request for blue's consent instead of taking red's move back."""
    m = Played(client, MATCH)
    m.act("red", type="move_unit", unit_id="r1", to={"x": 3, "y": 2})
    made = client.post(f"/api/matches/{m.match}/tokens", json={"seat": "red"},
                       headers=m.auth("referee"))
    assert made.status_code == 201, made.text
    m.tokens["red"] = made.json()["token"]
    assert m.get("/undo", "red")["last"]["immediate"] is True
    [undone] = undo(m, "red")
    assert undone["type"] == "ActionsUndone"
    assert (m.unit("r1")["position"]["x"], m.unit("r1")["position"]["y"]) == (1, 2)
    assert m.get("/undo", "red")["last"] is None  # nothing of red's left; the link stays
    assert m.get("", "red")["viewer"] == "red"


def test_the_disputes_say_the_disputed_roll_and_the_ruling_in_words(client: TestClient) -> None:
    m = Played(client, MATCH)
    [rolled] = m.act("blue", type="roll_dice", notation="2d6", purpose="fire at 1st Squad")
    [opened] = m.act("red", type="open_dispute", about_version=rolled["version"],
                     text="the dice fell off the table")
    r = client.post(f"/api/matches/{m.match}/disputes/{opened['version']}/ruling",
                    json={"ruling": "they fell off the table", "order": "reroll"},
                    headers=m.auth("referee"))
    assert r.status_code == 201, r.text
    [listed] = m.get("/disputes", "red")
    assert listed["about"]["type"] == "DiceRolled"
    assert listed["about"]["said"].startswith("Blue rolled ")
    assert listed["dispute"]["said"].startswith("Red disputed: Blue rolled ")
    assert "Roll again: Blue rolled " in listed["ruling"]["said"]
    assert "version" not in listed["ruling"]["said"]
