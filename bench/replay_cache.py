"""The replay file of a big match, written once and served from the cache (issue 37,
finding 11; docs/replay.md "Cost"), each figure beside its anchor measured in the same run:

    .venv/bin/python bench/replay_cache.py [--versions 300] [--requests 10] [--json]

A real `battlelog serve` (fresh SQLite, the replay quotas off: every request comes from
127.0.0.1) holds a freeform match of 200 units a side moved on to `--versions` versions.
(1) the referee's replay file: its first request (written) and the next ones (median of
    `--requests`, from the cache); anchor: the same match's board read (`GET .../board`,
    median of as many). Target: the cached file within 1/10 of the first request's time.
(2) one more action, then four requests for the new version at once: the time until the
    last answer, against one written alone. Target: at most 1.5x (written once).
(3) another match's action (p50) while those four are answered, against the same action
    idle. (Reported.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import http_load
import shown
from legal import _actions, _join

from api import scenarios
from domain.commands import UNITS_PER_SIDE
from tests.unit.legal_boards import board

CACHED_TARGET = 0.1
AT_ONCE_TARGET = 1.5
ENV = {"BATTLELOG_REPLAY_RATE": "off", "BATTLELOG_REPLAY_BUILD_RATE": "off",
       "BATTLELOG_CREATE_RATE": "off"}


def _timed(client: httpx.Client, url: str, headers: dict[str, str]) -> float:
    t = time.perf_counter()
    r = client.get(url, headers=headers)
    took = time.perf_counter() - t
    assert r.status_code == 200, r.text[:300]
    return took


def measure(versions: int = 300, requests: int = 10) -> dict[str, float]:
    f: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        server = http_load.start_server(str(Path(tmp) / "replay.db"), ENV)
        try:
            _measure(server.url, versions, requests, f)
        finally:
            server.stop()
    return f


def _measure(url: str, versions: int, requests: int, f: dict[str, float]) -> None:
    with httpx.Client(timeout=600) as client:
        r = client.post(f"{url}/api/matches", json=board(UNITS_PER_SIDE))
        r.raise_for_status()
        big, referee = r.json()["match_id"], {
            "Authorization": f"Bearer {r.json()['tokens']['referee']}"}
        base = f"{url}/api/matches/{big}"
        version = 1
        while version < versions:
            moved = client.post(f"{base}/actions", headers=referee, json={
                "type": "move_unit", "unit_id": f"red{version % UNITS_PER_SIDE}",
                "to": {"x": version % 40, "y": 30}})
            moved.raise_for_status()
            version = moved.json()["version"]
        f["replay_cache_versions"] = version
        f["replay_cache_units"] = 2 * UNITS_PER_SIDE
        f["replay_cache_board_s"] = statistics.median(
            _timed(client, f"{base}/board", referee) for _ in range(requests))
        f["replay_cache_first_s"] = _timed(client, f"{base}/replay", referee)
        f["replay_cache_cached_s"] = statistics.median(
            _timed(client, f"{base}/replay", referee) for _ in range(requests))
        f["replay_cache_bytes"] = len(client.get(f"{base}/replay", headers=referee).content)
        small, tokens = _join(client, url, scenarios.load("atomic-africa-demo").model_dump(
            mode="json"))
        token = tokens["red"]
        _actions(client, url, small, token, 6)  # warm
        f["replay_cache_action_idle_p50_s"] = statistics.median(
            _actions(client, url, small, token, 20))
        client.post(f"{base}/actions", headers=referee, json={
            "type": "move_unit", "unit_id": "blue1", "to": {"x": 1, "y": 31}}).raise_for_status()
        took: list[float] = []
        during: list[float] = []

        def ask() -> None:
            with httpx.Client(timeout=600) as own:
                took.append(_timed(own, f"{base}/replay", referee))

        start = time.perf_counter()
        asking = [threading.Thread(target=ask) for _ in range(4)]
        for thread in asking:
            thread.start()
        while any(thread.is_alive() for thread in asking):
            during.extend(_actions(client, url, small, token, 2))
        for thread in asking:
            thread.join()
        f["replay_cache_four_s"] = time.perf_counter() - start
        f["replay_cache_action_during_p50_s"] = statistics.median(during)
        f["replay_cache_actions_during"] = len(during)


def ms(s: float) -> str:
    return f"{s * 1000:.1f} ms"


def rows(f: dict[str, float]) -> list[tuple[str, str, str, str]]:
    """(name, value, beside its anchor, the figure's key) for each figure measured."""
    if "replay_cache_first_s" not in f:
        return []
    board_s, first, cached = (f["replay_cache_board_s"], f["replay_cache_first_s"],
                              f["replay_cache_cached_s"])
    size = (f"{f['replay_cache_units']:.0f} units, {f['replay_cache_versions']:.0f} versions, "
            f"{f['replay_cache_bytes'] / 1024:.0f} KiB")
    idle = f["replay_cache_action_idle_p50_s"]
    return [
        ("replay cache: the board read (anchor)", ms(board_s), size, "replay_cache_board_s"),
        ("replay file, first request (written)", ms(first), f"{first / board_s:.1f}x the board",
         "replay_cache_first_s"),
        ("replay file, from the cache (median)", ms(cached),
         f"{cached / board_s:.2f}x the board; first/cached {first / cached:.0f}x",
         "replay_cache_cached_s"),
        ("replay file, 4 asked at once (new version)", ms(f["replay_cache_four_s"]),
         f"{f['replay_cache_four_s'] / first:.2f}x one written alone", "replay_cache_four_s"),
        ("another match's action, idle p50", ms(idle), "anchor",
         "replay_cache_action_idle_p50_s"),
        ("the same, while the 4 are answered", ms(f["replay_cache_action_during_p50_s"]),
         (f"{f['replay_cache_action_during_p50_s'] / idle:.2f}x idle "
          f"({f['replay_cache_actions_during']:.0f} actions)"),
         "replay_cache_action_during_p50_s"),
    ]


def checks(f: dict[str, float]) -> list[tuple[str, bool, str]]:
    if "replay_cache_first_s" not in f:
        return []
    cached = f["replay_cache_cached_s"] / f["replay_cache_first_s"]
    once = f["replay_cache_four_s"] / f["replay_cache_first_s"]
    return [
        ("a cached replay file within 1/10 of its first request", cached <= CACHED_TARGET,
         f"{cached:.3f}x"),
        ("4 asked at once within 1.5x of one written alone", once <= AT_ONCE_TARGET,
         f"{once:.2f}x"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--versions", type=int, default=300)
    parser.add_argument("--requests", type=int, default=10)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()
    f = measure(args.versions, args.requests)
    shown.show(f, rows, checks, as_json=args.json)


if __name__ == "__main__":
    main()
