"""`GET /api/matches/{id}/invitation`: what a join link invites to (the match and the side, in
the players' names), for the join page; a used, replaced or wrong token opens nothing."""

from __future__ import annotations

import uuid

from fastapi.testclient import TestClient

SIDES = [{"id": "red", "name": "Expeditionary Force"}, {"id": "blue", "name": "Free Militia"}]


def create(client: TestClient) -> tuple[str, dict[str, str]]:
    r = client.post("/api/matches", json={"ruleset": "atomic-africa", "scenario": "AA-X1: the Wadi",
                                          "sides": SIDES})
    assert r.status_code == 201, r.text
    return str(r.json()["match_id"]), r.json()["tokens"]


def invitation(client: TestClient, match: str, token: str) -> tuple[int, dict[str, object]]:
    r = client.get(f"/api/matches/{match}/invitation", headers={"Authorization": f"Bearer {token}"})
    return r.status_code, r.json()


def version(client: TestClient, match: str, token: str) -> int:
    r = client.get(f"/api/matches/{match}", headers={"Authorization": f"Bearer {token}"})
    return int(r.json()["version"])


def test_a_join_link_names_the_match_and_the_side_it_takes(client: TestClient) -> None:
    match, tokens = create(client)
    status, body = invitation(client, match, tokens["join:blue"])
    assert status == 200, body
    assert body["scenario"] == "AA-X1: the Wadi" and body["ruleset_title"] == "Atomic Africa"
    assert body["side"] == {"id": "blue", "name": "Free Militia"}
    assert body["sides"] == SIDES and body["seats"] == [] and body["ended"] is False


def test_a_seat_token_names_the_match_and_no_side_to_take(client: TestClient) -> None:
    match, tokens = create(client)
    joined = client.post(f"/api/matches/{match}/seats", json={"player": "Ann"},
                         headers={"Authorization": f"Bearer {tokens['join:red']}"})
    assert joined.status_code == 201
    for token in (tokens["referee"], tokens["spectator"], joined.json()["token"]):
        status, body = invitation(client, match, token)
        assert status == 200 and body["side"] is None
        assert body["seats"] == [{"side": "red", "player": "Ann"}]


def test_a_used_or_wrong_join_link_opens_nothing_and_changes_nothing(client: TestClient) -> None:
    match, tokens = create(client)
    joined = client.post(f"/api/matches/{match}/seats", json={"player": "Bert"},
                         headers={"Authorization": f"Bearer {tokens['join:blue']}"})
    assert joined.status_code == 201
    before = version(client, match, tokens["referee"])
    for where, token in ((match, tokens["join:blue"]), (match, "not-a-token"),
                         (str(uuid.uuid4()), tokens["join:red"])):
        status, body = invitation(client, where, token)
        assert status == 401 and body["rule"] == "core-seats", body
    assert version(client, match, tokens["referee"]) == before
    r = client.get(f"/api/matches/{match}/invitation")
    assert r.status_code == 401
