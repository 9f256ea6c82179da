"""The game clock through the API, on both stores: the referee starts, pauses and adjusts it
with ordinary actions, a side is refused with nothing appended, the clocks read back now and
as they stood at a version, each event is said in words, and a flag fall is recorded once, at
its own second, by whichever process notices first (two applications on one store)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from freezegun import freeze_time
from rulesets_helpers import Played, scenario

from api import scenarios
from api.app import create_app
from api.settings import Settings
from domain import events as ev
from domain.app import Matches
from domain.commands import ActivateUnit
from domain.commands.clock import StartClock
from domain.integrity import verify
from projections.clock_watch import FlagWatcher
from projections.store import sqlite_env

START = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
CONTROLS = {"red": {"total": 600, "increment": 10, "per": "activation"},
            "blue": {"total": 300}}


class Now:
    """The service's current time, moved on by the test (the application's clock is
    injected: `MatchLog.clock`)."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def tick(self, delta: timedelta) -> None:
        self.now += delta


@pytest.fixture
def frozen() -> Now:
    return Now()


@pytest.fixture
def timed(store_env: dict[str, str], frozen: Now) -> Iterator[TestClient]:
    matches = Matches(env=store_env, clock=frozen)
    try:
        with TestClient(create_app(Settings(admin_token="admin-token"),
                                   matches=matches)) as client:
            yield client
    finally:
        matches.close()


def sides(clock: dict[str, Any]) -> dict[str, tuple[float, bool]]:
    return {s["side"]: (s["remaining"], s["running"]) for s in clock["sides"]}


def test_the_referee_runs_the_clock_and_a_side_cannot(timed: TestClient, frozen: Now) -> None:
    client = timed
    m = Played(client, scenario("atomic-africa-demo"))
    assert m.get("/clock")["started"] is False
    m.act("referee", type="start_clock", controls=CONTROLS)
    started = m.version
    frozen.tick(timedelta(seconds=60))
    assert sides(m.get("/clock", "blue")) == {"red": (540.0, True), "blue": (300.0, False)}
    for action in ({"type": "pause_clock"}, {"type": "resume_clock"},
                   {"type": "adjust_clock", "side": "red", "seconds": 600, "reason": "x"},
                   {"type": "start_clock", "controls": CONTROLS}):
        m.refused("red", 403, "core-authority", body=action)
    m.act("referee", type="pause_clock", reason="lunch")
    frozen.tick(timedelta(minutes=30))
    assert sides(m.get("/clock")) == {"red": (540.0, False), "blue": (300.0, False)}
    assert m.get("/clock")["paused"] is True
    m.act("referee", type="resume_clock")
    m.act("referee", type="adjust_clock", side="blue", seconds=-60, reason="late start")
    frozen.tick(timedelta(seconds=5))
    assert sides(m.get("/clock")) == {"red": (535.0, True), "blue": (240.0, False)}
    # as it stood when it started, read at that moment
    past = m.get("/clock", at=started)
    assert sides(past) == {"red": (600.0, True), "blue": (300.0, False)}
    assert past["version"] == started
    said = [e["said"] for e in m.get("/events", type="ClockAdjusted")["events"]]
    assert said == ["Referee took 0:01:00 from " + m.body["sides"][1]["name"]
                    + " on the clock: “late start”"]


def test_bounds_are_refused_with_nothing_appended(client: TestClient) -> None:
    m = Played(client, scenario("atomic-africa-demo"))
    before = m.version
    for controls in ({"red": {"total": 0}, "blue": {"total": 60}},
                     {"red": {"total": 60, "increment": 5}, "blue": {"total": 60}},
                     {"red": {"total": 2_592_001}, "blue": {"total": 60}}):
        r = client.post(f"/api/matches/{m.match}/actions", headers=m.auth("referee"),
                        json={"type": "start_clock", "controls": controls})
        assert r.status_code == 422, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
    m.refused("referee", 422, "core-clock", type="start_clock",
              controls={"red": {"total": 60}})  # every side needs one
    assert m.version == before


def test_a_flag_falls_once_at_its_second_whoever_notices(
        matches: Matches, store_env: dict[str, str]) -> None:
    other = Matches(env=store_env)  # a second process on the same store
    try:
        with freeze_time(START) as clock:
            match = matches.create_match(scenarios.load("atomic-africa-demo")).events[0].originator_id
            matches.act(match, StartClock.model_validate(
                {"controls": {"red": {"total": 60}, "blue": {"total": 60}}}))
            clock.tick(timedelta(seconds=45))
            assert other.check_flags(match) is None  # not yet
            clock.tick(timedelta(minutes=10))  # noticed ten minutes late
            result = other.check_flags(match)
            assert result is not None and len(result.events) == 1
            assert matches.check_flags(match) is None  # the first process finds it recorded
            assert other.check_flags(match) is None  # and so does the one that recorded it
            matches.act(match, ActivateUnit(unit_id="sq1"), actor="red")
        log = list(matches.events_of(match))
        fell = [e for e in log if isinstance(e, ev.FlagFell)]
        assert len(fell) == 1 and fell[0].side == "red"
        assert fell[0].timestamp == START + timedelta(seconds=60)  # not when it was noticed
        assert [type(e).__name__ for e in log[-2:]] == ["FlagFell", "UnitsActivated"]
        assert log[-1].timestamp == START + timedelta(minutes=10, seconds=45)
    finally:
        other.close()


def test_an_action_after_the_flag_fall_is_ordered_after_it(
        timed: TestClient, frozen: Now) -> None:
    m = Played(timed, scenario("atomic-africa-demo"))
    m.act("referee", type="start_clock", controls={"red": {"total": 60}, "blue": {"total": 60}})
    frozen.tick(timedelta(seconds=90))
    events = m.act("red", type="activate_unit", unit_id="sq1")
    assert [e["type"] for e in events] == ["UnitsActivated"]
    log = m.get("/events")["events"]
    assert [e["type"] for e in log[-2:]] == ["FlagFell", "UnitsActivated"]
    [red] = [s for s in m.get("/clock")["sides"] if s["side"] == "red"]
    assert red["flag_fallen"] is True and red["remaining"] == 0.0
    assert log[-2]["said"].endswith("flag fell at 09:01:00 UTC: its time ran out. The referee "
                                    "rules on what it means.")


def test_the_watcher_records_a_flag_fall_with_no_action(
        matches: Matches, store_env: dict[str, str]) -> None:
    watcher_process = Matches(env=store_env)  # `battlelog project`'s own application
    try:
        with freeze_time(START) as clock:
            match = matches.create_match(
                scenarios.load("atomic-africa-demo")).events[0].originator_id
            matches.act(match, StartClock.model_validate(
                {"controls": {"red": {"total": 30}, "blue": {"total": 30}}}))
            watcher = FlagWatcher(watcher_process, discover=lambda: [match])
            assert watcher.tick() == 0  # discovers the match; nothing due yet
            clock.tick(timedelta(seconds=31))
            assert watcher.tick() == 1
            assert watcher.tick() == 0  # once
        [fell] = [e for e in matches.events_of(match) if isinstance(e, ev.FlagFell)]
        assert fell.timestamp == START + timedelta(seconds=30)
    finally:
        watcher_process.close()


def test_the_clock_survives_export_and_import_and_verifies(
        timed: TestClient, frozen: Now, tmp_path: Any) -> None:
    m = Played(timed, scenario("atomic-africa-demo"))
    m.act("referee", type="start_clock", controls=CONTROLS)
    frozen.tick(timedelta(seconds=20))
    m.act("referee", type="pause_clock", reason="a question")
    m.act("referee", type="adjust_clock", side="blue", seconds=45, reason="rules lookup")
    m.act("referee", type="end_match", winner="red")
    exported = timed.get(f"/api/matches/{m.match}/export", headers=m.auth("referee")).text
    assert verify(exported.splitlines(keepends=True)).events_hidden == 0
    elsewhere = Matches(env=sqlite_env(str(tmp_path / "elsewhere.db")), clock=frozen)
    try:
        with TestClient(create_app(Settings(admin_token="admin-token"),
                                   matches=elsewhere)) as other:
            r = other.post("/api/matches/import", content=exported.encode(),
                           headers={"Content-Type": "application/x-ndjson"})
            assert r.status_code == 201, r.text
            referee = {"Authorization": f"Bearer {r.json()['tokens']['referee']}"}
            for at in range(2, m.version + 1):  # every version's clocks, the same there
                mine = m.get("/clock", at=at)
                theirs = other.get(f"/api/matches/{m.match}/clock", params={"at": at},
                                   headers=referee).json()
                assert theirs == mine, at
            assert sides(mine) == {"red": (580.0, False), "blue": (345.0, False)}
    finally:
        elsewhere.close()


def test_a_ruling_shows_the_clocks_as_they_stood_when_it_was_made(
        timed: TestClient, frozen: Now) -> None:
    m = Played(timed, scenario("atomic-africa-demo"))
    m.act("referee", type="start_clock", controls=CONTROLS)
    frozen.tick(timedelta(seconds=30))
    [opened] = m.act("blue", type="open_dispute", about_version=1, text="too slow")
    frozen.tick(timedelta(seconds=12))
    r = timed.post(f"/api/matches/{m.match}/disputes/{opened['version']}/ruling",
                   json={"ruling": "play on"}, headers=m.auth("referee"))
    assert r.status_code == 201, r.text
    ruled = r.json()["events"][0]["version"]
    frozen.tick(timedelta(minutes=5))  # read later: the ruling's clocks stay as they stood
    at_ruling = m.get("/clock", at=ruled)
    assert sides(at_ruling) == {"red": (558.0, True), "blue": (300.0, False)}  # 600 - 42 s
    assert at_ruling["at"].startswith("2026-05-01T09:00:42")


def test_time_controls_chosen_at_creation_start_the_clock_with_the_match(
        timed: TestClient, frozen: Now) -> None:
    client = timed
    m = Played(client, scenario("atomic-africa-demo", clock=CONTROLS))
    events = client.get(f"/api/matches/{m.match}/events", headers=m.auth("referee")).json()
    kinds = [e["type"] for e in events["events"]][:2]
    assert kinds == ["MatchCreated", "ClockStarted"]  # one save: no match without its clock
    frozen.tick(timedelta(seconds=60))
    assert sides(m.get("/clock", "blue")) == {"red": (540.0, True), "blue": (300.0, False)}
    m.refused("referee", 422, "core-clock", body={"type": "start_clock", "controls": CONTROLS})


@pytest.mark.parametrize("clock", [{"red": {"total": 600}},  # a side without a control
                                   {**CONTROLS, "green": {"total": 60}},  # a side it lacks
                                   {"red": {"total": 0}, "blue": {"total": 60}}])
def test_time_controls_at_creation_are_refused_whole(timed: TestClient, clock: Any) -> None:
    before = timed.get("/api/matches", headers={"Authorization": "Bearer admin-token"}).json()
    r = timed.post("/api/matches", json=scenario("atomic-africa-demo", clock=clock))
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    after = timed.get("/api/matches", headers={"Authorization": "Bearer admin-token"}).json()
    assert after == before  # nothing created


def test_a_process_folds_a_long_clock_a_chunk_at_a_time_to_the_same_clock(
        matches: Matches, store_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that first meets a long match (the flag watcher after an import) reads its
    log in chunks, never whole, and works out the same clocks as the process that was there."""
    from domain.app import clock as clock_usecases
    from domain.commands import AddNote

    newcomer = Matches(env=store_env)
    read: list[int] = []
    events_of = newcomer.events_of

    def counted(*args: Any, **kwargs: Any) -> Any:
        chunk = list(events_of(*args, **kwargs))
        read.append(len(chunk))
        return iter(chunk)

    try:
        with freeze_time(START) as clock:
            match = matches.create_match(
                scenarios.load("atomic-africa-demo")).events[0].originator_id
            for n in range(2):  # read again once the start is found: fewer than a chunk
                matches.act(match, AddNote(text=f"before the clock {n}"), actor="red")
            matches.act(match, StartClock.model_validate(
                {"controls": {"red": {"total": 600}, "blue": {"total": 600}}}))
            for n in range(12):
                clock.tick(timedelta(seconds=7))
                matches.act(match, AddNote(text=f"on the clock {n}"), actor="blue")
            monkeypatch.setattr(clock_usecases, "FOLD_CHUNK", 5, raising=False)
            head = newcomer.head(match)
            monkeypatch.setattr(newcomer, "events_of", counted)
            assert newcomer.clock_of(match, head) == matches.clock_of(match)
        assert read and max(read) <= 5
        assert sum(read) >= head.version  # the whole log was read, in chunks
    finally:
        newcomer.close()
