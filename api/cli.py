"""The `battlelog` command: `battlelog serve --db PATH --host HOST --port PORT`,
`battlelog verify FILE` (check a match export offline), `battlelog export MATCH` and
`battlelog import FILE` (the interchange format, docs/interchange.md), `battlelog replay
MATCH` (the replay file, docs/replay.md), `battlelog check-ruleset FILE` (a ruleset file's
checks, docs/rulesets/authoring.md), `battlelog ruleset-reference` (the format's reference,
docs/rulesets/reference.md), and
`battlelog project` (the read models' runner, as a process of its own: docs/deploy.md).

`make run` installs it in .venv/bin/ (README.md: "The battlelog command"). A command ends
quietly, without a traceback, when its reader closes the pipe (`battlelog export MATCH | head`:
exit status 1) and on Ctrl-C (130; `serve` shuts down cleanly, says so, and exits with 0)."""

from __future__ import annotations

import argparse
import io
import os
import sys
from typing import Any

import uvicorn

from api.cli_store import _where, export, import_file, project, replay
from api.settings import Settings


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
                    "recomputed from the revealed dice seed; a match created from a ruleset "
                    "file, the file it carries (and the one given with --ruleset) held to "
                    "the hash its first event pins. Exit status 0: all good; 1: a problem "
                    "(named with its line and event); 2: a file cannot be read.")
    check.add_argument("--ruleset", metavar="RULESET_FILE",
                       help="a ruleset file (YAML or JSON) the log is to be replayed under: "
                            "a file other than the one the match was created under is flagged")
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
    reference = commands.add_parser(
        "ruleset-reference", help="write the ruleset file format's reference",
        description="Write the reference of the ruleset file format (every block and field, "
                    "generated from the format's models: docs/rulesets/reference.md is this "
                    "command's output; `make docs` writes it).")
    reference.add_argument("--out", "-o", default="-",
                           help="file to write (default: standard output)")
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

def not_checked_fully(report: Any) -> str:
    """The line that says, always, how many events `verify` could not check fully."""
    return (f"events not checked fully: {report.events_hidden} (they hide what this file's "
            f"seat may not see: their public fields and commitments are checked, not the "
            f"hidden values); of them {report.events_unchecked} recorded before hidden fields "
            "were committed (their hash is not checked)")


def verify(path: str, ruleset: str | None = None) -> int:
    from functools import partial

    from api.cli_replay import replay_export
    from api.replay_read import NotAReplay
    from domain.integrity import revealed_seeds
    from domain.integrity import verify as verify_lines
    from domain.rulefiles.identity import file_hash
    from projections.rulefile_load import check_file

    given = None
    if ruleset is not None:
        try:
            loaded = check_file(ruleset)
        except OSError as error:
            print(f"battlelog verify: cannot read {ruleset}: {error}", file=sys.stderr)
            return 2
        if not loaded.ok:
            print("\n".join(loaded.lines()), file=sys.stderr)
            return 2
        given = file_hash(loaded.data)
        print(f"ruleset file {ruleset}: {given}")
    check = partial(verify_lines, ruleset=given)
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
    except NotAReplay as error:  # a replay file read as HTML: none, or more than one log
        print(f"battlelog verify: {path}: {error}\nFAILED", file=sys.stderr)
        return 1
    except (OSError, ValueError) as error:  # UnicodeDecodeError is a ValueError
        print(f"battlelog verify: cannot read {path}: {error}", file=sys.stderr)
        return 2
    print(f"{report.events} events, chain head {report.chain_head or '-'}"
          + (f"; created under the ruleset file {report.ruleset_hash}"
             if report.ruleset_hash else ""))
    print(f"server rolls recomputed: {report.rolls_checked}"
          + (f"; {report.rolls_unchecked} not yet (the seed is not revealed)"
             if report.rolls_unchecked else ""))
    print(not_checked_fully(report))
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
        return verify(args.file, args.ruleset)
    elif args.command == "export":
        return export(args.match, args.db, args.out, args.format)
    elif args.command == "replay":
        return replay(args.match, args.db, args.out, args.viewpoint)
    elif args.command == "import":
        return import_file(args.file, args.db)
    elif args.command == "check-ruleset":
        return check_ruleset(args.file)
    elif args.command == "ruleset-reference":
        from projections.rulefiles.reference import write

        write(args.out)
        return 0
    elif args.command == "project":
        return project(args.db)
    return 0


if __name__ == "__main__":
    sys.exit(main())
