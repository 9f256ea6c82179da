"""Store wiring: the ``env`` dict that the eventsourcing Application is built from.

Two stores are supported (see DESIGN.md, "Persistence"):

* **SQLite** (the embedded default): one file in WAL mode, with ``PRAGMA synchronous=FULL`` on
  every connection, so an acknowledged action survives a crash. eventsourcing's own SQLite
  module switches WAL on but never sets ``synchronous``; :class:`DurableSQLiteFactory` does.
* **PostgreSQL** (scale-out): eventsourcing's postgres module, with a bounded lock timeout.

Environment variables read by :func:`env_from_environment`:

``BATTLELOG_STORE``
    ``sqlite`` (default) or ``postgres``.
``BATTLELOG_DB``
    SQLite file path, used when no path is passed explicitly (default ``./battlelog.db``).
``BATTLELOG_PG_DBNAME``
    PostgreSQL database name (default ``battlelog``).
``BATTLELOG_PG_HOST``
    Host name, or a unix socket directory (default ``127.0.0.1``).
``BATTLELOG_PG_PORT``
    Port (default ``5432``).
``BATTLELOG_PG_USER``
    User (default ``battlelog``).
``BATTLELOG_PG_PASSWORD``
    Password (default empty).
``BATTLELOG_PG_DB_FUNCTIONS``
    ``on`` (default): a save is one statement, a stored function that takes the table lock
    (projections.store_pg); ``off``: eventsourcing's pipelined transaction.
``BATTLELOG_PROJECTIONS``
    ``inline`` (default): each API process keeps the read models (the match catalogue) up to
    date itself. ``external``: it only reads them, and one ``battlelog project`` process
    keeps them; the setting for several API processes on one PostgreSQL (docs/deploy.md).

Variables put into the returned env (read by eventsourcing, all timeouts in whole seconds):

* SQLite: ``PERSISTENCE_MODULE=projections.store:DurableSQLiteFactory``, ``SQLITE_DBNAME``,
  ``SQLITE_LOCK_TIMEOUT`` (busy timeout).
* PostgreSQL: ``PERSISTENCE_MODULE=eventsourcing.postgres``, ``POSTGRES_DBNAME``,
  ``POSTGRES_HOST``, ``POSTGRES_PORT``, ``POSTGRES_USER``, ``POSTGRES_PASSWORD``,
  ``POSTGRES_LOCK_TIMEOUT`` (eventsourcing's default 0 waits forever on the table lock every
  save takes), ``POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT``, ``POSTGRES_CONNECT_TIMEOUT``,
  ``POSTGRES_POOL_SIZE`` and ``POSTGRES_MAX_OVERFLOW`` (per Application, i.e. per process: size
  them against the server's ``max_connections``); ``POSTGRES_ENABLE_DB_FUNCTIONS=y`` and
  ``APPLICATION_RECORDER_TOPIC`` (projections.store_pg) unless ``BATTLELOG_PG_DB_FUNCTIONS=off``:
  a stored function appends a save's events in one statement, one round trip, under the
  table lock that keeps the log's order, instead of a pipelined transaction of two.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.sqlite import (
    SQLiteApplicationRecorder,
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteDatastore,
    SQLiteFactory,
    SQLiteTransaction,
)
from eventsourcing.utils import Environment, EnvType

from projections import store_pg

__all__ = [
    "DEFAULT_DB_PATH",
    "DurableSQLiteConnectionPool",
    "DurableSQLiteFactory",
    "GroupCommitSQLiteApplicationRecorder",
    "env_from_environment",
    "postgres_env",
    "projections_inline",
    "sqlite_env",
]

DEFAULT_DB_PATH = "./battlelog.db"
SQLITE_LOCK_TIMEOUT_SECONDS = 10
POSTGRES_LOCK_TIMEOUT_SECONDS = 5
POSTGRES_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS = 10
POSTGRES_CONNECT_TIMEOUT_SECONDS = 5
POSTGRES_POOL_SIZE = 5
POSTGRES_MAX_OVERFLOW = 5


class _MostRecentFirst(deque[SQLiteConnection]):
    """The pool's idle connections, the one put back last handed out first (eventsourcing's
    pool takes them in turn, oldest first)."""

    def popleft(self) -> SQLiteConnection:
        return self.pop()


class DurableSQLiteConnectionPool(SQLiteConnectionPool):
    """Connection pool whose every new connection fsyncs on commit (``synchronous=FULL``),
    and which hands out the connection used last (issue 30): each SQLite connection keeps
    its own cache of pages, valid while no other connection has written, so that the
    connection that committed the last action appends the next one without reading back
    the pages it wrote (with connections taken in turn, every commit read them again)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pool = _MostRecentFirst()

    def _create_connection(self) -> SQLiteConnection:
        connection = super()._create_connection()
        connection.cursor().execute("PRAGMA synchronous=FULL;")
        return connection


class _Append:
    """One `insert_events` call waiting in a group commit: its events, then its answer."""

    __slots__ = ("done", "error", "ids", "leads", "stored_events", "woken")

    def __init__(self, stored_events: Sequence[StoredEvent]) -> None:
        self.stored_events = stored_events
        # what wakes it, made only when it waits (an append that leads never does)
        self.woken: threading.Event | None = None
        self.leads = False  # woken to commit the next group, not with an answer
        self.done = False
        self.ids: Sequence[int] | None = None
        self.error: BaseException | None = None


class GroupCommitSQLiteApplicationRecorder(SQLiteApplicationRecorder):
    """eventsourcing's SQLite recorder, with group commit: appends that arrive while a
    commit is under way wait, and the next commit carries all of them (each in a savepoint
    of its own, so a clash fails that append alone), with one fsync; an append that
    commits alone needs no savepoint (two statements fewer: its clash rolls the
    transaction back, and eventsourcing raises its IntegrityError). Every caller
    returns only after the commit that holds its events: what is acknowledged is on disk.
    SQLite has one writer; one commit per action made the fsync the limit of concurrent
    actions (issue 18)."""

    def __init__(self, datastore: SQLiteDatastore,
                 events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name)
        self._queue_lock = threading.Lock()
        self._waiting: list[_Append] = []
        self._leading = False
        self.commits = 0  # transactions committed (each holds one or more appends)

    def insert_events(self, stored_events: Sequence[StoredEvent],
                      **kwargs: Any) -> Sequence[int] | None:
        if kwargs.get("tracking") is not None:  # a process application's: as it was
            return super().insert_events(stored_events, **kwargs)
        mine = _Append(stored_events)
        with self._queue_lock:
            self._waiting.append(mine)
            lead = not self._leading
            self._leading = True
            if not lead:  # before the lock is let go: the leader may wake it at once
                mine.woken = woken = threading.Event()
        while not lead:
            woken.wait()
            if mine.done:
                break
            lead = mine.leads
            woken.clear()
        if lead:
            self._commit_group()
        if mine.error is not None:
            raise mine.error
        return mine.ids

    def _commit_group(self) -> None:
        """Commit every waiting append in one transaction, then hand the lead to the
        first append that arrived meanwhile (or lay it down)."""
        with self._queue_lock:
            group, self._waiting = self._waiting, []
        try:
            self._transaction(group)
            self.commits += 1
        except BaseException as error:  # noqa: BLE001 (each waiter gets it, below)
            for append in group:
                if append.error is None:
                    append.ids, append.error = None, error
        finally:
            with self._queue_lock:
                if self._waiting:
                    following = self._waiting[0]  # it came while a group led: it waits
                    assert following.woken is not None
                    following.leads = True
                    following.woken.set()
                else:
                    self._leading = False
            for append in group:
                append.done = True
                if append.woken is not None:
                    append.woken.set()

    def _transaction(self, group: list[_Append]) -> None:
        """One transaction for the group on the pool's writer connection: what
        `datastore.transaction(commit=True)` does (eventsourcing's `SQLiteTransaction`:
        BEGIN, then COMMIT, or ROLLBACK and the error raised as eventsourcing's), without
        the three generator context managers it wraps that in (issue 30)."""
        pool = self.datastore.pool
        conn = pool.get_connection(is_writer=True)
        try:
            with SQLiteTransaction(conn, commit=True) as c, c:
                if len(group) == 1:  # alone: no savepoint, a clash rolls it all back
                    group[0].ids = self._insert_events(c, group[0].stored_events)
                for append in group if len(group) > 1 else ():
                    c.execute("SAVEPOINT one_append")
                    try:
                        append.ids = self._insert_events(c, append.stored_events)
                    except sqlite3.IntegrityError as error:
                        c.execute("ROLLBACK TO one_append")
                        append.error = IntegrityError(error)
                    c.execute("RELEASE one_append")
        finally:
            pool.put_connection(conn)


class DurableSQLiteFactory(SQLiteFactory):
    """eventsourcing's SQLite factory, with a datastore that uses the durable pool and an
    application recorder that commits concurrent appends together."""

    application_recorder_class = GroupCommitSQLiteApplicationRecorder

    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        datastore: SQLiteDatastore = self.datastore
        plain = datastore.pool
        # The parent's pool has not opened a connection yet: swap it before anyone uses it.
        datastore.pool = DurableSQLiteConnectionPool(
            db_name=plain.db_name,
            lock_timeout=plain.lock_timeout,
            pool_size=plain.pool_size,
            max_overflow=plain.max_overflow,
            pool_timeout=plain.pool_timeout,
            max_age=plain.max_age,
            pre_ping=plain.pre_ping,
        )
        plain.close()


def sqlite_env(path: str) -> dict[str, str]:
    """The env for a durable SQLite store in the file at ``path``."""
    return {
        "PERSISTENCE_MODULE": f"{__name__}:{DurableSQLiteFactory.__qualname__}",
        "SQLITE_DBNAME": path,
        "SQLITE_LOCK_TIMEOUT": str(SQLITE_LOCK_TIMEOUT_SECONDS),
    }


def postgres_env(
    dbname: str,
    host: str,
    port: int | str,
    user: str,
    password: str,
    *,
    pool_size: int = POSTGRES_POOL_SIZE,
    max_overflow: int = POSTGRES_MAX_OVERFLOW,
    one_statement: bool = True,
) -> dict[str, str]:
    """The env for eventsourcing's PostgreSQL store; ``host`` may be a unix socket directory.
    ``one_statement``: a save appends its events in one statement, our stored function that
    keeps the log's order (projections.store_pg), one round trip instead of two."""
    one = {"POSTGRES_ENABLE_DB_FUNCTIONS": "y",
           "APPLICATION_RECORDER_TOPIC": store_pg.TOPIC} if one_statement else {}
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": host,
        "POSTGRES_PORT": str(port),
        "POSTGRES_USER": user,
        "POSTGRES_PASSWORD": password,
        "POSTGRES_LOCK_TIMEOUT": str(POSTGRES_LOCK_TIMEOUT_SECONDS),
        "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT": str(
            POSTGRES_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS
        ),
        "POSTGRES_CONNECT_TIMEOUT": str(POSTGRES_CONNECT_TIMEOUT_SECONDS),
        "POSTGRES_POOL_SIZE": str(pool_size),
        "POSTGRES_MAX_OVERFLOW": str(max_overflow),
        **one,
    }


def env_from_environment(
    db_path: str | None = None, environ: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The store env chosen by the ``BATTLELOG_*`` variables (see the module docstring).

    ``db_path`` (e.g. from ``battlelog serve --db``) wins over ``BATTLELOG_DB`` for SQLite.
    """
    source = os.environ if environ is None else environ
    store = source.get("BATTLELOG_STORE", "sqlite").strip().lower() or "sqlite"
    if store == "postgres":
        functions = source.get("BATTLELOG_PG_DB_FUNCTIONS", "on").strip().lower() or "on"
        if functions not in ("on", "off"):
            msg = f"BATTLELOG_PG_DB_FUNCTIONS must be 'on' or 'off', not {functions!r}"
            raise ValueError(msg)
        return postgres_env(
            dbname=source.get("BATTLELOG_PG_DBNAME", "battlelog"),
            host=source.get("BATTLELOG_PG_HOST", "127.0.0.1"),
            port=source.get("BATTLELOG_PG_PORT", "5432"),
            user=source.get("BATTLELOG_PG_USER", "battlelog"),
            password=source.get("BATTLELOG_PG_PASSWORD", ""),
            one_statement=functions == "on",  # one round trip a save (issue 30)
        )
    if store != "sqlite":
        msg = f"BATTLELOG_STORE must be 'sqlite' or 'postgres', not {store!r}"
        raise ValueError(msg)
    return sqlite_env(db_path or source.get("BATTLELOG_DB") or DEFAULT_DB_PATH)


def projections_inline(environ: Mapping[str, str] | None = None) -> bool:
    """Whether this process keeps the read models itself (``BATTLELOG_PROJECTIONS``)."""
    source = os.environ if environ is None else environ
    mode = source.get("BATTLELOG_PROJECTIONS", "inline").strip().lower() or "inline"
    if mode not in ("inline", "external"):
        msg = f"BATTLELOG_PROJECTIONS must be 'inline' or 'external', not {mode!r}"
        raise ValueError(msg)
    return mode == "inline"



SCHEMA_LOCK = 0x6261_7474  # "batt": the one advisory lock our PostgreSQL tables are made under


class QueuedSchema:
    """Mixin for our PostgreSQL read models' recorders (before eventsourcing's tracking
    recorder in the bases). Their tables are created by whoever opens them first: an API
    process, its background loops, `battlelog project`. CREATE TABLE IF NOT EXISTS is not safe
    to run at the same moment on an empty database (a duplicate key in pg_type, a deadlock),
    so creation takes one advisory lock for its transaction; and an opener that read "no
    table yet" before the lock and then meets the record another opener wrote (the tracking
    table's migration record) opens again, finding the table there.

    An opener that finds the schema there changes nothing (`_ddl`): an index or a column
    that exists is not asked for again, since even `IF NOT EXISTS` first locks its table
    (a share lock for an index, an exclusive one for a column), and several of those in
    one transaction deadlock with the writers already at work on those tables."""

    def _create_table(self, curs: Any) -> None:
        curs.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        super()._create_table(curs)  # type: ignore[misc]

    @staticmethod
    def _ddl(curs: Any, statement: str) -> None:
        """Run `statement` (ours, of `_create_table`) unless what it makes is there."""
        index = re.match(r"CREATE (?:UNIQUE )?INDEX IF NOT EXISTS (\w+)", statement)
        column = re.match(r"ALTER TABLE (\w+) ADD COLUMN IF NOT EXISTS (\w+)", statement)
        if index is not None:
            curs.execute("SELECT to_regclass(%s) IS NOT NULL AS there", (index[1],))
        elif column is not None:
            curs.execute("SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE "
                         "table_schema = current_schema() AND table_name = %s AND "
                         "column_name = %s) AS there", (column[1], column[2]))
        if (index or column) is not None and curs.fetchone()["there"]:
            return
        curs.execute(statement)

    def create_table(self) -> None:
        try:
            super().create_table()  # type: ignore[misc]
        except IntegrityError:
            super().create_table()  # type: ignore[misc]
