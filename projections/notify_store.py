"""The notifications' tables in the match store, beside the event log and never in it:
registrations (with their secrets), the last set of seats each match waited for, the outbox
(one row per notice to deliver), the delivery attempts, the seats present on a table page
and the VAPID key pair. Secrets live here only: no event, export or report holds them.

The registrations' own reads and writes (confirmation, expiry, the end of a reissued
seat's, the creators' addresses) are in `projections.notify_registrations`.

One class per store (SQLite, PostgreSQL), each an eventsourcing tracking recorder, so that
the outbox rows of an event and the projection's tracking record are written in one
transaction (`record`): an event is turned into notices exactly once. Times are seconds
since the epoch (floats)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, cast

import orjson
from eventsourcing.persistence import Tracking

REG = "battlelog_notify_registrations"
WAITING = "battlelog_notify_waiting"
OUTBOX = "battlelog_notify_outbox"
ATTEMPTS = "battlelog_notify_attempts"
PRESENCE = "battlelog_notify_presence"
VAPID = "battlelog_notify_vapid"
CREATORS = "battlelog_notify_creators"

REG_COLUMNS = ("registration_id", "match_id", "seat", "kind", "target", "secret", "p256dh",
               "auth", "created", "status", "code_hash", "tries", "confirmed", "holder")
# columns added to a registrations table made before confirmation: what was registered
# then is pending with no code, so it is never told and expires
REG_ADDED = (("status", "TEXT NOT NULL DEFAULT 'pending'"), ("code_hash", "TEXT"),
             ("tries", "INTEGER NOT NULL DEFAULT 0"), ("confirmed", "{r}"), ("holder", "TEXT"))
PENDING, CONFIRMED = "pending", "confirmed"
OUTBOX_COLUMNS = ("delivery_id", "registration_id", "match_id", "seat", "version", "reminder",
                  "payload", "status", "attempts", "due", "lease_until", "created", "done")


@dataclass(frozen=True)
class Registration:
    registration_id: str
    match_id: str
    seat: str
    kind: str  # webhook | email | push
    target: str  # URL, address, or push endpoint
    secret: str | None  # webhook: whsec_...
    p256dh: str | None
    auth: str | None
    created: float
    status: str = PENDING  # pending (told nothing but the confirmation) | confirmed
    code_hash: str | None = None  # sha256 of the confirmation code
    tries: int = 0  # wrong codes given so far
    confirmed: float | None = None  # when; notices are made for handoffs after it
    holder: str | None = None  # the hash of the token that made it (its holder's)


@dataclass(frozen=True)
class Notice:
    """An outbox row: one notice to one registration."""

    delivery_id: str
    registration_id: str
    match_id: str
    seat: str
    version: int
    reminder: int  # 0: the handoff; k: its k-th reminder
    payload: dict[str, Any]
    status: str  # pending | sent | failed | suppressed | dropped | refused
    attempts: int
    due: float
    lease_until: float | None
    created: float
    done: float | None


Sql = tuple[str, tuple[Any, ...]]


class _NotifySQL:
    P = "?"
    REAL = "REAL"
    SERIAL = "INTEGER PRIMARY KEY AUTOINCREMENT"
    SKIP_LOCKED = ""

    def _statements(self) -> list[str]:
        r = self.REAL
        return [
            (f"CREATE TABLE IF NOT EXISTS {REG} (registration_id TEXT PRIMARY KEY, "
             "match_id TEXT NOT NULL, seat TEXT NOT NULL, kind TEXT NOT NULL, "
             f"target TEXT NOT NULL, secret TEXT, p256dh TEXT, auth TEXT, created {r}, "
             "status TEXT NOT NULL DEFAULT 'pending', code_hash TEXT, "
             f"tries INTEGER NOT NULL DEFAULT 0, confirmed {r}, holder TEXT)"),
            f"CREATE INDEX IF NOT EXISTS {REG}_match ON {REG} (match_id, seat)",
            (f"CREATE TABLE IF NOT EXISTS {CREATORS} (match_id TEXT PRIMARY KEY, "
             "creator TEXT NOT NULL)"),
            (f"CREATE TABLE IF NOT EXISTS {WAITING} (match_id TEXT PRIMARY KEY, "
             "seats TEXT NOT NULL, version INTEGER NOT NULL)"),
            (f"CREATE TABLE IF NOT EXISTS {OUTBOX} (delivery_id TEXT PRIMARY KEY, "
             "registration_id TEXT NOT NULL, match_id TEXT NOT NULL, seat TEXT NOT NULL, "
             "version INTEGER NOT NULL, reminder INTEGER NOT NULL, payload TEXT NOT NULL, "
             f"status TEXT NOT NULL, attempts INTEGER NOT NULL, due {r} NOT NULL, "
             f"lease_until {r}, created {r} NOT NULL, done {r})"),
            f"CREATE INDEX IF NOT EXISTS {OUTBOX}_due ON {OUTBOX} (status, due)",
            f"CREATE INDEX IF NOT EXISTS {OUTBOX}_reg ON {OUTBOX} (registration_id)",
            (f"CREATE TABLE IF NOT EXISTS {ATTEMPTS} (attempt_id {self.SERIAL}, "
             "delivery_id TEXT NOT NULL, registration_id TEXT NOT NULL, "
             f"at {r} NOT NULL, status_code INTEGER, error TEXT, duration_ms {r})"),
            f"CREATE INDEX IF NOT EXISTS {ATTEMPTS}_reg ON {ATTEMPTS} (registration_id)",
            (f"CREATE TABLE IF NOT EXISTS {PRESENCE} (match_id TEXT NOT NULL, "
             f"seat TEXT NOT NULL, until {r} NOT NULL, PRIMARY KEY (match_id, seat))"),
            (f"CREATE TABLE IF NOT EXISTS {VAPID} (id INTEGER PRIMARY KEY, "
             "private_pem TEXT NOT NULL, public_key TEXT NOT NULL)"),
        ]

    # ---- plumbing, per store -------------------------------------------------------------

    def _fetch(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        raise NotImplementedError

    def _execute(self, sqls: list[Sql]) -> None:
        raise NotImplementedError

    def execute(self, sqls: list[Sql]) -> None:
        """Run `sqls` in one transaction."""
        self._execute(sqls)

    def record(self, sqls: list[Sql], tracking: Tracking) -> None:
        raise NotImplementedError

    # ---- registrations -------------------------------------------------------------------

    # (the rest, and confirmation, in `projections.notify_registrations`)

    def add_registration(self, reg: Registration, limit: int, match_limit: int,
                         also: list[Sql] | None = None) -> str | None:
        """Store `reg` unless its seat already has `limit` registrations or its match
        `match_limit` (then 'seat' or 'match', and nothing is stored); `also` in the same
        transaction (its confirmation message)."""
        raise NotImplementedError

    def attempts(self, registration_id: str, limit: int = 100) -> list[dict[str, Any]]:
        rows = self._fetch(
            f"SELECT delivery_id, at, status_code, error, duration_ms FROM {ATTEMPTS} "
            f"WHERE registration_id = {self.P} ORDER BY attempt_id DESC LIMIT {self.P}",
            (registration_id, limit))
        return [dict(zip(("delivery_id", "at", "status_code", "error", "duration_ms"),
                         (r["delivery_id"], r["at"], r["status_code"], r["error"],
                          r["duration_ms"]), strict=True)) for r in rows]

    # ---- the projection's reads and writes ------------------------------------------------

    def waitings(self, match_ids: list[str]) -> dict[str, tuple[dict[str, int], int]]:
        """`waiting` of these matches in one query (matches with none left out)."""
        if not match_ids:
            return {}
        marks = ", ".join([self.P] * len(match_ids))
        rows = self._fetch(f"SELECT match_id, seats, version FROM {WAITING} WHERE match_id IN "
                           f"({marks})", tuple(match_ids))
        return {r["match_id"]: (cast(dict[str, int], orjson.loads(r["seats"])), int(r["version"]))
                for r in rows}

    def waiting(self, match_id: str) -> tuple[dict[str, int], int] | None:
        """The seats last waited for, each with the version since which it is waited for,
        and the version they were worked out at."""
        rows = self._fetch(f"SELECT seats, version FROM {WAITING} WHERE match_id = {self.P}",
                           (match_id,))
        if not rows:
            return None
        return cast(dict[str, int], orjson.loads(rows[0]["seats"])), int(rows[0]["version"])

    def waiting_sql(self, match_id: str, seats: dict[str, int], version: int) -> Sql:
        p = self.P
        return ((f"INSERT INTO {WAITING} (match_id, seats, version) VALUES ({p}, {p}, {p}) "
                "ON CONFLICT (match_id) DO UPDATE SET seats = excluded.seats, "
                "version = excluded.version"),
                (match_id, orjson.dumps(seats).decode(), version))

    def refused_sql(self, n: Notice, why: str) -> list[Sql]:
        """`n` recorded as refused (not sent), with an attempt that says `why`."""
        return [self.notice_sql(replace(n, status="refused", done=n.created)),
                *self._attempt_sql({"delivery_id": n.delivery_id,
                                    "registration_id": n.registration_id, "at": n.created,
                                    "status_code": None, "error": f"refused: {why}",
                                    "duration_ms": None})]

    def notice_sql(self, n: Notice) -> Sql:
        marks = ", ".join([self.P] * len(OUTBOX_COLUMNS))
        return ((f"INSERT INTO {OUTBOX} ({', '.join(OUTBOX_COLUMNS)}) VALUES ({marks}) "
                "ON CONFLICT (delivery_id) DO NOTHING"),
                (n.delivery_id, n.registration_id, n.match_id, n.seat, n.version, n.reminder,
                 orjson.dumps(n.payload).decode(), n.status, n.attempts, n.due, n.lease_until,
                 n.created, n.done))

    # ---- delivery -----------------------------------------------------------------------

    def claim(self, now: float, lease: float, limit: int,
              skip: Sequence[str] = ()) -> list[Notice]:
        """Due pending notices, leased to the caller until `now + lease` (another worker
        skips them until then; PostgreSQL: rows locked by another claim are skipped), but
        none of the registrations in `skip` (the delivery's lanes that cannot start one
        now). A read first: with nothing due, no write transaction."""
        p = self.P
        due = (f"status = 'pending' AND due <= {p} AND (lease_until IS NULL OR "
               f"lease_until <= {p})")
        if skip:
            due += f" AND registration_id NOT IN ({', '.join([p] * len(skip))})"
        if not self._fetch(f"SELECT 1 FROM {OUTBOX} WHERE {due} LIMIT 1",
                           (now, now, *skip)):
            return []
        rows = self._claim(
            f"UPDATE {OUTBOX} SET lease_until = {p}, attempts = attempts + 1 "
            f"WHERE delivery_id IN (SELECT delivery_id FROM {OUTBOX} WHERE {due} ORDER BY due "
            f"LIMIT {p}{self.SKIP_LOCKED}) RETURNING {', '.join(OUTBOX_COLUMNS)}",
            (now + lease, now, now, *skip, limit))
        return [self._notice(r) for r in rows]

    def release(self, delivery_ids: Sequence[str], due: float | None) -> None:
        """Give claimed notices back unsent: no lease, the claim's attempt not counted, and
        due at `due` (None: when they were)."""
        if not delivery_ids:
            return
        p = self.P
        later, ids = "" if due is None else f", due = {p}", ", ".join([p] * len(delivery_ids))
        self._execute([((f"UPDATE {OUTBOX} SET lease_until = NULL, attempts = attempts - 1"
                         f"{later} WHERE status = 'pending' AND delivery_id IN ({ids})"),
                        (*(() if due is None else (due,)), *delivery_ids))])

    def extend(self, delivery_ids: Sequence[str], until: float) -> None:
        """Lengthen the lease of notices still being sent (a send may outlast a lease)."""
        if not delivery_ids:
            return
        p = self.P
        ids = ", ".join([p] * len(delivery_ids))
        self._execute([((f"UPDATE {OUTBOX} SET lease_until = {p} WHERE status = 'pending' "
                         f"AND lease_until IS NOT NULL AND delivery_id IN ({ids})"),
                        (until, *delivery_ids))])

    def _claim(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        raise NotImplementedError

    @staticmethod
    def _notice(r: Any) -> Notice:
        values = {c: r[c] for c in OUTBOX_COLUMNS}
        values["payload"] = orjson.loads(values["payload"])
        return Notice(**values)

    def finish(self, delivery_id: str, status: str, done: float,
               attempt: dict[str, Any] | None) -> None:
        """Mark a notice sent, failed or suppressed, with the attempt that settled it."""
        p = self.P
        sqls: list[Sql] = [((f"UPDATE {OUTBOX} SET status = {p}, done = {p}, lease_until = NULL "
                            f"WHERE delivery_id = {p}"), (status, done, delivery_id))]
        self._execute(sqls + self._attempt_sql(attempt))

    def retry(self, delivery_id: str, due: float, attempt: dict[str, Any]) -> None:
        p = self.P
        self._execute([((f"UPDATE {OUTBOX} SET due = {p}, lease_until = NULL "
                        f"WHERE delivery_id = {p}"), (due, delivery_id)),
                       *self._attempt_sql(attempt)])

    def _attempt_sql(self, a: dict[str, Any] | None) -> list[Sql]:
        if a is None:
            return []
        p = self.P
        return [((f"INSERT INTO {ATTEMPTS} (delivery_id, registration_id, at, status_code, "
                 f"error, duration_ms) VALUES ({p}, {p}, {p}, {p}, {p}, {p})"),
                 (a["delivery_id"], a["registration_id"], a["at"], a["status_code"],
                  a["error"], a["duration_ms"]))]

    def notices(self, match_id: str | None = None) -> list[Notice]:
        where, params = (f"WHERE match_id = {self.P}", (match_id,)) if match_id else ("", ())
        rows = self._fetch(f"SELECT {', '.join(OUTBOX_COLUMNS)} FROM {OUTBOX} {where} "
                           "ORDER BY created", params)
        return [self._notice(r) for r in rows]

    def reminder_candidates(self, before: float, most: int) -> list[Notice]:
        """Handoff notices made before `before` that have fewer than `most` reminders
        (reminders are reckoned from them)."""
        p = self.P
        columns = ", ".join(f"o.{c}" for c in OUTBOX_COLUMNS)
        rows = self._fetch(
            f"SELECT {columns} FROM {OUTBOX} o WHERE o.reminder = 0 AND o.created <= {p} "
            f"AND (SELECT COUNT(*) FROM {OUTBOX} r WHERE r.registration_id = o.registration_id"
            f" AND r.version = o.version AND r.reminder > 0) < {p}", (before, most))
        return [self._notice(r) for r in rows]

    # ---- presence and keys ------------------------------------------------------------

    def present(self, match_id: str, seat: str, until: float) -> None:
        p = self.P
        self._execute([((f"INSERT INTO {PRESENCE} (match_id, seat, until) VALUES ({p}, {p}, {p}) "
                        "ON CONFLICT (match_id, seat) DO UPDATE SET until = excluded.until"),
                        (match_id, seat, until))])

    def is_present(self, match_id: str, seat: str, now: float) -> bool:
        p = self.P
        return bool(self._fetch(f"SELECT 1 FROM {PRESENCE} WHERE match_id = {p} AND seat = {p} "
                                f"AND until > {p}", (match_id, seat, now)))

    def vapid(self, make: Any) -> tuple[str, str]:
        """(private PEM, public key) kept in the store, made by `make()` the first time."""
        rows = self._fetch(f"SELECT private_pem, public_key FROM {VAPID} WHERE id = 1")
        if not rows:
            pem, public = make()
            p = self.P
            self._execute([((f"INSERT INTO {VAPID} (id, private_pem, public_key) VALUES "
                            f"(1, {p}, {p}) ON CONFLICT (id) DO NOTHING"), (pem, public))])
            rows = self._fetch(f"SELECT private_pem, public_key FROM {VAPID} WHERE id = 1")
        return rows[0]["private_pem"], rows[0]["public_key"]


class NotifyView(Protocol):
    P: str

    def record(self, sqls: list[Sql], tracking: Tracking) -> None: ...
    def add_registration(self, reg: Registration, limit: int, match_limit: int,
                         also: list[Sql] | None = None) -> str | None: ...
    def registrations(self, match_id: str, seat: str | None = None,
                      holder: str | None = None) -> list[Registration]: ...
    def registration(self, registration_id: str) -> Registration | None: ...
    def delete_registration(self, registration_id: str) -> None: ...
    def confirm(self, registration_id: str, code: str, now: float, expired: float,
                most_tries: int) -> str: ...
    def drop_unconfirmed(self, before: float) -> None: ...
    def end_sql(self, match_id: str, seat: str, token_hash: str, at: float) -> list[Sql]: ...
    def set_creator(self, match_id: str, creator: str) -> None: ...
    def creators(self, match_ids: list[str]) -> dict[str, str]: ...
    def refused_sql(self, n: Notice, why: str) -> list[Sql]: ...
    def attempts(self, registration_id: str, limit: int = 100) -> list[dict[str, Any]]: ...
    def registrations_in(self, match_ids: list[str]) -> dict[str, list[Registration]]: ...
    def registered_matches(self) -> set[str]: ...
    def waitings(self, match_ids: list[str]) -> dict[str, tuple[dict[str, int], int]]: ...
    def waiting(self, match_id: str) -> tuple[dict[str, int], int] | None: ...
    def waiting_sql(self, match_id: str, seats: dict[str, int], version: int) -> Sql: ...
    def notice_sql(self, n: Notice) -> Sql: ...
    def claim(self, now: float, lease: float, limit: int,
              skip: Sequence[str] = ()) -> list[Notice]: ...
    def release(self, delivery_ids: Sequence[str], due: float | None) -> None: ...
    def extend(self, delivery_ids: Sequence[str], until: float) -> None: ...
    def finish(self, delivery_id: str, status: str, done: float,
               attempt: dict[str, Any] | None) -> None: ...
    def retry(self, delivery_id: str, due: float, attempt: dict[str, Any]) -> None: ...
    def notices(self, match_id: str | None = None) -> list[Notice]: ...
    def reminder_candidates(self, before: float, most: int) -> list[Notice]: ...
    def execute(self, sqls: list[Sql]) -> None: ...
    def present(self, match_id: str, seat: str, until: float) -> None: ...
    def is_present(self, match_id: str, seat: str, now: float) -> bool: ...
    def vapid(self, make: Any) -> tuple[str, str]: ...
    def max_tracking_id(self, application_name: str) -> int | None: ...


def open_view(factory: Any, postgres: bool) -> NotifyView:
    """The notifications' tables in the store of `factory` (eventsourcing's), created if
    missing: the SQLite or PostgreSQL view (`projections.notify_store_sql`)."""
    from projections.notify_store_sql import PostgresNotifyView, SQLiteNotifyView

    view_class = PostgresNotifyView if postgres else SQLiteNotifyView
    return cast(NotifyView, factory.tracking_recorder(view_class))
