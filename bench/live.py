"""Live updates (the table page's hot path): from an action to every open page knowing.

    .venv/bin/python bench/live.py [--followers 50] [--actions 200]

Against a real `battlelog serve` on a fresh SQLite file: N followers hold the match's SSE
stream open (`GET .../stream`, as N open pages would) while one client performs actions one
after another. For each action and follower: the time from sending the action to that
follower hearing the new version. The anchor, measured in the same run, is the action's own
round trip (sent to acknowledged, its commit included): the ratio says what the fan-out adds.
Prints a table and returns the figures (bench/run.py includes them).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--db", str(db), "--port", str(port)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "BATTLELOG_STORE": "sqlite"})
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(f"{url}/api/health/ready", timeout=1).status_code == 200:
                return proc, url
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("battlelog serve did not come up")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(followers: int = 50, actions: int = 200) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = _serve(Path(tmp) / "live.db")
        try:
            return _measure(url, followers, actions)
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def _measure(url: str, followers: int, actions: int) -> dict[str, Any]:
    created = httpx.post(f"{url}/api/matches", json={
        "scenario": "live bench", "casual": True,
        "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]}).json()
    match, tokens = created["match_id"], created["tokens"]
    heard: list[dict[int, float]] = [{} for _ in range(followers)]
    stop = threading.Event()
    last = 1 + actions

    def follow(i: int) -> None:
        headers = {"Authorization": f"Bearer {tokens['spectator']}"}
        with httpx.Client(timeout=None) as client, client.stream(
                "GET", f"{url}/api/matches/{match}/stream", headers=headers) as response:
            for line in response.iter_lines():
                if line.startswith("data:"):
                    version = json.loads(line[5:])["version"]
                    heard[i][version] = time.perf_counter()
                    if version >= last or stop.is_set():
                        return

    threads = [threading.Thread(target=follow, args=(i,), daemon=True) for i in range(followers)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 30
    while any(1 not in h for h in heard) and time.monotonic() < deadline:
        time.sleep(0.01)
    sent: dict[int, tuple[float, float]] = {}
    headers = {"Authorization": f"Bearer {tokens['referee']}"}
    with httpx.Client() as client:
        for n in range(actions):
            t0 = time.perf_counter()
            done = client.post(f"{url}/api/matches/{match}/actions", headers=headers,
                               json={"type": "set_track", "name": "count", "value": n})
            t1 = time.perf_counter()
            sent[done.json()["version"]] = (t0, t1)
    deadline = time.monotonic() + 30
    while any(last not in h for h in heard) and time.monotonic() < deadline:
        time.sleep(0.01)
    stop.set()
    # A follower may hear a newer version first when two actions land within one wake: it
    # then knows of both at once (the page reads the views once, at the newest version).
    delivery = []
    for h in heard:
        versions = sorted(h)
        for version, (t0, _) in sent.items():
            known = next((h[v] for v in versions if v >= version), None)
            if known is not None:
                delivery.append(known - t0)
    round_trips = [t1 - t0 for t0, t1 in sent.values()]
    missing = sum(1 for h in heard if last not in h)
    rt = statistics.median(round_trips)
    return {
        "followers": followers, "actions": actions, "followers_missing_the_end": missing,
        "action_round_trip_ms_p50": rt * 1000,
        "delivery_ms_p50": statistics.median(delivery) * 1000,
        "delivery_ms_p99": _percentile(delivery, 0.99) * 1000,
        "delivery_p50_vs_round_trip": statistics.median(delivery) / rt,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--followers", type=int, default=50)
    parser.add_argument("--actions", type=int, default=200)
    args = parser.parse_args()
    r = measure(args.followers, args.actions)
    print(f"live updates, {r['followers']} followers, {r['actions']} actions "
          f"({r['followers_missing_the_end']} followers missed the end)")
    print(f"  action round trip p50 (anchor)   {r['action_round_trip_ms_p50']:8.2f} ms")
    print(f"  every follower knows, p50        {r['delivery_ms_p50']:8.2f} ms"
          f"  ({r['delivery_p50_vs_round_trip']:.2f}x the round trip)")
    print(f"  every follower knows, p99        {r['delivery_ms_p99']:8.2f} ms")


if __name__ == "__main__":
    main()
