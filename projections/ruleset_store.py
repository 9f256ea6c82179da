"""The ruleset files the service holds (docs/rulesets/authoring.md), by content hash, kept
beside the match log, never in it: a table in the store's own database (SQLite or
PostgreSQL; so every process on one store sees the same files), or memory for an in-memory
store.

A file comes in from three places: the folder `BATTLELOG_RULESETS_DIR` (read at start,
after the playable files shipped with battlelog, `projections.rulefiles`), an
upload (`POST /api/rulesets`) and an import whose export carries the file. Each is checked
whole as `battlelog check-ruleset` checks it, and also for what this battlelog can referee
(a named procedure no code answers: `unknown-procedure`); a file with any problem is not
stored. A stored file is its canonical JSON form (`domain.rulefiles.identity`): the hash a
match pins is the hash of what is stored, and stored once however often it comes in.

The store fills the domain's registry (`domain.rulesets.registry`): each file it stores or
finds is compiled (`domain.rulefiles.compile`) and registered under its hash, and the store
answers the registry for a hash another process stored since."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from threading import Lock
from typing import Any
from weakref import WeakKeyDictionary, ref

from eventsourcing.postgres import PostgresAggregateRecorder
from eventsourcing.sqlite import SQLiteAggregateRecorder

from domain import json_input
from domain.app import Matches
from domain.errors import InvalidAction
from domain.rulefiles import Problem, RulesetFile
from domain.rulefiles.compile import compile_file, unplayable
from domain.rulefiles.identity import canonical_json, file_hash, is_file_hash
from domain.rulesets import registry, ruleset_ids
from domain.rulesets.base import Ruleset
from projections.rulefile_load import MAX_BYTES, Report, check_text
from projections.rulefiles import shipped
from projections.store import SCHEMA_LOCK

TABLE = "battlelog_rulesets"
SUFFIXES = (".yaml", ".yml", ".json")  # the files of a rulesets folder that are read


@dataclass(frozen=True)
class StoredRuleset:
    """A ruleset file the service holds: its content hash, what it declares of itself, and
    its data (the file as data: what an export carries)."""

    hash: str
    id: str
    title: str
    version: int
    data: Any

    def file(self) -> RulesetFile:
        return RulesetFile.model_validate(self.data)

    def summary(self) -> dict[str, Any]:
        return {"hash": self.hash, "id": self.id, "title": self.title, "version": self.version}


class RulesetFolderError(Exception):
    """A file of the rulesets folder does not pass its checks (its report's lines)."""


def _playable(file: RulesetFile) -> list[Problem]:
    return unplayable(file, compile_file(file))


def check_playable(text: bytes | str, name: str) -> Report:
    """A file's check report: every check of `check-ruleset`, and what this battlelog can
    referee."""
    return check_text(text, name, more=_playable)


class RulesetStore:
    """The service's ruleset files on the store of `matches`."""

    def __init__(self, matches: Matches, *, create: bool = True) -> None:
        self._matches = ref(matches)  # weakly: the store lives as long as its application
        recorder = matches.recorder
        self._table: _Table | None = None
        if isinstance(recorder, SQLiteAggregateRecorder):
            self._table = _Table(recorder.datastore, "?", postgres=False)
        elif isinstance(recorder, PostgresAggregateRecorder):
            self._table = _Table(recorder.datastore, "%s", postgres=True)
        self._memory: dict[str, StoredRuleset] = {}
        self._lock = Lock()
        if self._table is not None and create:
            self._table.create()
        registry.add_source(self._compiled)

    def close(self) -> None:
        """Stop answering the registry (the files it registered stay known)."""
        registry.remove_source(self._compiled)
        with _OPENING:
            matches = self._matches()
            if matches is not None and _STORES.get(matches) is self:
                del _STORES[matches]

    # ---- adding ------------------------------------------------------------------------

    def add_text(self, text: bytes | str, name: str = "ruleset") -> tuple[StoredRuleset | None,
                                                                           Report]:
        """Check the file `text` and store it when it passes (else store nothing): the stored
        ruleset (None if refused) and the check report."""
        report = check_playable(text, name)
        if not report.ok or report.ruleset is None:
            return None, report
        return self._store(report.ruleset, report.data), report

    def add_data(self, data: Any, name: str = "ruleset") -> tuple[StoredRuleset | None, Report]:
        """The same for a file given as data (an export's carried file): checked as the
        JSON text it is."""
        return self.add_text(canonical_json(data), name)

    def load_folder(self, folder: str | os.PathLike[str]) -> list[StoredRuleset]:
        """Store every ruleset file of `folder` (`*.yaml`, `*.yml`, `*.json`; read at start).
        (ours) One file with a problem stops the start, every problem of every file said:
        a server that starts without a game its operator put there would be found out only
        by the players."""
        return self._load_paths(path for path in sorted(Path(folder).iterdir())
                                if path.suffix.lower() in SUFFIXES and path.is_file())

    def load_shipped(self) -> list[StoredRuleset]:
        """Store the playable files shipped with battlelog (`projections.rulefiles.SHIPPED`),
        as any file is stored (every start: stored once, by hash). One that fails its checks
        stops the start, as a folder's file does."""
        return self._load_paths(shipped())

    def _load_paths(self, paths: Iterable[Path]) -> list[StoredRuleset]:
        found: list[StoredRuleset] = []
        said: list[str] = []
        for path in paths:
            with open(path, "rb") as opened:
                report = check_playable(opened.read(MAX_BYTES + 1), str(path))
            if not report.ok or report.ruleset is None:
                said += report.lines()
                continue
            found.append(self._store(report.ruleset, report.data))
        if said:
            raise RulesetFolderError("\n".join(said))
        return found

    def _store(self, file: RulesetFile, data: Any) -> StoredRuleset:
        stored = StoredRuleset(file_hash(data), file.id, file.title, file.version, data)
        with self._lock:
            if self._table is not None:
                self._table.insert(stored)
            else:
                self._memory.setdefault(stored.hash, stored)
        registry.register(stored.hash, compile_file(file))
        return stored

    # ---- reading -----------------------------------------------------------------------

    def list(self) -> list[StoredRuleset]:
        """Every stored file, by title, id and version."""
        rows = self._table.all() if self._table is not None else list(self._memory.values())
        return sorted(rows, key=lambda r: (r.title.lower(), r.id, r.version, r.hash))

    def get(self, content_hash: str) -> StoredRuleset | None:
        if not is_file_hash(content_hash):
            return None
        if self._table is not None:
            return self._table.get(content_hash)
        return self._memory.get(content_hash)

    def find(self, ref: str) -> StoredRuleset:
        """A stored file by its hash, or by its id (the highest version of that id); refused
        (core-ruleset) when none is, or when one id's highest version is two files."""
        if is_file_hash(ref):
            found = self.get(ref)
            if found is None:
                raise InvalidAction(f"no ruleset file {ref} is stored here",
                                    rule="core-ruleset")
            return found
        same = [r for r in self.list() if r.id == ref]
        if not same:
            raise InvalidAction(f"no ruleset file with the id '{ref}' is stored here",
                                rule="core-ruleset",
                                allowed=sorted({r.id for r in self.list()}))
        top = max(r.version for r in same)
        best = [r for r in same if r.version == top]
        if len(best) > 1:
            raise InvalidAction(f"two files are '{ref}' version {top}: name one by its hash",
                                rule="core-ruleset", allowed=[r.hash for r in best])
        return best[0]

    def _compiled(self, content_hash: str) -> Ruleset | None:
        """The registry's source: a file another process stored, compiled."""
        found = self.get(content_hash)
        return None if found is None else compile_file(found.file())


_STORES: WeakKeyDictionary[Matches, RulesetStore] = WeakKeyDictionary()
_OPENING = Lock()


def store_of(matches: Matches, *, create: bool = True) -> RulesetStore:
    """The one ruleset store of the application `matches` in this process (its table made
    if missing, unless not `create`: a command that only reads adds no table)."""
    with _OPENING:
        store = _STORES.get(matches)
        if store is None:
            store = _STORES[matches] = RulesetStore(matches, create=create)
        return store


def carried(header_line: str) -> Any:
    """The ruleset file an export's header carries (its data), registered so that the
    match replays under it; None when the header carries none. A carried file is checked as
    an upload is; one with a problem refuses the import (core-import), naming it. It is not
    stored yet: `store_of(matches).add_data` does that once the import succeeded."""
    try:
        header = json_input.loads(header_line)
    except ValueError:
        return None  # not a header: the import's own checks say so
    data = header.get("ruleset_file") if isinstance(header, dict) else None
    if data is None:
        return None
    report = check_playable(canonical_json(data), "ruleset_file")
    if not report.ok or report.ruleset is None:
        first = report.findings[0]
        raise InvalidAction(f"line 1: the ruleset file the export carries is refused: "
                            f"{first.check}: {first.message}", rule="core-import")
    registry.register(file_hash(data), compile_file(report.ruleset))
    return data


def resolve(store: RulesetStore, ruleset: str, content_hash: str | None) -> str | None:
    """The content hash a new match is created under: the one given (it must be stored),
    else that of the stored file whose id is `ruleset` when `ruleset` is no built-in game (a
    built-in's id always means the built-in game: a file of the same id is named by its
    hash); None for a built-in game, or an id nothing has (refused as unknown by the
    domain)."""
    if content_hash is not None:
        return store.find(content_hash).hash
    if ruleset in ruleset_ids() or not any(r.id == ruleset for r in store.list()):
        return None
    return store.find(ruleset).hash


class _Table:
    """The rulesets table on one store (`p`: its placeholder)."""

    def __init__(self, datastore: Any, p: str, *, postgres: bool) -> None:
        self.datastore, self.p, self.postgres = datastore, p, postgres

    def create(self) -> None:
        with self.datastore.transaction(commit=True) as c:
            if self.postgres:  # tables are made under one lock (projections.store)
                c.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            c.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (hash TEXT PRIMARY KEY, "
                      "id TEXT NOT NULL, title TEXT NOT NULL, version BIGINT NOT NULL, "
                      "body TEXT NOT NULL)")

    def insert(self, stored: StoredRuleset) -> None:
        p = self.p
        with self.datastore.transaction(commit=True) as c:
            c.execute(f"INSERT INTO {TABLE} (hash, id, title, version, body) VALUES "
                      f"({p}, {p}, {p}, {p}, {p}) ON CONFLICT (hash) DO NOTHING",
                      (stored.hash, stored.id, stored.title, stored.version,
                       canonical_json(stored.data)))

    def all(self) -> list[StoredRuleset]:
        return self._select("", ())

    def get(self, content_hash: str) -> StoredRuleset | None:
        found = self._select(f" WHERE hash = {self.p}", (content_hash,))
        return found[0] if found else None

    def _select(self, where: str, params: tuple[Any, ...]) -> list[StoredRuleset]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT hash, id, title, version, body FROM {TABLE}{where}", params)
            rows = list(c.fetchall())
        return [StoredRuleset(str(r["hash"]), str(r["id"]), str(r["title"]), int(r["version"]),
                              json.loads(r["body"])) for r in rows]
