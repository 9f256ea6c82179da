"""The HTTP API in-process, on both stores: the tour, refusals, concurrency, time travel."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from freezegun import freeze_time

from api.app import create_app
from domain.application import Matches

SIDES = [{"id": "allies", "name": "Allies"}, {"id": "axis", "name": "Axis"}]
SQUAD = {"id": "sq1", "side": "allies", "name": "1st Squad", "figures": 11,
         "morale_die": "d10", "position": {"x": 10, "y": 12}}


@pytest.fixture
def client(store_env: dict[str, str]) -> Iterator[TestClient]:
    matches = Matches(env=store_env)
    with TestClient(create_app(matches=matches)) as client:
        yield client
    matches.close()


def _create(client: TestClient, **extra: Any) -> str:
    r = client.post("/api/matches", json={"scenario": "Hill 112", "sides": SIDES, **extra})
    assert r.status_code == 201, r.text
    return str(r.json()["match_id"])


def _act(client: TestClient, match: str, seat: str = "referee", **action: Any) -> Any:
    return client.post(f"/api/matches/{match}/actions", json=action, headers={"X-Seat": seat})


def _version(client: TestClient, match: str) -> int:
    return int(client.get(f"/api/matches/{match}").json()["version"])


def test_created_match_is_listed_and_readable(client: TestClient) -> None:
    match = _create(client)
    listed = client.get("/api/matches").json()
    assert [m["match_id"] for m in listed] == [match]
    assert listed[0]["sides"] == ["allies", "axis"] and listed[0]["turn"] == 1
    got = client.get(f"/api/matches/{match}")
    assert got.headers["etag"] == '"1"'
    assert got.json()["turn"]["step"] == "setup"
    assert "dice_seed" not in client.get(f"/api/matches/{match}/events").text


def test_tour_deploy_roll_mark_advance_undo_and_look_back(client: TestClient) -> None:
    match = _create(client)
    assert _act(client, match, "allies", type="deploy_unit", unit=SQUAD).status_code == 201
    roll = _act(client, match, "axis", type="roll_dice", notation="2d6", purpose="fire")
    faces = roll.json()["events"][0]["dice"]
    assert len(faces) == 2 and all(1 <= f <= 6 for f in faces)
    _act(client, match, "axis", type="place_marker", kind="suppression", count=2, unit_id="sq1")
    advanced = _act(client, match, type="advance").json()
    assert advanced["events"][0]["marker"]["step"] == "movement"
    undone = client.post(f"/api/matches/{match}/undo", json={"actions": 1})
    assert undone.status_code == 201 and undone.json()["events"][0]["to"] == 4
    board = client.get(f"/api/matches/{match}/board").json()
    assert board["turn"]["step"] == "setup"
    assert board["units"][0]["markers"] == {"suppression": 2}
    past = client.get(f"/api/matches/{match}/board", params={"at": 2}).json()
    assert past["point"] == {"version": 2, "head_version": 6, "past": True}
    assert past["units"][0]["markers"] == {}
    redone = client.post(f"/api/matches/{match}/redo")
    assert redone.status_code == 201
    assert client.get(f"/api/matches/{match}/turn").json()["step"] == "movement"


@pytest.mark.parametrize(("action", "status", "rule"), [
    ({"type": "remove_marker", "kind": "suppression", "count": 3, "unit_id": "sq1"}, 422,
     "core-markers"),
    ({"type": "move_unit", "unit_id": "ghost", "to": {"hex": "0101"}}, 422, "core-units"),
    ({"type": "roll_dice", "notation": "3d7", "purpose": "x"}, 422, "core-dice"),
    ({"type": "advance", "to": "nowhere"}, 422, "core-sequence"),
    ({"type": "split_unit", "unit_id": "sq1", "new_unit_id": "sq2", "figures": 11}, 422,
     "core-split"),
    ({"type": "score_vp", "side": "martians", "points": 1}, 422, "core-sides"),
])
def test_refused_action_is_a_problem_naming_the_rule_and_appends_nothing(
    client: TestClient, action: dict[str, Any], status: int, rule: str
) -> None:
    match = _create(client)
    _act(client, match, "allies", type="deploy_unit", unit=SQUAD)
    _act(client, match, type="place_marker", kind="suppression", count=2, unit_id="sq1")
    before = _version(client, match)
    r = _act(client, match, **action)
    assert r.status_code == status
    assert r.headers["content-type"] == "application/problem+json"
    body = r.json()
    assert body["rule"] == rule and body["status"] == status and body["detail"]
    assert _version(client, match) == before


def test_schema_violations_are_422_problems(client: TestClient) -> None:
    match = _create(client)
    r = _act(client, match, type="teleport")
    assert r.status_code == 422 and r.json()["type"] == "/problems/invalid-request"
    assert client.post("/api/matches", json={"scenario": "x", "sides": SIDES[:1]}).status_code == 422
    assert client.get("/api/matches/not-a-uuid").status_code == 422
    missing = client.get("/api/matches/00000000-0000-0000-0000-000000000000")
    assert missing.status_code == 404 and missing.json()["rule"] == "core-matches"


def test_a_side_cannot_act_for_the_other_sides_unit(client: TestClient) -> None:
    match = _create(client)
    _act(client, match, "allies", type="deploy_unit", unit=SQUAD)
    r = _act(client, match, "axis", type="move_unit", unit_id="sq1", to={"x": 1, "y": 1})
    assert r.status_code == 403 and r.json()["rule"] == "core-seats"
    assert _act(client, match, "martians", type="advance").status_code == 422
    assert _version(client, match) == 2


def test_stale_if_match_gets_412_and_appends_nothing(client: TestClient) -> None:
    match = _create(client)
    ok = client.post(f"/api/matches/{match}/actions", json={"type": "advance"},
                     headers={"If-Match": '"1"'})
    assert ok.status_code == 201 and ok.headers["etag"] == '"2"'
    stale = client.post(f"/api/matches/{match}/actions", json={"type": "advance"},
                        headers={"If-Match": '"1"'})
    assert stale.status_code == 412
    assert _version(client, match) == 2


def test_undo_across_a_die_roll_needs_a_casual_match(client: TestClient) -> None:
    strict = _create(client)
    _act(client, strict, type="roll_dice", notation="d6", purpose="x")
    refused = client.post(f"/api/matches/{strict}/undo", json={})
    assert refused.status_code == 409 and refused.json()["rule"] == "core-undo"
    assert _version(client, strict) == 2
    casual = _create(client, casual=True)
    _act(client, casual, type="roll_dice", notation="d6", purpose="x")
    assert client.post(f"/api/matches/{casual}/undo", json={}).status_code == 201
    board = client.get(f"/api/matches/{casual}/board").json()
    assert board["recent_rolls"] == []


def test_events_page_and_filter(client: TestClient) -> None:
    match = _create(client)
    for _ in range(5):
        _act(client, match, type="roll_dice", notation="d6", purpose="x")
    _act(client, match, "allies", type="deploy_unit", unit=SQUAD)
    page = client.get(f"/api/matches/{match}/events", params={"limit": 4}).json()
    assert [e["version"] for e in page["events"]] == [1, 2, 3, 4]
    rest = client.get(f"/api/matches/{match}/events",
                      params={"after": page["next_after"]}).json()
    assert [e["version"] for e in rest["events"]] == [5, 6, 7] and rest["next_after"] is None
    rolls = client.get(f"/api/matches/{match}/events", params={"type": "DiceRolled"}).json()
    assert len(rolls["events"]) == 5
    by_allies = client.get(f"/api/matches/{match}/events", params={"actor": "allies"}).json()
    assert [e["type"] for e in by_allies["events"]] == ["UnitDeployed"]
    assert client.get(f"/api/matches/{match}/events", params={"type": "Nope"}).status_code == 422


def test_time_travel_by_turn_and_step_and_by_time(client: TestClient) -> None:
    start = datetime(2026, 6, 6, 6, 30, tzinfo=UTC)
    with freeze_time(start) as clock:
        match = _create(client)
        for _ in range(5):  # setup -> movement -> combat -> end -> turn 2 setup -> movement
            clock.tick(timedelta(minutes=10))
            _act(client, match, type="advance")
    by_step = client.get(f"/api/matches/{match}/turn", params={"turn": 2, "step": "setup"}).json()
    assert by_step["point"]["version"] == 5 and by_step["turn"] == 2
    by_time = client.get(f"/api/matches/{match}/turn",
                         params={"time": (start + timedelta(minutes=25)).isoformat()}).json()
    assert by_time["point"]["version"] == 3 and by_time["step"] == "combat"
    before = client.get(f"/api/matches/{match}/turn",
                        params={"time": (start - timedelta(days=1)).isoformat()})
    assert before.status_code == 404
    never = client.get(f"/api/matches/{match}/board", params={"turn": 9, "step": "setup"})
    assert never.status_code == 404
    both = client.get(f"/api/matches/{match}/board", params={"at": 2, "turn": 1, "step": "setup"})
    assert both.status_code == 422


def test_catalogue_follows_turns_undo_and_the_end(client: TestClient) -> None:
    match = _create(client)
    for _ in range(4):
        _act(client, match, type="advance")
    assert client.get("/api/matches").json()[0]["turn"] == 2
    client.post(f"/api/matches/{match}/undo", json={})
    assert client.get("/api/matches").json()[0]["turn"] == 1
    _act(client, match, type="end_match", winner="axis")
    row = client.get("/api/matches", params={"status": "ended"}).json()[0]
    assert row["winner"] == "axis" and row["version"] == _version(client, match)
    assert client.get("/api/matches", params={"status": "active"}).json() == []


def test_health_names_the_store(client: TestClient, store_env: dict[str, str]) -> None:
    body = client.get("/api/health").json()
    assert body["status"] == "ok"
    assert body["store"] == ("postgres" if "postgres" in store_env["PERSISTENCE_MODULE"]
                             else "sqlite")


def test_the_front_door_leads_to_the_api_docs(client: TestClient) -> None:
    r = client.get("/", follow_redirects=False)
    assert r.status_code == 307 and r.headers["location"] == "/docs"
    assert client.get("/docs").status_code == 200
