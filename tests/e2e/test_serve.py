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
        referee = {"Authorization": f"Bearer {created.json()['tokens']['referee']}"}
        acted = httpx.post(f"{url}/api/matches/{match}/actions", headers=referee,
                           json={"type": "set_track", "name": "weather", "value": "fog"})
        assert acted.status_code == 201 and acted.json()["version"] == 2
    with serve(db) as url:
        board = httpx.get(f"{url}/api/matches/{match}/board", headers=referee)
        assert board.status_code == 200
        assert board.json()["tracks"] == {"weather": "fog"}
        assert board.headers["etag"] == '"2"'
        # The server made up an admin token at start and printed it; no token, no list.
        assert httpx.get(f"{url}/api/matches").status_code == 401
