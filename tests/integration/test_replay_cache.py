"""Replay files as served (issue 37, finding 11; docs/replay.md "Cost"): written once per
match version, viewpoint and annotations, kept, and served from the cache after; asked at
once, written once; a file past the bound of work refused (413) with nothing recorded;
counted against a quota per client address and one per match (429)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario

from api.app import create_app
from api.settings import Settings
from domain.app import Matches
from projections import replay_file


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The match ids played from their first version for a file: a file's main line (one
    per file written), and a what-if's when it inherits no events."""
    calls: list[str] = []
    played = replay_file.played

    def counting(matches: Matches, match_id: Any, *args: Any, **kwargs: Any) -> Any:
        start = args[2] if len(args) > 2 else kwargs.get("start", 1)
        if start == 1:  # the main line (a variation starts later)
            calls.append(str(match_id))
        return played(matches, match_id, *args, **kwargs)

    monkeypatch.setattr(replay_file, "played", counting)
    yield calls


def serving(matches: Matches, **settings: Any) -> TestClient:
    return TestClient(create_app(Settings(admin_token="a", **settings), matches=matches),
                      client=("203.0.113.7", 50000))


def replay(m: Played, seat: str = "red") -> Any:
    return m.client.get(f"/api/matches/{m.match}/replay", headers=m.auth(seat))


def test_a_version_is_written_once_then_served_from_the_cache(
        client: TestClient, built: list[str]) -> None:
    m = Played(client, scenario("atomic-africa-demo"))
    first, again = replay(m), replay(m)
    assert first.status_code == again.status_code == 200
    assert first.content == again.content and built == [m.match]
    assert replay(m, "blue").status_code == 200 and len(built) == 2  # another viewpoint
    m.act("red", type="activate_unit", unit_id="sq1")  # a new version: written again
    newer = replay(m)
    assert newer.content != first.content and len(built) == 3
    r = client.post(f"/api/matches/{m.match}/annotations", headers=m.auth("red"),
                    json={"kind": "comment", "text": "a new note", "at_version": 1})
    assert r.status_code == 201, r.text
    noted = replay(m)  # a new annotation: the same match version, another file
    assert "a new note" in noted.text and len(built) == 4
    assert replay(m).content == noted.content and len(built) == 4


def test_asked_at_once_a_file_is_written_once(client: TestClient,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    m = Played(client, scenario("atomic-africa-demo"))
    m.act("red", type="activate_unit", unit_id="sq1")
    entered, release = threading.Event(), threading.Event()
    played = replay_file.played

    entries: list[int] = []

    def held(*args: Any, **kwargs: Any) -> Any:
        entries.append(1)
        entered.set()
        release.wait(30)
        return played(*args, **kwargs)

    monkeypatch.setattr(replay_file, "played", held)
    answers: list[Any] = []
    asking = [threading.Thread(target=lambda: answers.append(replay(m))) for _ in range(4)]
    for thread in asking:
        thread.start()
    assert entered.wait(30)
    time.sleep(0.5)  # (ordering only) the other three have asked meanwhile
    release.set()
    for thread in asking:
        thread.join(60)
    assert [a.status_code for a in answers] == [200] * 4
    assert len({a.content for a in answers}) == 1
    assert len(entries) == 1


def test_a_file_past_the_bound_is_refused_and_records_nothing(
        matches: Matches, built: list[str]) -> None:
    with serving(matches, replay_max_work=40) as client:
        m = Played(client, scenario("atomic-africa-demo"))
        small = Played(client, {"scenario": "s", "sides": [{"id": "red", "name": "Red"},
                                                             {"id": "blue", "name": "Blue"}]})
        for _ in range(3):
            m.act("red", type="roll_dice", notation="d6", purpose="luck")
        version = m.get("")["version"]
        r = replay(m)
        assert r.status_code == 413, r.text
        problem = r.json()
        assert problem["rule"] == "core-replay" and "too large" in problem["detail"]
        assert r.headers["content-type"].startswith("application/problem+json")
        assert m.get("")["version"] == version and built == []  # refused before writing
        assert replay(small).status_code == 200  # a small match's file is written


def test_files_count_against_the_address_and_the_match(
        matches: Matches, built: list[str]) -> None:
    with serving(matches, replay_rate="3/minute", replay_build_rate="2/hour") as client:
        m = Played(client, scenario("atomic-africa-demo"))
        assert replay(m).status_code == 200
        m.act("red", type="activate_unit", unit_id="sq1")
        assert replay(m).status_code == 200  # the match's second file written
        m.act("red", type="roll_dice", notation="d6", purpose="luck")
        third = replay(m)  # a third file for the match: past its quota, nothing written
        assert third.status_code == 429, third.text
        assert third.json()["rule"] == "core-quotas" and int(third.headers["Retry-After"]) >= 1
        assert len(built) == 2
        other = Played(client, scenario("atomic-africa-demo"))
        past = replay(other)  # the address's fourth file this minute
        assert past.status_code == 429 and "from one address" in past.json()["detail"]
        assert int(past.headers["Retry-After"]) >= 1 and len(built) == 2


def test_past_the_lane_and_its_queue_a_file_is_busy_not_held(
        matches: Matches, monkeypatch: pytest.MonkeyPatch) -> None:
    """One file written at a time and none waiting: another match's file asked meanwhile is
    503, and is written once the lane is free."""
    from api.replay_files import ReplayBusy, ReplayFiles

    with serving(matches) as client:
        first = Played(client, scenario("atomic-africa-demo"))
        second = Played(client, scenario("atomic-africa-demo"))
    files = ReplayFiles(lanes=1, queue=0)
    entered, release = threading.Event(), threading.Event()
    played = replay_file.played

    def held(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        release.wait(30)
        return played(*args, **kwargs)

    monkeypatch.setattr(replay_file, "played", held)
    writing = threading.Thread(target=files.file, args=(matches, UUID(first.match), "referee"))
    writing.start()
    assert entered.wait(30)
    with pytest.raises(ReplayBusy):
        files.file(matches, UUID(second.match), "referee")
    release.set()
    writing.join(60)
    assert files.file(matches, UUID(second.match), "referee").startswith(b"<!doctype html>")
    assert files.built == 2


def test_a_what_if_counts_in_the_work_and_its_moves_write_the_file_anew(
        client: TestClient, matches: Matches, built: list[str]) -> None:
    """A variation's events count in a file's work as they are written (the first look
    counts the main line only), and a new event in the what-if makes the next request
    write the main line's file again."""
    m = Played(client, scenario("atomic-africa-demo"))
    r = client.post(f"/api/matches/{m.match}/fork", params={"at": m.version},
                    headers=m.auth("referee"))
    assert r.status_code == 201, r.text
    fork = Played.__new__(Played)
    fork.client, fork.body = client, m.body
    fork.match, fork.tokens = str(r.json()["match_id"]), dict(r.json()["tokens"])
    for _ in range(4):
        fork.act("referee", type="roll_dice", notation="d6", purpose="luck")
    r = client.post(f"/api/matches/{m.match}/annotations", headers=m.auth("referee"), json={
        "kind": "variation", "fork": fork.match, "at_version": m.version,
        "visibility": "public"})
    assert r.status_code == 201, r.text
    assert replay(m, "referee").status_code == 200 and built.count(m.match) == 1
    head = matches.head(UUID(m.match))
    main = head.version * (len(head.state.units) + 1)
    work = replay_file.Work(most=main + 1)  # the main line's work passes the first look
    with pytest.raises(replay_file.ReplayTooLarge):
        replay_file.replay_data(matches, UUID(m.match), "referee", work)
    assert work.spent > main
    built.clear()
    assert replay(m, "referee").status_code == 200 and built.count(m.match) == 0  # kept
    fork.act("referee", type="roll_dice", notation="d6", purpose="luck")
    again = replay(m, "referee")
    assert again.status_code == 200 and built.count(m.match) == 1  # the what-if moved
