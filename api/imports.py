"""Reading an import (a referee's export, docs/interchange.md) with bounded memory, for
`POST /api/matches/import` and `battlelog import`.

The file is spooled as it arrives (in memory up to SPOOL_IN_MEMORY, then to a temporary
file; the body's size is capped before, by `BATTLELOG_MAX_IMPORT_BYTES`) and read back one
line at a time, from any line (`lines(start)`, through an index of every INDEX_EVERY-th
line's offset): each line at most MAX_LINE_BYTES, UTF-8, and nesting at most MAX_DEPTH, or
the import is refused naming the line. `Matches.import_match` reads it through (verify,
check, replay) and only then once more to save it in batches; the replay's checkpoint
frames go to a temporary file (`SpilledFrames`), not to memory. A file larger than
ISOLATE_ABOVE is imported by a child process on the same store: its memory is returned
when it ends, and its CPU (and its garbage collector's pauses) are not the server's.
Nothing here runs on the event loop but the spooling: the route runs the rest in a worker
thread."""

from __future__ import annotations

import io
import os
import pickle
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator, MutableMapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from multiprocessing import get_context
from typing import IO, Any, Self
from uuid import UUID

from api.nesting import MAX_DEPTH, too_deep
from api.replay_read import NotAReplay, export_of, is_replay
from domain import errors
from domain.app import Matches
from domain.errors import DomainError, InvalidAction
from domain.history import Frame
from domain.rulefiles.identity import file_hash
from projections.ruleset_store import carried, store_of

MiB = 1024 * 1024
SPOOL_IN_MEMORY = 1 * MiB
MAX_LINE_BYTES = 1 * MiB  # the longest event line battlelog writes is far shorter
ISOLATE_ABOVE = 1 * MiB  # bytes: a larger file is imported by a child process
INDEX_EVERY = 256  # lines: `lines(start)` seeks to the offset of the line at or before


@dataclass(frozen=True)
class Imported:
    match_id: UUID
    version: int
    tokens: dict[str, str]
    verified: dict[str, Any] | None = None  # what the file's check found


def refused(detail: str) -> InvalidAction:
    return InvalidAction(detail, rule="core-import")


class ImportFile:
    """An import's bytes, spooled; `lines()` reads them back, `import_into` imports them."""

    def __init__(self, file: IO[bytes], path: str | None = None, *, owned: bool = True,
                 size: int = 0) -> None:
        self.file, self.path, self.size = file, path, size
        self.owned = owned  # a spool file of ours, to delete when closed
        self._index = [0]  # the offset of line 1, 1 + INDEX_EVERY, 1 + 2 * INDEX_EVERY, ...

    @classmethod
    def open(cls, path: str) -> ImportFile:
        """A file as it is (`battlelog import FILE`), not copied."""
        return cls(open(path, "rb"), path, owned=False,
                   size=os.path.getsize(path))

    @classmethod
    def spooled(cls) -> ImportFile:
        return cls(io.BytesIO())

    def write(self, chunk: bytes) -> None:
        if self.path is None and self.size + len(chunk) > SPOOL_IN_MEMORY:
            spilled = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed by close()
                prefix="battlelog-import-", delete=False)
            spilled.write(self.file.getvalue())  # type: ignore[attr-defined]
            self.file, self.path = spilled, spilled.name
        self.file.write(chunk)
        self.size += len(chunk)

    @classmethod
    async def receive(cls, chunks: AsyncIterator[bytes]) -> ImportFile:
        """Spool a request body as it arrives (its size is bounded by the caller)."""
        upload = cls.spooled()
        try:
            async for chunk in chunks:
                upload.write(chunk)
        except BaseException:
            upload.close()
            raise
        return upload

    @classmethod
    def copy_of(cls, source: IO[bytes]) -> ImportFile:
        """Spool a stream that can be read once (standard input)."""
        upload = cls.spooled()
        while chunk := source.read(64 * 1024):
            upload.write(chunk)
        return upload

    def close(self) -> None:
        self.file.close()
        if self.owned and self.path is not None:
            os.unlink(self.path)

    def lines(self, start: int = 1) -> Iterator[str]:
        """The lines from line `start` on, each with its `\\n` (only `\\n` ends a line, as in
        `domain.integrity.split_lines`); refuses a line too long, too deep or not UTF-8.
        Each reading keeps its own place: several may be under way at once."""
        known = min((start - 1) // INDEX_EVERY, len(self._index) - 1)
        number, at = known * INDEX_EVERY + 1, self._index[known]
        while True:
            self.file.seek(at)
            raw = self.file.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            if len(raw) > MAX_LINE_BYTES:
                raise refused(f"line {number}: longer than {MAX_LINE_BYTES} bytes")
            at += len(raw)
            if number % INDEX_EVERY == 0 and len(self._index) == number // INDEX_EVERY:
                self._index.append(at)
            if number >= start:
                if too_deep(raw):
                    raise refused(f"line {number}: the JSON nests deeper than {MAX_DEPTH} "
                                  "levels")
                try:
                    yield raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise refused(f"line {number}: not UTF-8 text") from None
            number += 1

    def import_into(self, matches: Matches, *, isolate: bool = True,
                    now: datetime | None = None,
                    may_store: Callable[[str], None] | None = None) -> Imported:
        """Import the file (checked as it is read): in this thread or, past ISOLATE_ABOVE and
        when `isolate`, in a child process (blocking: a server runs it in a worker thread).
        `now`, the import's own time, is the application's clock's by default. A ruleset
        file the export carries that is not stored here is first given to `may_store`
        (its hash), which raises when it may not be stored (`BATTLELOG_RULESET_UPLOAD`):
        the import is then refused with nothing stored; so is one whose id and version a
        listed file of other content holds here (IdTaken, 409)."""
        now = now or matches.clock()
        carried = None if self._isolated(matches, isolate) else self._replay_export()
        if carried is not None:  # a replay file: the export it carries (a large one's is
            try:  # read by the child process, with the rest)
                return carried.import_into(matches, isolate=False, now=now)
            finally:
                carried.close()
        ruleset_file = self._ruleset_file()
        if ruleset_file is not None:  # one id and version, one content (ruleset_store)
            store_of(matches).check_carried(ruleset_file)
        if ruleset_file is not None and may_store is not None:
            content_hash = file_hash(ruleset_file)
            if store_of(matches).get(content_hash) is None:
                may_store(content_hash)
        imported = self._import(matches, isolate=isolate, now=now)
        if ruleset_file is not None:  # kept once the match is: a refused import keeps nothing
            store_of(matches).add_carried(ruleset_file)
        return imported

    def _replay_export(self) -> ImportFile | None:
        """The export a replay file carries, spooled; None when the file is an export.
        A replay file is read whole and parsed as HTML (`api.replay_read`): one refused
        there (no data block, several, one a browser could read otherwise) is refused."""
        self.file.seek(0)
        if not is_replay(self.file.read(64)):
            return None
        self.file.seek(0)
        try:
            export = export_of(self.file.read().decode("utf-8"))
        except UnicodeDecodeError:
            raise refused("the replay file is not UTF-8 text") from None
        except NotAReplay as error:
            raise refused(str(error)) from None
        return ImportFile.copy_of(io.BytesIO(export.encode("utf-8")))

    def _ruleset_file(self) -> Any:
        """The ruleset file the header carries, registered (projections.ruleset_store)."""
        first = next(self.lines(), None)
        return carried(first) if first is not None else None

    def _isolated(self, matches: Matches, isolate: bool) -> bool:
        """Whether the file is imported by a child process."""
        return (isolate and self.size > ISOLATE_ABOVE and self.path is not None
                and not _in_memory(matches))

    def _import(self, matches: Matches, *, isolate: bool, now: datetime) -> Imported:
        if self._isolated(matches, isolate) and self.path is not None:
            self.file.flush()
            with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as child:
                outcome = child.submit(_import_in_child, dict(matches.env), self.path,
                                       now).result()
            if isinstance(outcome, Imported):
                return outcome
            kind, detail, rule, allowed = outcome
            raise getattr(errors, kind, InvalidAction)(detail, rule=rule, allowed=allowed)
        with SpilledFrames() as frames:
            return _imported(matches.import_match(self, now=now, frames=frames))


class SpilledFrames(MutableMapping[int, Frame]):
    """An import's checkpoint frames, pickled to a temporary file (deleted when closed);
    only their offsets are held."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile(prefix="battlelog-frames-")  # noqa: SIM115
        self._at: dict[int, tuple[int, int]] = {}

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self._file.close()

    def __setitem__(self, version: int, frame: Frame) -> None:
        data = pickle.dumps(frame, pickle.HIGHEST_PROTOCOL)
        self._file.seek(0, os.SEEK_END)
        self._at[version] = (self._file.tell(), len(data))
        self._file.write(data)

    def __getitem__(self, version: int) -> Frame:
        at, size = self._at[version]
        self._file.seek(at)
        frame: Frame = pickle.loads(self._file.read(size))  # our own file, written above
        return frame

    def __delitem__(self, version: int) -> None:
        del self._at[version]

    def __iter__(self) -> Iterator[int]:
        return iter(list(self._at))

    def __len__(self) -> int:
        return len(self._at)


def _imported(result: Any) -> Imported:
    return Imported(result.events[0].originator_id, result.frame.version, result.tokens,
                    result.verified)


def _in_memory(matches: Matches) -> bool:
    name = str(matches.env.get("SQLITE_DBNAME") or "")
    return name == ":memory:" or "mode=memory" in name


def _import_in_child(env: dict[str, str], path: str,
                     now: datetime) -> Imported | tuple[Any, ...]:
    """In the child: check and import the file at `path` into the store `env` names. A
    refusal comes back as (error class, detail, rule, allowed): the parent raises it."""
    matches = Matches(env=env)
    upload = ImportFile.open(path)
    try:
        return upload.import_into(matches, isolate=False, now=now)
    except DomainError as error:
        return type(error).__name__, error.detail, error.rule, error.allowed
    finally:
        upload.close()
        matches.close()
