"""Reading an import (a referee's export, docs/interchange.md) with bounded memory, for
`POST /api/matches/import` and `battlelog import`.

The file is spooled as it arrives (in memory up to SPOOL_IN_MEMORY, then to a temporary
file) and read back one line at a time: each line at most MAX_LINE_BYTES, UTF-8, and
nesting at most MAX_DEPTH, or the import is refused naming the line. The whole file is
then checked as `battlelog verify` checks it, streaming, before the application sees it:
a file that does not verify (whatever its size, however many lines) costs one line of
memory and is refused with the application's own words. Only a file that verifies is
handed to `Matches.import_match`, as an iterator of its lines; the application holds the
match whole as it rebuilds it (about 25 times the file), so a file larger than
ISOLATE_ABOVE is checked and imported by a child process on the same store: its memory is
returned when it ends, and its CPU (and its garbage collector's pauses) are not the
server's. Nothing here runs on the event loop but the spooling: the route runs the rest
in a worker thread."""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import count
from multiprocessing import get_context
from typing import IO, Any
from uuid import UUID

from api.nesting import MAX_DEPTH, too_deep
from domain import errors
from domain.application import Matches
from domain.errors import DomainError, InvalidAction
from domain.integrity import verify

MiB = 1024 * 1024
SPOOL_IN_MEMORY = 1 * MiB
MAX_LINE_BYTES = 1 * MiB  # the longest event line battlelog writes is far shorter
ISOLATE_ABOVE = 1 * MiB  # bytes: a larger file is imported by a child process


@dataclass(frozen=True)
class Imported:
    match_id: UUID
    version: int
    tokens: dict[str, str]


def refused(detail: str) -> InvalidAction:
    return InvalidAction(detail, rule="core-import")


class ImportFile:
    """An import's bytes, spooled; `lines()` reads them back, `import_into` imports them."""

    def __init__(self, file: IO[bytes], path: str | None = None, *, owned: bool = True,
                 size: int = 0) -> None:
        self.file, self.path, self.size = file, path, size
        self.owned = owned  # a spool file of ours, to delete when closed

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

    def lines(self) -> Iterator[str]:
        """The lines from the start, each with its `\\n` (only `\\n` ends a line, as in
        `domain.integrity.split_lines`); refuses a line too long, too deep or not UTF-8."""
        self.file.seek(0)
        for number in count(1):
            raw = self.file.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            if len(raw) > MAX_LINE_BYTES:
                raise refused(f"line {number}: longer than {MAX_LINE_BYTES} bytes")
            if too_deep(raw):
                raise refused(f"line {number}: the JSON nests deeper than {MAX_DEPTH} levels")
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError:
                raise refused(f"line {number}: not UTF-8 text") from None

    def check(self) -> None:
        """Refuse, as the application would, a file that does not verify: before anything
        holds more than one of its lines."""
        if next(self.lines(), None) is None:
            raise refused("line 1: not a battlelog match export (the file is empty)")
        report = verify(self.lines())
        if not report.ok:
            raise refused(f"the file does not verify: {report.problems[0]}")

    def import_into(self, matches: Matches, *, isolate: bool = True) -> Imported:
        """Check the file, then import it: in this thread or, past ISOLATE_ABOVE and when
        `isolate`, both in a child process (blocking: a server runs it in a worker
        thread)."""
        if (isolate and self.size > ISOLATE_ABOVE and self.path is not None
                and not _in_memory(matches)):
            self.file.flush()
            with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as child:
                outcome = child.submit(_import_in_child, dict(matches.env), self.path).result()
            if isinstance(outcome, Imported):
                return outcome
            kind, detail, rule, allowed = outcome
            raise getattr(errors, kind, InvalidAction)(detail, rule=rule, allowed=allowed)
        self.check()
        return _imported(matches.import_match(self.lines()))


def _imported(result: Any) -> Imported:
    return Imported(result.events[0].originator_id, result.frame.version, result.tokens)


def _in_memory(matches: Matches) -> bool:
    name = str(matches.env.get("SQLITE_DBNAME") or "")
    return name == ":memory:" or "mode=memory" in name


def _import_in_child(env: dict[str, str], path: str) -> Imported | tuple[Any, ...]:
    """In the child: check and import the file at `path` into the store `env` names. A
    refusal comes back as (error class, detail, rule, allowed): the parent raises it."""
    matches = Matches(env=env)
    upload = ImportFile.open(path)
    try:
        return upload.import_into(matches, isolate=False)
    except DomainError as error:
        return type(error).__name__, error.detail, error.rule, error.allowed
    finally:
        upload.close()
        matches.close()
