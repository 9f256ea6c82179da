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
Results go to bench/results/<date>.json; the previous result file is shown beside them.
Issue 18's targets (bench/targets.py) close the report: figure, anchor, ratio, PASS/MISS.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any
from uuid import UUID

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import cpu
import hostile
import http_load
import legal as legal_bench
import live
import notify
import notify_lanes
import rebuild as rebuilding
import roundtrip
import scale
from eventsourcing.application import Application
from pydantic import TypeAdapter
from rebuild import Counter
from report import report

from domain import events as ev
from domain.app import Matches
from domain.app.persistence import Checkpoint
from domain.commands import Action, CreateMatch
from domain.decide import Context, decide, decide_undo
from domain.dice import SeededDice
from domain.history import Frame, fold, replay
from domain.integrity import chained
from domain.rulesets import get_ruleset
from projections.export import export_lines
from projections.store import sqlite_env

# The load benches' many clients all come from 127.0.0.1: no quota on their creations
# (bench/hostile.py measures the quotas with the defaults, from addresses of its own).
os.environ.setdefault("BATTLELOG_CREATE_RATE", "off")
ACTIONS: TypeAdapter[Any] = TypeAdapter(Action)
SETUP = CreateMatch(scenario="bench", casual=True,
                    sides=[{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}])
MIX = [
    {"type": "place_marker", "kind": "suppression", "unit_id": "u0"},
    {"type": "move_unit", "unit_id": "u1", "to": {"x": 3, "y": 4}},
    {"type": "roll_dice", "notation": "2d6", "purpose": "fire"},
    {"type": "advance"},
    {"type": "remove_marker", "kind": "suppression", "unit_id": "u0"},
    {"type": "set_track", "name": "weather", "value": "rain"},
]


def timed(fn: Callable[[], Any]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def rate(n: int, seconds: float) -> float:
    return n / seconds if seconds else float("inf")


# ---- (a) the write path ----------------------------------------------------------------

def raw_sqlite_commits(path: str, seconds: float) -> float:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)")
    body = b"x" * 300
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        db.execute("BEGIN")
        db.execute("INSERT INTO t (body) VALUES (?)", (body,))
        db.execute("COMMIT")
        n += 1
    elapsed = time.perf_counter() - start
    db.close()
    return rate(n, elapsed)


def deploy(app: Matches, match_id: UUID) -> None:
    for i in range(2):
        app.act(match_id, ACTIONS.validate_python({"type": "deploy_unit", "unit": {
            "id": f"u{i}", "side": "red", "name": f"Unit {i}", "figures": 10,
            "position": {"x": i, "y": i}}}))
    app.act(match_id, ACTIONS.validate_python(
        {"type": "place_marker", "kind": "suppression", "count": 1000, "unit_id": "u0"}))


def write_side_by_side(tmp: str, seconds: float, rounds: int = 5) -> dict[str, float]:
    """`Matches.act` and a plain eventsourcing Application's append, each on its own SQLite
    file, in alternating rounds (`seconds` each in all): the machine's other load, a
    neighbour's fsyncs above all, falls on both alike."""
    plain: Application[UUID] = Application(env=sqlite_env(os.path.join(tmp, "es2.db")))
    counter = Counter()
    plain.save(counter)
    app = Matches(env=sqlite_env(os.path.join(tmp, "bl2.db")))
    match_id = app.create_match(SETUP).events[0].originator_id
    deploy(app, match_id)
    commands = [ACTIONS.validate_python(a) for a in MIX]
    counts = {"es": 0, "bl": 0}
    spent = {"es": 0.0, "bl": 0.0}
    for _ in range(rounds):
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / rounds:
            counter.increment(by=1)
            plain.save(counter)
            counts["es"] += 1
        spent["es"] += time.perf_counter() - start
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / rounds:
            app.act(match_id, commands[counts["bl"] % len(commands)])
            counts["bl"] += 1
        spent["bl"] += time.perf_counter() - start
    plain.close()
    app.close()
    return {"raw_eventsourcing_appends_per_s": rate(counts["es"], spent["es"]),
            "actions_per_s": rate(counts["bl"], spent["bl"])}


RULESET_SETUP = CreateMatch(
    ruleset="extended-sequence", scenario="bench", casual=True,
    sides=[{"id": "att", "name": "Attacker"}, {"id": "def", "name": "Defender"}],
    options={"roles": {"attacker": "att", "defender": "def"}},
    units=[{"id": "mg", "side": "att", "name": "MG", "q": 4, "extra": {"rof": 2**30},
            "position": {"hex": "0101"}},
           {"id": "sq", "side": "def", "name": "Squad", "q": 4, "position": {"hex": "0202"}}])
RULESET_MIX = [{"type": "fire", "unit_id": "mg", "target_id": "sq", "source": "table",
                "results": [3, 4]},  # table dice: a 12 would break the MG down (ES-2)
               {"type": "enter_result", "result": "no effect"}]


def ruleset_actions(path: str, seconds: float) -> float:
    """The same through a ruleset's procedures: extended-sequence prepared fire (ROF counted,
    markers placed, a result awaited and entered), with its after-every-action check (ES-4)."""
    app = Matches(env=sqlite_env(path))
    match_id = app.create_match(RULESET_SETUP).events[0].originator_id
    while app.head(match_id).state.turn.step != "combat/prepared_fire":
        app.act(match_id, ACTIONS.validate_python({"type": "advance"}))
    commands = [ACTIONS.validate_python(a) for a in RULESET_MIX]
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        app.act(match_id, commands[n % len(commands)], actor="att")
        n += 1
    elapsed = time.perf_counter() - start
    app.close()
    return rate(n, elapsed)


# ---- (b) the read path -----------------------------------------------------------------

def build_long_match(path: str, n_events: int) -> UUID:
    """A match of `n_events` events, built the way the application builds one (decide, fold,
    checkpoint every interval) but saved in batches, not one commit per action."""
    app = Matches(env=sqlite_env(path))
    match_id = app.create_match(SETUP).events[0].originator_id
    deploy(app, match_id)
    head = app.head(match_id)
    ruleset = get_ruleset(head.state.ruleset, head.state.options)
    dice = SeededDice(bytes.fromhex(app._seed(match_id, head)))
    commands = [ACTIONS.validate_python(a) for a in MIX]
    recent: dict[int, Frame] = {head.version: head}
    batch: list[ev.Event] = []
    rng = random.Random(7)
    i = 0
    while head.version < n_events:
        context = Context(match_id=match_id, version=head.version, actor="referee",
                          command_id=f"b{i}", now=app.clock(), dice=dice,
                          roll_index=head.server_rolls)
        if i % 50 == 49:
            events = decide_undo(head.state, lambda k: recent[k].state, context)
        else:
            events = decide(commands[rng.randrange(len(commands))], head.state, ruleset,
                            context)
        events = chained(events, head.chain_head)  # as the application stores them
        head = fold(head, events, lambda k: recent[k].state)
        recent[head.version] = head
        recent.pop(head.version - 200, None)
        batch.extend(events)
        if head.version - head.checkpoint >= app.checkpoint_interval:
            app.save(*batch)
            batch = []
            assert app.snapshots is not None
            app.snapshots.put([Checkpoint.of(match_id, head, app.clock())])
            head = replace(head, checkpoint=head.version)
            recent[head.version] = head
        i += 1
    app.save(*batch)
    app.close()
    return match_id


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def read_path(path: str, match_id: UUID, samples: int, cold_samples: int) -> dict[str, float]:
    env = sqlite_env(path)
    cold_app = Matches(env=env)
    cold_load = timed(lambda: cold_app.head(match_id))
    n = cold_app.head(match_id).version
    rng = random.Random(11)
    versions = rng.sample(range(2, n), samples)
    warm = [timed(lambda v=v: cold_app.state_at(match_id, v)) for v in versions]
    cold = []
    for v in rng.sample(range(2, n), cold_samples):
        fresh = Matches(env=env)
        fresh.head(match_id)
        cold.append(timed(lambda v=v, fresh=fresh: fresh.state_at(match_id, v)))
        fresh.close()
    undo = []
    for _ in range(samples // 4):
        cold_app.act(match_id, ACTIONS.validate_python(MIX[0]))
        undo.append(timed(lambda: cold_app.undo(match_id)))
    all_events = list(cold_app.events_of(match_id))
    full_replay = timed(lambda: replay(all_events))
    cold_app.close()
    return {
        "events": n,
        "cold_load_s": cold_load,
        "time_travel_warm_median_s": statistics.median(warm),
        "time_travel_warm_p95_s": percentile(warm, 0.95),
        "time_travel_cold_median_s": statistics.median(cold),
        "undo_last_median_s": statistics.median(undo),
        "naive_full_replay_s": full_replay,
    }


def interchange(path: str, other: str, match_id: UUID) -> dict[str, float]:
    """Export the long match as JSON Lines (as the API streams it) and import it into a
    fresh store; a second, untimed export under tracemalloc gives its peak Python memory
    (flat: it streams)."""
    app = Matches(env=sqlite_env(path))
    app.head(match_id)
    start = time.perf_counter()
    lines = list(export_lines(app, match_id))
    export_s = time.perf_counter() - start
    app.close()
    tracemalloc.start()
    sink = 0
    start = time.perf_counter()
    for line in export_lines(Matches(env=sqlite_env(path)), match_id):
        sink += len(line)  # consumed as a client would, nothing kept
    _, streamed_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    target = Matches(env=sqlite_env(other))
    import_s = timed(lambda: target.import_match(lines))
    target.close()
    return {"export_events_per_s": (len(lines) - 1) / export_s,
            "export_peak_mib": streamed_peak / 2**20, "export_bytes": sink,
            "import_events_per_s": (len(lines) - 1) / import_s}


# ---- the report ------------------------------------------------------------------------

SECTIONS = ("oneclient", "cpu", "write", "read", "export", "http", "live", "rebuild", "postgres", "variants",
            "memory", "hostile", "notify", "legal")


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
