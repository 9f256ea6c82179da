"""`battlelog serve` as a real process: it serves, and a match survives a restart."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.e2e


def test_match_survives_a_server_restart(serve: Callable[[Path], AbstractContextManager[str]],
                                        tmp_path: Path) -> None:
    db = tmp_path / "battlelog.db"
    with serve(db) as url:
        created = httpx.post(f"{url}/api/matches", json={
            "scenario": "restart", "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]})
        assert created.status_code == 201
        match = created.json()["match_id"]
        acted = httpx.post(f"{url}/api/matches/{match}/actions",
                           json={"type": "set_track", "name": "weather", "value": "fog"})
        assert acted.status_code == 201 and acted.json()["version"] == 2
    with serve(db) as url:
        board = httpx.get(f"{url}/api/matches/{match}/board")
        assert board.status_code == 200
        assert board.json()["tracks"] == {"weather": "fog"}
        assert board.headers["etag"] == '"2"'
        listed = httpx.get(f"{url}/api/matches").json()
        assert [m["match_id"] for m in listed] == [match]
