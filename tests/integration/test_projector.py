"""`battlelog project`'s runner (issue 30, projections/projector.py), on each store: one read
of the log's new events feeds both the match catalogue and the notifier's outbox (the
outbox reads nothing on its own), each kept at its own position; two runners on one
database still write each handoff's notice once; and an API process on PostgreSQL that keeps
its read models itself runs one too, its notifier attached while it runs."""

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
from projections import projector as runner_module
from projections.catalogue import CatalogueService
from projections.notify import NotifyConfig, NotifyService
from projections.projector import Projector
from projections.store_pg import listen_for_saves

CLOSED = "http://127.0.0.1:9/hook"  # the discard port: nobody listens


@pytest.fixture
def client(matches: Matches, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("BATTLELOG_PROJECTIONS", "external")  # the runners below keep them
    settings = Settings(admin_token="admin-token", notify_allow_private=True)
    with TestClient(create_app(settings, matches=matches)) as client:
        yield client


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def act(client: TestClient, match: str, token: str, path: str, body: Any) -> int:
    done = client.post(f"/api/matches/{match}/{path}", json=body, headers=auth(token))
    assert done.status_code == 201, done.text
    return int(done.headers["etag"].strip('"'))


def registered(client: TestClient, match: str, token: str) -> None:
    made = client.post(f"/api/matches/{match}/notifications",
                       json={"kind": "webhook", "url": CLOSED}, headers=auth(token))
    assert made.status_code == 201, made.text
    confirm(client, match, made.json()["registration_id"])


def runner(matches: Matches, batch: int) -> Projector:
    return Projector(matches, CatalogueService(matches), NotifyService(matches, NotifyConfig()),
                     batch=batch)


def test_one_read_of_the_new_events_feeds_the_catalogue_and_the_outbox(
        client: TestClient, matches: Matches, monkeypatch: pytest.MonkeyPatch) -> None:
    quiet, quiet_tokens = seated(client)
    told, tokens = seated(client)
    registered(client, told, tokens["blue"])
    act(client, quiet, quiet_tokens["red"], "actions", {"type": "add_note", "text": "quiet"})
    act(client, told, tokens["red"], "actions", {"type": "activate_unit", "unit_id": "sq1"})
    handed = act(client, told, tokens["red"], "actions", {"type": "advance"})  # to blue
    reads: list[int] = []
    read_log = runner_module.read_log

    def counted(store: Matches, start: int, limit: int) -> Any:
        reads.append(start)
        return read_log(store, start, limit)

    def on_its_own(*args: Any, **kwargs: Any) -> Any:
        pytest.fail("a projection read the log on its own")

    monkeypatch.setattr(runner_module, "read_log", counted)
    projector = runner(matches, batch=4)
    monkeypatch.setattr(projector.catalogue, "catch_up", on_its_own)
    monkeypatch.setattr(projector.notify.outbox, "catch_up", on_its_own)
    steps = 0
    while projector.step():
        steps += 1
    last = matches.recorder.max_notification_id()
    assert steps > 2 and len(reads) == steps + 1  # one read a step (the last found none)
    assert projector.catalogue.position() == projector.notify.outbox.position() == last
    for match in (quiet, told):
        row = projector.catalogue.get(UUID(match))
        assert row is not None and row.version == matches.head(UUID(match)).version
    notices = [n for n in projector.notify.view.notices(told) if n.reminder == 0]
    assert [(n.seat, n.version) for n in notices] == [("blue", handed)]
    assert projector.notify.view.notices(quiet) == []


def test_two_runners_on_one_database_write_each_handoff_once(
        client: TestClient, matches: Matches) -> None:
    match, tokens = seated(client)
    for seat in ("red", "blue"):
        registered(client, match, tokens[seat])
    act(client, match, tokens["red"], "actions", {"type": "activate_unit", "unit_id": "sq1"})
    versions = [act(client, match, tokens["red"], "actions", {"type": "advance"}),  # blue
                act(client, match, tokens["red"], "undo", {"actions": 1}),  # red
                act(client, match, tokens["red"], "redo", None)]  # blue
    first, second = runner(matches, batch=2), runner(matches, batch=3)
    while first.step() + second.step():  # taking turns, each from its own positions
        pass
    last = matches.recorder.max_notification_id()
    for projector in (first, second):
        assert projector.catalogue.position() == last
        assert projector.notify.outbox.position() == last
    notices = [n for n in first.notify.view.notices(match) if n.reminder == 0]
    assert sorted((n.seat, n.version) for n in notices) == sorted(
        [("blue", versions[0]), ("red", versions[1]), ("blue", versions[2])])
    assert len({n.delivery_id for n in notices}) == 3
    row = first.catalogue.get(UUID(match))
    assert row is not None and row.version == matches.head(UUID(match)).version


@pytest.mark.parametrize("store_env", ["postgres"], indirect=True)
def test_an_api_process_on_postgresql_reads_the_log_once_for_its_catalogue_and_notifier(
        matches: Matches, monkeypatch: pytest.MonkeyPatch) -> None:
    shared: list[int] = []  # the catalogue's runner's reads
    alone: list[int] = []  # the outbox's own reads: none
    read_log = runner_module.read_log

    def counted(into: list[int]) -> Any:
        def read(store: Matches, start: int, limit: int, **kwargs: Any) -> Any:
            into.append(start)
            return read_log(store, start, limit, **kwargs)
        return read

    monkeypatch.setattr(runner_module, "read_log", counted(shared))
    monkeypatch.setattr(notify_outbox, "read_log", counted(alone))
    settings = Settings(admin_token="admin-token", notify_allow_private=True)
    with TestClient(create_app(settings, matches=matches)) as client:
        notify = client.app.state.notify
        projector = client.app.state.catalogue.projector
        assert projector is not None and projector.notify is notify
        match, tokens = seated(client)
        registered(client, match, tokens["blue"])
        act(client, match, tokens["red"], "actions", {"type": "activate_unit", "unit_id": "sq1"})
        handed = act(client, match, tokens["red"], "actions", {"type": "advance"})  # to blue
        deadline = time.monotonic() + 30
        while not [n for n in notify.view.notices(match) if n.reminder == 0]:
            assert time.monotonic() < deadline, "no notice of the handoff"
            time.sleep(0.02)
        notices = [n for n in notify.view.notices(match) if n.reminder == 0]
        assert [(n.seat, n.version) for n in notices] == [("blue", handed)]
        listed = client.get("/api/matches", headers=auth("admin-token")).json()
        assert [m["version"] for m in listed if m["match_id"] == match] == [handed]
        assert shared and alone == []
        notify.stop()  # the notifier detaches: the runner goes on with the catalogue alone
        assert projector.notify is None
        act(client, match, tokens["red"], "actions", {"type": "add_note", "text": "after"})
        listed = client.get("/api/matches", headers=auth("admin-token")).json()
        assert [m["version"] for m in listed if m["match_id"] == match] == [handed + 1]


@pytest.mark.parametrize("store_env", ["postgres"], indirect=True)
def test_the_runner_of_an_api_process_listens_on_a_connection_of_its_own(
        matches: Matches) -> None:
    """Every connection of the process's pool stays for its requests: the LISTEN that wakes
    the runner holds one of its own."""
    with TestClient(create_app(Settings(admin_token="admin-token"), matches=matches)):
        pool = matches.recorder.datastore.pool
        deadline = time.monotonic() + 30
        while not pool.get_stats().get("connections_num", 0):  # the app's first queries
            assert time.monotonic() < deadline
            time.sleep(0.02)
        time.sleep(0.5)  # the runner's listener is up
        taken = [pool.getconn(timeout=3) for _ in range(pool.max_size)]
        for conn in taken:
            pool.putconn(conn)


@pytest.mark.parametrize("store_env", ["postgres"], indirect=True)
def test_a_save_wakes_the_runner_s_listener(matches: Matches) -> None:
    saved, stopping = threading.Event(), threading.Event()
    listening = threading.Thread(target=listen_for_saves,
                                 args=(matches.recorder, saved, stopping))
    listening.start()
    try:
        deadline = time.monotonic() + 15
        while not saved.wait(0.2):  # a save every 0.2 s until one is heard (the LISTEN
            assert time.monotonic() < deadline, "no save was heard"  # may come after some)
            matches.create_match(CreateMatch.model_validate(
                {"scenario": "heard", "sides": [{"id": "red", "name": "Red"},
                                                {"id": "blue", "name": "Blue"}]}))
    finally:
        stopping.set()
        listening.join(timeout=10)
    assert not listening.is_alive()
