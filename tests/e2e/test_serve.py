"""`battlelog serve` as a real process: it serves, a match survives a restart, a port another
program holds is refused before anything claims to run, the addresses it prints open in a
browser, and Ctrl-C stops it quietly."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


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


def test_a_taken_port_fails_before_claiming_to_run(tmp_path: Path) -> None:
    """Another program holds the port: `battlelog serve` says so and how to choose another,
    before any "serving" line, and opens no store."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "api.cli", "serve", "--db", str(tmp_path / "b.db"),
             "--port", str(port)], cwd=ROOT, capture_output=True, text=True, timeout=60,
            check=False)
    assert done.returncode == 1
    assert "serving" not in done.stdout and "running" not in done.stdout
    assert f"port {port} on 127.0.0.1 is taken" in done.stderr
    assert "--port" in done.stderr and "make run PORT=" in done.stderr
    assert "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


@contextmanager
def started(tmp_path: Path, *flags: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """`battlelog serve --port 0 FLAGS` and the first two lines it printed (its banner)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--db", str(tmp_path / "b.db"),
         "--port", "0", *flags], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        assert proc.stdout is not None
        yield proc, proc.stdout.readline() + proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def wait_ready(url: str, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"{url}/api/health/ready").status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.1)


def test_port_zero_serves_on_a_free_port_and_says_which(tmp_path: Path) -> None:
    with started(tmp_path) as (proc, banner):
        found = re.search(r"serving (http://127\.0\.0\.1:(\d+)) ", banner)
        assert found, banner
        assert int(found.group(2)) != 0
        wait_ready(found.group(1), proc)


def test_ctrl_c_stops_the_server_quietly(tmp_path: Path) -> None:
    """Ctrl-C is how `make run` is stopped: a clean stop, said in a line, no traceback."""
    with started(tmp_path) as (proc, banner):
        found = re.search(r"serving (http://\S+) ", banner)
        assert found, banner
        wait_ready(found.group(1), proc)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "battlelog stopped" in out
    assert proc.returncode == 0


def test_every_address_names_where_to_open_it_here_and_from_a_phone(tmp_path: Path) -> None:
    """`make run HOST=0.0.0.0` (the README's way to let the players' phones in): the server
    names addresses a browser can open, never 0.0.0.0."""
    with started(tmp_path, "--host", "0.0.0.0") as (proc, banner):
        assert "0.0.0.0" not in banner
        here = re.search(r"serving (http://127\.0\.0\.1:(\d+)) ", banner)
        assert here, banner
        wait_ready(here.group(1), proc)
        other = re.search(rf"(http://[\d.]+:{here.group(2)})/ from another device", banner)
        assert other, banner
        wait_ready(other.group(1), proc)  # that address reaches this server too
