"""The match catalogue: one row per match, kept by eventsourcing's projection module.

The row and the projection's tracking position are written in one transaction, so each
event is applied exactly once and a restarted runner resumes where it stopped. On SQLite
(whose recorder has no subscriptions) a small polling thread drives the projection, woken
after every save of this process and every half second for other processes; on PostgreSQL,
a `projections.projector.Projector` does, whose one read of the new events also feeds the
notifier's outbox (issue 30).

With several API processes on one PostgreSQL, exactly one process should run the
projection: two runners would both apply each event, and the second's tracking record
would conflict. `BATTLELOG_PROJECTIONS=external` (see `projections.store`) keeps an API
process to reading the catalogue, and `battlelog project` (`projections.projector`) is that
one runner: it reads each batch of new events once for the catalogue (`apply`) and the
notifier's outbox, and resumes from the tracking position after any error.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, Protocol, cast
from uuid import UUID

import orjson
from eventsourcing.persistence import StoredEvent, Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from domain.app import Matches
from domain.app.persistence import plain_json
from domain.events.base import usable_time
from projections.catalogue_rows import (
    TYPED,
    CatalogueEntry,
    Change,
    coalesce,
    row_change,
)
from projections.isolation import Failing
from projections.log_read import LogRecord, read_log
from projections.projector import Projector
from projections.store import QueuedSchema, projections_inline
from projections.ticker import Ticker

log = logging.getLogger(__name__)

TABLE = "battlelog_catalogue"
COLUMNS = ("match_id", "ruleset", "scenario", "sides", "created", "last_activity", "turn",
           "status", "winner", "version")


def _flag(ended: bool | None) -> int | None:
    return None if ended is None else int(ended)


class _CatalogueSQL:
    """The SQL both views share; `P` is the driver's placeholder."""

    P = "?"

    def _statements(self) -> list[str]:
        return [
            (f"CREATE TABLE IF NOT EXISTS {TABLE} (match_id TEXT PRIMARY KEY, ruleset TEXT, "
             "scenario TEXT, sides TEXT, created TEXT, last_activity TEXT, turn INTEGER, "
             "status TEXT, winner TEXT, version INTEGER)"),
            f"CREATE INDEX IF NOT EXISTS {TABLE}_recent ON {TABLE} (last_activity)",
        ]

    def insert_sql(self, entry: CatalogueEntry) -> tuple[str, tuple[Any, ...]]:
        marks = ", ".join([self.P] * len(COLUMNS))
        return (
            f"INSERT INTO {TABLE} ({', '.join(COLUMNS)}) VALUES ({marks})",
            (str(entry.match_id), entry.ruleset, entry.scenario, ",".join(entry.sides),
             entry.created.isoformat(), entry.last_activity.isoformat(), entry.turn,
             entry.status, entry.winner, entry.version),
        )

    def update_sql(self, change: Change) -> tuple[str, tuple[Any, ...]]:
        p = self.P
        return (
            (f"UPDATE {TABLE} SET version = {p}, last_activity = {p}, "
             f"turn = COALESCE({p}, turn), "
             f"status = CASE WHEN {p} = 1 THEN 'ended' WHEN {p} = 0 THEN 'active' "
             "ELSE status END, "
             f"winner = CASE WHEN {p} >= 0 THEN {p} ELSE winner END WHERE match_id = {p}"),
            (change.version, change.when.isoformat(), change.turn, *[_flag(change.ended)] * 3,
             change.winner, str(change.match_id)),
        )

    def statements(self, rows: Iterable[Change | CatalogueEntry]
                   ) -> list[tuple[str, tuple[Any, ...]]]:
        return [self.insert_sql(r) if isinstance(r, CatalogueEntry) else self.update_sql(r)
                for r in rows]

    def _fetch(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        raise NotImplementedError

    def list(self, limit: int, offset: int, status: str | None) -> list[CatalogueEntry]:
        p = self.P
        where, params = (f"WHERE status = {p}", (status,)) if status else ("", ())
        rows = self._fetch(
            f"SELECT {', '.join(COLUMNS)} FROM {TABLE} {where} "
            f"ORDER BY last_activity DESC LIMIT {p} OFFSET {p}", (*params, limit, offset))
        return [self._entry(r) for r in rows]

    def get(self, match_id: UUID) -> CatalogueEntry | None:
        rows = self._fetch(f"SELECT {', '.join(COLUMNS)} FROM {TABLE} WHERE match_id = {self.P}",
                           (str(match_id),))
        return self._entry(rows[0]) if rows else None

    @staticmethod
    def _entry(row: Any) -> CatalogueEntry:
        values = {c: row[c] for c in COLUMNS}
        values["sides"] = values["sides"].split(",") if values["sides"] else []
        return CatalogueEntry(**values)


class CatalogueView(Protocol):
    def record_many(self, sqls: list[tuple[str, tuple[Any, ...]]],
                    tracking: Tracking) -> None: ...
    def statements(self, rows: Iterable[Change | CatalogueEntry]
                   ) -> list[tuple[str, tuple[Any, ...]]]: ...
    def insert_sql(self, entry: CatalogueEntry) -> tuple[str, tuple[Any, ...]]: ...
    def update_sql(self, change: Change) -> tuple[str, tuple[Any, ...]]: ...
    def list(self, limit: int, offset: int, status: str | None) -> list[CatalogueEntry]: ...
    def get(self, match_id: UUID) -> CatalogueEntry | None: ...
    def max_tracking_id(self, application_name: str) -> int | None: ...


class SQLiteCatalogueView(_CatalogueSQL, SQLiteTrackingRecorder):
    P = "?"

    def _create_table(self, c: Any) -> None:
        super()._create_table(c)
        for statement in self._statements():
            c.execute(statement)

    def record_many(self, sqls: list[tuple[str, tuple[Any, ...]]], tracking: Tracking) -> None:
        with self.datastore.transaction(commit=True) as c:
            for sql in sqls:
                c.execute(*sql)
            self._insert_tracking(c, tracking)

    def _fetch(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(sql, params)
            return list(c.fetchall())


class PostgresCatalogueView(_CatalogueSQL, QueuedSchema, PostgresTrackingRecorder):
    P = "%s"

    def _create_table(self, curs: Any) -> None:
        super()._create_table(curs)
        for statement in self._statements():
            self._ddl(curs, statement)

    def record_many(self, sqls: list[tuple[str, tuple[Any, ...]]], tracking: Tracking) -> None:
        with self.datastore.transaction(commit=True) as curs:
            for sql in sqls:
                curs.execute(sql[0], sql[1])
            self._insert_tracking(curs, tracking)

    def _fetch(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(sql, params)
            return list(curs.fetchall())


# How long the SQLite catalogue trails behind the saves that woke it: it writes what
# `TRAIL` seconds of actions changed in one transaction, instead of an fsync'd commit beside
# each action's own (two writers taking turns at SQLite's one write lock). A reader that
# must see everything saved before it (`wait_until_caught_up`: the match list) catches up
# at once.
TRAIL = 0.25


class CatalogueService:
    """The catalogue's runner and its queries."""

    def __init__(self, matches: Matches, trail: float = TRAIL) -> None:
        self.matches = matches
        self._postgres = matches.env.get("PERSISTENCE_MODULE", "").startswith(
            "eventsourcing.postgres")
        # PostgreSQL: the runner of this process's read models (`start`), one read of the
        # log for the catalogue and the notifier's outbox (the notifier attaches to it)
        self.projector: Projector | None = None
        self._projecting: threading.Thread | None = None
        self.trail = trail
        self._inline = False  # this process's ticker runs the projection (SQLite)
        self._stopping = threading.Event()
        self._applying = threading.Lock()  # one catch-up at a time: one tracking writer
        self._ticker = Ticker(matches, "catalogue", self._trailing, interval=0.5)  # SQLite
        self.view: CatalogueView
        view_class = PostgresCatalogueView if self._postgres else SQLiteCatalogueView
        self.view = cast(CatalogueView, matches.factory.tracking_recorder(view_class))
        # the matches whose events it passed over: an event that does not load, or whose
        # row change fails, is passed over and its match marked (logged once); the others
        # go on (docs/deploy.md)
        self.failing = Failing("catalogue")

    def start(self) -> None:
        """Run the projection in this process, unless another process runs it
        (`BATTLELOG_PROJECTIONS=external`)."""
        if not projections_inline():
            return
        if self._postgres:
            self.projector = Projector(self.matches, self)
            self._projecting = threading.Thread(target=self.projector.run_forever,
                                                args=(self._stopping,), name="projector",
                                                daemon=True)
            self._projecting.start()
        else:
            self._ticker.start()
            self._inline = True

    def stop(self) -> None:
        self._stopping.set()
        if self.projector is not None:
            self.projector.wake()  # it sees `_stopping` now, not at its next poll
        if self._projecting is not None:
            self._projecting.join(timeout=30)
            self._projecting = None
        self._ticker.stop()
        if self._inline:
            self._inline = False
            try:
                self._apply()  # what the last `trail` seconds saved, before the store closes
            except Exception:  # the next start resumes from the tracking
                log.exception("catalogue: the last catch-up failed; the next start resumes")

    def _trailing(self) -> None:
        """The SQLite ticker's work: let `trail` seconds of saves gather, then apply them
        in one transaction."""
        self._stopping.wait(self.trail)
        self._apply()

    def _apply(self) -> int:
        with self._applying:
            return self.catch_up()

    def position(self) -> int:
        return self.view.max_tracking_id(self.matches.name) or 0

    def wait_until_caught_up(self, timeout: float = 5.0) -> None:
        """Return once every event saved before the call is in the catalogue (or timeout)."""
        target = self.matches.recorder.max_notification_id() or 0
        if self._inline and self.position() < target:
            self._apply()  # this process runs the projection: apply now, not in `trail`
        elif self.projector is not None and self.position() < target:
            self.projector.step()  # the same (PostgreSQL): now, not after its `trail`
        deadline = time.monotonic() + timeout
        while self.position() < target and time.monotonic() < deadline:
            self._ticker.wake()
            time.sleep(0.005)

    def catch_up(self, batch: int = 1000) -> int:
        """Apply every event not yet applied, `batch` events to a transaction (their row
        changes folded per match, then written with the last event's tracking); the number
        applied. An event whose row change is its envelope alone is read from its stored
        JSON, without building the model. A record that does not load is passed over, its
        match marked in `failing`."""
        done = 0
        while True:
            records = read_log(self.matches, self.position() + 1, batch)
            if not records:
                return done
            self.apply(records)
            done += len(records)
            if len(records) < batch:
                return done

    def apply(self, records: Sequence[LogRecord]) -> int:
        """Apply `records` (read from the log after this projection's position, in order:
        `catch_up`'s, or one read shared with the notifier's outbox in `battlelog
        project`) in one transaction with the last one's tracking; how many."""
        if not records:
            return 0
        mapper = self.matches.mapper
        plain = plain_json(mapper)
        changes: list[Change | CatalogueEntry] = []
        for _, match_id, version, topic, state in records:
            try:
                if plain and topic not in TYPED:
                    stamp = orjson.loads(state)["timestamp"]
                    changes.append(Change(match_id, version,
                                          usable_time(datetime.fromisoformat(stamp))))
                else:
                    changes.append(row_change(mapper.to_domain_event(
                        StoredEvent(match_id, version, topic, state))))
            except Exception as error:  # noqa: BLE001 - this match's, not the others'
                self.failing.failed(match_id, error)
        self.view.record_many(self.view.statements(coalesce(changes)),
                              Tracking(self.matches.name, records[-1][0]))
        return len(records)

    def list(self, limit: int = 50, offset: int = 0,
             status: str | None = None) -> list[CatalogueEntry]:
        return self.view.list(limit, offset, status)

    def get(self, match_id: UUID) -> CatalogueEntry | None:
        return self.view.get(match_id)


def open_catalogue(matches: Matches) -> CatalogueService:
    return CatalogueService(matches)


__all__ = ["CatalogueEntry", "CatalogueService", "Change", "coalesce", "open_catalogue", "row_change"]
