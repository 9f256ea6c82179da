"""Seats and tokens, idempotency, body limits, health: on both stores, through HTTP."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient
from test_http_api import ADMIN, SIDES, SQUAD, TOKENS, J, _act, _create, _version, auth

from api.app import create_app
from api.settings import Settings
from domain.app import Matches


@pytest.fixture
def client(store_env: dict[str, str]) -> Iterator[TestClient]:
    matches = Matches(env=store_env)
    app = create_app(Settings(admin_token="admin-token", max_body_bytes=4096), matches=matches)
    with TestClient(app) as client:
        client.app_state = app.state  # type: ignore[attr-defined]
        yield client
    matches.close()


def test_creating_returns_one_token_per_seat_and_stores_only_hashes(
    client: TestClient, store_env: dict[str, str]
) -> None:
    r = client.post("/api/matches", json={"scenario": "s", "sides": SIDES})
    tokens = r.json()["tokens"]
    assert set(tokens) == {"referee", "spectator", "join:allies", "join:axis"}
    assert all(len(t) >= 22 for t in tokens.values())  # >= 128 random bits, url-safe
    assert len(set(tokens.values())) == 4
    matches: Matches = client.app_state.matches  # type: ignore[attr-defined]
    stored = b"".join(e.state for e in matches.recorder.select_events(UUID(r.json()["match_id"])))
    for token in tokens.values():
        assert token.encode() not in stored
        assert hashlib.sha256(token.encode()).hexdigest().encode() in stored


def test_unauthenticated_requests_can_create_and_read_nothing(client: TestClient) -> None:
    match = _create(client)
    for path in ("", "/board", "/vp", "/turn", "/events"):
        r = client.get(f"/api/matches/{match}{path}")
        assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer")
        wrong = client.get(f"/api/matches/{match}{path}",
                           headers={"Authorization": "Bearer not-a-token"})
        assert wrong.status_code == 401
    assert client.post(f"/api/matches/{match}/actions", json={"type": "advance"}).status_code == 401
    assert client.get("/api/matches").status_code == 401
    assert _version(client, match) == J


def test_a_token_opens_only_its_own_match(client: TestClient) -> None:
    first, second = _create(client), _create(client)
    r = client.get(f"/api/matches/{second}/board", headers=auth(first, "referee"))
    assert r.status_code == 401


def test_roles_player_spectator_referee(client: TestClient) -> None:
    match = _create(client)
    assert _act(client, match, "allies", type="deploy_unit", unit=SQUAD).status_code == 201
    assert _act(client, match, "axis", type="move_unit", unit_id="sq1",
                to={"x": 0, "y": 0}).status_code == 403
    assert _act(client, match, "spectator", type="advance").status_code == 403
    assert client.get(f"/api/matches/{match}/board", headers=auth(match, "spectator")).status_code == 200
    assert _act(client, match, "referee", type="move_unit", unit_id="sq1",
                to={"x": 0, "y": 0}).status_code == 201
    events = client.get(f"/api/matches/{match}/events", headers=auth(match),
                        params={"after": J}).json()["events"]
    assert [e["actor"] for e in events] == ["allies", "referee"]


def test_a_join_token_is_used_up_and_only_joins(client: TestClient) -> None:
    match = _create(client)
    again = client.post(f"/api/matches/{match}/seats", json={"player": "Mallory"},
                        headers=auth(match, "join:allies"))
    assert again.status_code == 401
    r = client.post("/api/matches", json={"scenario": "s", "sides": SIDES})
    fresh, tokens = r.json()["match_id"], r.json()["tokens"]
    join = {"Authorization": f"Bearer {tokens['join:axis']}"}
    assert client.get(f"/api/matches/{fresh}/board", headers=join).status_code == 403
    assert client.post(f"/api/matches/{fresh}/actions", json={"type": "advance"},
                       headers=join).status_code == 403


def test_referee_revokes_and_reissues_a_seat_token(client: TestClient) -> None:
    match = _create(client)
    old = auth(match, "allies")
    assert client.get(f"/api/matches/{match}/board", headers=old).status_code == 200
    denied = client.post(f"/api/matches/{match}/tokens", json={"seat": "allies"},
                         headers=auth(match, "axis"))
    assert denied.status_code == 403
    r = client.post(f"/api/matches/{match}/tokens", json={"seat": "allies"}, headers=auth(match))
    assert r.status_code == 201
    new = {"Authorization": f"Bearer {r.json()['token']}"}
    assert client.get(f"/api/matches/{match}/board", headers=old).status_code == 401
    assert client.get(f"/api/matches/{match}/board", headers=new).status_code == 200
    unknown = client.post(f"/api/matches/{match}/tokens", json={"seat": "martians"},
                          headers=auth(match))
    assert unknown.status_code == 422


def test_a_reissue_of_a_side_nobody_joined_ends_its_join_link(client: TestClient) -> None:
    """Finding 13: the old join link of a side the referee reissued before anyone joined
    joins nothing (before: it joined, and gave a second working token for the seat)."""
    r = client.post("/api/matches", json={"scenario": "s", "sides": SIDES})
    match, tokens = r.json()["match_id"], r.json()["tokens"]
    referee = {"Authorization": f"Bearer {tokens['referee']}"}
    made = client.post(f"/api/matches/{match}/tokens", json={"seat": "allies"}, headers=referee)
    assert made.status_code == 201, made.text
    new = {"Authorization": f"Bearer {made.json()['token']}"}
    old_link = {"Authorization": f"Bearer {tokens['join:allies']}"}
    joined = client.post(f"/api/matches/{match}/seats", json={"player": "Mallory"},
                         headers=old_link)
    assert joined.status_code == 401, joined.text
    assert client.get(f"/api/matches/{match}/board", headers=old_link).status_code == 401
    assert client.get(f"/api/matches/{match}/board", headers=new).status_code == 200
    # the other side's link is untouched
    other = client.post(f"/api/matches/{match}/seats", json={"player": "Axel"},
                        headers={"Authorization": f"Bearer {tokens['join:axis']}"})
    assert other.status_code == 201, other.text


def test_a_join_with_a_reissued_link_replaces_the_sides_player(client: TestClient) -> None:
    """A side's new join link (the referee's way to seat a replacement player) seats one
    player: the previous holder's token ends when the replacement joins (before: both
    tokens worked, two players on one seat)."""
    match = _create(client)
    old = auth(match, "allies")
    made = client.post(f"/api/matches/{match}/tokens", json={"seat": "join:allies"},
                       headers=auth(match))
    assert made.status_code == 201, made.text
    assert client.get(f"/api/matches/{match}/board", headers=old).status_code == 200
    joined = client.post(f"/api/matches/{match}/seats", json={"player": "Bea"},
                         headers={"Authorization": f"Bearer {made.json()['token']}"})
    assert joined.status_code == 201, joined.text
    assert client.get(f"/api/matches/{match}/board", headers=old).status_code == 401
    new = {"Authorization": f"Bearer {joined.json()['token']}"}
    assert client.get(f"/api/matches/{match}/board", headers=new).status_code == 200


def _idempotent(client: TestClient, match: str, key: str, seat: str = "referee",
                **action: Any) -> Any:
    return client.post(f"/api/matches/{match}/actions", json=action,
                       headers={**auth(match, seat), "Idempotency-Key": key})


def test_a_retried_action_happens_once(client: TestClient) -> None:
    match = _create(client)
    first = _idempotent(client, match, "k1", type="roll_dice", notation="2d6", purpose="fire")
    retry = _idempotent(client, match, "k1", type="roll_dice", notation="2d6", purpose="fire")
    assert first.status_code == retry.status_code == 201
    assert retry.json() == first.json() and retry.headers["idempotent-replayed"] == "true"
    assert _version(client, match) == J + 1
    other_body = _idempotent(client, match, "k1", type="roll_dice", notation="d6", purpose="x")
    assert other_body.status_code == 422 and other_body.json()["rule"] == "core-idempotency"
    # A key is scoped to its seat: another seat using it acts anew, learning nothing.
    theirs = _idempotent(client, match, "k1", "axis", type="roll_dice", notation="2d6",
                         purpose="fire")
    assert theirs.status_code == 201 and theirs.json()["version"] == J + 2
    assert _version(client, match) == J + 2


def test_idempotency_keys_survive_a_restart(client: TestClient, store_env: dict[str, str]) -> None:
    match = _create(client)
    first = _idempotent(client, match, "k2", type="set_track", name="w", value="fog")
    fresh = Matches(env=store_env)
    app = create_app(Settings(admin_token="admin-token"), matches=fresh)
    with TestClient(app) as restarted:
        retry = restarted.post(f"/api/matches/{match}/actions",
                               json={"type": "set_track", "name": "w", "value": "fog"},
                               headers={**auth(match), "Idempotency-Key": "k2"})
        assert retry.json() == first.json()
    fresh.close()
    assert _version(client, match) == J + 1


def test_oversized_bodies_are_refused_with_413_and_append_nothing(client: TestClient) -> None:
    match = _create(client)
    big = {"type": "add_note", "text": "x" * 1900, "pad": "y" * 5000}
    r = client.post(f"/api/matches/{match}/actions", json=big, headers=auth(match))
    assert r.status_code == 413 and r.json()["rule"] == "core-limits"

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit applies while streaming
        yield b'{"type": "add_note", "text": "'
        for _ in range(100):
            yield b"z" * 100
        yield b'"}'

    streamed = client.post(f"/api/matches/{match}/actions", content=chunks(),
                           headers={**auth(match), "Content-Type": "application/json"})
    assert streamed.status_code == 413
    assert _version(client, match) == J


def test_string_and_list_limits_are_422(client: TestClient) -> None:
    match = _create(client)
    r = _act(client, match, type="add_note", text="x" * 2001)
    assert r.status_code == 422
    r = _act(client, match, type="roll_dice", notation="d6", purpose="x",
             unit_ids=[f"u{i}" for i in range(33)])
    assert r.status_code == 422
    assert _version(client, match) == J


def test_live_and_ready(client: TestClient) -> None:
    assert client.get("/api/health/live").json()["status"] == "ok"
    assert client.get("/api/health/ready").status_code == 200
    client.app_state.ready = False  # type: ignore[attr-defined]  # as during shutdown
    r = client.get("/api/health/ready")
    assert r.status_code == 503 and r.json()["detail"] == "shutting down"
    assert client.get("/api/health/live").status_code == 200


def test_catalogue_needs_the_admin_token(client: TestClient) -> None:
    match = _create(client)
    assert client.get("/api/matches", headers=auth(match)).status_code == 401
    assert [m["match_id"] for m in client.get("/api/matches", headers=ADMIN).json()] == [match]
    assert TOKENS[match]["allies"]


def test_unknown_query_parameters_and_loose_types_are_refused(client: TestClient) -> None:
    match = _create(client)
    typo = client.get(f"/api/matches/{match}/board", params={"att": 1}, headers=auth(match))
    assert typo.status_code == 422 and typo.json()["rule"] == "core-requests"
    assert "at" in typo.json()["allowed"]
    loose = _act(client, match, type="score_vp", side="allies", points=True)
    assert loose.status_code == 422
    quoted = _act(client, match, type="place_marker", kind="smoke", count="2", location="a")
    assert quoted.status_code == 422
    assert _version(client, match) == J
