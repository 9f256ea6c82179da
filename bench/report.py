"""The report of bench/run.py: each figure beside its anchor (and the latest earlier run's
value of it), the PASS/MISS lines, and the results file."""

from __future__ import annotations

import json
import os
import platform
import sqlite3
from datetime import date
from pathlib import Path

import hostile
import legal
import notify
import notify_lanes
import replay_cache
import scale
import targets

ROOT = Path(__file__).resolve().parents[1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def per_s(value: float) -> str:
    return f"{value:,.0f}/s"


def rows(f: dict[str, float]) -> list[tuple[str, str, str, str]]:
    """(figure, value, its anchor and the ratio, key for the previous run's value)."""
    out: list[tuple[str, str, str, str]] = []

    def add(key: str, name: str, value: str, anchor: str) -> None:
        if key in f:
            out.append((name, value, anchor, key))

    if "actions_per_s" in f:
        add("actions_per_s", "actions/s through Matches.act", per_s(f["actions_per_s"]),
            f"{f['actions_per_s'] / f['raw_eventsourcing_appends_per_s']:.0%} of raw "
            f"eventsourcing append ({per_s(f['raw_eventsourcing_appends_per_s'])}), "
            f"{f['actions_per_s'] / f['raw_sqlite_commits_per_s']:.0%} of raw SQLite "
            f"commits ({per_s(f['raw_sqlite_commits_per_s'])})")
        add("ruleset_actions_per_s", "actions/s, extended-sequence fire",
            per_s(f["ruleset_actions_per_s"]),
            f"{f['ruleset_actions_per_s'] / f['raw_eventsourcing_appends_per_s']:.0%} of raw "
            "eventsourcing append: a ruleset's procedures and its after-action check")
    if "cold_load_s" in f:
        replay = f["naive_full_replay_s"]
        add("cold_load_s", f"cold load, {f['events']:,.0f}-event match", ms(f["cold_load_s"]),
            f"naive full replay {replay:.2f} s")
        add("time_travel_warm_median_s", "time travel, warm, median",
            ms(f["time_travel_warm_median_s"]),
            f"{replay / f['time_travel_warm_median_s']:,.0f}x faster than the full replay; "
            f"p95 {ms(f['time_travel_warm_p95_s'])}")
        add("time_travel_cold_median_s", "time travel, cold app, median",
            ms(f["time_travel_cold_median_s"]),
            f"{replay / f['time_travel_cold_median_s']:,.0f}x faster than the full replay")
        add("undo_last_median_s", "undo of the last action, median", ms(f["undo_last_median_s"]),
            "one commit, like any action")
    if "export_events_per_s" in f:
        add("export_events_per_s", "export (JSON Lines), events/s", per_s(f["export_events_per_s"]),
            f"peak Python memory {f['export_peak_mib']:.1f} MiB streaming "
            f"{f['export_bytes'] / 2**20:.0f} MiB; target 100,000/s")
        add("import_events_per_s", "import of that export, events/s",
            per_s(f["import_events_per_s"]), "verified, replayed and checkpointed, one commit")
    if "http_actions_per_s" in f:
        add("http_actions_per_s", "HTTP actions/s, 32 clients, SQLite", per_s(f["http_actions_per_s"]),
            f"{f['http_actions_per_s'] / f['raw_sqlite_commits_per_s']:.0%} of raw SQLite "
            f"commits; {f['http_actions_per_s'] / f['hello_requests_per_s']:.0%} of FastAPI "
            f"alone ({per_s(f['hello_requests_per_s'])}, alternating with it); target 40% of it")
        add("http_p50_s", "HTTP action round trip, p50", ms(f["http_p50_s"]), "32 clients")
        add("http_p99_s", "HTTP action round trip, p99", ms(f["http_p99_s"]), "target <= 100 ms")
    for kind, anchor in (("action", "bare_post"), ("health", "bare_get"),
                         ("board", "bare_get")):
        key = f"rt_{kind}_p50_s"
        if key in f:
            add(key, f"one client: {kind} round trip, p50", ms(f[key]),
                f"{f[key] / f[f'rt_{anchor}_p50_s']:.2f}x bare FastAPI's "
                f"{anchor[5:].upper()} ({ms(f[f'rt_{anchor}_p50_s'])}, alternating); p99 "
                f"{ms(f[f'rt_{kind}_p99_s'])} (bare {ms(f[f'rt_{anchor}_p99_s'])})"
                + (f"; a raw SQLite commit {ms(f['rt_commit_p50_s'])}" if kind == "action"
                   else ""))
    if "live_delivery_p50_s" in f:
        add("live_delivery_p50_s", f"live: all {f['live_followers']:.0f} followers know, p50",
            ms(f["live_delivery_p50_s"]),
            f"{f['live_delivery_p50_s'] / f['live_action_round_trip_p50_s']:.2f}x the action's "
            f"own round trip ({ms(f['live_action_round_trip_p50_s'])}); p99 "
            f"{ms(f['live_delivery_p99_s'])}; {f['live_followers_missing_the_end']:.0f} "
            "missed the end")
    if "rebuild_events_per_s" in f:
        add("rebuild_events_per_s",
            f"rebuild of the catalogue, {f['rebuild_events']:,.0f} events",
            per_s(f["rebuild_events_per_s"]),
            f"{f['rebuild_events_per_s'] / f['eventsourcing_log_replay_per_s']:.1f}x "
            f"eventsourcing's log replay ({per_s(f['eventsourcing_log_replay_per_s'])}), "
            f"{f['rebuild_events_per_s'] / f['eventsourcing_aggregate_replay_per_s']:.1f}x its "
            f"aggregate replay ({per_s(f['eventsourcing_aggregate_replay_per_s'])}); "
            "target 50,000/s")
    for n in (1, 2):
        key = f"pg_{n}_actions_per_s"
        if key in f:
            add(key, f"PostgreSQL, {n} API process{'es' if n > 1 else ''}, actions/s",
                per_s(f[key]),
                f"{f[key] / f['raw_postgres_commits_per_s']:.0%} of raw single-row commits "
                f"({per_s(f['raw_postgres_commits_per_s'])}; "
                f"{per_s(f['raw_postgres_commits_32_per_s'])} from 32 connections); "
                f"p50 {ms(f[f'pg_{n}_p50_s'])}, p99 {ms(f[f'pg_{n}_p99_s'])}; "
                + ("target 25%" if n == 1 else "target 1.6x one process") + "; "
                "unpinned: load generator, servers, runner and PostgreSQL share the cores")
    for label in scale.VARIANTS:
        key = f"pg_2_{label}_actions_per_s"
        add(key, f"PostgreSQL, 2 processes, {label}", per_s(f.get(key, 0)),
            f"p99 {ms(f.get(f'pg_2_{label}_p99_s', 0))}")
    if "memory_peak_rss_mib" in f:
        add("memory_peak_rss_mib", f"peak RSS, {f['memory_matches']:,.0f} active matches",
            f"{f['memory_peak_rss_mib']:.0f} MiB",
            f"idle server {f['memory_idle_rss_mib']:.0f} MiB: "
            f"{(f['memory_peak_rss_mib'] - f['memory_idle_rss_mib']) * 1024 / f['memory_matches']:.0f}"
            " KiB per match")
    return (out + hostile.rows(f) + notify.rows(f) + legal.rows(f) + notify_lanes.rows(f)
            + replay_cache.rows(f))


def checks(f: dict[str, float]) -> list[tuple[str, bool, str]]:
    """The hostile clients' checks; issue 18's targets and what must not regress are in
    bench/targets.py (they replace the older throughput targets here); the legal actions'
    bounds (issue 25); the replay file's cache (issue 37)."""
    return hostile.checks(f) + legal.checks(f) + replay_cache.checks(f)


def run_order(path: Path) -> tuple[str, int]:
    """Result files in the order of their runs: 2026-11-23.json, 2026-11-23-2.json, ..."""
    day, n = path.stem[:10], path.stem[11:]
    return day, int(n) if n.isdigit() else 1


def report(figures: dict[str, float], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    previous_files = sorted(out.glob("*.json"), key=run_order)
    target = out / f"{date.today().isoformat()}.json"
    n = 2
    while target.exists():  # a second run the same day: keep the first beside it
        target, n = out / f"{date.today().isoformat()}-{n}.json", n + 1
    previous: dict[str, float] = {}  # each figure from the latest run that measured it
    for earlier in previous_files:
        previous.update(json.loads(earlier.read_text())["figures"])
    print()
    print(f"{'figure':44} {'value':>12}  {'previous':>12}  beside its anchor")
    for name, value, anchor, key in rows(figures):
        before = previous.get(key)
        shown = "" if before is None else (
            per_s(before) if key.endswith("per_s") else
            f"{before:.0f} MiB" if key.endswith("mib") else ms(before))
        print(f"{name:44} {value:>12}  {shown:>12}  {anchor}")
    if "memory_peak_rss_mib" in figures:
        figures["memory_per_match_kib"] = (
            (figures["memory_peak_rss_mib"] - figures["memory_idle_rss_mib"]) * 1024
            / figures["memory_matches"])
    verdicts = targets.judged(figures, previous)
    targets.print_table(verdicts)
    print()
    for name, ok, shown in checks(figures):
        print(f"{'PASS' if ok else 'MISS'}  {name}: {shown}")
    machine = {"nproc": os.cpu_count(), "python": platform.python_version(),
               "sqlite": sqlite3.sqlite_version, "platform": platform.platform()}
    target.write_text(json.dumps({"figures": figures, "machine": machine, "targets": verdicts,
                                  "previous": previous_files[-1].name if previous_files
                                  else None}, indent=2) + "\n")
    print(f"\nwritten to {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}"
          + (f"; previous: {previous_files[-1].name}" if previous_files else ""))
