"""The in-process benches of bench/run.py, each figure beside its anchor in the same run:
(a) the write path (actions/s through `Matches.act` beside eventsourcing's raw append and raw
SQLite commits), a ruleset's own procedures, (b) the read path on a long match (cold load,
time travel, undo, beside a naive replay), (c) export and import of that match.
`build_long_match` also fills the stores of bench/rebuild.py and bench/import_memory.py."""

from __future__ import annotations

import os
import random
import sqlite3
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from pydantic import TypeAdapter
from rebuild import Counter

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
