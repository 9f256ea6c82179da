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

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
Serve = Callable[[Path], AbstractContextManager[str]]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(db: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """Run `battlelog serve --db DB` (with `env` added to the environment) until the block
    ends; yield its base URL."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--db", str(db), "--host", "127.0.0.1",
         "--port", str(port)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        env={**os.environ, **(env or {})},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                out = proc.stdout.read().decode() if proc.stdout else ""
                pytest.fail(f"battlelog serve did not come up:\n{out}")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def serve() -> Serve:
    return serving


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with serving(tmp_path / "battlelog.db") as url:
        yield url
