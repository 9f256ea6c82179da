"""A new user's first hour with the `battlelog` command and the Makefile, as real processes:
the console script installed in the venv, run from a folder of the user's own."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings

pytestmark = pytest.mark.e2e
BATTLELOG = str(Path(sys.executable).parent / "battlelog")  # what `make run` installs
NO_MATCH = "00000000-0000-0000-0000-000000000001"


def battlelog(*args: str, cwd: Path, store: dict[str, str] | None = None,
              **options: object) -> subprocess.CompletedProcess[str]:
    """The command as a user runs it: no BATTLELOG_ variable but those of `store`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BATTLELOG_")}
    return subprocess.run([BATTLELOG, *args], cwd=cwd, env={**env, **(store or {})},
                          text=True, check=False, timeout=60,
                          **options)  # type: ignore[call-overload, no-any-return]


def a_store_with_a_match(path: Path) -> str:
    with TestClient(create_app(Settings(db=str(path), admin_token="a"))) as client:
        created = client.post("/api/matches", json={
            "scenario": "pipe", "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]})
        assert created.status_code == 201
        return str(created.json()["match_id"])


def test_the_console_script_is_installed_and_lists_its_commands(tmp_path: Path) -> None:
    done = battlelog("--help", cwd=tmp_path, capture_output=True)
    assert done.returncode == 0
    for command in ("serve", "verify", "export", "import", "project"):
        assert command in done.stdout


@pytest.mark.parametrize("where", [[], ["--db", "elsewhere/missing.db"]])
def test_export_without_a_database_says_so_and_creates_nothing(
        tmp_path: Path, where: list[str]) -> None:
    done = battlelog("export", NO_MATCH, *where, cwd=tmp_path, capture_output=True)
    assert done.returncode == 2
    assert "no battlelog database" in done.stderr
    assert (where[-1] if where else "battlelog.db") in done.stderr
    assert done.stdout == ""
    assert list(tmp_path.iterdir()) == []


def test_export_from_a_file_that_is_not_a_battlelog_store_adds_no_table(tmp_path: Path) -> None:
    other = tmp_path / "notes.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (text)")
    db.close()
    done = battlelog("export", NO_MATCH, "--db", str(other), cwd=tmp_path, capture_output=True)
    assert done.returncode == 2
    assert "not a battlelog database" in done.stderr and "Traceback" not in done.stderr
    with sqlite3.connect(other) as db:
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master")]
    db.close()
    assert tables == ["notes"]


@pytest.mark.parametrize("command", [["export", NO_MATCH], ["import", "match.jsonl"]])
def test_a_store_out_of_reach_is_named_without_a_traceback(
        tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "match.jsonl").write_text("{}\n")
    away = {"BATTLELOG_STORE": "postgres", "BATTLELOG_PG_HOST": str(tmp_path / "no-server")}
    done = battlelog(*command, cwd=tmp_path, store=away, capture_output=True)
    assert done.returncode == 2
    assert "cannot use the store PostgreSQL battlelog" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("form", ["jsonl", "md"])
def test_export_into_a_closed_pipe_ends_quietly(tmp_path: Path, form: str) -> None:
    """`battlelog export MATCH | head`: the reader has gone; no traceback, exit status 1."""
    match = a_store_with_a_match(tmp_path / "battlelog.db")
    reader, writer = os.pipe()
    os.close(reader)  # nobody will read: the first write meets a closed pipe
    try:
        done = battlelog("export", match, "--format", form, cwd=tmp_path, stdout=writer,
                         stderr=subprocess.PIPE)
    finally:
        os.close(writer)
    assert done.stderr == ""
    assert done.returncode == 1


def test_verify_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    match = a_store_with_a_match(tmp_path / "battlelog.db")
    exported = battlelog("export", match, "-o", "match.jsonl", cwd=tmp_path, capture_output=True)
    assert exported.returncode == 0, exported.stderr
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = battlelog("verify", "match.jsonl", cwd=tmp_path, stdout=writer,
                         stderr=subprocess.PIPE)
    finally:
        os.close(writer)
    assert (done.stderr, done.returncode) == ("", 1)


# ---- the Makefile -------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]


def make(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`make ARGS` in the repository, with the venv this test runs in standing for .venv and
    `installed` (a file newer than pyproject.toml) for its install stamps."""
    return subprocess.run(["make", "--no-print-directory", f"BIN={Path(sys.executable).parent}",
                           *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          check=False)


def pip_installs(dry_run: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in dry_run.stdout.splitlines() if "pip install" in line]


def test_make_run_installs_only_what_running_needs(tmp_path: Path) -> None:
    fresh = [f"RUN_STAMP={tmp_path / 'run'}", f"DEV_STAMP={tmp_path / 'dev'}",
             f"E2E_TOOLS={tmp_path / 'e2e'}"]  # not there
    ran = make("-n", "run", *fresh)
    run = pip_installs(ran)
    assert run, "make run installs the package"
    assert not any("[dev]" in line for line in run), run
    assert "npm ci" not in ran.stdout  # the browser tests' tools are for testing only
    tested = make("-n", "test", *fresh)
    test = pip_installs(tested)
    assert any("'.[dev]'" in line for line in test), test
    # and the browser tests' accessibility checker, as tests/e2e/package-lock.json pins it
    assert "cd tests/e2e && npm ci" in tested.stdout, tested.stdout


def test_make_run_on_a_taken_port_fails_before_claiming_to_run(tmp_path: Path) -> None:
    installed = tmp_path / "installed"
    installed.touch()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = make("run", f"PORT={port}", f"DB={tmp_path / 'b.db'}",
                    f"RUN_STAMP={installed}", f"DEV_STAMP={installed}")
    assert done.returncode != 0
    assert "running at" not in done.stdout and "serving" not in done.stdout
    # The port given with PORT= reached the server, which says how to choose another.
    assert f"port {port} on 127.0.0.1 is taken" in done.stderr
    assert f"make run PORT={port + 1}" in done.stderr
    assert not (tmp_path / "b.db").exists()


def test_ctrl_c_while_reading_standard_input_ends_quietly(tmp_path: Path) -> None:
    """`battlelog verify -` waiting for a file on standard input, stopped with Ctrl-C."""
    # As at a terminal: Ctrl-C's default action, even when this run inherited it ignored (a
    # shell's background job, as CI may start it); the command then replaces the launcher.
    launcher = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                "os.execv(sys.argv[1], sys.argv[1:])")
    proc = subprocess.Popen([sys.executable, "-c", launcher, BATTLELOG, "verify", "-"],
                            cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        wchan = Path(f"/proc/{proc.pid}/wchan")
        deadline = time.monotonic() + 30
        while "pipe_read" not in wchan.read_text():  # until it waits on the pipe
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert (err, out) == ("", "")
    assert proc.returncode == 130  # as a shell reports a command stopped by Ctrl-C


def test_make_alone_says_what_to_run_and_installs_nothing(tmp_path: Path) -> None:
    done = make(f"RUN_STAMP={tmp_path / 'run'}", f"DEV_STAMP={tmp_path / 'dev'}", "-n")
    assert done.returncode == 0
    assert pip_installs(done) == []
    shown = make().stdout
    assert "make run" in shown and "PORT=" in shown and "make test" in shown
    assert ".venv/bin/battlelog" in shown
