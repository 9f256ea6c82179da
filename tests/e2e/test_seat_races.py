"""Seat changes are atomic, against two real server processes on one store (SQLite file,
PostgreSQL): of racing joins with one join token exactly one gets the seat, and no action
with a token is appended after that token's revocation."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import serving

pytestmark = pytest.mark.e2e
SIDES = [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]


def race(calls: list[Callable[[], httpx.Response]]) -> list[httpx.Response]:
    """Run the calls at once (released together by a barrier); their answers in order."""
    barrier = threading.Barrier(len(calls))
    answers: list[httpx.Response | None] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        answers[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert all(a is not None for a in answers)
    return [a for a in answers if a is not None]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def events(url: str, match: str, referee: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    while True:
        page = httpx.get(f"{url}/api/matches/{match}/events", headers=bearer(referee),
                         params={"after": len(found), "limit": 500}, timeout=30).json()
        found += page["events"]
        if len(page["events"]) < 500:
            return found


Shared = tuple[list[str], str, dict[str, str]]  # two servers' URLs, the match, its tokens


@pytest.fixture
def shared(tmp_path: Path, store: dict[str, str]) -> Iterator[Shared]:
    """Two server processes on one store, and a new match on it."""
    with ExitStack() as stack:
        urls = [stack.enter_context(serving(tmp_path / "battlelog.db", store))
                for _ in range(2)]
        created = httpx.post(f"{urls[0]}/api/matches", timeout=30,
                             json={"scenario": "race", "sides": SIDES}).json()
        yield urls, created["match_id"], created["tokens"]


def test_racing_joins_with_one_join_token_seat_exactly_one_player(shared: Shared) -> None:
    urls, match, tokens = shared
    answers = race([
        (lambda i=i: httpx.post(f"{urls[i % 2]}/api/matches/{match}/seats", timeout=60,
                                json={"player": f"player {i}"},
                                headers=bearer(tokens["join:red"])))
        for i in range(10)])
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [201] + [401] * 9, [a.text for a in answers]
    joined = [e for e in events(urls[1], match, tokens["referee"])
              if e["type"] == "SeatJoined"]
    assert len(joined) == 1
    winner = next(a for a in answers if a.status_code == 201).json()
    assert joined[0]["player"] == winner["player"]
    r = httpx.get(f"{urls[1]}/api/matches/{match}", headers=bearer(winner["token"]),
                  timeout=30)
    assert r.json()["viewer"] == "red"


def test_no_action_is_appended_after_its_tokens_revocation(shared: Shared) -> None:
    urls, match, tokens = shared
    red = httpx.post(f"{urls[0]}/api/matches/{match}/seats", json={"player": "Ann"},
                     headers=bearer(tokens["join:red"]), timeout=30).json()["token"]

    def note(i: int) -> httpx.Response:
        return httpx.post(f"{urls[i % 2]}/api/matches/{match}/actions", timeout=60,
                          json={"type": "add_note", "text": f"note {i}"},
                          headers=bearer(red))

    def reissue() -> httpx.Response:
        for _ in range(20):  # a busy match may ask it to try again (409)
            r = httpx.post(f"{urls[1]}/api/matches/{match}/tokens", json={"seat": "red"},
                           headers=bearer(tokens["referee"]), timeout=60)
            if r.status_code != 409:
                return r
        return r

    answers = race([*(lambda i=i: note(i) for i in range(40)), reissue])
    assert answers[-1].status_code == 201, answers[-1].text
    acted = answers[:-1]
    # 409: too many concurrent updates, try again (nothing appended: counted below)
    assert {a.status_code for a in acted} <= {201, 401, 409}, [a.text for a in acted]
    log = events(urls[0], match, tokens["referee"])
    revoked = next(e["version"] for e in log if e["type"] == "SeatTokenRevoked"
                   and e["seat"] == "red" and e["version"] > 3)
    notes = [e for e in log if e["type"] == "NoteAdded"]
    assert all(e["version"] < revoked for e in notes)
    assert len(notes) == sum(a.status_code == 201 for a in acted)  # none lost or doubled
    assert all(a.json()["title"] == "Not seated" or a.json().get("rule") == "core-seats"
               for a in acted if a.status_code == 401)
