"""The trust review's findings on authority and numbers, each through HTTP on both stores:
a player ending the match as its winner, redoing another seat's undo, acting for the other
side; a number that bricked a match."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import orjson
import pytest
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic
from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario
from test_atomic_africa_api import squad, to_clean_up

from domain import events as ev
from domain.app import Matches

FREEFORM: dict[str, Any] = {
    "ruleset": "freeform", "scenario": "trust",
    "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}],
    "units": [squad("r1", "red", 10, "d6"), squad("b1", "blue", 10, "d6")],
}


def events_of(m: Played, seat: str = "referee") -> list[dict[str, Any]]:
    return list(m.get("/events", seat, limit=500)["events"])


def post(m: Played, path: str, seat: str, body: Any = None) -> Any:
    return m.client.post(f"/api/matches/{m.match}{path}", json=body, headers=m.auth(seat))


# ---- 1. a player ends the match as the winner -------------------------------------------

@pytest.mark.parametrize("demo", ["freeform", "atomic-africa-demo", "battlegroup-demo",
                                  "wing-command-demo", "extended-sequence-demo",
                                  "normandy-demo"])
def test_a_players_end_of_the_match_is_only_a_proposal_until_every_side_agrees(
    client: TestClient, demo: str
) -> None:
    m = Played(client, FREEFORM if demo == "freeform" else scenario(demo))
    red, blue = (s["id"] for s in m.body["sides"][:2])
    events = m.act(red, type="end_match", winner=red, reason="I win")
    assert [e["type"] for e in events] == ["MatchEndProposed"]
    match = m.get("")
    assert match["outcome"] is None
    assert not any(e["type"] == "DiceSeedRevealed" for e in events_of(m))
    m.refused(red, 422, "core-end", type="end_match", winner=red, reason="I win")  # again
    m.act(red, type="add_note", text="the match goes on")  # nothing is locked
    others = [s["id"] for s in m.body["sides"][2:]]
    for side in [blue, *others]:  # the last side to agree ends it
        events = m.act(side, type="end_match", winner=red, reason="I win")
    assert [e["type"] for e in events] == ["MatchEndProposed", "MatchEnded", "DiceSeedRevealed"]
    assert m.get("")["outcome"] == {"winner": red, "reason": "I win"}


def test_a_side_concedes_and_the_other_wins(client: TestClient) -> None:
    m = Played(client, FREEFORM)
    m.refused("referee", 403, "core-end", type="concede")
    events = m.act("blue", type="concede", reason="outflanked")
    assert [e["type"] for e in events] == ["MatchEnded", "DiceSeedRevealed"]
    assert m.get("")["outcome"] == {"winner": "red", "reason": "blue conceded: outflanked"}


def test_the_referee_reopens_an_ended_match_and_then_undoes_the_end(client: TestClient) -> None:
    m = Played(client, FREEFORM)
    m.act("red", type="move_unit", unit_id="r1", to={"x": 3, "y": 3})
    moved = m.version
    m.act("red", type="concede")
    assert post(m, "/undo", "referee", {"actions": 1}).status_code == 409  # ended
    m.refused("red", 403, "core-authority", type="reopen_match")
    m.refused("blue", 403, "core-authority", type="reopen_match")
    events = m.act("referee", type="reopen_match", reason="conceded by mistake")
    assert [e["type"] for e in events] == ["MatchReopened", "DiceCommitted"]
    assert m.get("")["outcome"] is None
    r = post(m, "/undo", "referee", {"to": moved})
    assert r.status_code == 201, r.text
    assert m.unit("r1")["position"]["x"] == 3  # the end undone, the move kept
    rolled = m.act("red", type="roll_dice", notation="d6", purpose="after the reopening")
    assert rolled[0]["type"] == "DiceRolled"  # a fresh seed rolls on


# ---- 2. any seat redoes any undo ----------------------------------------------------------

def test_redo_belongs_to_whoever_undid(client: TestClient) -> None:
    m = Played(client, FREEFORM)
    m.act("red", type="move_unit", unit_id="r1", to={"x": 3, "y": 3})
    assert post(m, "/undo", "referee", {"actions": 1}).status_code == 201
    for side in ("red", "blue"):  # the referee's undo
        before = m.version
        r = post(m, "/redo", side)
        assert (r.status_code, r.json()["rule"]) == (403, "core-authority"), r.text
        assert m.version == before
    assert post(m, "/redo", "referee").status_code == 201
    m.act("red", type="move_unit", unit_id="r1", to={"x": 4, "y": 4})
    assert post(m, "/undo", "red", {"actions": 1}).status_code == 201  # red's own, at once
    r = post(m, "/redo", "blue")
    assert (r.status_code, r.json()["rule"]) == (403, "core-authority")
    assert post(m, "/redo", "red").status_code == 201
    assert m.unit("r1")["position"]["x"] == 4


def test_an_undo_ordered_by_a_ruling_is_redone_only_by_the_referee(client: TestClient) -> None:
    m = Played(client, FREEFORM)
    before_roll = m.version
    [roll] = m.act("blue", type="roll_dice", notation="d6", purpose="disputed")
    [dispute] = m.act("red", type="open_dispute", about_version=roll["version"], text="cocked")
    r = post(m, f"/disputes/{dispute['version']}/ruling", "referee",
             {"ruling": "re-roll it", "order": "undo", "to": before_roll})
    assert r.status_code == 201, r.text
    for side in ("red", "blue"):
        r = post(m, "/redo", side)
        assert (r.status_code, r.json()["rule"]) == (403, "core-authority"), r.text
    assert m.get("/board")["recent_rolls"] == []  # the disputed roll stays undone


def test_a_side_whose_undo_request_was_accepted_redoes_it(client: TestClient) -> None:
    m = Played(client, FREEFORM)
    m.act("red", type="roll_dice", notation="d6", purpose="a barrier")
    before = m.version
    m.act("blue", type="move_unit", unit_id="b1", to={"x": 9, "y": 9})
    m.act("red", type="move_unit", unit_id="r1", to={"x": 2, "y": 2})
    asked = post(m, "/undo", "red", {"to": before})  # across blue's move: a request
    assert [e["type"] for e in asked.json()["events"]] == ["UndoRequested"]
    accepted = post(m, "/undo/accept", "blue").json()["events"]
    assert accepted[-1]["type"] == "ActionsUndone" and accepted[-1]["requested_by"] == "red"
    assert post(m, "/redo", "blue").status_code == 403  # blue accepted; red undid
    assert post(m, "/redo", "red").status_code == 201


# ---- 3. a player acts for the other side --------------------------------------------------

def test_a_side_scores_only_its_own_points(client: TestClient) -> None:
    m = Played(client, FREEFORM)
    for points in (10_000, -10_000):
        m.refused("red", 403, "core-authority", type="score_vp", side="blue", points=points)
    m.act("red", type="score_vp", side="red", points=2, reason="objective")
    m.act("referee", type="score_vp", side="blue", points=1, reason="ruling")
    assert {t["side"]: t["points"] for t in m.get("/vp")["tracks"]} == {"red": 2, "blue": 1}


def test_atomic_africa_an_enemy_cannot_remove_a_unit_that_must_split(client: TestClient) -> None:
    m = Played(client, scenario("atomic-africa-demo", units=[
        squad("sq1", "red", 11, "d10", wound=5), squad("ml1", "blue", 10, "d8")]))
    to_clean_up(m)
    assert m.turn["step"] == "cleanup/split"
    m.refused("blue", 403, "core-authority", type="remove_unit", unit_id="sq1",
              reason="destroyed")
    assert m.unit("sq1")["computed"]["must_split"] is True


def test_atomic_africa_the_opponent_cannot_roll_your_morale_with_dice_it_chooses(
    client: TestClient,
) -> None:
    m = Played(client, scenario("atomic-africa-demo", units=[
        squad("a", "red", 8, "d10", wound=3, suppression=3), squad("ml1", "blue", 10, "d8")]))
    to_clean_up(m)
    m.act("referee", type="advance")
    assert m.turn["expects"] == ["units owing a Morale roll: a"]
    m.refused("blue", 403, "core-authority", type="roll_morale", unit_id="a", source="table",
              result=1)
    [rolled, *_] = m.act("red", type="roll_morale", unit_id="a", source="table", result=4)
    assert rolled["actor"] == "red"


# ---- 5. a number bricks a match -----------------------------------------------------------

@pytest.mark.parametrize("x", ["NaN", "Infinity", "-Infinity", "1e999", "1e6"])
def test_a_number_that_is_not_finite_or_in_range_is_a_422_naming_the_field(
    client: TestClient, x: str
) -> None:
    m = Played(client, FREEFORM)
    before = m.version
    body = '{"type": "move_unit", "unit_id": "r1", "to": {"x": ' + x + ', "y": 1}}'
    r = client.post(f"/api/matches/{m.match}/actions", content=body,
                    headers={**m.auth("red"), "Content-Type": "application/json"})
    assert r.status_code == 422, r.text
    assert "to" in r.text and "x" in r.text
    assert m.version == before
    assert m.get("/board")["units"]  # every surface still answers


def test_a_stored_event_that_cannot_load_is_a_clear_problem_for_that_match_only(
    client: TestClient, matches: Matches
) -> None:
    broken, fine = Played(client, FREEFORM), Played(client, FREEFORM)
    version = broken.version + 1
    state = {"unit_id": "r1", "origin": None, "to": {"x": None, "y": 1.0}, "actor": "red",
             "timestamp": "2026-01-01T00:00:00+00:00", "class_version": 1}
    matches.recorder.insert_events([StoredEvent(
        originator_id=UUID(broken.match), originator_version=version,
        topic=get_topic(ev.UnitMoved), state=orjson.dumps(state))])
    matches._forget(UUID(broken.match))
    for path in ("", "/board", "/events"):
        r = client.get(f"/api/matches/{broken.match}{path}", headers=broken.auth("referee"))
        assert r.status_code == 409, r.text
        assert r.json()["title"] == "Match unreadable"
        assert f"version {version}" in r.json()["detail"]
    assert fine.get("/board")["units"]


def test_the_catalogue_shows_a_reopened_match_as_active_again(client: TestClient) -> None:
    m = Played(client, FREEFORM)

    def status() -> str:
        rows = client.get("/api/matches", headers={"Authorization": "Bearer admin-token"})
        return str(next(r["status"] for r in rows.json() if r["match_id"] == m.match))

    m.act("blue", type="concede")
    assert status() == "ended"
    m.act("referee", type="reopen_match")
    assert status() == "active"


def test_the_turn_view_shows_an_end_proposal_and_who_agreed(client: TestClient) -> None:
    m = Played(client, FREEFORM)
    m.act("red", type="end_match", winner=None, reason="a draw")
    for seat in ("red", "blue", "spectator"):
        assert m.get("/turn", seat)["end_proposal"] == {
            "outcome": {"winner": None, "reason": "a draw"}, "agreed": ["red"]}
    m.act("blue", type="end_match", winner=None, reason="a draw")
    assert m.turn["end_proposal"] is None and m.turn["outcome"]["reason"] == "a draw"
