"""battlelog benchmarks: every figure printed beside its anchor, measured in the same run.

    .venv/bin/python bench/run.py [--quick] [--events N] [--out bench/results]

(a) write path: actions/s through `Matches.act` vs the raw eventsourcing append rate on the
    same store vs raw SQLite commits/s (the physical limit of one commit per action).
(b) read path on a long match: cold load, time travel to random versions (warm and cold),
    undo of the last action, vs a naive full replay of the whole log.
Results go to bench/results/<date>.json; the previous result file is shown beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any
from uuid import UUID

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from pydantic import TypeAdapter

from domain import events as ev
from domain.application import Matches
from domain.commands import Action, CreateMatch
from domain.decide import Context, decide, decide_undo
from domain.dice import SeededDice
from domain.history import Frame, fold, replay
from domain.integrity import chained
from domain.persistence import Checkpoint
from domain.rulesets import get_ruleset
from projections.export import export_lines
from projections.store import sqlite_env

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


class Counter(Aggregate):
    @event("Incremented")
    def increment(self, by: int) -> None:
        self.count = getattr(self, "count", 0) + by


def raw_eventsourcing_appends(path: str, seconds: float) -> float:
    app: Application[UUID] = Application(env=sqlite_env(path))
    counter = Counter()
    app.save(counter)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        counter.increment(by=1)
        app.save(counter)
        n += 1
    elapsed = time.perf_counter() - start
    app.close()
    return rate(n, elapsed)


def deploy(app: Matches, match_id: UUID) -> None:
    for i in range(2):
        app.act(match_id, ACTIONS.validate_python({"type": "deploy_unit", "unit": {
            "id": f"u{i}", "side": "red", "name": f"Unit {i}", "figures": 10,
            "position": {"x": i, "y": i}}}))
    app.act(match_id, ACTIONS.validate_python(
        {"type": "place_marker", "kind": "suppression", "count": 1000, "unit_id": "u0"}))


def battlelog_actions(path: str, seconds: float) -> float:
    app = Matches(env=sqlite_env(path))
    match_id = app.create_match(SETUP).events[0].originator_id
    deploy(app, match_id)
    commands = [ACTIONS.validate_python(a) for a in MIX]
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        app.act(match_id, commands[n % len(commands)])
        n += 1
    elapsed = time.perf_counter() - start
    app.close()
    return rate(n, elapsed)


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

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="about 30 s: fewer events")
    parser.add_argument("--events", type=int, help="events in the long match (default 100000)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results"))
    args = parser.parse_args()
    n_events = args.events or (20_000 if args.quick else 100_000)
    seconds = 2.0 if args.quick else 5.0

    with tempfile.TemporaryDirectory() as tmp:
        print(f"write path ({seconds:.0f} s each, SQLite WAL, synchronous=FULL) ...", flush=True)
        raw_sqlite = raw_sqlite_commits(os.path.join(tmp, "raw.db"), seconds)
        raw_es = raw_eventsourcing_appends(os.path.join(tmp, "es.db"), seconds)
        actions = battlelog_actions(os.path.join(tmp, "bl.db"), seconds)
        ruleset = ruleset_actions(os.path.join(tmp, "rs.db"), seconds)
        print(f"building a {n_events:,}-event match ...", flush=True)
        long_db = os.path.join(tmp, "long.db")
        build = timed(lambda: results.update(match=build_long_match(long_db, n_events)))
        reads = read_path(long_db, results["match"], 60 if args.quick else 200,
                          8 if args.quick else 20)
        print("export and import ...", flush=True)
        moved = interchange(long_db, os.path.join(tmp, "imported.db"), results["match"])

    figures = {
        "actions_per_s": actions,
        "ruleset_actions_per_s": ruleset,
        "raw_eventsourcing_appends_per_s": raw_es,
        "raw_sqlite_commits_per_s": raw_sqlite,
        "build_long_match_s": build,
        **reads,
        **moved,
    }
    checks = {
        "actions vs raw eventsourcing append (target >= 50%)": (actions / raw_es, 0.5),
        "time travel warm median (target <= 20 ms)": (reads["time_travel_warm_median_s"], 0.020),
    }
    report(figures, checks, Path(args.out))
    return 0


results: dict[str, Any] = {}


def report(figures: dict[str, float], checks: dict[str, tuple[float, float]], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    previous_files = sorted(out.glob("*.json"))
    previous = json.loads(previous_files[-1].read_text())["figures"] if previous_files else {}
    ms = lambda s: f"{s * 1000:.2f} ms"
    rows = [
        ("actions/s through Matches.act", f"{figures['actions_per_s']:.0f}",
         (f"{figures['actions_per_s'] / figures['raw_eventsourcing_appends_per_s']:.0%} of raw "
         f"eventsourcing ({figures['raw_eventsourcing_appends_per_s']:.0f}/s), "
         f"{figures['actions_per_s'] / figures['raw_sqlite_commits_per_s']:.0%} of raw SQLite "
         f"commits ({figures['raw_sqlite_commits_per_s']:.0f}/s)"), "actions_per_s"),
        (f"cold load of a {figures['events']:,.0f}-event match", ms(figures["cold_load_s"]),
         f"naive full replay {figures['naive_full_replay_s']:.2f} s", "cold_load_s"),
        ("actions/s, extended-sequence fire", f"{figures['ruleset_actions_per_s']:.0f}",
         (f"{figures['ruleset_actions_per_s'] / figures['raw_eventsourcing_appends_per_s']:.0%}"
          " of raw eventsourcing: a ruleset's procedures and its after-action check"),
         "ruleset_actions_per_s"),
        ("time travel, warm, median", ms(figures["time_travel_warm_median_s"]),
         (f"{figures['naive_full_replay_s'] / figures['time_travel_warm_median_s']:.0f}x faster "
         f"than the full replay; p95 {ms(figures['time_travel_warm_p95_s'])}"),
         "time_travel_warm_median_s"),
        ("time travel, cold app, median", ms(figures["time_travel_cold_median_s"]),
         (f"{figures['naive_full_replay_s'] / figures['time_travel_cold_median_s']:.0f}x faster "
         "than the full replay"), "time_travel_cold_median_s"),
        ("undo of the last action, median", ms(figures["undo_last_median_s"]),
         "one commit, like any action", "undo_last_median_s"),
        ("export (JSON Lines), events/s", f"{figures['export_events_per_s']:.0f}",
         (f"peak Python memory {figures['export_peak_mib']:.1f} MiB streaming "
          f"{figures['export_bytes'] / 2**20:.0f} MiB"), "export_events_per_s"),
        ("import of that export, events/s", f"{figures['import_events_per_s']:.0f}",
         "verified, replayed and checkpointed, one commit", "import_events_per_s"),
    ]
    print()
    print(f"{'figure':38} {'value':>12}  {'previous':>12}  beside its anchor")
    for name, value, anchor, key in rows:
        before = previous.get(key)
        shown = "" if before is None else (f"{before:.0f}" if key.endswith("per_s") else ms(before))
        print(f"{name:38} {value:>12}  {shown:>12}  {anchor}")
    print()
    for name, (value, target) in checks.items():
        ok = value >= target if "50%" in name else value <= target
        shown = f"{value:.0%}" if "50%" in name else ms(value)
        print(f"{'PASS' if ok else 'MISS'}  {name}: {shown}")
    machine = {"nproc": os.cpu_count(), "python": platform.python_version(),
               "sqlite": sqlite3.sqlite_version, "platform": platform.platform()}
    target = out / f"{date.today().isoformat()}.json"
    target.write_text(json.dumps({"figures": figures, "machine": machine}, indent=2) + "\n")
    print(f"\nwritten to {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}")


if __name__ == "__main__":
    sys.exit(main())
