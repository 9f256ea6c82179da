"""The notifications' tables on each store (`projections.notify_store` holds their SQL):
SQLite and PostgreSQL tracking recorders, so that the outbox rows of an event and the
projection's tracking record are written in one transaction; a seat's registrations are
counted and added in one transaction (on PostgreSQL under an advisory lock of that seat)."""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from projections.notify_store import REG, REG_COLUMNS, Registration, Sql, _NotifySQL


def _reg_values(reg: Registration) -> tuple[Any, ...]:
    return tuple(getattr(reg, c) for c in REG_COLUMNS)


class SQLiteNotifyView(_NotifySQL, SQLiteTrackingRecorder):
    def _create_table(self, c: Any) -> None:
        super()._create_table(c)
        for statement in self._statements():
            c.execute(statement)

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

    def record(self, sqls: list[Sql], tracking: Tracking) -> None:
        with self.datastore.transaction(commit=True) as c:
            for sql in sqls:
                c.execute(*sql)
            self._insert_tracking(c, tracking)

    def add_registration(self, reg: Registration, limit: int) -> bool:
        marks = ", ".join(["?"] * len(REG_COLUMNS))
        with self.datastore.transaction(commit=True) as c:
            c.execute(f"SELECT COUNT(*) FROM {REG} WHERE match_id = ? AND seat = ?",
                      (reg.match_id, reg.seat))
            if c.fetchone()[0] >= limit:
                return False
            c.execute(f"INSERT INTO {REG} ({', '.join(REG_COLUMNS)}) VALUES ({marks})",
                      _reg_values(reg))
        return True


class PostgresNotifyView(_NotifySQL, PostgresTrackingRecorder):
    P = "%s"
    REAL = "DOUBLE PRECISION"
    SERIAL = "BIGSERIAL PRIMARY KEY"
    SKIP_LOCKED = " FOR UPDATE SKIP LOCKED"

    def _create_table(self, curs: Any) -> None:
        super()._create_table(curs)
        for statement in self._statements():
            curs.execute(statement)

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

    def _fetch_commit(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(sql, params)
            return list(curs.fetchall())

    def record(self, sqls: list[Sql], tracking: Tracking) -> None:
        with self.datastore.transaction(commit=True) as curs:
            for sql in sqls:
                curs.execute(sql[0], sql[1])
            self._insert_tracking(curs, tracking)

    def add_registration(self, reg: Registration, limit: int) -> bool:
        marks = ", ".join(["%s"] * len(REG_COLUMNS))
        with self.datastore.transaction(commit=True) as curs:
            # one registration at a time per seat: the count and the insert agree
            curs.execute("SELECT pg_advisory_xact_lock(hashtext(%s))",
                         (f"{reg.match_id}/{reg.seat}",))
            curs.execute(f"SELECT COUNT(*) AS n FROM {REG} WHERE match_id = %s AND seat = %s",
                         (reg.match_id, reg.seat))
            counted = curs.fetchone()
            if counted is not None and counted["n"] >= limit:
                return False
            curs.execute(f"INSERT INTO {REG} ({', '.join(REG_COLUMNS)}) VALUES ({marks})",
                         _reg_values(reg))
        return True
