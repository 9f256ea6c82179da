"""The live stream (`GET /api/matches/{id}/stream`, Server-Sent Events) against real servers:
who may follow, what each message says, writes from another process sharing the store, a
reconnect with Last-Event-ID, and a shutdown that does not wait for open pages."""

from __future__ import annotations

import json
import queue
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import serving, start_server

pytestmark = pytest.mark.e2e
SIDES = [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]


def new_match(url: str) -> dict[str, Any]:
    created: dict[str, Any] = httpx.post(f"{url}/api/matches", json={
        "scenario": "live", "sides": SIDES, "casual": True}).json()
    return created


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@contextmanager
def following(url: str, match: str, token: str,
              last: int | None = None) -> Iterator[queue.Queue[dict[str, Any]]]:
    """Follow the stream in a thread; yields a queue of its messages ({event, id, data})."""
    messages: queue.Queue[dict[str, Any]] = queue.Queue()
    stop = threading.Event()
    headers = auth(token) | ({"Last-Event-ID": str(last)} if last is not None else {})

    def read() -> None:
        with httpx.Client(timeout=None) as client, client.stream(
                "GET", f"{url}/api/matches/{match}/stream", headers=headers) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            fields: dict[str, Any] = {}
            for line in response.iter_lines():
                if stop.is_set():
                    return
                if not line:
                    if "data" in fields:
                        messages.put({**fields, "data": json.loads(fields["data"])})
                    fields = {}
                elif not line.startswith(":"):
                    key, _, value = line.partition(":")
                    fields[key] = value.strip()

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    try:
        yield messages
    finally:
        stop.set()


def test_only_seats_follow_and_each_new_version_arrives(server: str) -> None:
    created = new_match(server)
    match, tokens = created["match_id"], created["tokens"]
    stream = f"{server}/api/matches/{match}/stream"
    assert httpx.get(stream).status_code == 401
    assert httpx.get(stream, headers=auth("not-a-token")).status_code == 401
    assert httpx.get(stream, headers=auth(tokens["join:red"])).status_code == 403

    with following(server, match, tokens["spectator"]) as messages:
        first = messages.get(timeout=10)
        assert first == {"event": "version", "id": "1", "data": {"version": 1}}
        httpx.post(f"{server}/api/matches/{match}/actions", headers=auth(tokens["referee"]),
                   json={"type": "set_track", "name": "weather", "value": "rain"})
        assert messages.get(timeout=10)["data"] == {"version": 2}
        httpx.post(f"{server}/api/matches/{match}/undo", headers=auth(tokens["referee"]))
        assert messages.get(timeout=10)["data"] == {"version": 3}


def test_a_reconnect_with_last_event_id_hears_only_what_it_missed(server: str) -> None:
    created = new_match(server)
    match, ref = created["match_id"], created["tokens"]["referee"]
    with following(server, match, ref, last=1) as messages:
        with pytest.raises(queue.Empty):
            messages.get(timeout=1.5)  # nothing new since version 1
        httpx.post(f"{server}/api/matches/{match}/actions", headers=auth(ref),
                   json={"type": "add_note", "text": "hello"})
        assert messages.get(timeout=10)["id"] == "2"
    with following(server, match, ref, last=1) as messages:
        assert messages.get(timeout=10)["data"] == {"version": 2}  # missed one: told at once


def test_writes_from_another_process_reach_the_followers(tmp_path: Path,
                                                        store: dict[str, str]) -> None:
    db = tmp_path / "shared.db"  # SQLite: one file; PostgreSQL: one database (`store`)
    with serving(db, store) as one, serving(db, store) as two:
        created = new_match(one)
        match, ref = created["match_id"], created["tokens"]["referee"]
        with following(one, match, ref) as messages:
            assert messages.get(timeout=10)["data"] == {"version": 1}
            answer = httpx.post(f"{two}/api/matches/{match}/actions", headers=auth(ref),
                                json={"type": "set_track", "name": "turn_limit", "value": 6})
            assert answer.status_code == 201
            assert messages.get(timeout=10)["data"] == {"version": 2}


def test_shutdown_does_not_wait_for_open_streams(tmp_path: Path) -> None:
    proc, url = start_server(tmp_path / "stop.db")
    created = new_match(url)
    with following(url, created["match_id"], created["tokens"]["referee"]) as messages:
        messages.get(timeout=10)
        proc.send_signal(signal.SIGTERM)
        # uvicorn re-raises the SIGTERM it handled once it has shut down cleanly
        assert proc.wait(timeout=15) in (0, -signal.SIGTERM)  # it did not hang
