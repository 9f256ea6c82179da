"""Where the ruleset files a service holds are kept (`projections.ruleset_store` decides what
goes in): two tables on the store's own database, SQLite or PostgreSQL, or an SQLite
database in memory for an in-memory store, so that every kind of store runs the same
statements.

`battlelog_rulesets`: one row a file, by content hash: what it declares of itself (id,
title, version), its canonical JSON form (`body`, read only when the file is asked for),
where it came from (`origin`: `operator` for the games shipped with battlelog, the
configured folder and uploads with the admin token; `upload`; `import`), whether the list
and creation by id see it (`listed`), when it was stored and whether a match uses it
(`pinned`: a pinned file is never removed).

`battlelog_ruleset_ids`: one row an id that listed files carry: its owner (`operator`, or
`token:` and the SHA-256 of the owner token its first uploader was given), and the file
creation by id picks (`current`), marked by the owner (`marked`) or else the highest
version."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from threading import Lock
from typing import Any

from projections.store import SCHEMA_LOCK

FILES = "battlelog_rulesets"
IDS = "battlelog_ruleset_ids"
# added after the first release of the table (issue 37): a file stored before then is kept
# as it was (listed, never removed: `pinned` 1), and its id given to the operator
ADDED = (("origin", "TEXT NOT NULL DEFAULT 'upload'"), ("listed", "INTEGER NOT NULL DEFAULT 1"),
         ("stored_at", "{real} NOT NULL DEFAULT 0"), ("pinned", "INTEGER NOT NULL DEFAULT 1"))
_SUMMARY = "hash, id, title, version, origin, listed, stored_at, pinned"


@dataclass(frozen=True)
class Row:
    """A stored file's row but its body."""

    hash: str
    id: str
    title: str
    version: int
    origin: str
    listed: bool
    stored_at: float
    pinned: bool


@dataclass(frozen=True)
class Owned:
    """An id's row: its owner, the file creation by id picks, and whether the owner chose it."""

    id: str
    owner: str
    current: str | None
    marked: bool


def _row(r: Any) -> Row:
    return Row(str(r["hash"]), str(r["id"]), str(r["title"]), int(r["version"]),
               str(r["origin"]), bool(r["listed"]), float(r["stored_at"]), bool(r["pinned"]))


class _Memory:
    """An SQLite database in memory, as a datastore: `transaction` yields a cursor."""

    def __init__(self) -> None:
        self._connection = sqlite3.connect(":memory:", check_same_thread=False,
                                           isolation_level=None)
        self._connection.row_factory = sqlite3.Row
        self._lock = Lock()

    @contextmanager
    def transaction(self, *, commit: bool) -> Iterator[sqlite3.Cursor]:
        with self._lock:
            cursor = self._connection.cursor()
            cursor.execute("BEGIN")
            try:
                yield cursor
            except BaseException:
                cursor.execute("ROLLBACK")
                raise
            cursor.execute("COMMIT" if commit else "ROLLBACK")


class Tables:
    """The two tables on one datastore (`p`: its placeholder); None: in memory."""

    def __init__(self, datastore: Any = None, *, postgres: bool = False) -> None:
        self.datastore = datastore if datastore is not None else _Memory()
        self.p = "%s" if postgres else "?"
        self.postgres = postgres

    def transaction(self, *, commit: bool) -> Any:
        return self.datastore.transaction(commit=commit)

    def create(self) -> None:
        real = "DOUBLE PRECISION" if self.postgres else "REAL"
        with self.transaction(commit=True) as c:
            if self.postgres:  # tables are made under one lock (projections.store)
                c.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            c.execute(f"CREATE TABLE IF NOT EXISTS {FILES} (hash TEXT PRIMARY KEY, "
                      "id TEXT NOT NULL, title TEXT NOT NULL, version BIGINT NOT NULL, "
                      "body TEXT NOT NULL)")
            have = self._columns(c)
            for column, kind in ADDED:
                if column not in have:
                    c.execute(f"ALTER TABLE {FILES} ADD COLUMN {column} {kind.format(real=real)}")
            c.execute(f"CREATE TABLE IF NOT EXISTS {IDS} (id TEXT PRIMARY KEY, "
                      "owner TEXT NOT NULL, current TEXT, marked INTEGER NOT NULL DEFAULT 0)")
            # the ids of files stored before ids had owners are the operator's
            c.execute(f"INSERT INTO {IDS} (id, owner) SELECT DISTINCT id, 'operator' FROM "
                      f"{FILES} WHERE listed = 1 ON CONFLICT (id) DO NOTHING")
            c.execute(f"SELECT id FROM {IDS} WHERE current IS NULL")
            for found in list(c.fetchall()):
                self.settle(c, str(found["id"]))

    def _columns(self, c: Any) -> set[str]:
        if self.postgres:
            c.execute("SELECT column_name AS name FROM information_schema.columns WHERE "
                      "table_schema = current_schema() AND table_name = %s", (FILES,))
        else:
            c.execute(f"PRAGMA table_info({FILES})")
        return {str(r["name"]) for r in c.fetchall()}

    # ---- one file ----------------------------------------------------------------------

    def row(self, c: Any, content_hash: str) -> Row | None:
        c.execute(f"SELECT {_SUMMARY} FROM {FILES} WHERE hash = {self.p}", (content_hash,))
        found = c.fetchone()
        return None if found is None else _row(found)

    def body(self, content_hash: str) -> tuple[Row, str] | None:
        with self.transaction(commit=False) as c:
            c.execute(f"SELECT {_SUMMARY}, body FROM {FILES} WHERE hash = {self.p}",
                      (content_hash,))
            found = c.fetchone()
        return None if found is None else (_row(found), str(found["body"]))

    def insert(self, c: Any, row: Row, body: str) -> None:
        p = self.p
        c.execute(f"INSERT INTO {FILES} (hash, id, title, version, body, origin, listed, "
                  f"stored_at, pinned) VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}) "
                  "ON CONFLICT (hash) DO NOTHING",
                  (row.hash, row.id, row.title, row.version, body, row.origin,
                   int(row.listed), row.stored_at, int(row.pinned)))

    def list_it(self, c: Any, content_hash: str, origin: str) -> None:
        """The file is listed from now on (an upload of a file an import had stored)."""
        c.execute(f"UPDATE {FILES} SET listed = 1, origin = CASE WHEN origin = 'operator' "
                  f"THEN origin ELSE {self.p} END WHERE hash = {self.p}",
                  (origin, content_hash))

    def pin(self, content_hash: str) -> None:
        with self.transaction(commit=True) as c:
            self.pin_in(c, content_hash)

    def pin_in(self, c: Any, content_hash: str) -> None:
        c.execute(f"UPDATE {FILES} SET pinned = 1 WHERE hash = {self.p} AND pinned = 0",
                  (content_hash,))

    # ---- ids ---------------------------------------------------------------------------

    def owned(self, c: Any, ruleset_id: str) -> Owned | None:
        c.execute(f"SELECT id, owner, current, marked FROM {IDS} WHERE id = {self.p}",
                  (ruleset_id,))
        r = c.fetchone()
        return None if r is None else Owned(str(r["id"]), str(r["owner"]),
                                            None if r["current"] is None else str(r["current"]),
                                            bool(r["marked"]))

    def claim(self, c: Any, ruleset_id: str, owner: str) -> Owned:
        """The id's row, made `owner`'s when it had none (the first to claim it wins)."""
        c.execute(f"INSERT INTO {IDS} (id, owner) VALUES ({self.p}, {self.p}) "
                  "ON CONFLICT (id) DO NOTHING", (ruleset_id, owner))
        found = self.owned(c, ruleset_id)
        assert found is not None
        return found

    def give(self, c: Any, ruleset_id: str, owner: str) -> None:
        """The id is `owner`'s from now on, with none of its earlier files (unlisted)."""
        c.execute(f"UPDATE {IDS} SET owner = {self.p}, current = NULL, marked = 0 "
                  f"WHERE id = {self.p}", (owner, ruleset_id))
        c.execute(f"UPDATE {FILES} SET listed = 0 WHERE id = {self.p} AND listed = 1",
                  (ruleset_id,))

    def versions(self, c: Any, ruleset_id: str) -> list[Row]:
        """The listed files of an id, highest version first."""
        c.execute(f"SELECT {_SUMMARY} FROM {FILES} WHERE id = {self.p} AND listed = 1 "
                  "ORDER BY version DESC, stored_at, hash", (ruleset_id,))
        return [_row(r) for r in c.fetchall()]

    def mark(self, c: Any, ruleset_id: str, content_hash: str | None) -> None:
        c.execute(f"UPDATE {IDS} SET current = {self.p}, marked = {self.p} WHERE id = {self.p}",
                  (content_hash, int(content_hash is not None), ruleset_id))
        if content_hash is None:
            self.settle(c, ruleset_id)

    def settle(self, c: Any, ruleset_id: str) -> None:
        """The id's current file, unless its owner marked one still stored: its highest
        listed version; the id is free again when it has none."""
        found = self.owned(c, ruleset_id)
        if found is None:
            return
        versions = self.versions(c, ruleset_id)
        if not versions:
            c.execute(f"DELETE FROM {IDS} WHERE id = {self.p}", (ruleset_id,))
        elif not (found.marked and any(v.hash == found.current for v in versions)):
            c.execute(f"UPDATE {IDS} SET current = {self.p}, marked = 0 WHERE id = {self.p}",
                      (versions[0].hash, ruleset_id))

    # ---- the list and expiry -----------------------------------------------------------

    def page(self, after: tuple[str, str] | None, limit: int) -> list[tuple[str, Row]]:
        """Up to `limit` ids' current files, by title (lower case) then id, after the
        (title, id) `after`: each with its sort key."""
        p = self.p
        where, params = "", ()  # type: tuple[str, tuple[Any, ...]]
        if after is not None:
            where = f" WHERE (lower(f.title) > {p} OR (lower(f.title) = {p} AND i.id > {p}))"
            params = (after[0], after[0], after[1])
        with self.transaction(commit=False) as c:
            c.execute(f"SELECT lower(f.title) AS k, f.hash, i.id, f.title, f.version, "
                      f"f.origin, f.listed, f.stored_at, f.pinned FROM {IDS} i JOIN {FILES} f "
                      f"ON f.hash = i.current{where} ORDER BY k, i.id LIMIT {p}",
                      (*params, limit))
            return [(str(r["k"]), _row(r)) for r in c.fetchall()]

    def due(self, before: float) -> bool:
        """Whether an upload no match uses was stored before `before` (a read: most lists
        find nothing to remove)."""
        with self.transaction(commit=False) as c:
            c.execute(f"SELECT MIN(stored_at) AS oldest FROM {FILES} WHERE origin = 'upload' "
                      "AND pinned = 0")
            found = c.fetchone()
        return found is not None and found["oldest"] is not None and float(
            found["oldest"]) < before

    def expire(self, before: float) -> list[str]:
        """Remove the uploads no match uses stored before `before`; their ids settled."""
        p = self.p
        with self.transaction(commit=True) as c:
            c.execute(f"SELECT hash, id FROM {FILES} WHERE origin = 'upload' AND pinned = 0 "
                      f"AND stored_at < {p}", (before,))
            gone = [(str(r["hash"]), str(r["id"])) for r in c.fetchall()]
            for content_hash, _ in gone:
                c.execute(f"DELETE FROM {FILES} WHERE hash = {p} AND pinned = 0",
                          (content_hash,))
            for ruleset_id in sorted({i for _, i in gone}):
                self.settle(c, ruleset_id)
        return [h for h, _ in gone]
