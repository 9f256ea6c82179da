"""Work no one asked for costs nothing (issue 30): while no match has a registration, the
outbox does not read the new events (it moves past them); once one has, it reads its events
and tells the handoffs as before, while the events of matches with none are neither read
from the store nor decoded; and a save wakes the outbox only when the match saved has a
registration, and never the delivery (woken by the outbox's writes and free senders)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient
from notify_confirming import confirm, seated

from api.app import create_app
from api.settings import Settings
from domain.app import Matches
from domain.commands import CreateMatch
from projections import notify_outbox
from projections.log_read import read_log
from projections.notify import NotifyConfig, NotifyService
from projections.notify_outbox import Outbox, OutboxConfig
from projections.notify_store import open_view

CLOSED = "http://127.0.0.1:9/hook"  # the discard port: nobody listens


@pytest.fixture
def client(matches: Matches) -> Iterator[TestClient]:
    settings = Settings(admin_token="admin-token", notify_allow_private=True)
    with TestClient(create_app(settings, matches=matches)) as client:
        client.app.state.notify.stop()  # the tests run the outbox
        yield client


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def note(client: TestClient, match: str, token: str) -> None:
    done = client.post(f"/api/matches/{match}/actions", headers=auth(token),
                       json={"type": "add_note", "text": "the hedgerow holds"})
    assert done.status_code == 201, done.text


def followed(client: TestClient) -> tuple[str, dict[str, str]]:
    """A seated match whose blue seat has a confirmed webhook: its id and tokens."""
    match, tokens = seated(client)
    made = client.post(f"/api/matches/{match}/notifications",
                       json={"kind": "webhook", "url": CLOSED}, headers=auth(tokens["blue"]))
    assert made.status_code == 201
    confirm(client, match, made.json()["registration_id"])
    return match, tokens


class Reads:
    """Counts the outbox's reads of stored events (the recorder's, and the plain read of
    `projections.log_read`) and the events it decodes: those of this thread, where the
    tests run the outbox (the catalogue's runner decodes in its own)."""

    def __init__(self, matches: Matches, monkeypatch: pytest.MonkeyPatch) -> None:
        mine = threading.get_ident()
        self.selects = 0
        self.read: list[str] = []  # the match of each record the plain read brought
        self.decoded: list[Any] = []
        select, decode = matches.recorder.select_notifications, matches.mapper.to_domain_event

        def counted_select(*args: Any, **kwargs: Any) -> Any:
            self.selects += threading.get_ident() == mine
            return select(*args, **kwargs)

        def counted_decode(stored: Any) -> Any:
            if threading.get_ident() == mine:
                self.decoded.append(stored.originator_id)
            return decode(stored)

        def counted_read(*args: Any, **kwargs: Any) -> Any:
            self.selects += 1
            records = read_log(*args, **kwargs)
            self.read += [str(record[1]) for record in records]
            return records

        monkeypatch.setattr(matches.recorder, "select_notifications", counted_select)
        monkeypatch.setattr(notify_outbox, "read_log", counted_read)  # the plain read
        monkeypatch.setattr(matches.mapper, "to_domain_event", counted_decode)


def test_with_no_registration_the_outbox_reads_no_event_and_moves_past_them(
        client: TestClient, matches: Matches, monkeypatch: pytest.MonkeyPatch) -> None:
    match, tokens = seated(client)
    for _ in range(3):
        note(client, match, tokens["red"])
    outbox = Outbox(matches, open_view(matches.factory, "postgres" in matches.env[
        "PERSISTENCE_MODULE"]), OutboxConfig())
    reads = Reads(matches, monkeypatch)
    applied = outbox.catch_up()
    assert applied > 0
    assert reads.selects == 0
    assert outbox.position() == matches.recorder.max_notification_id()


def test_once_a_match_has_a_registration_its_events_are_read_and_no_other_match_s(
        client: TestClient, matches: Matches, monkeypatch: pytest.MonkeyPatch) -> None:
    (quiet, quiet_tokens), (told, tokens) = seated(client), followed(client)
    outbox = client.app.state.notify.outbox
    outbox.catch_up()
    reads = Reads(matches, monkeypatch)
    note(client, quiet, quiet_tokens["red"])
    client.post(f"/api/matches/{told}/actions", headers=auth(tokens["red"]),
                json={"type": "activate_unit", "unit_id": "sq1"})
    client.post(f"/api/matches/{told}/actions", headers=auth(tokens["red"]),
                json={"type": "advance"})
    reads.decoded.clear()  # the actions' own checks decode what they stored
    outbox.catch_up()
    assert reads.selects > 0
    assert reads.read and set(reads.read) == {told}  # the quiet match's note stayed stored
    assert reads.decoded and {str(m) for m in reads.decoded} == {told}
    handoffs = [n for n in outbox.view.notices(told) if n.reminder == 0 and n.seat == "blue"]
    assert len(handoffs) == 1
    assert outbox.view.notices(quiet) == []


def test_the_log_is_read_a_window_at_a_time_each_event_of_a_followed_match_once(
        client: TestClient, matches: Matches, monkeypatch: pytest.MonkeyPatch) -> None:
    (quiet, quiet_tokens), (told, tokens) = seated(client), followed(client)
    outbox = client.app.state.notify.outbox
    outbox.catch_up()
    before = matches.head(UUID(told)).version
    for _ in range(5):
        note(client, quiet, quiet_tokens["red"])
    for action in ({"type": "activate_unit", "unit_id": "sq1"}, {"type": "advance"}):
        done = client.post(f"/api/matches/{told}/actions", headers=auth(tokens["red"]),
                           json=action)
        assert done.status_code == 201, done.text
    for _ in range(3):
        note(client, quiet, quiet_tokens["red"])
    reads = Reads(matches, monkeypatch)
    # windows of 4 events: the second holds both of the told match's events, one a batch
    outbox.catch_up(batch=1, window=4)
    assert outbox.position() == matches.recorder.max_notification_id()
    assert reads.selects >= 3
    assert reads.read == [told] * (matches.head(UUID(told)).version - before)  # once each
    handoffs = [n for n in outbox.view.notices(told) if n.reminder == 0 and n.seat == "blue"]
    assert len(handoffs) == 1


def test_a_save_wakes_the_outbox_only_when_its_match_has_a_registration_never_the_delivery(
        matches: Matches) -> None:
    sides = [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]
    quiet = matches.create_match(CreateMatch(scenario="quiet", sides=sides)).events[0].originator_id
    told = matches.create_match(CreateMatch(scenario="told", sides=sides)).events[0].originator_id
    service = NotifyService(matches, NotifyConfig(poll=3600.0))
    woken: list[str] = []
    service._projecting.wake = lambda: woken.append("outbox")  # type: ignore[method-assign]
    service._delivering.wake = lambda: woken.append("delivery")  # type: ignore[method-assign]

    def saved(match_id: Any) -> list[str]:
        woken.clear()
        for listener in list(matches.saved_listeners):
            listener(frozenset({match_id}))
        return woken

    service.start()
    try:
        deadline = time.monotonic() + 30
        while service.outbox.registered is None:  # its first look at the log
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert saved(quiet) == []
        service.registered(told)  # a registration made in this process
        assert saved(quiet) == []  # another match's save concerns it not
        assert saved(told) == ["outbox"]
    finally:
        service.stop()
