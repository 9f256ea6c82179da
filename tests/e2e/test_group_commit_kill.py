"""SIGKILL a SQLite server while several clients act at once, so that their actions are
committed in groups (issue 18's group commit): every action acknowledged with a 201 is in
the log after the restart, once, in the order each client sent it."""

from __future__ import annotations

import itertools
import random
import signal
import sqlite3
import threading
import time
from pathlib import Path

import httpx
import pytest
from conftest import start_server
from kill_steps import post_tracks

pytestmark = pytest.mark.e2e
CLIENTS = 6
ROUNDS = 3


def test_acknowledged_actions_of_concurrent_clients_survive_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "group.db"
    env = {"BATTLELOG_STORE": "sqlite"}
    proc, url = start_server(db, env)
    matches: list[tuple[str, dict[str, str]]] = []
    for i in range(CLIENTS):
        created = httpx.post(f"{url}/api/matches", json={
            "scenario": f"kill {i}", "sides": [{"id": "a", "name": "A"},
                                               {"id": "b", "name": "B"}]}).json()
        matches.append((created["match_id"],
                        {"Authorization": f"Bearer {created['tokens']['referee']}"}))
    acknowledged: list[list[int]] = [[] for _ in range(CLIENTS)]
    numbers = [itertools.count() for _ in range(CLIENTS)]
    rng = random.Random(7)
    for _ in range(ROUNDS):
        stop = threading.Event()
        workers = [threading.Thread(target=post_tracks, args=(
            url, *matches[k], stop, numbers[k], acknowledged[k])) for k in range(CLIENTS)]
        for worker in workers:
            worker.start()
        # kill once this round saw acknowledgements (the machine may be slow), at a
        # random moment after them
        floor = sum(map(len, acknowledged)) + 2 * CLIENTS
        deadline = time.monotonic() + 30
        while sum(map(len, acknowledged)) < floor and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(rng.uniform(0.0, 0.3))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        stop.set()
        for worker in workers:
            worker.join(timeout=10)
        proc, url = start_server(db, env)
    try:
        for k, (match, auth) in enumerate(matches):
            events = httpx.get(f"{url}/api/matches/{match}/events", headers=auth,
                               params={"after": 0, "limit": 500}).json()["events"]
            values = [e["value"] for e in events if e["type"] == "TrackSet"]
            assert set(acknowledged[k]) <= set(values)  # nothing acknowledged was lost
            assert values == sorted(values) and len(values) == len(set(values))
            assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert sum(map(len, acknowledged)) >= ROUNDS * 2 * CLIENTS
    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
