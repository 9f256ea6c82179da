"""The store wiring: durable SQLite, and a working PostgreSQL env."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from projections.store import DurableSQLiteConnectionPool


class Token(Aggregate):
    def __init__(self, name: str) -> None:
        self.name = name

    @event("Renamed")
    def rename(self, name: str) -> None:
        self.name = name


def _pragma(app: Application[Any], name: str) -> Any:
    pool = app.factory.datastore.pool  # type: ignore[attr-defined]
    conn = pool.get_connection(is_writer=False)
    try:
        cursor = conn.cursor()
        cursor.execute(f"PRAGMA {name};")
        return cursor.fetchone()[0]
    finally:
        pool.put_connection(conn)


def test_sqlite_file_store_fsyncs_every_commit_in_wal_mode(
    sqlite_env_path: tuple[dict[str, str], Path],
) -> None:
    env, path = sqlite_env_path
    app: Application[Any] = Application(env=env)
    token = Token(name="marker")
    app.save(token)

    assert path.exists()
    # This build's SQLite already defaults to FULL; builds with SQLITE_DEFAULT_WAL_SYNCHRONOUS=1
    # (e.g. Apple's) give NORMAL in WAL mode. So also prove our pool is the one in use.
    assert isinstance(app.factory.datastore.pool, DurableSQLiteConnectionPool)  # type: ignore[attr-defined]
    assert _pragma(app, "synchronous") == 2  # FULL
    assert str(_pragma(app, "journal_mode")).lower() == "wal"
    app.close()


def test_sqlite_connections_opened_later_are_durable_too(
    sqlite_env_path: tuple[dict[str, str], Path],
) -> None:
    env, _ = sqlite_env_path
    app: Application[Any] = Application(env=env)
    app.save(Token(name="marker"))
    pool = app.factory.datastore.pool  # type: ignore[attr-defined]
    held = [pool.get_connection(is_writer=False) for _ in range(3)]
    try:
        for conn in held:
            cursor = conn.cursor()
            cursor.execute("PRAGMA synchronous;")
            assert cursor.fetchone()[0] == 2
    finally:
        for conn in held:
            pool.put_connection(conn)
    app.close()


def test_aggregate_saved_to_the_store_reloads_in_a_new_application(
    store_env: dict[str, str],
) -> None:
    writer: Application[Any] = Application(env=store_env)
    token = Token(name="marker")
    token.rename("objective")
    writer.save(token)

    reader: Application[Any] = Application(env=store_env)
    reloaded: Token = reader.repository.get(token.id)

    assert reloaded.name == "objective"
    assert reloaded.version == 2
    writer.close()
    reader.close()


def test_the_sqlite_pool_hands_out_the_connection_put_back_last(tmp_path: Path) -> None:
    """Each SQLite connection caches the pages it read or wrote: the next action is
    appended by the connection that committed the last one (issue 30), not by the one
    idle longest, whose cache another connection's commits made stale."""
    pool = DurableSQLiteConnectionPool(db_name=str(tmp_path / "pool.db"), pool_size=5)
    try:
        first, second, third = (pool.get_connection(is_writer=False) for _ in range(3))
        for conn in (first, second, third):
            pool.put_connection(conn)
        again = pool.get_connection(is_writer=True)
        assert again is third
        pool.put_connection(again)
        assert pool.get_connection(is_writer=False) is third
    finally:
        pool.close()
