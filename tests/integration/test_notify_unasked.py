"""Work no one asked for costs nothing (issue 30): while no match has a registration, the
outbox does not read the new events (it moves past them); once one has, it reads them and
tells the handoffs as before; the events of matches with none are never decoded; and a save
wakes the outbox only while a match has a registration, and never the delivery (woken by
the outbox's writes and free senders)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

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


class Reads:
    """Counts the outbox's reads of stored events (the recorder's, and the plain read of
    `projections.log_read`) and the events it decodes."""

    def __init__(self, matches: Matches, monkeypatch: pytest.MonkeyPatch) -> None:
        self.selects = 0
        self.decoded: list[Any] = []
        select, decode = matches.recorder.select_notifications, matches.mapper.to_domain_event

        def counted_select(*args: Any, **kwargs: Any) -> Any:
            self.selects += 1
            return select(*args, **kwargs)

        def counted_decode(stored: Any) -> Any:
            self.decoded.append(stored.originator_id)
            return decode(stored)

        def counted_read(*args: Any, **kwargs: Any) -> Any:
            self.selects += 1
            return read_log(*args, **kwargs)

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


def test_once_a_match_has_a_registration_its_events_are_read_and_no_other_is_decoded(
        client: TestClient, matches: Matches, monkeypatch: pytest.MonkeyPatch) -> None:
    quiet, quiet_tokens = seated(client)
    told, tokens = seated(client)
    made = client.post(f"/api/matches/{told}/notifications",
                       json={"kind": "webhook", "url": CLOSED}, headers=auth(tokens["blue"]))
    assert made.status_code == 201
    confirm(client, told, made.json()["registration_id"])
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
    assert reads.decoded and {str(m) for m in reads.decoded} == {told}
    handoffs = [n for n in outbox.view.notices(told) if n.reminder == 0 and n.seat == "blue"]
    assert len(handoffs) == 1
    assert outbox.view.notices(quiet) == []


def test_saves_wake_the_outbox_only_while_a_match_has_a_registration_never_the_delivery(
        matches: Matches) -> None:
    matches.create_match(CreateMatch(scenario="quiet", sides=[
        {"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]))
    service = NotifyService(matches, NotifyConfig(poll=3600.0))
    woken: list[str] = []
    service._projecting.wake = lambda: woken.append("outbox")  # type: ignore[method-assign]
    service._delivering.wake = lambda: woken.append("delivery")  # type: ignore[method-assign]
    service.start()
    try:
        deadline = time.monotonic() + 30
        while service.outbox.registered:  # its first look at the log: no registration
            assert time.monotonic() < deadline
            time.sleep(0.01)
        for saved in list(matches.saved_listeners):
            saved()
        assert woken == []
        service.registered()  # a registration made in this process
        woken.clear()
        for saved in list(matches.saved_listeners):
            saved()
        assert woken == ["outbox"]
    finally:
        service.stop()
