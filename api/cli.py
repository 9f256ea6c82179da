"""The `battlelog` command: `battlelog serve --db PATH --host HOST --port PORT`,
`battlelog verify FILE` (check a match export offline), `battlelog export MATCH` and
`battlelog import FILE` (the interchange format, docs/interchange.md), `battlelog replay
MATCH` (the replay file, docs/replay.md), `battlelog check-ruleset FILE` (a ruleset file's
checks, docs/rulesets/authoring.md), and
`battlelog project` (the read models' runner, as a process of its own: docs/deploy.md).

`make run` installs it in .venv/bin/ (README.md: "The battlelog command"). A command ends
quietly, without a traceback, when its reader closes the pipe (`battlelog export MATCH | head`:
exit status 1) and on Ctrl-C (130; `serve` shuts down cleanly, says so, and exits with 0)."""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Callable, Iterable
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import UUID

import uvicorn
from eventsourcing.persistence import PersistenceError

from api.settings import Settings

if TYPE_CHECKING:
    from domain.app import Matches


def _serve_limits() -> dict[str, tuple[str, Any, Any, str]]:
    """The settings that have a variable and a flag: name -> (variable, default, type,
    meaning)."""
    out = {}
    for name, field in Settings.model_fields.items():
        extra = field.json_schema_extra
        if isinstance(extra, dict) and "variable" in extra:
            out[name] = (extra["variable"], extra["default"], extra["cast"], field.description)
    return out


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="battlelog",
        description="battlelog: an event-sourced game-state service for tabletop wargames.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serve = commands.add_parser("serve", help="serve the HTTP API",
                                description="Serve the HTTP API (docs at /docs).")
    serve.add_argument("--db", help="SQLite file (default: $BATTLELOG_DB or ./battlelog.db); "
                       "ignored when BATTLELOG_STORE=postgres")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    limits = serve.add_argument_group(
        "limits", "against hostile or slow clients; each defaults to its BATTLELOG_ variable, "
        "else to the value shown (docs/configuration.md)")
    for name, (variable, default, kind, meaning) in _serve_limits().items():
        limits.add_argument(f"--{name.replace('_', '-')}", type=kind, metavar=name.upper(),
                            help=f"{meaning} (${variable}; default {default})")
    check = commands.add_parser(
        "verify", help="check a match export offline: hash chain and server dice",
        description="Check a match export (GET /api/matches/{id}/export): every line "
                    "canonical, every hash and link of the chain, and every server roll "
                    "recomputed from the revealed dice seed. Exit status 0: all good; 1: a "
                    "problem (named with its line and event); 2: the file cannot be read.")
    check.add_argument("file", help="the export (JSON Lines) or a replay file; - for standard "
                       "input (JSON Lines)")
    out = commands.add_parser(
        "export", help="write a match's export, report or dice from the store",
        description="Write what GET /api/matches/{id}/export?format=... gives, from the store: "
                    "jsonl (the complete, referee's interchange file, streamed: "
                    "docs/interchange.md), csv (every die rolled), dice (dice statistics, "
                    "JSON), md or html (the after-action report: docs/reports.md).")
    out.add_argument("match", help="the match id")
    out.add_argument("--format", choices=["jsonl", "csv", "dice", "md", "html"],
                     default="jsonl", help="(default: jsonl)")
    out.add_argument("--db", help="SQLite file (default: $BATTLELOG_DB or ./battlelog.db)")
    out.add_argument("--out", "-o", default="-", help="file to write (default: standard output)")
    film = commands.add_parser(
        "replay", help="write a match's replay file: one HTML page that plays it back offline",
        description="Write what GET /api/matches/{id}/replay gives, from the store: one "
                    "self-contained HTML page that plays the match back offline and checks "
                    "its own log (docs/replay.md). It carries the export of its viewpoint: "
                    "`battlelog verify` and `battlelog import` read it.")
    film.add_argument("match", help="the match id")
    film.add_argument("--viewpoint", default="referee",
                      help="the seat it is written for: referee (everything), spectator, or a "
                           "side id (default: referee)")
    film.add_argument("--db", help="SQLite file (default: $BATTLELOG_DB or ./battlelog.db)")
    film.add_argument("--out", "-o", default="-", help="file to write (default: standard output)")
    into = commands.add_parser(
        "import", help="rebuild a match in the store from a referee's export",
        description="Rebuild a match from a referee's export: the same events, versions, "
                    "state and hash chain. Prints the new seat tokens. Exit status 0: "
                    "imported; 1: refused (the line and reason are printed); 2: unreadable.")
    into.add_argument("file", help="the export (JSON Lines) or a referee's replay file; - for "
                      "standard input (JSON Lines)")
    into.add_argument("--db", help="SQLite file (default: $BATTLELOG_DB or ./battlelog.db)")
    rules = commands.add_parser(
        "check-ruleset", help="check a ruleset file: every problem with its line and column",
        description="Check a ruleset file (YAML or JSON, docs/rulesets/authoring.md) as the "
                    "service does (POST /api/rulesets/check): every problem at once, each "
                    "as FILE:LINE:COLUMN: CHECK: what is wrong. Exit status 0: it passes; 1: "
                    "it has problems; 2: the file cannot be read.")
    rules.add_argument("file", help="the ruleset file")
    runner = commands.add_parser(
        "project", help="keep the read models (the match catalogue, the notifications' outbox) "
                        "up to date, as a process of its own",
        description="Run the projections (the match catalogue, and the 'your turn' notifier: "
                    "its outbox and deliveries) until stopped (SIGTERM or "
                    "Ctrl-C), for API processes started with BATTLELOG_PROJECTIONS=external: "
                    "one such process per store (docs/deploy.md). It resumes where it stopped.")
    runner.add_argument("--db", help="SQLite file (default: $BATTLELOG_DB or ./battlelog.db); "
                        "ignored when BATTLELOG_STORE=postgres")
    return parser


def project(db: str | None) -> int:
    import signal
    import threading

    from projections.catalogue import open_catalogue
    from projections.notify import NotifyService

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
    # the "your turn" notifier beside the catalogue (docs/notifications.md)
    notify = NotifyService(matches, settings.notify_config())
    notifier = threading.Thread(target=notify.run_forever, args=(stopping,), name="notify")
    notifier.start()
    from projections.clock_watch import FlagWatcher, active_matches
    catalogue = open_catalogue(matches)  # flag falls recorded as they happen (docs/clock.md)
    flags = FlagWatcher(matches, active_matches(catalogue.view))
    flags.start()
    print(f"battlelog is projecting (store: {store}); stop with SIGTERM or Ctrl-C", flush=True)
    try:
        catalogue.run_forever(stopping)
    finally:
        stopping.set()
        flags.stop()
        notifier.join(timeout=15)
        notify.stop()
        matches.close()
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
        matches.close()
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
    try:
        return Matches(env={**env, "CREATE_TABLE": "n"} if reading else env), where
    except PersistenceError as error:
        print(f"battlelog {command}: {_unreadable(where, error)}", file=sys.stderr)
        return None


def _unreadable(where: str, error: PersistenceError) -> str:
    if "no such table" in str(error):
        return f"{where} is not a battlelog database ({error})"
    return f"cannot use the store {where}: {error}"


def import_file(path: str, db: str | None) -> int:
    from api.cli_replay import export_stream, replay_export
    from api.imports import ImportFile
    from domain.errors import DomainError

    try:
        carried = replay_export(path)
        upload = (ImportFile.copy_of(sys.stdin.buffer) if path == "-"
                  else ImportFile.open(path) if carried is None
                  else ImportFile.copy_of(export_stream(carried)))
    except ValueError as error:
        print(f"battlelog import: {error}", file=sys.stderr)
        return 2
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
        matches.close()
    print(f"imported match {result.match_id} into {where} ({result.version} events)")
    for seat, token in result.tokens.items():
        print(f"  {seat}: {token}")
    return 0


def verify(path: str) -> int:
    from api.cli_replay import replay_export
    from domain.integrity import revealed_seeds
    from domain.integrity import verify as check

    try:
        carried = replay_export(path)
        if carried is not None:  # a replay file: the export it carries
            seeds = revealed_seeds(io.StringIO(carried, newline=""))
            report = check(io.StringIO(carried, newline=""), seeds)
        elif path == "-":
            report = check(sys.stdin)  # read once: each roll waits for its seed's reveal
        else:  # read twice, one line at a time: the seeds revealed, then every line checked
            with open(path, encoding="utf-8", newline="") as lines:
                seeds = revealed_seeds(lines)
            with open(path, encoding="utf-8", newline="") as lines:
                report = check(lines, seeds)
    except (OSError, ValueError) as error:  # UnicodeDecodeError is a ValueError
        print(f"battlelog verify: cannot read {path}: {error}", file=sys.stderr)
        return 2
    print(f"{report.events} events, chain head {report.chain_head or '-'}")
    print(f"server rolls recomputed: {report.rolls_checked}"
          + (f"; {report.rolls_unchecked} not yet (the seed is not revealed)"
             if report.rolls_unchecked else ""))
    for problem in report.problems:
        print(f"PROBLEM {problem}")
    print("OK" if report.ok else "FAILED")
    return 0 if report.ok else 1


def check_ruleset(path: str) -> int:
    from projections.rulefile_load import check_file

    try:
        report = check_file(path)
    except OSError as error:
        print(f"battlelog check-ruleset: cannot read {path}: {error}", file=sys.stderr)
        return 2
    print("\n".join(report.lines()))
    return 0 if report.ok else 1


def serve(args: argparse.Namespace) -> int:
    from api.app import create_app
    from api.listening import cannot_listen, listen, urls
    from api.server import config

    chosen = {name: getattr(args, name) for name in _serve_limits()}
    try:
        given = Settings(db=args.db, host=args.host, port=args.port,
                         **{name: value for name, value in chosen.items() if value is not None})
    except ValueError as error:  # pydantic's ValidationError is one
        print(f"battlelog serve: {error}", file=sys.stderr)
        return 2
    try:
        listening = listen(args.host, args.port)
    except OSError as error:
        print(f"battlelog serve: {cannot_listen(args.host, args.port, error)}", file=sys.stderr)
        return 1
    settings = given.with_admin_token()
    where = _where(settings.store_env())
    admin = ("from BATTLELOG_ADMIN_TOKEN" if given.admin_token
             else f"{settings.admin_token} (set BATTLELOG_ADMIN_TOKEN to choose one)")
    base, elsewhere = urls(args.host, listening.getsockname()[1])
    print(f"battlelog is serving {base} (store: {where})\n"
          f"open {base}/ in a browser to play"
          + (f", or {elsewhere}/ from another device on your network" if elsewhere else "")
          + f"; the API documentation is at {base}/docs\n"
          f"admin token for the match list (GET /api/matches): {admin}\n"
          f"start a sample match: curl -s {base}/api/scenarios/atomic-africa-demo | "
          f"curl -s -X POST {base}/api/matches -H 'Content-Type: application/json' -d @-\n"
          f"limits per client address: {settings.create_rate} creations, "
          f"{settings.import_rate} imports (battlelog serve --help)", flush=True)
    app = create_app(settings)
    server = uvicorn.Server(config(app, settings, log_level="warning"))
    app.state.stopping = lambda: server.should_exit
    try:
        server.run(sockets=[listening])
    except KeyboardInterrupt:  # Ctrl-C: uvicorn has shut down cleanly, then re-raises it
        pass
    print(f"battlelog stopped (store: {where})", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        status = _run(args)
        sys.stdout.flush()  # here, so that a closed pipe is met inside the try
    except BrokenPipeError:
        # The reader went away (`battlelog export MATCH | head`): stop quietly, as cat does.
        # Python flushes standard output once more on exit: let that go to /dev/null.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:  # Ctrl-C (serve stops cleanly on its own, and says so)
        return 130  # what a shell reports for a command stopped by Ctrl-C
    return status


def _run(args: argparse.Namespace) -> int:
    if args.command == "serve":
        return serve(args)
    elif args.command == "verify":
        return verify(args.file)
    elif args.command == "export":
        return export(args.match, args.db, args.out, args.format)
    elif args.command == "replay":
        return replay(args.match, args.db, args.out, args.viewpoint)
    elif args.command == "import":
        return import_file(args.file, args.db)
    elif args.command == "check-ruleset":
        return check_ruleset(args.file)
    elif args.command == "project":
        return project(args.db)
    return 0


if __name__ == "__main__":
    sys.exit(main())
