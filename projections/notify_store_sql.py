"""The notifications' tables on each store (`projections.notify_store` holds their SQL):
SQLite and PostgreSQL tracking recorders, so that the outbox rows of an event and the
projection's tracking record are written in one transaction; a seat's registrations are
counted and added in one transaction (on PostgreSQL under an advisory lock of that match).
A registrations table made before confirmation gains its new columns when opened."""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from projections.notify_registrations import RegistrationsSQL
from projections.notify_store import REG, REG_ADDED, REG_COLUMNS, Registration, Sql, _NotifySQL
from projections.store import QueuedSchema


def _reg_values(reg: Registration) -> tuple[Any, ...]:
    return tuple(getattr(reg, c) for c in REG_COLUMNS)


def _full(counts: tuple[int, int], limit: int, match_limit: int) -> str | None:
    """Which limit a seat's and a match's registrations (`counts`) have reached."""
    return "seat" if counts[0] >= limit else "match" if counts[1] >= match_limit else None


_COUNT = (f"SELECT COUNT(*) AS n, COALESCE(SUM(CASE WHEN seat = {{p}} THEN 1 ELSE 0 END), 0) "
          f"AS s FROM {REG} WHERE match_id = {{p}}")


class SQLiteNotifyView(RegistrationsSQL, _NotifySQL, SQLiteTrackingRecorder):
    def _create_table(self, c: Any) -> None:
        super()._create_table(c)
        for statement in self._statements():
            c.execute(statement)
        c.execute(f"PRAGMA table_info({REG})")
        have = {row[1] for row in c.fetchall()}
        for column, kind in REG_ADDED:
            if column not in have:
                c.execute(f"ALTER TABLE {REG} ADD COLUMN {column} {kind.format(r=self.REAL)}")

    def _fetch(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(sql, params)
            return list(c.fetchall())

    def _execute(self, sqls: list[Sql]) -> None:
        with self.datastore.transaction(commit=True) as c:
            for sql in sqls:
                c.execute(*sql)

    def _claim(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        with self.datastore.transaction(commit=True) as c:
            c.execute(sql, params)
            return list(c.fetchall())

    def _returning(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        with self.datastore.transaction(commit=True) as c:
            c.execute(sql, params)
            return list(c.fetchall())

    def record(self, sqls: list[Sql], tracking: Tracking) -> None:
        with self.datastore.transaction(commit=True) as c:
            for sql in sqls:
                c.execute(*sql)
            self._insert_tracking(c, tracking)

    def add_registration(self, reg: Registration, limit: int, match_limit: int,
                         also: list[Sql] | None = None) -> str | None:
        marks = ", ".join(["?"] * len(REG_COLUMNS))
        with self.datastore.transaction(commit=True) as c:
            c.execute(_COUNT.format(p="?"), (reg.seat, reg.match_id))
            row = c.fetchone()
            full = _full((int(row["s"]), int(row["n"])), limit, match_limit)
            if full is None:
                c.execute(f"INSERT INTO {REG} ({', '.join(REG_COLUMNS)}) VALUES ({marks})",
                          _reg_values(reg))
                for sql in also or []:
                    c.execute(*sql)
        return full


class PostgresNotifyView(RegistrationsSQL, _NotifySQL, QueuedSchema, PostgresTrackingRecorder):
    P = "%s"
    REAL = "DOUBLE PRECISION"
    SERIAL = "BIGSERIAL PRIMARY KEY"
    SKIP_LOCKED = " FOR UPDATE SKIP LOCKED"

    def _create_table(self, curs: Any) -> None:
        super()._create_table(curs)
        for statement in self._statements():
            self._ddl(curs, statement)
        for column, kind in REG_ADDED:
            self._ddl(curs, f"ALTER TABLE {REG} ADD COLUMN IF NOT EXISTS {column} "
                            f"{kind.format(r=self.REAL)}")

    def _fetch(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(sql, params)
            return list(curs.fetchall())

    def _execute(self, sqls: list[Sql]) -> None:
        with self.datastore.transaction(commit=True) as curs:
            for sql in sqls:
                curs.execute(sql[0], sql[1])

    def _claim(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        return self._fetch_commit(sql, params)

    def _returning(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        return self._fetch_commit(sql, params)

    def _fetch_commit(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(sql, params)
            return list(curs.fetchall())

    def record(self, sqls: list[Sql], tracking: Tracking) -> None:
        with self.datastore.transaction(commit=True) as curs:
            for sql in sqls:
                curs.execute(sql[0], sql[1])
            self._insert_tracking(curs, tracking)

    def add_registration(self, reg: Registration, limit: int, match_limit: int,
                         also: list[Sql] | None = None) -> str | None:
        marks = ", ".join(["%s"] * len(REG_COLUMNS))
        with self.datastore.transaction(commit=True) as curs:
            # one registration at a time per match: the counts and the insert agree
            curs.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (reg.match_id,))
            curs.execute(_COUNT.format(p="%s"), (reg.seat, reg.match_id))
            row = curs.fetchone()
            assert row is not None  # an aggregate has a row
            full = _full((int(row["s"]), int(row["n"])), limit, match_limit)
            if full is None:
                curs.execute(f"INSERT INTO {REG} ({', '.join(REG_COLUMNS)}) VALUES ({marks})",
                             _reg_values(reg))
                for sql in also or []:
                    curs.execute(sql[0], sql[1])
        return full
