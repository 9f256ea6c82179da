"""Group commit on SQLite (issue 18): appends that arrive while a commit is under way are
committed together, in one transaction, and none returns before the commit that holds it.
A clash (another append already took that version) fails that append alone."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent

from domain.app import Matches
from domain.commands import CreateMatch, SetTrack
from projections.store import GroupCommitSQLiteApplicationRecorder, sqlite_env

SETUP = CreateMatch(scenario="test", casual=True, sides=[{"id": "red", "name": "Red"},
                                                        {"id": "blue", "name": "Blue"}])


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Matches]:
    matches = Matches(env=sqlite_env(str(tmp_path / "group.db")))
    yield matches
    matches.close()


def recorder_of(app: Matches) -> GroupCommitSQLiteApplicationRecorder:
    recorder = app.recorder
    assert isinstance(recorder, GroupCommitSQLiteApplicationRecorder)
    return recorder


def record(originator: UUID, version: int) -> StoredEvent:
    return StoredEvent(originator_id=originator, originator_version=version, topic="t:T",
                       state=b"{}")


def held_first_commit(recorder: GroupCommitSQLiteApplicationRecorder,
                      monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """The first append stops inside its transaction until `release` is set (`inside` says
    it got there), so that the appends after it wait for the next commit."""
    inside, release = threading.Event(), threading.Event()
    original = recorder._insert_events

    def insert(c: Any, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Any:
        if not inside.is_set():
            inside.set()
            release.wait(10)
        return original(c, stored_events, **kwargs)

    monkeypatch.setattr(recorder, "_insert_events", insert)
    return inside, release


def wait_for(condition: Any) -> None:
    for _ in range(1000):
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError("the appends never queued")


def test_appends_during_a_commit_are_committed_together_and_only_then_return(
        app: Matches, monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = recorder_of(app)
    before = recorder.commits
    inside, release = held_first_commit(recorder, monkeypatch)
    originators = [uuid4() for _ in range(6)]
    returned: dict[UUID, Sequence[int] | None] = {}

    def append(originator: UUID) -> None:
        returned[originator] = recorder.insert_events([record(originator, 1),
                                                       record(originator, 2)])

    first = threading.Thread(target=append, args=(originators[0],))
    first.start()
    assert inside.wait(10)
    rest = [threading.Thread(target=append, args=(o,)) for o in originators[1:]]
    for thread in rest:
        thread.start()
    wait_for(lambda: len(recorder._waiting) == 5)
    assert returned == {}  # nobody answered before its commit
    release.set()
    for thread in [first, *rest]:
        thread.join(10)
    assert recorder.commits - before == 2  # the first append's commit, then the other five
    ids = [i for o in originators for i in returned[o] or []]
    assert len(ids) == 12 and len(set(ids)) == 12
    for originator in originators:
        assert [s.originator_version for s in recorder.select_events(originator)] == [1, 2]


def test_a_clash_in_a_group_fails_that_append_alone(
        app: Matches, monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = recorder_of(app)
    taken = uuid4()
    recorder.insert_events([record(taken, 1)])
    inside, release = held_first_commit(recorder, monkeypatch)
    outcome: dict[str, object] = {}

    def append(name: str, events: list[StoredEvent]) -> None:
        try:
            outcome[name] = recorder.insert_events(events)
        except IntegrityError as error:
            outcome[name] = error

    first = threading.Thread(target=append, args=("first", [record(uuid4(), 1)]))
    first.start()
    assert inside.wait(10)
    fresh = uuid4()
    threads = [threading.Thread(target=append, args=("clash", [record(taken, 2),
                                                               record(taken, 1)])),
               threading.Thread(target=append, args=("fresh", [record(fresh, 1)]))]
    for thread in threads:
        thread.start()
    wait_for(lambda: len(recorder._waiting) == 2)
    release.set()
    for thread in [first, *threads]:
        thread.join(10)
    assert isinstance(outcome["clash"], IntegrityError)
    assert not isinstance(outcome["fresh"], Exception)
    # the clashing append left nothing behind (its version 2 rolled back with it)
    assert [s.originator_version for s in recorder.select_events(taken)] == [1]
    assert [s.originator_version for s in recorder.select_events(fresh)] == [1]


def test_concurrent_actions_are_all_in_a_fresh_process_s_store(tmp_path: Path) -> None:
    env = sqlite_env(str(tmp_path / "many.db"))
    app = Matches(env=env)
    try:
        matches = [app.create_match(SETUP).events[0].originator_id for _ in range(8)]
        acknowledged: list[tuple[UUID, int]] = []

        def play(match_id: UUID) -> None:
            for i in range(15):
                version = app.act(match_id, SetTrack(name="t", value=i)).frame.version
                acknowledged.append((match_id, version))

        threads = [threading.Thread(target=play, args=(m,)) for m in matches]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    finally:
        app.close()
    fresh = Matches(env=env)
    try:
        for match_id in matches:
            assert fresh.head(match_id).version == 16
            assert [e.version for e in fresh.events_of(match_id)] == list(range(1, 17))
    finally:
        fresh.close()
    assert len(acknowledged) == 8 * 15
