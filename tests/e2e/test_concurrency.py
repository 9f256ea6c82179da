"""Two server processes on one store, hammered with the same action and the same If-Match:
exactly one succeeds, the others get 412, and the log has no gap and no duplicate."""

from __future__ import annotations

import threading
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e
N = 50


def test_fifty_racing_actions_on_two_processes_one_wins(
    serve: Any, tmp_path: Path, store: dict[str, str]
) -> None:
    db = tmp_path / "shared.db"
    with ExitStack() as stack:
        urls = [stack.enter_context(serve(db, store)) for _ in range(2)]
        created = httpx.post(f"{urls[0]}/api/matches", json={
            "scenario": "race", "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]})
        match, token = created.json()["match_id"], created.json()["tokens"]["referee"]
        headers = {"Authorization": f"Bearer {token}", "If-Match": '"1"'}
        start = threading.Barrier(N)
        statuses: list[int] = []
        lock = threading.Lock()

        def fire(i: int) -> None:
            with httpx.Client(timeout=30) as client:
                start.wait()
                r = client.post(f"{urls[i % 2]}/api/matches/{match}/actions",
                                json={"type": "set_track", "name": "shot", "value": i},
                                headers=headers)
            with lock:
                statuses.append(r.status_code)

        threads = [threading.Thread(target=fire, args=(i,)) for i in range(N)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(statuses) == [201] + [412] * (N - 1)
        log = httpx.get(f"{urls[1]}/api/matches/{match}/events",
                        headers={"Authorization": f"Bearer {token}"}).json()["events"]
        assert [e["version"] for e in log] == [1, 2]
        assert [e["type"] for e in log] == ["MatchCreated", "TrackSet"]
