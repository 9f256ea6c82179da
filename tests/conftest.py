"""Shared fixtures: the two stores every integration test can run against.

PostgreSQL comes from the ``pgserver`` package (a real server from a wheel, no Docker). When
it cannot start, PostgreSQL tests are skipped, unless ``BATTLELOG_REQUIRE_POSTGRES`` is set
(CI sets it), in which case they fail.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from projections.store import postgres_env, sqlite_env

# A test fails when it leaves behind it a running event loop, a thread or a process (leaks.py);
# pytester runs pytest within a test (tests/unit/test_leaks.py).
pytest_plugins = ["leaks", "pytester"]

REQUIRE_POSTGRES = os.environ.get("BATTLELOG_REQUIRE_POSTGRES", "").strip() not in ("", "0")


def _pg_connect_kwargs(server: Any, dbname: str) -> dict[str, Any]:
    info = server.get_postmaster_info()
    return {
        "dbname": dbname,
        "host": str(info.socket_dir) if info.socket_dir is not None else info.hostname,
        "port": info.port or 5432,
        "user": "postgres",
        "password": "",
    }


# The test server's data is thrown away at the end of the session and only our processes are
# ever killed, never PostgreSQL nor the machine: it need not wait for the disk on each commit
# (with fsync each commit and each CREATE or DROP DATABASE waited for it).
THROWAWAY_SETTINGS = ("fsync", "synchronous_commit", "full_page_writes")


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A PostgreSQL server for the whole session (pgserver, stopped at the end)."""
    try:
        from pgserver.postgres_server import get_server

        server = get_server(tmp_path_factory.mktemp("pg") / "pgdata", cleanup_mode="stop")
        with psycopg.connect(**_pg_connect_kwargs(server, "postgres"), autocommit=True) as conn:
            for setting in THROWAWAY_SETTINGS:
                conn.execute(f"ALTER SYSTEM SET {setting} = off")
            conn.execute("SELECT pg_reload_conf()")
    except Exception as exc:  # noqa: BLE001 - any failure to start means "no PostgreSQL"
        message = f"PostgreSQL (pgserver) could not start: {exc!r}"
        if REQUIRE_POSTGRES:
            pytest.fail(f"{message}; BATTLELOG_REQUIRE_POSTGRES is set", pytrace=False)
        pytest.skip(message)
    try:
        yield server
    finally:
        server.cleanup()


@pytest.fixture
def pg_database(pg_server: Any) -> Iterator[dict[str, Any]]:
    """A fresh, empty database on the session's server; dropped afterwards (best effort)."""
    dbname = f"test_{uuid.uuid4().hex}"
    admin = _pg_connect_kwargs(pg_server, "postgres")
    with psycopg.connect(**admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{dbname}"')
    try:
        yield _pg_connect_kwargs(pg_server, dbname)
    finally:
        try:
            with psycopg.connect(**admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
        except psycopg.Error:
            pass


@pytest.fixture(
    params=[
        pytest.param("sqlite", id="sqlite"),
        pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
    ]
)
def store_env(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    """The env of an empty store: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return sqlite_env(str(tmp_path / "battlelog.db"))
    db: dict[str, Any] = request.getfixturevalue("pg_database")
    return postgres_env(
        dbname=db["dbname"],
        host=db["host"],
        port=db["port"],
        user=db["user"],
        password=db["password"],
    )


@pytest.fixture
def sqlite_env_path(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """For SQLite-only tests: the env of an empty file store, and the file's path."""
    path = tmp_path / "battlelog.db"
    return sqlite_env(str(path)), path


@pytest.fixture
def charged(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The steps a ruleset file's readings charge their meters (domain/rulefiles/cost.py),
    one entry a reading."""
    from domain.rulefiles import cost

    found: list[int] = []
    charge = cost.Meter.charge

    def counting(meter: cost.Meter, steps: int) -> None:
        charge(meter, steps)
        found.append(steps)

    monkeypatch.setattr(cost.Meter, "charge", counting)
    return found


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """The order's seed once more at the end (pytest-randomly prints it in the header, which
    -q leaves out): `--randomly-seed=N` runs the same order again (README, Tests)."""
    seed = getattr(config.option, "randomly_seed", None)
    if isinstance(seed, int) and config.getoption("randomly_reorganize", True):
        terminalreporter.write_line(f"test order: --randomly-seed={seed}")
