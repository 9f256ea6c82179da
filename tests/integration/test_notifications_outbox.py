"""The outbox and its delivery on each store, with clocks given in: reminders after the
quiet time, each written once and at most the configured number, none once the seat is no
longer waited for; a seat present at the table is not told (its notice is recorded as
suppressed, no attempt made); a receiver that cannot be reached is retried with growing
delays and recorded, then given up after the last attempt."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from notify_confirming import confirm, seated

from api.app import create_app
from api.settings import Settings
from domain.app import Matches
from projections.notify_channels import Channels, SmtpConfig
from projections.notify_delivery import Deliverer, DeliveryConfig, backoff
from projections.notify_outbox import Outbox, OutboxConfig
from projections.notify_store import NotifyView, open_view

QUIET = 3600.0
CLOSED = "http://127.0.0.1:9/hook"  # the discard port: nobody listens


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def client(matches: Matches) -> Iterator[TestClient]:
    settings = Settings(admin_token="admin-token", notify_allow_private=True)
    with TestClient(create_app(settings, matches=matches)) as client:
        client.app.state.notify.stop()  # the tests run the outbox and the delivery
        yield client


def handoff(client: TestClient) -> tuple[str, dict[str, str]]:
    """A seated Atomic Africa demo with a confirmed webhook for each side; red hands over
    to blue."""
    match, tokens = seated(client)
    for side in ("red", "blue"):
        made = client.post(f"/api/matches/{match}/notifications",
                           json={"kind": "webhook", "url": CLOSED}, headers=auth(tokens[side]))
        assert made.status_code == 201
        confirm(client, match, made.json()["registration_id"])
    act(client, match, tokens, "actions", {"type": "activate_unit", "unit_id": "sq1"})
    act(client, match, tokens, "actions", {"type": "advance"})
    return match, tokens


def act(client: TestClient, match: str, tokens: dict[str, str], path: str,
        body: dict[str, object] | None) -> None:
    done = client.post(f"/api/matches/{match}/{path}", json=body, headers=auth(tokens["red"]))
    assert done.status_code == 201, done.text


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def view_of(matches: Matches) -> NotifyView:
    return open_view(matches.factory, "postgres" in matches.env["PERSISTENCE_MODULE"])


def reminding(matches: Matches) -> tuple[Clock, Outbox]:
    """An outbox with a clock of its own, at most two reminders, the log applied."""
    clock = Clock(1_000_000_000.0)
    outbox = Outbox(matches, view_of(matches), OutboxConfig(quiet=QUIET, reminders=2), clock)
    outbox.catch_up()
    return clock, outbox


def test_reminders_come_after_the_quiet_time_once_each_and_at_most_so_many(
        client: TestClient, matches: Matches) -> None:
    match, _ = handoff(client)
    clock, outbox = reminding(matches)
    [told] = [n for n in outbox.view.notices(match) if n.seat == "blue" and n.reminder >= 0]

    def reminders() -> list[int]:
        return sorted(n.reminder for n in outbox.view.notices(match) if n.reminder > 0)

    clock.now += QUIET - 1
    assert outbox.schedule_reminders() == 0 and reminders() == []
    clock.now += 2
    outbox.schedule_reminders()
    outbox.schedule_reminders()  # the same reminder again: one row
    assert reminders() == [1]
    clock.now += 5 * QUIET
    outbox.schedule_reminders()
    assert reminders() == [1, 2]  # at most two
    [second] = [n for n in outbox.view.notices(match) if n.reminder == 2]
    assert second.delivery_id != told.delivery_id and second.payload["reminder"] == 2
    assert second.payload["type"] == "turn.reminder" and second.due == told.created + 2 * QUIET


def test_no_reminder_once_the_seat_is_no_longer_waited_for(
        client: TestClient, matches: Matches) -> None:
    match, tokens = handoff(client)
    clock, outbox = reminding(matches)
    act(client, match, tokens, "undo", {"actions": 1})  # the turn is red's again
    outbox.catch_up()
    clock.now += QUIET + 1
    outbox.schedule_reminders()
    reminded = [n.seat for n in outbox.view.notices(match) if n.reminder > 0]
    assert reminded == ["red"]  # red, waited for since the undo; blue no more


def deliverer(matches: Matches, clock: Clock, attempts: int = 3) -> Deliverer:
    channels = Channels(allow_private=True, smtp=SmtpConfig())
    return Deliverer(view_of(matches), channels,
                     DeliveryConfig(lease=30, max_attempts=attempts, backoff=10), clock,
                     draw=lambda: 1.0)


def test_a_seat_at_the_table_is_not_told(client: TestClient, matches: Matches) -> None:
    match, tokens = handoff(client)
    assert client.post(f"/api/matches/{match}/presence",
                       headers=auth(tokens["blue"])).status_code == 204
    outbox = Outbox(matches, view_of(matches), OutboxConfig())
    outbox.catch_up()
    sender = deliverer(matches, Clock(time.time()))
    sender.deliver_due()
    [notice] = [n for n in outbox.view.notices(match) if n.seat == "blue" and n.reminder >= 0]
    assert notice.status == "suppressed"
    assert outbox.view.attempts(notice.registration_id) == []


def test_an_unreachable_receiver_is_retried_with_growing_delays_then_given_up(
        client: TestClient, matches: Matches) -> None:
    match, _ = handoff(client)
    clock = Clock(2_000_000_000.0)
    outbox = Outbox(matches, view_of(matches), OutboxConfig(), clock)
    outbox.catch_up()
    sender = deliverer(matches, clock, attempts=3)
    [mine] = [n for n in outbox.view.notices(match) if n.seat == "blue" and n.reminder >= 0]
    dues = []
    for _ in range(3):
        assert sender.deliver_due() == 1  # blue's: red was waited for already
        [mine] = [n for n in outbox.view.notices(match) if n.delivery_id == mine.delivery_id]
        dues.append(mine.due - clock.now)
        assert sender.deliver_due() == 0  # not due again before its delay
        clock.now = mine.due
    assert mine.status == "failed" and mine.attempts == 3
    assert dues[:2] == [10.0, 20.0]  # backoff 10 s, doubled (jitter drawn as none)
    tried = outbox.view.attempts(mine.registration_id)
    assert len(tried) == 3 and all(a["status_code"] is None and a["error"] for a in tried)
    assert {a["delivery_id"] for a in tried} == {mine.delivery_id}


def test_backoff_doubles_is_capped_and_jittered_within_half() -> None:
    config = DeliveryConfig(backoff=2.0, max_backoff=60.0)
    assert [backoff(config, n, lambda: 1.0) for n in (1, 2, 3, 4)] == [2.0, 4.0, 8.0, 16.0]
    assert backoff(config, 30, lambda: 1.0) == 60.0
    assert backoff(config, 3, lambda: 0.0) == 4.0  # at least half the delay
