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

Who may store what (docs/rulesets/authoring.md): an id belongs to whoever stored a file
under it first, the operator (the shipped games, the folder, the admin token) or the first
uploader, who is given an owner token; a later file under that id from anyone else is
refused (409), and creation by id picks the one file the owner marked, else its highest
version. A file an import carries is stored unlisted, bound to the match (it claims no
id). An upload no match uses is removed after `keep_unused` seconds; a file a match pins is
never removed.

The store fills the domain's registry (`domain.rulesets.registry`): each file it stores or
finds is compiled (`domain.rulefiles.compile`) and registered under its hash, and the store
answers the registry for a hash another process stored since."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import secrets
import time
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
from domain.authority import OPERATOR, check_ruleset_id
from domain.errors import DomainError, IdTaken, InvalidAction
from domain.rulefiles import Problem, RulesetFile
from domain.rulefiles.compile import compile_file, unplayable
from domain.rulefiles.identity import canonical_json, file_hash, is_file_hash
from domain.rulesets import registry, ruleset_ids
from domain.rulesets.base import Ruleset
from projections.rulefile_load import MAX_BYTES, Report, check_text
from projections.rulefiles import shipped
from projections.ruleset_table import Row, Tables

SUFFIXES = (".yaml", ".yml", ".json")  # the files of a rulesets folder that are read
KEEP_UNUSED = 30 * 24 * 3600.0  # seconds an upload no match uses is kept, by default
PAGE = 50  # ids a page of the list holds, by default
MOST = 100  # and at most


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


@dataclass(frozen=True)
class Added:
    """A file stored (or found stored already), and the owner token its upload was given
    when it claimed a free id (said once: only its hash is kept)."""

    ruleset: StoredRuleset
    owner_token: str | None = None


class RulesetNotFound(DomainError):
    status = 404
    title = "Ruleset file not found"


def owner_of(token: str) -> str:
    """Who an owner token stands for, as an id's row keeps it (never the token itself)."""
    return "token:" + hashlib.sha256(token.encode()).hexdigest()


def _encoded(key: str, ruleset_id: str) -> str:
    return base64.urlsafe_b64encode(json.dumps([key, ruleset_id]).encode()).decode()


def _cursor(after: str | None) -> tuple[str, str] | None:
    """A page's cursor read back; refused (core-rulesets) when it is none of ours."""
    if after is None:
        return None
    try:
        key, ruleset_id = json.loads(base64.urlsafe_b64decode(after.encode()))
    except (ValueError, TypeError, binascii.Error):
        raise InvalidAction("the cursor is none this list gave", rule="core-rulesets") from None
    if not isinstance(key, str) or not isinstance(ruleset_id, str) or "\x00" in key + ruleset_id:
        raise InvalidAction("the cursor is none this list gave", rule="core-rulesets")
    return key, ruleset_id


class RulesetFolderError(Exception):
    """A file of the rulesets folder does not pass its checks (its report's lines)."""


def _playable(file: RulesetFile) -> list[Problem]:
    return unplayable(file, compile_file(file))


def check_playable(text: bytes | str, name: str) -> Report:
    """A file's check report: every check of `check-ruleset`, and what this battlelog can
    referee."""
    return check_text(text, name, more=_playable)


class RulesetStore:
    """The service's ruleset files on the store of `matches` (projections.ruleset_table)."""

    def __init__(self, matches: Matches, *, create: bool = True) -> None:
        self._matches = ref(matches)  # weakly: the store lives as long as its application
        recorder = matches.recorder
        self._tables = Tables()  # in memory, for an in-memory store
        if isinstance(recorder, SQLiteAggregateRecorder):
            self._tables = Tables(recorder.datastore)
        elif isinstance(recorder, PostgresAggregateRecorder):
            self._tables = Tables(recorder.datastore, postgres=True)
        if create or not isinstance(recorder, (SQLiteAggregateRecorder,
                                               PostgresAggregateRecorder)):
            self._tables.create()
        self.keep_unused = KEEP_UNUSED  # seconds an upload no match uses is kept
        registry.add_source(self._compiled)

    def close(self) -> None:
        """Stop answering the registry (the files it registered stay known)."""
        registry.remove_source(self._compiled)
        with _OPENING:
            matches = self._matches()
            if matches is not None and _STORES.get(matches) is self:
                del _STORES[matches]

    def _now(self) -> float:
        matches = self._matches()
        return matches.clock().timestamp() if matches is not None else time.time()

    # ---- adding ------------------------------------------------------------------------

    def add_text(self, text: bytes | str, name: str = "ruleset", *,
                 by: str | None = OPERATOR) -> tuple[Added | None, Report]:
        """Check the file `text` and store it when it passes (else store nothing): what was
        stored (None if refused) and the check report. `by`: who stores it, the operator,
        an id's owner (`owner_of(token)`) or None (an uploader with no token: given one
        when the file claims a free id). Refused (IdTaken, 409) under another's id."""
        report = check_playable(text, name)
        if not report.ok or report.ruleset is None:
            return None, report
        if by != OPERATOR:
            self.sweep()
        return self._store(report.ruleset, report.data, by=by), report

    def add_carried(self, data: Any) -> StoredRuleset:
        """Store the file an import carried (checked as it was read: `carried`), bound to
        the match imported: unlisted, claiming no id, never removed."""
        file = RulesetFile.model_validate(data)
        return self._store(file, data, by=None, origin="import").ruleset

    def check_carried(self, data: Any) -> None:
        """Refuse (IdTaken, 409) the file an import carries when this service lists another
        file under its id and version, before anything of the import is stored."""
        file = RulesetFile.model_validate(data)
        with self._tables.transaction(commit=False) as c:
            self._one_content(c, file, file_hash(data))

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
            try:
                found.append(self._store(report.ruleset, report.data, by=OPERATOR).ruleset)
            except DomainError as error:
                said.append(f"{path}: {error.detail}")
        if said:
            raise RulesetFolderError("\n".join(said))
        return found

    def _store(self, file: RulesetFile, data: Any, *, by: str | None,
               origin: str | None = None) -> Added:
        origin = origin or ("operator" if by == OPERATOR else "upload")
        stored = StoredRuleset(file_hash(data), file.id, file.title, file.version, data)
        row = Row(stored.hash, file.id, file.title, file.version, origin,
                  listed=origin != "import", stored_at=self._now(), pinned=origin == "import")
        token = None
        with self._tables.transaction(commit=True) as c:
            held = self._tables.row(c, stored.hash)
            if origin == "import" or (held is not None and held.listed):
                if held is None:
                    self._one_content(c, file, stored.hash)
                    self._tables.insert(c, row, canonical_json(data))
                elif origin == "import":
                    self._tables.pin_in(c, stored.hash)
            else:
                token = self._claim(c, file, by, stored.hash)
                if held is None:
                    self._tables.insert(c, row, canonical_json(data))
                else:
                    self._tables.list_it(c, stored.hash, origin)
                self._tables.settle(c, file.id)
        registry.register(stored.hash, compile_file(file))
        return Added(stored, token)

    def _claim(self, c: Any, file: RulesetFile, by: str | None,
               content_hash: str) -> str | None:
        """Check that `by` may store this file under its id (claiming the id if free:
        then an uploader with no token is given one): the token given, if any."""
        token = secrets.token_urlsafe(24) if by is None else None
        claimant = owner_of(token) if token is not None else by
        assert claimant is not None
        owned = self._tables.claim(c, file.id, claimant)
        check_ruleset_id(claimant, owned.owner, file.id)
        if claimant == OPERATOR and owned.owner != OPERATOR:
            # (ours) the operator's files win an id: its earlier owner's files stay stored
            # by hash (matches may pin them) but are no longer its versions
            self._tables.give(c, file.id, OPERATOR)
        self._one_content(c, file, content_hash)
        return token if owned.owner == claimant else None

    def _one_content(self, c: Any, file: RulesetFile, content_hash: str) -> None:
        """One id and version, one content: a file whose id and version a listed file of
        other content holds is refused (IdTaken, 409), naming both hashes; the same content
        again is no conflict (stored once, by hash)."""
        listed = self._tables.versions(c, file.id)
        same = [v for v in listed if v.version == file.version and v.hash != content_hash]
        if same:
            raise IdTaken(f"'{file.id}' version {file.version} is stored already as "
                          f"{same[0].hash}, and this file is other content ({content_hash}): "
                          f"raise its `version` (to {listed[0].version + 1}) to store it",
                          rule="core-ruleset-ids", allowed=[same[0].hash])

    def mark(self, ruleset_id: str, content_hash: str | None, by: str | None) -> None:
        """The file creation by `ruleset_id` picks from now on (None: its highest version),
        by its owner or the operator."""
        with self._tables.transaction(commit=True) as c:
            owned = self._tables.owned(c, ruleset_id)
            if owned is None:
                raise RulesetNotFound(f"no ruleset file with the id '{ruleset_id}' is "
                                      "listed here", rule="core-ruleset-ids")
            check_ruleset_id(by, owned.owner, ruleset_id)
            versions = self._tables.versions(c, ruleset_id)
            if content_hash is not None and content_hash not in {v.hash for v in versions}:
                raise InvalidAction(f"{content_hash} is no version of '{ruleset_id}' stored "
                                    "here", rule="core-ruleset-ids",
                                    allowed=[v.hash for v in versions])
            self._tables.mark(c, ruleset_id, content_hash)

    # ---- reading -----------------------------------------------------------------------

    def page(self, *, limit: int = PAGE, after: str | None = None) -> tuple[list[Row],
                                                                            str | None]:
        """Up to `limit` listed ids, each as the file creation by that id picks (never its
        body), by title then id, from the cursor `after` (of an earlier page): the rows and
        the next page's cursor (None: the last page)."""
        self.sweep()
        found = self._tables.page(_cursor(after), limit + 1)
        rows = [row for _, row in found[:limit]]
        more = len(found) > limit
        return rows, _encoded(found[limit - 1][0], rows[-1].id) if more else None

    def get(self, content_hash: str) -> StoredRuleset | None:
        if not is_file_hash(content_hash):
            return None
        found = self._tables.body(content_hash)
        if found is None:
            return None
        row, body = found
        return StoredRuleset(row.hash, row.id, row.title, row.version, json.loads(body))

    def current(self, ruleset_id: str) -> str | None:
        """The hash creation by `ruleset_id` picks (the one its owner marked, else its
        highest version); None when no listed file has that id."""
        with self._tables.transaction(commit=False) as c:
            owned = self._tables.owned(c, ruleset_id)
        return None if owned is None else owned.current

    def find(self, ref: str) -> StoredRuleset:
        """A stored file by its hash, or by its id (`current`); refused (core-ruleset) when
        none is."""
        found = self.get(ref) if is_file_hash(ref) else None
        if found is None and not is_file_hash(ref):
            at = self.current(ref)
            found = self.get(at) if at is not None else None
        if found is None:
            said = ref if is_file_hash(ref) else f"with the id '{ref}'"
            raise InvalidAction(f"no ruleset file {said} is stored here", rule="core-ruleset")
        return found

    def pin(self, content_hash: str) -> None:
        """A match uses the file: it is never removed."""
        self._tables.pin(content_hash)

    def sweep(self) -> list[str]:
        """Remove the uploads no match uses kept longer than `keep_unused` (0: never): the
        hashes removed."""
        if self.keep_unused <= 0:
            return []
        before = self._now() - self.keep_unused
        return self._tables.expire(before) if self._tables.due(before) else []

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
    stored yet: `store_of(matches).add_carried` does that once the import succeeded."""
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
    else the file creation by the id `ruleset` picks when `ruleset` is no built-in game (a
    built-in's id always means the built-in game: a file of the same id is named by its
    hash); None for a built-in game, or an id nothing has (refused as unknown by the
    domain). The file is pinned from now on: never removed."""
    if content_hash is not None:
        found: str | None = store.find(content_hash).hash
    elif ruleset in ruleset_ids():
        return None
    else:
        found = store.current(ruleset)
    if found is not None:
        store.pin(found)
    return found
