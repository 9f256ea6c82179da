"""SIGKILL the server again and again while a client sends actions: every action that was
acknowledged is in the log after restart, once; versions stay contiguous; SQLite's file
passes its integrity check."""

from __future__ import annotations

import itertools
import random
import signal
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import start_server
from kill_steps import post_tracks

pytestmark = pytest.mark.e2e
ROUNDS = 5


def test_acknowledged_actions_survive_sigkill(tmp_path: Path, store: dict[str, str]) -> None:
    db = tmp_path / "kill.db"
    proc, url = start_server(db, store)
    created = httpx.post(f"{url}/api/matches", json={
        "scenario": "kill", "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]})
    match = created.json()["match_id"]
    auth = {"Authorization": f"Bearer {created.json()['tokens']['referee']}"}
    acknowledged: list[int] = []
    numbers = itertools.count()
    rng = random.Random(3)
    for _ in range(ROUNDS):
        stop = threading.Event()
        worker = threading.Thread(target=post_tracks,
                                  args=(url, match, auth, stop, numbers, acknowledged))
        worker.start()
        # kill after a few acknowledged actions (however slow the machine), at a random
        # point of the next request
        before, wanted, give_up = len(acknowledged), rng.randint(5, 15), time.monotonic() + 60
        while len(acknowledged) - before < wanted and time.monotonic() < give_up:
            time.sleep(0.005)
        time.sleep(rng.uniform(0, 0.02))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        stop.set()
        worker.join(timeout=10)
        proc, url = start_server(db, store)
    try:
        events: list[dict[str, Any]] = []
        after: int | None = 0
        while after is not None:
            page = httpx.get(f"{url}/api/matches/{match}/events", headers=auth,
                             params={"after": after, "limit": 500}).json()
            events += page["events"]
            after = page["next_after"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    values = [e["value"] for e in events if e["type"] == "TrackSet"]
    assert len(acknowledged) > 20
    assert set(acknowledged) <= set(values)  # nothing acknowledged was lost
    assert len(values) == len(set(values))  # nothing happened twice
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    if store["BATTLELOG_STORE"] == "sqlite":
        with sqlite3.connect(db) as check:
            assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    print(f"{ROUNDS} kills survived, {len(acknowledged)} acknowledged actions, 0 lost")
