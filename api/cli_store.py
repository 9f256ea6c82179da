"""The `battlelog` commands that open the store: `export MATCH`, `replay MATCH`,
`import FILE` and `project` (the read models' runner). `api.cli` parses the command line
and calls them."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.persistence import PersistenceError

from api.settings import Settings

if TYPE_CHECKING:
    from domain.app import Matches


def project(db: str | None) -> int:
    import signal
    import threading

    from projections.catalogue import open_catalogue
    from projections.clock_watch import FlagWatcher, active_matches
    from projections.notify import NotifyService
    from projections.projector import Projector

    stopping = threading.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: stopping.set())
    try:
        settings = Settings(db=db)
    except ValueError as error:  # pydantic's ValidationError is one
        print(f"battlelog project: {error}", file=sys.stderr)
        return 2
    opened = _open_store("project", db)
    if opened is None:
        return 2
    matches, store = opened
    # the catalogue and the "your turn" notifier (docs/notifications.md), fed by one read
    # of the new events (issue 30)
    notify = NotifyService(matches, settings.notify_config())
    catalogue = open_catalogue(matches)
    projector = Projector(matches, catalogue, notify, poll=notify.config.poll,
                          trail=notify.config.trail)
    flags = FlagWatcher(matches, active_matches(catalogue.view))  # flag falls (docs/clock.md)
    flags.start()
    print(f"battlelog is projecting (store: {store}); stop with SIGTERM or Ctrl-C", flush=True)
    try:
        projector.run_forever(stopping)
    finally:
        stopping.set()
        flags.stop()
        notify.stop()
        _close(matches)
    return 0


def export(match: str, db: str | None, path: str, form: str = "jsonl") -> int:
    import json
    from collections.abc import Iterator

    from domain.integrity import verify as check
    from projections import report
    from projections.dice_stats import csv_lines, statistics
    from projections.export import export_lines

    def made(matches: Matches, match_id: UUID) -> Iterable[str]:
        def events() -> Iterator[Any]:
            return matches.events_of(match_id, upto=matches.head(match_id).version)

        if form == "jsonl":
            return export_lines(matches, match_id)
        if form == "csv":
            return csv_lines(events())
        if form == "dice":
            return [json.dumps(statistics(events()), indent=2) + "\n"]
        built = report.build(events(), integrity=check(export_lines(matches, match_id)))
        return [report.markdown(built) if form == "md" else report.html(built)]

    return from_store("export", match, db, path, made)


def replay(match: str, db: str | None, path: str, viewpoint: str) -> int:
    """The replay file (docs/replay.md) of a match in the store, for `viewpoint`."""
    from api.replay_page import page
    from domain.authority import check_viewpoint
    from domain.context import REFEREE
    from projections.replay_file import replay_data

    def made(matches: Matches, match_id: UUID) -> list[str]:
        # the store's holder reads as the referee, who may choose any seat's view
        check_viewpoint(REFEREE, viewpoint, matches.head(match_id).state.side_ids())
        return [page(replay_data(matches, match_id, viewpoint))]

    return from_store("replay", match, db, path, made)


def from_store(command: str, match: str, db: str | None, path: str,
               made: Callable[[Matches, UUID], Iterable[str]]) -> int:
    """Write what `made` makes of a match in the store (read only) to `path` (- for standard
    output): 0; 1 when the match id or the match is refused; 2 when the store cannot be
    read. Each refusal is said on standard error."""
    from domain.errors import DomainError

    try:
        match_id = UUID(match)
    except ValueError:
        print(f"battlelog {command}: '{match}' is not a match id", file=sys.stderr)
        return 1
    opened = _open_store(command, db, reading=True)
    if opened is None:
        return 2
    matches, where = opened
    try:
        lines = made(matches, match_id)
        with (open(path, "w", encoding="utf-8", newline="") if path != "-"
              else nullcontext(sys.stdout)) as target:
            for line in lines:
                target.write(line)
    except DomainError as error:
        print(f"battlelog {command}: {error.detail}", file=sys.stderr)
        return 1
    except PersistenceError as error:
        print(f"battlelog {command}: {_unreadable(where, error)}", file=sys.stderr)
        return 2
    finally:
        _close(matches)
    return 0


def _where(env: dict[str, str]) -> str:
    """The store's name, for messages."""
    return env.get("SQLITE_DBNAME") or f"PostgreSQL {env.get('POSTGRES_DBNAME')}"


def _open_store(command: str, db: str | None, *,
                reading: bool = False) -> tuple[Matches, str] | None:
    """The store (--db, else the environment) and its name; None when it cannot be used, as
    said on standard error. A command that only reads creates nothing: the SQLite file must
    be there already, and no table is added to it."""
    from domain.app import Matches

    env = Settings(db=db).store_env()
    where = _where(env)
    if reading and "SQLITE_DBNAME" in env and not Path(where).is_file():
        print(f"battlelog {command}: no battlelog database at {where} (give its file with "
              f"--db PATH or BATTLELOG_DB: `battlelog serve` keeps it in the folder it was "
              f"started from, ./battlelog.db unless told otherwise)", file=sys.stderr)
        return None
    from projections.ruleset_store import store_of

    try:
        matches = Matches(env={**env, "CREATE_TABLE": "n"} if reading else env)
        store_of(matches, create=not reading)  # the matches of ruleset files replay under them
        return matches, where
    except PersistenceError as error:
        print(f"battlelog {command}: {_unreadable(where, error)}", file=sys.stderr)
        return None


def _close(matches: Matches) -> None:
    """Close the store `_open_store` opened: its ruleset store first (the rulesets registry
    would hold it, and with it the database connection, until the interpreter's teardown,
    where closing it fails), then the application."""
    from projections.ruleset_store import store_of

    store_of(matches, create=False).close()
    matches.close()


def _unreadable(where: str, error: PersistenceError) -> str:
    if "no such table" in str(error):
        return f"{where} is not a battlelog database ({error})"
    return f"cannot use the store {where}: {error}"


def import_file(path: str, db: str | None) -> int:
    from api.imports import ImportFile
    from domain.errors import DomainError

    try:  # a replay file is read as HTML there, for the export it carries
        upload = ImportFile.copy_of(sys.stdin.buffer) if path == "-" else ImportFile.open(path)
    except OSError as error:
        print(f"battlelog import: cannot read {path}: {error}", file=sys.stderr)
        return 2
    opened = _open_store("import", db)
    if opened is None:
        upload.close()
        return 2
    matches, where = opened
    try:
        result = upload.import_into(matches, isolate=False)  # this is a process of its own
    except DomainError as error:
        print(f"battlelog import: refused: {error.detail}", file=sys.stderr)
        return 1
    finally:
        upload.close()
        _close(matches)
    print(f"imported match {result.match_id} into {where} ({result.version} events)")
    for seat, token in result.tokens.items():
        print(f"  {seat}: {token}")
    return 0
