"""Private information never leaks: planted secrets are absent from every surface, for every
seat that is not allowed to see them (today: nobody sees the dice seed or token hashes)."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from domain.app import Matches

SIDES = [{"id": "allies", "name": "Allies"}, {"id": "axis", "name": "Axis"}]
SEED = b"PLANTED-DICE-SEED-5f3a"


@pytest.fixture
def planted(store_env: dict[str, str]) -> Iterator[tuple[TestClient, list[str]]]:
    counter = itertools.count()
    issued: list[str] = []

    def token() -> str:
        issued.append(f"PLANTED-TOKEN-{next(counter)}-xxxxxxxxxxxxxxxx")
        return issued[-1]

    matches = Matches(env=store_env, seed_source=lambda: SEED, token_source=token)
    with TestClient(create_app(Settings(admin_token="admin"), matches=matches)) as client:
        yield client, issued
    matches.close()


def seated_match(client: TestClient) -> tuple[str, dict[str, str]]:
    """A match whose sides have joined, and a token for each seat."""
    r = client.post("/api/matches", json={"scenario": "s", "sides": SIDES})
    match, tokens = r.json()["match_id"], r.json()["tokens"]
    seats = {"referee": tokens["referee"], "spectator": tokens["spectator"]}
    for side in ("allies", "axis"):
        joined = client.post(f"/api/matches/{match}/seats", json={"player": side},
                             headers={"Authorization": f"Bearer {tokens['join:' + side]}"})
        seats[side] = joined.json()["token"]
    return match, seats


def test_no_surface_shows_the_seed_or_any_token_hash(
    planted: tuple[TestClient, list[str]]
) -> None:
    client, issued = planted
    match, seats = seated_match(client)
    reissued = client.post(f"/api/matches/{match}/tokens", json={"seat": "spectator"},
                           headers={"Authorization": f"Bearer {seats['referee']}"})
    seats["spectator"] = reissued.json()["token"]
    head = 0
    for seat, token in seats.items():
        auth = {"Authorization": f"Bearer {token}"}
        key = {**auth, "Idempotency-Key": f"k-{seat}"}
        if seat != "spectator":
            action = {"type": "roll_dice", "notation": "d6", "purpose": seat}
            client.post(f"/api/matches/{match}/actions", json=action, headers=key)
            client.post(f"/api/matches/{match}/actions", json=action, headers=key)  # replay
        head = client.get(f"/api/matches/{match}", headers=auth).json()["version"]

    secrets = [SEED.hex(), SEED.decode()]
    secrets += [hashlib.sha256(t.encode()).hexdigest() for t in issued]
    bodies = 0
    for seat, token in seats.items():
        auth = {"Authorization": f"Bearer {token}"}
        responses = [
            client.get(f"/api/matches/{match}", headers=auth),
            client.get(f"/api/matches/{match}/events", params={"limit": 500}, headers=auth),
            client.post(f"/api/matches/{match}/actions", json={"type": "nope"}, headers=auth),
            client.post(f"/api/matches/{match}/undo", json={"to": 999}, headers=auth),
            client.post(f"/api/matches/{match}/actions", headers={**auth, "Idempotency-Key":
                        "k-allies"}, json={"type": "roll_dice", "notation": "d6",
                                           "purpose": "allies"}),
        ]
        for version in range(1, head + 1):
            for view in ("board", "vp", "turn"):
                responses.append(client.get(f"/api/matches/{match}/{view}",
                                            params={"at": version}, headers=auth))
        for response in responses:
            bodies += 1
            text = response.text + str(dict(response.headers))
            leaked = [s for s in secrets if s in text]
            assert leaked == [], f"{seat} saw {leaked} at {response.url}"
            others = [t for s, t in seats.items() if s != seat]
            assert not any(t in text for t in others)
    assert bodies > 50
    print(f"{bodies} responses read as {len(seats)} seats: 0 leaks of {len(secrets)} secrets")


def test_private_notes_reach_their_author_and_the_referee_only(
    planted: tuple[TestClient, list[str]]
) -> None:
    client, _ = planted
    match, seats = seated_match(client)
    planted_by = {"allies": "PLANTED-NOTE-ALLIES-77", "referee": "PLANTED-NOTE-REFEREE-78"}
    for author, text in planted_by.items():
        r = client.post(f"/api/matches/{match}/actions",
                        json={"type": "add_note", "text": text, "private": True},
                        headers={"Authorization": f"Bearer {seats[author]}"})
        assert r.status_code == 201 and text in r.text  # the author sees their own note
    client.post(f"/api/matches/{match}/actions", json={"type": "add_note", "text": "public"},
                headers={"Authorization": f"Bearer {seats['axis']}"})
    for seat, token in seats.items():
        auth = {"Authorization": f"Bearer {token}"}
        surfaces = [client.get(f"/api/matches/{match}/events", headers=auth).text,
                    client.get(f"/api/matches/{match}/board", headers=auth).text,
                    client.get(f"/api/matches/{match}", headers=auth).text]
        text = "".join(surfaces)
        may_see = {"referee": set(planted_by), "allies": {"allies"}}.get(seat, set())
        for author, note in planted_by.items():
            assert (note in text) == (author in may_see), (seat, author)
        assert "public" in surfaces[0]
        if not may_see:
            assert '"hidden":["text"]' in surfaces[0].replace(" ", "")
