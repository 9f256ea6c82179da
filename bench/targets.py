"""Issue 18's targets: every figure beside the anchor measured in the same run, the ratio,
the target and PASS or MISS; and, for what must not regress, the figure beside the latest
earlier run that measured it.

A target is only judged when its figure and its anchor were both measured in this run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    name: str
    figure: str  # key of the figure
    anchor: str  # key of its anchor, measured in the same run
    ratio: Callable[[float, float], float]
    limit: float
    at_most: bool  # True: ratio <= limit passes; False: ratio >= limit
    unit: str  # how the ratio reads: "x" (a multiple) or "%"
    anchor_name: str

    def judge(self, f: dict[str, float]) -> tuple[float, bool] | None:
        if self.figure not in f or self.anchor not in f:
            return None
        r = self.ratio(f[self.figure], f[self.anchor])
        return r, (r <= self.limit if self.at_most else r >= self.limit)


def _over(a: float, b: float) -> float:
    return a / b if b else float("inf")


TARGETS = [
    Target("one client: action round trip p50", "rt_action_p50_s", "rt_bare_post_p50_s",
           _over, 2.5, True, "x", "bare FastAPI POST p50"),
    Target("one client: /api/health/live p50", "rt_health_p50_s", "rt_bare_get_p50_s",
           _over, 1.3, True, "x", "bare FastAPI GET p50"),
    Target("one client: GET board p50", "rt_board_p50_s", "rt_bare_get_p50_s",
           _over, 2.0, True, "x", "bare FastAPI GET p50"),
    Target("Matches.act, actions/s", "actions_per_s", "raw_eventsourcing_appends_per_s",
           _over, 0.60, False, "%", "plain eventsourcing append/s"),
    Target("32 clients, SQLite, actions/s", "http_actions_per_s", "hello_requests_per_s",
           _over, 0.40, False, "%", "FastAPI alone, req/s"),
    Target("32 clients, SQLite, p99", "http_p99_s", "http_p99_s",
           lambda a, _b: a, 0.100, True, "s", "(absolute) 100 ms"),
    Target("PostgreSQL, 1 API process, actions/s", "pg_1_actions_per_s",
           "raw_postgres_commits_per_s", _over, 0.25, False, "%",
           "raw 1-row commits/s, 1 conn"),
    Target("PostgreSQL, 2 API processes / 1", "pg_2_actions_per_s", "pg_1_actions_per_s",
           _over, 1.6, False, "x", "1 API process, actions/s"),
    Target("server CPU per action, SQLite", "cpu_sqlite_action_s", "cpu_sqlite_bare_post_s",
           _over, 2.5, True, "x", "bare FastAPI POST's CPU"),
    Target("server CPU per board read, SQLite", "cpu_sqlite_board_s", "cpu_sqlite_bare_get_s",
           _over, 1.5, True, "x", "bare FastAPI GET's CPU"),
    Target("API-process CPU per action, PostgreSQL", "cpu_pg_action_s", "cpu_pg_bare_post_s",
           _over, 3.0, True, "x", "bare FastAPI POST's CPU"),
    Target("action CPU beside 10 notified and 10 clocked matches", "cpu_idle_loaded_action_s",
           "cpu_idle_plain_action_s", _over, 1.1, True, "x", "with none"),
    Target("notify: a notice beside a blackholed target, p50", "notify_beside_blackhole_p50_s",
           "notify_alone_p50_s", _over, 2.0, True, "x", "the same notice alone, p50"),
    Target("notify: a notice beside a blackholed target on its host, p50",
           "notify_same_host_p50_s", "notify_alone_p50_s", _over, 2.0, True, "x",
           "the same notice alone, p50"),
]

# What must not regress: (name, key, True when higher is better, its own limit or None).
# Judged against the latest earlier run that measured it, with room for the noise of a
# shared machine (a figure 1.5x worse than before is a MISS); the older absolute targets
# (time travel <= 20 ms, ...) are judged too.
STEADY = [
    ("time travel, warm median", "time_travel_warm_median_s", False, 0.020),
    ("time travel, cold median", "time_travel_cold_median_s", False, 1.0),
    ("undo of the last action, median", "undo_last_median_s", False, 0.010),
    ("export, events/s", "export_events_per_s", True, 100_000.0),
    ("rebuild of the catalogue, events/s", "rebuild_events_per_s", True, 50_000.0),
    ("live: all followers know, p50", "live_delivery_p50_s", False, None),
    ("memory per active match, KiB", "memory_per_match_kib", False, None),
]
NOISE = 1.5


def _value(unit: str, value: float) -> str:
    if unit == "%":
        return f"{value:.0%}"
    if unit == "s":
        return f"{value * 1000:.1f} ms"
    return f"{value:.2f}x"


def _plain(key: str, value: float) -> str:
    if key.endswith("per_s"):
        return f"{value:,.0f}/s"
    if key.endswith("_s"):
        return f"{value * 1000:.2f} ms"
    return f"{value:,.1f}"


def judged(f: dict[str, float], previous: dict[str, float]) -> list[dict[str, object]]:
    """Each target and steady figure measured in this run: its line and verdict."""
    out: list[dict[str, object]] = []
    for t in TARGETS:
        got = t.judge(f)
        if got is None:
            continue
        ratio, ok = got
        out.append({"name": t.name, "figure": _plain(t.figure, f[t.figure]),
                    "anchor": f"{t.anchor_name} {_plain(t.anchor, f[t.anchor])}"
                    if t.anchor != t.figure else t.anchor_name,
                    "ratio": _value(t.unit, ratio),
                    "target": f"{'<=' if t.at_most else '>='} {_value(t.unit, t.limit)}",
                    "pass": ok})
    for name, key, higher, limit in STEADY:
        if key not in f:
            continue
        value, before = f[key], previous.get(key)
        ok = True
        why = []
        if limit is not None:
            ok = value >= limit if higher else value <= limit
            why.append(f"{'>=' if higher else '<='} {_plain(key, limit)}")
        if before:
            ratio = value / before if higher else before / value
            ok = ok and ratio >= 1 / NOISE
            why.append(f"not {NOISE}x worse than before")
        out.append({"name": name, "figure": _plain(key, value),
                    "anchor": "before " + (_plain(key, before) if before else "(none)"),
                    "ratio": "" if not before else f"{(value / before):.2f}x",
                    "target": ", ".join(why) or "(shown)", "pass": ok})
    return out


def print_table(lines: list[dict[str, object]]) -> None:
    if not lines:
        return
    print(f"\n{'issue 18 target':40} {'figure':>11}  {'anchor (same run)':40} {'ratio':>7}  "
          f"{'target':28} verdict")
    for line in lines:
        print(f"{line['name']!s:40} {line['figure']!s:>11}  {line['anchor']!s:40} "
              f"{line['ratio']!s:>7}  {line['target']!s:28} "
              f"{'PASS' if line['pass'] else 'MISS'}")
