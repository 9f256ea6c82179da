"""Scale-out on PostgreSQL (docs/deploy.md): two API processes and one projection process
(`battlelog project`) on one database. A client alternating between the API processes sees
its own writes (each read answers at least the version its last write returned, and that
version is the If-Match of its next write), and the match catalogue, kept only by the
projection process, catches up, also after that process was stopped and started again."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import ROOT, serving

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
ADMIN = "scale-out-admin-token"
SIDES = [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]


def pg_env(pg: dict[str, Any]) -> dict[str, str]:
    return {"BATTLELOG_STORE": "postgres", "BATTLELOG_PG_DBNAME": pg["dbname"],
            "BATTLELOG_PG_HOST": pg["host"], "BATTLELOG_PG_PORT": str(pg["port"]),
            "BATTLELOG_PG_USER": pg["user"], "BATTLELOG_PG_PASSWORD": pg["password"],
            "BATTLELOG_PROJECTIONS": "external", "BATTLELOG_ADMIN_TOKEN": ADMIN}


def start_projector(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """`battlelog project`, its errors (if any) appended to `log`."""
    with log.open("ab") as errors:
        proc = subprocess.Popen([sys.executable, "-m", "api.cli", "project"], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=errors,
                                env={**os.environ, **env})
    assert proc.stdout is not None
    assert b"projecting" in proc.stdout.readline()  # it has started
    return proc


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        assert proc.wait(timeout=15) == 0  # SIGTERM is a clean stop
    except subprocess.TimeoutExpired:
        proc.kill()
        raise


def catalogue_row(url: str, match: str) -> dict[str, Any] | None:
    rows = httpx.get(f"{url}/api/matches", headers={"Authorization": f"Bearer {ADMIN}"},
                     timeout=10).json()
    return next((row for row in rows if row["match_id"] == match), None)


def wait_for_catalogue(url: str, match: str, version: int, timeout: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        row = catalogue_row(url, match)
        if row is not None and row["version"] == version:
            return row
        assert time.monotonic() < deadline, f"catalogue stuck at {row}, not version {version}"
        time.sleep(0.2)


def test_two_api_processes_and_one_projector_share_one_postgres(
    pg_database: dict[str, Any], tmp_path: Path
) -> None:
    env = pg_env(pg_database)
    with ExitStack() as stack:
        urls = [stack.enter_context(serving(tmp_path / "unused.db", env)) for _ in range(2)]
        log = tmp_path / "projector.log"
        projector = start_projector(env, log)
        try:
            created = httpx.post(f"{urls[0]}/api/matches", json={
                "scenario": "Scale-out", "sides": SIDES}, timeout=10)
            assert created.status_code == 201
            match, token = created.json()["match_id"], created.json()["tokens"]["referee"]
            auth = {"Authorization": f"Bearer {token}"}
            seen = int(created.headers["etag"].strip('"'))

            # Read your writes: each write goes to one process, the next read to the other.
            for i in range(20):
                writer, reader = urls[i % 2], urls[(i + 1) % 2]
                wrote = httpx.post(f"{writer}/api/matches/{match}/actions",
                                   json={"type": "set_track", "name": "round", "value": i},
                                   headers={**auth, "If-Match": f'"{seen}"'}, timeout=10)
                assert wrote.status_code == 201, wrote.text
                seen = int(wrote.headers["etag"].strip('"'))
                read = httpx.get(f"{reader}/api/matches/{match}/board", headers=auth,
                                 timeout=10)
                assert int(read.headers["etag"].strip('"')) == seen
                assert read.json()["tracks"]["round"] == i

            # The catalogue is the projector's: both API processes list the same row.
            for url in urls:
                row = wait_for_catalogue(url, match, seen)
                assert row["scenario"] == "Scale-out" and row["status"] == "active"

            # Stopped, the projector leaves the catalogue behind; started again, it resumes.
            stop(projector)
            for i in range(3):
                wrote = httpx.post(f"{urls[i % 2]}/api/matches/{match}/actions",
                                   json={"type": "advance"}, headers=auth, timeout=10)
                assert wrote.status_code == 201, wrote.text
                seen = int(wrote.headers["etag"].strip('"'))
            row = catalogue_row(urls[1], match)
            assert row is not None and row["version"] < seen
            projector = start_projector(env, log)
            wait_for_catalogue(urls[1], match, seen)
            assert "Traceback" not in log.read_text()  # the runner never failed
        finally:
            if projector.poll() is None:
                stop(projector)
