"""The HTTP API in-process, on both stores: the tour, refusals, concurrency, time travel."""

from __future__ import annotations

import base64
import hashlib
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from fastapi.testclient import TestClient
from freezegun import freeze_time

import api
from projections import report

SIDES = [{"id": "allies", "name": "Allies"}, {"id": "axis", "name": "Axis"}]
SQUAD = {"id": "sq1", "side": "allies", "name": "1st Squad", "figures": 11,
         "morale_die": "d10", "position": {"x": 10, "y": 12}}


ADMIN = {"Authorization": "Bearer admin-token"}
TOKENS: dict[str, dict[str, str]] = {}  # match id -> seat -> bearer token
J = 7  # the version once both sides joined: created, then 3 events a side (joined, join
# token revoked, seat token issued)


def auth(match: str, seat: str = "referee") -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKENS[match][seat]}"}


def _create(client: TestClient, **extra: Any) -> str:
    """A match whose two sides have joined: tokens for referee, spectator and both sides."""
    r = client.post("/api/matches", json={"scenario": "Hill 112", "sides": SIDES, **extra})
    assert r.status_code == 201, r.text
    match = str(r.json()["match_id"])
    TOKENS[match] = dict(r.json()["tokens"])
    for side in ("allies", "axis"):
        joined = client.post(f"/api/matches/{match}/seats", json={"player": side.title()},
                             headers=auth(match, f"join:{side}"))
        assert joined.status_code == 201, joined.text
        TOKENS[match][side] = joined.json()["token"]
    return match


def _act(client: TestClient, match: str, seat: str = "referee", **action: Any) -> Any:
    return client.post(f"/api/matches/{match}/actions", json=action, headers=auth(match, seat))


def _get(client: TestClient, match: str, path: str = "", seat: str = "referee",
         **params: Any) -> Any:
    return client.get(f"/api/matches/{match}{path}", params=params, headers=auth(match, seat))


def _version(client: TestClient, match: str) -> int:
    return int(_get(client, match).json()["version"])


def test_created_match_is_listed_and_readable(client: TestClient) -> None:
    match = _create(client)
    listed = client.get("/api/matches", headers=ADMIN).json()
    assert [m["match_id"] for m in listed] == [match]
    assert listed[0]["sides"] == ["allies", "axis"] and listed[0]["turn"] == 1
    got = client.get(f"/api/matches/{match}", headers=auth(match))
    assert got.headers["etag"] == f'"{J}"'
    assert got.json()["turn"]["step"] == "setup"
    assert "dice_seed" not in client.get(f"/api/matches/{match}/events", headers=auth(match)).text
    # the match says whose token asked (the table page shows "You: ...")
    assert {seat: _get(client, match, seat=seat).json()["viewer"]
            for seat in ("referee", "spectator", "allies", "axis")} == {
        "referee": "referee", "spectator": "spectator", "allies": "allies", "axis": "axis"}


def test_tour_deploy_roll_mark_advance_undo_and_look_back(client: TestClient) -> None:
    match = _create(client)
    assert _act(client, match, "allies", type="deploy_unit", unit=SQUAD).status_code == 201
    roll = _act(client, match, "axis", type="roll_dice", notation="2d6", purpose="fire")
    faces = roll.json()["events"][0]["dice"]
    assert len(faces) == 2 and all(1 <= f <= 6 for f in faces)
    _act(client, match, "axis", type="place_marker", kind="suppression", count=2, unit_id="sq1")
    advanced = _act(client, match, type="advance").json()
    assert advanced["events"][0]["marker"]["step"] == "movement"
    undone = client.post(f"/api/matches/{match}/undo", json={"actions": 1}, headers=auth(match))
    assert undone.status_code == 201 and undone.json()["events"][0]["to"] == J + 3
    board = client.get(f"/api/matches/{match}/board", headers=auth(match)).json()
    assert board["turn"]["step"] == "setup"
    assert board["units"][0]["markers"] == {"suppression": 2}
    past = client.get(f"/api/matches/{match}/board", params={"at": J + 1}, headers=auth(match)).json()
    assert past["point"] == {"version": J + 1, "head_version": J + 5, "past": True}
    assert past["units"][0]["markers"] == {}
    redone = client.post(f"/api/matches/{match}/redo", headers=auth(match))
    assert redone.status_code == 201
    assert client.get(f"/api/matches/{match}/turn", headers=auth(match)).json()["step"] == "movement"


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
    assert client.get("/api/matches/not-a-uuid", headers=auth(match)).status_code == 422
    missing = client.get("/api/matches/00000000-0000-0000-0000-000000000000",
                         headers=auth(match))
    assert missing.status_code == 401  # an unknown match and a wrong token look alike


def test_a_side_cannot_act_for_the_other_sides_unit(client: TestClient) -> None:
    match = _create(client)
    _act(client, match, "allies", type="deploy_unit", unit=SQUAD)
    r = _act(client, match, "axis", type="move_unit", unit_id="sq1", to={"x": 1, "y": 1})
    assert r.status_code == 403 and r.json()["rule"] == "core-authority"
    spectator = client.post(f"/api/matches/{match}/actions", json={"type": "advance"},
                            headers=auth(match, "spectator"))
    assert spectator.status_code == 403
    assert _version(client, match) == J + 1


def test_stale_if_match_gets_412_and_appends_nothing(client: TestClient) -> None:
    match = _create(client)
    ok = client.post(f"/api/matches/{match}/actions", json={"type": "advance"},
                     headers={"If-Match": f'"{J}"', **auth(match)})
    assert ok.status_code == 201 and ok.headers["etag"] == f'"{J + 1}"'
    stale = client.post(f"/api/matches/{match}/actions", json={"type": "advance"},
                        headers={"If-Match": f'"{J}"', **auth(match)})
    assert stale.status_code == 412
    assert _version(client, match) == J + 1


def test_undo_across_a_die_roll_asks_the_other_side_unless_casual(client: TestClient) -> None:
    strict = _create(client)
    _act(client, strict, "axis", type="roll_dice", notation="d6", purpose="x")
    status = _get(client, strict, "/undo", "axis").json()
    assert status["immediate_to"] == J + 1 and status["pending"] is None
    asked = client.post(f"/api/matches/{strict}/undo", json={}, headers=auth(strict, "axis"))
    assert asked.status_code == 201 and asked.json()["events"][0]["type"] == "UndoRequested"
    assert _get(client, strict, "/board").json()["recent_rolls"] != []  # not yet undone
    pending = _get(client, strict, "/undo", "allies").json()["pending"]
    assert (pending["by"], pending["to"]) == ("axis", J)
    own = client.post(f"/api/matches/{strict}/undo/accept", headers=auth(strict, "axis"))
    assert own.status_code == 403 and own.json()["rule"] == "core-undo"
    accepted = client.post(f"/api/matches/{strict}/undo/accept", headers=auth(strict, "allies"))
    assert [e["type"] for e in accepted.json()["events"]] == ["UndoAccepted", "ActionsUndone"]
    assert _get(client, strict, "/board").json()["recent_rolls"] == []
    nothing = client.post(f"/api/matches/{strict}/undo/decline", json={"reason": "no"},
                          headers=auth(strict, "allies"))
    assert nothing.status_code == 409 and nothing.json()["rule"] == "core-undo"
    casual = _create(client, casual=True)
    _act(client, casual, "axis", type="roll_dice", notation="d6", purpose="x")
    done = client.post(f"/api/matches/{casual}/undo", json={}, headers=auth(casual, "axis"))
    assert done.status_code == 201 and done.json()["events"][0]["type"] == "ActionsUndone"


def test_events_page_and_filter(client: TestClient) -> None:
    match = _create(client)
    for _ in range(5):
        _act(client, match, type="roll_dice", notation="d6", purpose="x")
    _act(client, match, "allies", type="deploy_unit", unit=SQUAD)
    page = client.get(f"/api/matches/{match}/events", params={"limit": 4}, headers=auth(match)).json()
    assert [e["version"] for e in page["events"]] == [1, 2, 3, 4]  # creation, the joins
    rest = client.get(f"/api/matches/{match}/events", headers=auth(match),
                      params={"after": page["next_after"]}).json()
    assert [e["version"] for e in rest["events"]][:3] == [5, 6, 7]
    last = client.get(f"/api/matches/{match}/events", headers=auth(match),
                      params={"after": J, "limit": 10}).json()
    assert [e["version"] for e in last["events"]] == list(range(J + 1, J + 7))
    assert last["next_after"] is None
    rolls = client.get(f"/api/matches/{match}/events", params={"type": "DiceRolled"}, headers=auth(match)).json()
    assert len(rolls["events"]) == 5
    by_allies = client.get(f"/api/matches/{match}/events", params={"actor": "allies"}, headers=auth(match)).json()
    assert [e["type"] for e in by_allies["events"]] == [
        "SeatJoined", "SeatTokenRevoked", "SeatTokenIssued", "UnitDeployed"]
    assert all("token_hash" not in e for e in by_allies["events"])
    assert client.get(f"/api/matches/{match}/events", params={"type": "Nope"}, headers=auth(match)).status_code == 422
    nobody = client.get(f"/api/matches/{match}/events", params={"actor": "false"},
                        headers=auth(match))
    assert nobody.status_code == 422 and "allies" in nobody.json()["allowed"]


def test_time_travel_by_turn_and_step_and_by_time(client: TestClient) -> None:
    start = datetime(2026, 6, 6, 6, 30, tzinfo=UTC)
    with freeze_time(start) as clock:
        match = _create(client)
        for _ in range(5):  # setup -> movement -> combat -> end -> turn 2 setup -> movement
            clock.tick(timedelta(minutes=10))
            _act(client, match, type="advance")
    by_step = client.get(f"/api/matches/{match}/turn", params={"turn": 2, "step": "setup"}, headers=auth(match)).json()
    assert by_step["point"]["version"] == J + 4 and by_step["turn"] == 2
    by_time = client.get(f"/api/matches/{match}/turn", headers=auth(match),
                         params={"time": (start + timedelta(minutes=25)).isoformat()}).json()
    assert by_time["point"]["version"] == J + 2 and by_time["step"] == "combat"
    before = client.get(f"/api/matches/{match}/turn", headers=auth(match),
                        params={"time": (start - timedelta(days=1)).isoformat()})
    assert before.status_code == 404
    never = client.get(f"/api/matches/{match}/board", params={"turn": 9, "step": "setup"}, headers=auth(match))
    assert never.status_code == 404
    both = client.get(f"/api/matches/{match}/board", params={"at": 2, "turn": 1, "step": "setup"}, headers=auth(match))
    assert both.status_code == 422


def test_catalogue_follows_turns_undo_and_the_end(client: TestClient) -> None:
    match = _create(client)
    for _ in range(4):
        _act(client, match, type="advance")
    assert client.get("/api/matches", headers=ADMIN).json()[0]["turn"] == 2
    client.post(f"/api/matches/{match}/undo", json={}, headers=auth(match))
    assert client.get("/api/matches", headers=ADMIN).json()[0]["turn"] == 1
    _act(client, match, type="end_match", winner="axis")
    row = client.get("/api/matches", headers=ADMIN, params={"status": "ended"}).json()[0]
    assert row["winner"] == "axis" and row["version"] == _version(client, match)
    assert client.get("/api/matches", headers=ADMIN, params={"status": "active"}).json() == []


def test_health_names_the_store(client: TestClient, store_env: dict[str, str]) -> None:
    body = client.get("/api/health").json()
    assert body["status"] == "ok"
    assert body["store"] == ("postgres" if "postgres" in store_env["PERSISTENCE_MODULE"]
                             else "sqlite")


def test_the_front_door_is_the_table_page_with_nothing_from_elsewhere(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "unsafe-inline" not in policy
    # the one inline style allowed: the HTML report's, by its hash (it opens from the page)
    assert f"style-src 'self' '{report.STYLE_HASH}'" in policy
    match = _create(client)
    html = client.get(f"/api/matches/{match}/export", params={"format": "html"},
                      headers=auth(match)).text
    style = re.search(r"<style>(.*?)</style>", html, re.DOTALL)
    assert style and "sha256-" + base64.b64encode(
        hashlib.sha256(style.group(1).encode()).digest()).decode() == report.STYLE_HASH
    assert '<script type="module" src="/static/app.js">' in page.text
    match = client.get(f"/play/{uuid4()}")
    assert match.status_code == 200 and match.text == page.text
    assert client.get("/play/not-a-match").status_code == 422
    static = Path(api.__file__).parent / "static"
    for name in sorted(p.name for p in static.iterdir()):
        served = client.get(f"/static/{name}")
        assert served.status_code == 200, name
        assert served.headers["x-content-type-options"] == "nosniff"
        # no CDN, no font or script from anywhere else: every URL is the page's own
        assert not re.search(r"(?:src|href)=\"https?://|import .* from \"https?:|url\(https?:",
                             served.text), name
    assert client.get("/static/../pyproject.toml").status_code == 404
    assert client.get("/docs").status_code == 200


def test_numbers_json_cannot_carry_are_refused_and_leave_nothing(client: TestClient) -> None:
    match = _create(client)
    before = _version(client, match)
    for value in (2**70, -(2**53)):  # beyond what a JSON reader holds exactly
        r = _act(client, match, type="set_track", name="score", value=value)
        assert r.status_code == 422, r.text
    nan = client.post(f"/api/matches/{match}/actions", headers={
        **auth(match), "Content-Type": "application/json"},
        content=b'{"type": "set_track", "name": "score", "value": NaN}')
    assert nan.status_code == 422
    assert _version(client, match) == before
    created = client.post("/api/matches", json={
        "scenario": "big", "sides": SIDES, "options": {"turns": 2**64}})
    assert created.status_code == 422
    assert _act(client, match, type="set_track", name="score",
                value=2**53 - 1).status_code == 201
