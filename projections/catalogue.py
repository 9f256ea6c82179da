"""The match catalogue: one row per match, kept by eventsourcing's projection module.

The row and the projection's tracking position are written in one transaction, so each
event is applied exactly once and a restarted runner resumes where it stopped. On SQLite
(whose recorder has no subscriptions) a small polling thread drives the projection, woken
after every save of this process and every half second for other processes; on PostgreSQL,
eventsourcing's `ProjectionRunner` does.

With several API processes on one PostgreSQL, exactly one process should run the
projection: two runners would both apply each event, and the second's tracking record
would conflict. `BATTLELOG_PROJECTIONS=external` (see `projections.store`) keeps an API
process to reading the catalogue, and `battlelog project` (`CatalogueService.run_forever`)
is that one runner, restarted from its tracking position after any error.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from functools import singledispatchmethod
from typing import Any, Literal, Protocol, cast
from uuid import UUID

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.projection import Projection, ProjectionRunner
from eventsourcing.sqlite import SQLiteTrackingRecorder
from pydantic import BaseModel

from domain import events as ev
from domain.application import Matches
from projections.store import projections_inline

log = logging.getLogger(__name__)

TABLE = "battlelog_catalogue"
COLUMNS = ("match_id", "ruleset", "scenario", "sides", "created", "last_activity", "turn",
           "status", "winner", "version")


class CatalogueEntry(BaseModel):
    match_id: UUID
    ruleset: str
    scenario: str
    sides: list[str]
    created: datetime
    last_activity: datetime
    turn: int
    status: Literal["active", "ended"]
    winner: str | None
    version: int


@dataclass(frozen=True)
class Change:
    """What one event changes in its match's row (None: unchanged)."""

    match_id: UUID
    version: int
    when: datetime
    turn: int | None = None
    ended: bool = False
    winner: str | None = None


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
             f"status = CASE WHEN {p} = 1 THEN 'ended' ELSE status END, "
             f"winner = CASE WHEN {p} = 1 THEN {p} ELSE winner END WHERE match_id = {p}"),
            (change.version, change.when.isoformat(), change.turn, int(change.ended),
             int(change.ended), change.winner, str(change.match_id)),
        )

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
    def record(self, sql: tuple[str, tuple[Any, ...]], tracking: Tracking) -> None: ...
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

    def record(self, sql: tuple[str, tuple[Any, ...]], tracking: Tracking) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(*sql)
            self._insert_tracking(c, tracking)

    def _fetch(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(sql, params)
            return list(c.fetchall())


class PostgresCatalogueView(_CatalogueSQL, PostgresTrackingRecorder):
    P = "%s"

    def _create_table(self, curs: Any) -> None:
        super()._create_table(curs)
        for statement in self._statements():
            curs.execute(statement)

    def record(self, sql: tuple[str, tuple[Any, ...]], tracking: Tracking) -> None:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(sql[0], sql[1])
            self._insert_tracking(curs, tracking)

    def _fetch(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(sql, params)
            return list(curs.fetchall())


class CatalogueProjection(Projection[Any]):
    name = "catalogue"

    @singledispatchmethod
    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        event: ev.Event = domain_event
        self._change(Change(event.originator_id, event.version, event.timestamp), tracking)

    @process_event.register
    def _(self, domain_event: ev.MatchCreated, tracking: Tracking) -> None:
        e = domain_event
        entry = CatalogueEntry(
            match_id=e.originator_id, ruleset=e.ruleset, scenario=e.scenario,
            sides=[s.id for s in e.sides], created=e.timestamp, last_activity=e.timestamp,
            turn=e.turn, status="active", winner=None, version=e.version)
        self.view.record(self.view.insert_sql(entry), tracking)

    @process_event.register
    def _(self, domain_event: ev.TurnAdvanced, tracking: Tracking) -> None:
        e = domain_event
        self._change(Change(e.originator_id, e.version, e.timestamp, turn=e.marker.turn),
                     tracking)

    @process_event.register
    def _(self, domain_event: ev.ActionsUndone | ev.ActionsRedone, tracking: Tracking) -> None:
        e = domain_event
        self._change(Change(e.originator_id, e.version, e.timestamp, turn=e.resulting_turn),
                     tracking)

    @process_event.register
    def _(self, domain_event: ev.MatchEnded, tracking: Tracking) -> None:
        e = domain_event
        self._change(Change(e.originator_id, e.version, e.timestamp, ended=True,
                            winner=e.winner), tracking)

    def _change(self, change: Change, tracking: Tracking) -> None:
        self.view.record(self.view.update_sql(change), tracking)


class CatalogueService:
    """The catalogue's runner and its queries."""

    def __init__(self, matches: Matches) -> None:
        self.matches = matches
        self._postgres = matches.env.get("PERSISTENCE_MODULE", "").startswith(
            "eventsourcing.postgres")
        self._runner: ProjectionRunner[Matches, Any] | None = None
        self._thread: threading.Thread | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self.view: CatalogueView
        view_class = PostgresCatalogueView if self._postgres else SQLiteCatalogueView
        self.view = cast(CatalogueView, matches.factory.tracking_recorder(view_class))
        self.projection = CatalogueProjection(view=self.view)

    def start(self) -> None:
        """Run the projection in this process, unless another process runs it
        (`BATTLELOG_PROJECTIONS=external`)."""
        if not projections_inline():
            return
        if self._postgres:
            self._runner = ProjectionRunner(
                application_class=Matches, projection_class=CatalogueProjection,
                view_class=PostgresCatalogueView, env=dict(self.matches.env),
            )
        else:
            self.matches.saved_listeners.append(self._wake.set)
            self._thread = threading.Thread(target=self._poll, name="catalogue", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        if self._runner is not None:
            self._runner.stop()
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._wake.set in self.matches.saved_listeners:
            self.matches.saved_listeners.remove(self._wake.set)

    def run_forever(self, stopping: threading.Event, poll: float = 0.25) -> None:
        """The projection runner of `battlelog project`: apply every event, then each new
        one, until `stopping` is set. On PostgreSQL through eventsourcing's
        `ProjectionRunner` (a subscription: LISTEN/NOTIFY), restarted after an error from the
        recorded position; on SQLite by polling."""
        while not stopping.is_set():
            try:
                if not self._postgres:
                    self.catch_up()
                    stopping.wait(poll)
                    continue
                with ProjectionRunner(application_class=Matches,
                                      projection_class=CatalogueProjection,
                                      view_class=PostgresCatalogueView,
                                      env=dict(self.matches.env)) as runner:
                    while not stopping.is_set():
                        runner.run_forever(timeout=poll)
            except Exception:  # a runner that stops is no runner: log it and resume
                log.exception("catalogue projection failed; resuming from its position")
                stopping.wait(1.0)

    def position(self) -> int:
        return self.view.max_tracking_id(self.matches.name) or 0

    def wait_until_caught_up(self, timeout: float = 5.0) -> None:
        """Return once every event saved before the call is in the catalogue (or timeout)."""
        target = self.matches.recorder.max_notification_id() or 0
        deadline = time.monotonic() + timeout
        while self.position() < target and time.monotonic() < deadline:
            self._wake.set()
            time.sleep(0.005)

    def catch_up(self) -> int:
        """Apply every event not yet applied; the number applied."""
        done = 0
        while True:
            start = self.position() + 1
            batch = self.matches.recorder.select_notifications(start=start, limit=500)
            for n in batch:
                event = self.matches.mapper.to_domain_event(n)
                self.projection.process_event(event, Tracking(self.matches.name, n.id))
            done += len(batch)
            if len(batch) < 500:
                return done

    def _poll(self) -> None:
        while not self._stop.is_set():
            try:
                self.catch_up()
            except Exception:  # noqa: BLE001 - keep the runner alive; retried next wake
                time.sleep(0.5)
            self._wake.wait(timeout=0.5)
            self._wake.clear()

    def list(self, limit: int = 50, offset: int = 0,
             status: str | None = None) -> list[CatalogueEntry]:
        return self.view.list(limit, offset, status)

    def get(self, match_id: UUID) -> CatalogueEntry | None:
        return self.view.get(match_id)


def open_catalogue(matches: Matches) -> CatalogueService:
    return CatalogueService(matches)


__all__ = ["CatalogueEntry", "CatalogueService", "open_catalogue"]
