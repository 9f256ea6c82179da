"""One match's bad data stays in that match (issue 25), on both stores. A poisoned match (its
stored events stamped 9999-12-31T23:59:59.5Z, as an import once accepted, or records that do
not load at all) answers 409 on every route while the match beside it plays on; the flag
watcher still records a 2-second clock's flag at its second; the catalogue and the notifier's
outbox pass the poisoned match over, log it once and list it for the operator; a step of a
background loop that keeps failing is logged once; and the referee's clock adjustments stop
at their documented total."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
import pytest
from eventsourcing.persistence import StoredEvent
from fastapi.testclient import TestClient
from freezegun import freeze_time
from rulesets_helpers import Played, scenario

from api import scenarios
from domain import events as ev
from domain.app import Matches
from domain.app.results import token_hash
from domain.commands.clock import StartClock
from domain.events.clock import MAX_ADJUSTED
from projections.clock_watch import FlagWatcher
from projections.notify_outbox import Outbox, OutboxConfig
from projections.notify_store import CONFIRMED, Registration, open_view
from projections.ticker import Ticker

FAR = "9999-12-31T23:59:59.500000+00:00"
START = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
CLOCK = {"red": {"total": 600}, "blue": {"total": 600}}
ADMIN = {"Authorization": "Bearer admin-token"}
Spoil = Callable[[dict[str, Any]], None]


def far_future(state: dict[str, Any]) -> None:
    state["timestamp"] = FAR


def unloadable(state: dict[str, Any]) -> None:
    state["timestamp"] = "not a time"


def poisoned(matches: Matches, source: Any, spoil: Spoil) -> uuid.UUID:
    """A new match in the store: `source`'s stored events, each spoiled (written past every
    check, as a faulty version or an old import would have)."""
    new = uuid.uuid4()
    records = []
    for stored in matches.recorder.select_events(uuid.UUID(str(source))):
        state = orjson.loads(stored.state)
        spoil(state)
        records.append(StoredEvent(new, stored.originator_version, stored.topic,
                                   orjson.dumps(state)))
    matches.recorder.insert_events(records)
    return new


def warnings_about(caplog: pytest.LogCaptureFixture, loop: str, match: uuid.UUID) -> list[str]:
    return [said for r in caplog.records if r.name == "battlelog.isolation"
            and (said := r.getMessage()).startswith(f"{loop}: match {match} fails")]


def test_a_poisoned_match_answers_409_on_every_route_and_the_others_play_on(
        client: TestClient, matches: Matches, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, "battlelog.isolation")
    healthy = Played(client, scenario("atomic-africa-demo", clock=CLOCK))
    source = Played(client, scenario("atomic-africa-demo", clock=CLOCK))
    bad = poisoned(matches, source.match, far_future)
    for method, path, seat, body in [
            ("GET", "", "referee", None), ("GET", "/board", "red", None),
            ("GET", "/turn", "red", None), ("GET", "/legal", "red", None),
            ("GET", "/clock", "red", None), ("GET", "/events", "red", None),
            ("POST", "/actions", "red", {"type": "activate_unit", "unit_id": "sq1"}),
            ("POST", "/undo", "referee", {"actions": 1}), ("POST", "/redo", "referee", None)]:
        r = client.request(method, f"/api/matches/{bad}{path}", json=body,
                           headers=source.auth(seat))
        assert r.status_code == 409, (path, r.text)
        assert r.headers["content-type"].startswith("application/problem+json"), path
        assert r.json()["rule"] == "core-store", path
    assert [e.originator_version for e in matches.recorder.select_events(bad)] == list(
        range(1, source.version + 1))  # nothing appended to it
    healthy.act("red", type="activate_unit", unit_id="sq1")
    assert "activated" in healthy.unit("sq1")["status"]
    listed = client.get("/api/matches", headers=ADMIN)
    assert listed.status_code == 200, listed.text
    assert {e["match_id"] for e in listed.json()} == {healthy.match, source.match}
    failing = client.get("/api/health/failing", headers=ADMIN)
    assert failing.status_code == 200, failing.text
    [mark] = failing.json()
    assert (mark["loop"], mark["match_id"]) == ("catalogue", str(bad))
    assert "9999-12-31" in mark["error"] and mark["failures"] == source.version
    assert len(warnings_about(caplog, "catalogue", bad)) == 1  # each event failed; logged once
    assert client.get("/api/health/failing").status_code == 401  # for the operator only


def test_the_flag_watcher_records_a_healthy_flag_at_its_second_beside_a_poisoned_match(
        matches: Matches, store_env: dict[str, str], caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, "battlelog.isolation")
    restarted = Matches(env=store_env)  # the watcher's process, started after the import
    try:
        with freeze_time(START) as clock:
            demo = scenarios.load("atomic-africa-demo")
            source = matches.create_match(demo).events[0].originator_id
            matches.act(source, StartClock.model_validate({"controls": CLOCK}))
            bad = poisoned(matches, source, far_future)
            healthy = matches.create_match(demo).events[0].originator_id
            matches.act(healthy, StartClock.model_validate(
                {"controls": {"red": {"total": 2}, "blue": {"total": 2}}}))
            watcher = FlagWatcher(restarted, discover=lambda: [bad, healthy])
            recorded = []
            for _ in range(61):  # a minute, one tick a second: discovers thrice
                recorded.append(watcher.tick())
                clock.tick(timedelta(seconds=1))
        assert sum(recorded) == 1 and recorded[:3] == [0, 0, 1]  # red's, noticed at 2 s
        [fell] = [e for e in matches.events_of(healthy) if isinstance(e, ev.FlagFell)]
        assert fell.side == "red" and fell.timestamp == START + timedelta(seconds=2)
        [mark] = watcher.failing.marks()
        assert mark.match_id == str(bad) and mark.failures == 3  # retried with backoff
        assert len(warnings_about(caplog, "flag watcher", bad)) == 1
    finally:
        restarted.close()


def test_the_outbox_passes_an_unreadable_match_over_and_tells_the_others(
        client: TestClient, matches: Matches, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, "battlelog.isolation")
    client.app.state.notify.stop()  # type: ignore[attr-defined]  # the test runs the outbox
    view = open_view(matches.factory, "postgres" in matches.env["PERSISTENCE_MODULE"])
    healthy = Played(client, scenario("atomic-africa-demo"))
    source = Played(client, scenario("atomic-africa-demo"))
    bad = poisoned(matches, source.match, unloadable)
    for match, holder in ((healthy.match, healthy.tokens["blue"]),
                          (str(bad), source.tokens["blue"])):
        assert view.add_registration(Registration(
            registration_id=uuid.uuid4().hex, match_id=match, seat="blue", kind="webhook",
            target="http://127.0.0.1:9/hook", secret="whsec_test", p256dh=None, auth=None,
            created=0.0, status=CONFIRMED, confirmed=0.0, holder=token_hash(holder)),
            5, 10) is None  # confirmed, made by blue's token
    outbox = Outbox(matches, view, OutboxConfig())
    healthy.act("red", type="activate_unit", unit_id="sq1")
    healthy.act("red", type="advance")  # blue's turn: a handoff
    outbox.catch_up()
    assert [n.seat for n in view.notices(healthy.match)] == ["blue"]
    assert view.notices(str(bad)) == []
    healthy.act("blue", type="activate_unit", unit_id="ml1")
    outbox.catch_up()
    assert [m.match_id for m in outbox.failing.marks()] == [str(bad)]
    assert len(warnings_about(caplog, "notifier outbox", bad)) == 1


def test_a_background_step_that_keeps_failing_is_logged_once_until_it_works(
        matches: Matches, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, "battlelog.ticker")
    broken = [True]

    def work() -> None:
        if broken[0]:
            raise OSError("the store does not answer")

    ticker = Ticker(matches, "catalogue", work, interval=0.25)
    assert [ticker.step() for _ in range(5)] == [False] * 5
    assert ticker.failures == 5
    broken[0] = False
    assert ticker.step() is True and ticker.failures == 0
    said = [r.getMessage() for r in caplog.records if r.name == "battlelog.ticker"]
    assert said == [("catalogue: a step failed; retrying with backoff (logged once until it "
                     "works again)"), "catalogue: works again after 5 failed step(s)"]


def test_clock_adjustments_past_their_total_are_refused_with_nothing_appended(
        client: TestClient) -> None:
    m = Played(client, scenario("atomic-africa-demo", clock=CLOCK))
    m.act("referee", type="adjust_clock", side="blue", seconds=MAX_ADJUSTED, reason="a month")
    refused = m.refused("referee", 422, "core-clock", type="adjust_clock", side="blue",
                        seconds=MAX_ADJUSTED, reason="and another")
    assert "at most 2592000 seconds (30 days)" in refused["detail"]
    m.act("referee", type="adjust_clock", side="blue", seconds=-60, reason="a minute back")
    m.act("referee", type="adjust_clock", side="blue", seconds=60, reason="up to the limit")
    m.refused("referee", 422, "core-clock", type="adjust_clock", side="blue", seconds=1,
              reason="one more")
    blue = next(s for s in m.get("/clock")["sides"] if s["side"] == "blue")
    assert blue["remaining"] == 600 + MAX_ADJUSTED
    r = client.post(f"/api/matches/{m.match}/actions", headers=m.auth("referee"),
                    json={"type": "adjust_clock", "side": "red", "seconds": MAX_ADJUSTED + 1,
                          "reason": "too much at once"})
    assert r.status_code == 422 and r.json()["errors"][0]["loc"][-1] == "seconds", r.text
