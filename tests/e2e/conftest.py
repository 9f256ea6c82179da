"""A real `battlelog serve` process on a free port, for end-to-end tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
Serve = Callable[[Path], AbstractContextManager[str]]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """Start `battlelog serve --db DB` (with `env` added) and wait until it answers."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--db", str(db), "--host", "127.0.0.1",
         "--port", str(port)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"{url}/api/health/ready", timeout=1).status_code == 200:
                return proc, url
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            err = proc.stderr.read().decode() if proc.stderr else ""
            pytest.fail(f"battlelog serve did not come up:\n{err}")
        time.sleep(0.1)


@contextmanager
def serving(db: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """A server for the duration of the block; yields its base URL."""
    proc, url = start_server(db, env)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest) -> dict[str, str]:
    """The environment that points a server at SQLite or at a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return {"BATTLELOG_STORE": "sqlite"}
    pg: dict[str, Any] = request.getfixturevalue("pg_database")
    return {"BATTLELOG_STORE": "postgres", "BATTLELOG_PG_DBNAME": pg["dbname"],
            "BATTLELOG_PG_HOST": pg["host"], "BATTLELOG_PG_PORT": str(pg["port"]),
            "BATTLELOG_PG_USER": pg["user"], "BATTLELOG_PG_PASSWORD": pg["password"]}


@pytest.fixture
def serve() -> Serve:
    return serving


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with serving(tmp_path / "battlelog.db") as url:
        yield url
