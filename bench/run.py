"""battlelog benchmarks: every figure printed beside its anchor, measured in the same run.

    .venv/bin/python bench/run.py [--quick] [--events N] [--out bench/results]

(a) write path: actions/s through `Matches.act` vs the raw eventsourcing append rate on the
    same store vs raw SQLite commits/s (the physical limit of one commit per action).
(b) read path on a long match: cold load, time travel to random versions (warm and cold),
    undo of the last action, vs a naive full replay of the whole log.
(c) export and import of the long match (export: events/s and peak memory).
(o) one client, keep-alive: an action's, `/api/health/live`'s and a board read's round
    trip vs bare FastAPI's POST and GET (bench/hello_app.py), alternating (bench/roundtrip.py).
(d) HTTP: 32 concurrent clients against a real `battlelog serve` on SQLite (p50, p99,
    actions/s) vs raw SQLite commits/s and vs FastAPI+uvicorn alone (bench/hello_app.py),
    in alternating rounds.
(d') live updates: from an action to every follower of its match knowing (bench/live.py),
    beside the action's own round trip.
(e) rebuild of the read models from 1,000 matches of 1,000 events vs eventsourcing's replay
    of the same log (bench/rebuild.py).
(f) PostgreSQL (pgserver): 1 and 2 API processes and the projection runner, 32 clients, vs
    raw single-row commits/s on the same server; eventsourcing settings tried (bench/scale.py).
(g) memory: peak RSS of one server holding 1,000 active matches.
(h) hostile clients (bench/hostile.py): a 20 MiB junk import and a valid one, a flood of
    creations, slowloris sockets, each against a real `battlelog serve`.
(p) server CPU per request (bench/cpu.py): an action, the board, the legal actions and
    health on SQLite, an action on PostgreSQL (API process, runner, PostgreSQL), beside bare
    FastAPI's CPU; an action beside matches with notices and clocks.
(l) legal actions on large boards (bench/legal.py): the answer's time and size at 25, 100
    and 250 units a side; another match's action while 8 clients read a large board's.
(r) the replay file of a big match (bench/replay_cache.py): first request (written) and
    cached, beside the board read; four asked at once; another match's action meanwhile.
(s) hostile ruleset files (bench/hostile_rulefiles.py): their boards, moves and legal
    answers on 400 units beside the work budget, another match's requests meanwhile beside
    its idle time, Wing Command's board, the check of the costliest files.
Results go to bench/results/<date>.json; the previous result file is shown beside them.
Issue 18's targets (bench/targets.py) close the report: figure, anchor, ratio, PASS/MISS.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import cpu
import hostile
import hostile_rulefiles
import http_load
import legal as legal_bench
import live
import notify
import notify_lanes
import rebuild as rebuilding
import replay_cache
import roundtrip
import scale
from inprocess import (
    build_long_match,
    interchange,
    raw_sqlite_commits,
    read_path,
    ruleset_actions,
    timed,
    write_side_by_side,
)
from report import report

# The load benches' many clients all come from 127.0.0.1: no quota on their creations
# (bench/hostile.py measures the quotas with the defaults, from addresses of its own).
os.environ.setdefault("BATTLELOG_CREATE_RATE", "off")


# ---- the report ------------------------------------------------------------------------

SECTIONS = ("oneclient", "cpu", "write", "read", "export", "http", "live", "rebuild", "postgres", "variants",
            "memory", "hostile", "notify", "legal", "replay_cache", "rulefiles")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="a few minutes: fewer events, matches and seconds")
    parser.add_argument("--events", type=int, help="events in the long match (default 100000)")
    parser.add_argument("--matches", type=int,
                        help="matches of 1,000 events for the rebuild (default 1000)")
    parser.add_argument("--only", default=",".join(s for s in SECTIONS if s != "variants"),
                        help=f"comma-separated sections of {', '.join(SECTIONS)} (default: "
                             "all but variants: the PostgreSQL settings tried one by one)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results"))
    args = parser.parse_args()
    only = set(args.only.split(","))
    n_events = args.events or (20_000 if args.quick else 100_000)
    seconds = 2.0 if args.quick else 5.0
    n_matches = args.matches or (100 if args.quick else 1000)
    figures: dict[str, float] = {}

    with tempfile.TemporaryDirectory() as tmp:
        if only & {"write", "http", "postgres"}:
            print(f"raw commits ({seconds:.0f} s, SQLite WAL, synchronous=FULL) ...", flush=True)
            figures["raw_sqlite_commits_per_s"] = raw_sqlite_commits(
                os.path.join(tmp, "raw.db"), seconds)
        if "write" in only:
            print("write path ...", flush=True)
            figures.update(write_side_by_side(tmp, seconds * 2))
            figures["ruleset_actions_per_s"] = ruleset_actions(os.path.join(tmp, "rs.db"),
                                                               seconds)
        if only & {"read", "export"}:
            print(f"building a {n_events:,}-event match ...", flush=True)
            long_db = os.path.join(tmp, "long.db")
            figures["build_long_match_s"] = timed(
                lambda: results.update(match=build_long_match(long_db, n_events)))
            if "read" in only:
                figures.update(read_path(long_db, results["match"], 60 if args.quick else 200,
                                         8 if args.quick else 20))
            if "export" in only:
                print("export and import ...", flush=True)
                figures.update(interchange(long_db, os.path.join(tmp, "imported.db"),
                                           results["match"]))
        if "http" in only:
            print("HTTP: 32 clients against battlelog serve, then against FastAPI alone ...",
                  flush=True)
            got, bare = http_load.side_by_side(os.path.join(tmp, "http.db"), seconds * 2)
            figures.update({f"http_{k}": v for k, v in got.items()})
            figures["hello_requests_per_s"] = bare["actions_per_s"]
            figures["hello_p99_s"] = bare["p99_s"]
        if "oneclient" in only:
            print("one client: action, health and board round trips, alternating with bare "
                  "FastAPI ...", flush=True)
            figures.update(roundtrip.measure(os.path.join(tmp, "rt.db"),
                                             16 if args.quick else 40, 25))
        if "cpu" in only:
            print("server CPU per request beside bare FastAPI's (bench/cpu.py) ...", flush=True)
            figures.update(cpu.measure(tmp, 600 if args.quick else 1500))
            print("\n".join(cpu.lines(figures)), flush=True)
        if "live" in only:
            print("live updates: followers of one match hearing each action ...", flush=True)
            got = live.measure(20 if args.quick else 50, 50 if args.quick else 200)
            figures.update({
                "live_followers": got["followers"],
                "live_followers_missing_the_end": got["followers_missing_the_end"],
                "live_action_round_trip_p50_s": got["action_round_trip_ms_p50"] / 1000,
                "live_delivery_p50_s": got["delivery_ms_p50"] / 1000,
                "live_delivery_p99_s": got["delivery_ms_p99"] / 1000})
        if "rebuild" in only:
            print(f"rebuild from {n_matches:,} matches of 1,000 events ...", flush=True)
            template = os.path.join(tmp, "template.db")
            template_id = build_long_match(template, 1000)
            figures.update(rebuilding.rebuild_figures(tmp, template, template_id, n_matches))
        if only & {"postgres", "variants"}:
            print("PostgreSQL (pgserver): raw commits, 1 and 2 API processes ...", flush=True)
            figures.update(scale.postgres_figures(tmp, seconds * 2, "variants" in only))
        if "memory" in only:
            n = 200 if args.quick else 1000
            print(f"memory: one server holding {n:,} active matches ...", flush=True)
            figures.update(scale.memory_figures(tmp, n, 5))
        if "hostile" in only:
            print("hostile clients: imports, a flood, slowloris (about 2 min) ...", flush=True)
            figures.update(hostile.measure(5 if args.quick else 20))
        if "legal" in only:
            print("legal actions on large boards, and beside another match ...", flush=True)
            figures.update(legal_bench.measure(3, 20 if args.quick else 40))
        if "replay_cache" in only:
            print("the replay file of a big match, written and cached ...", flush=True)
            figures.update(replay_cache.measure(100 if args.quick else 300))
        if "rulefiles" in only:
            print("hostile ruleset files, and another match beside them ...", flush=True)
            figures.update(hostile_rulefiles.measure(400, 6 if args.quick else 12))
        if "notify" in only:  # (n) "your turn" webhooks: handoff to arrival (bench/notify.py)
            figures.update(notify.measure(tmp, 50 if args.quick else 200))
            print("notify: a notice beside a blackholed target (bench/notify_lanes.py) ...",
                  flush=True)
            figures.update(notify_lanes.measure(tmp))

    report(figures, Path(args.out))
    return 0


results: dict[str, Any] = {}


if __name__ == "__main__":
    sys.exit(main())
