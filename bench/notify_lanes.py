"""A healthy "your turn" notice beside a target that never answers: its delay (from the
handoff event's stored time to the webhook's arrival) with nobody else to notify, and
again while 40 webhooks of 4 other matches hang at a blackhole (a loopback listener that
takes every connection and never says a word; each attempt waits for the sender's
timeout), then while 40 more hang at a blackhole on the healthy receiver's own host (its
host's lane shared: issue 37, finding 12), in the same run against one `battlelog serve`
on SQLite. Issue 25's target: the delay beside the blackhole within 2x of the delay alone
(before the delivery lanes, a notice waited for the whole claimed batch: 0.01 s became
50.8 s); issue 37's, the same beside the blackhole on the same host (before the
per-target share: nothing arrived within 180 s).

    .venv/bin/python bench/notify_lanes.py [--handoffs 8] [--json]
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

import http_load
import shown
from notify import Receiver, play, seat_match

BLACKHOLED = 40  # webhooks at the blackhole: 10 on a seat of each of 4 matches


class Blackhole:
    """Takes every connection on `host` (127.0.0.2: loopback, but another host than the
    receiver's 127.0.0.1; 127.0.0.1: the receiver's own) and holds it open without a
    word."""

    def __init__(self, host: str = "127.0.0.2") -> None:
        self.server = socket.create_server((host, 0))
        self.url = f"http://{host}:{self.server.getsockname()[1]}/hook"
        self.held: list[socket.socket] = []
        threading.Thread(target=self._take, daemon=True).start()

    def _take(self) -> None:
        while True:
            try:
                self.held.append(self.server.accept()[0])
            except OSError:
                return

    def close(self) -> None:
        self.server.close()
        for conn in self.held:
            conn.close()


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def blackholed_match(client: httpx.Client, url: str, body: dict[str, Any], target: str,
                     hooks: int) -> None:
    """A match whose blue seat registers `hooks` webhooks at `target`, each sent its
    confirmation message at once."""
    made = client.post(f"{url}/api/matches", json=body).json()
    match, tokens = made["match_id"], dict(made["tokens"])
    blue = client.post(f"{url}/api/matches/{match}/seats", json={"player": "blue"},
                       headers=_auth(tokens["join:blue"])).json()["token"]
    for _ in range(hooks):
        reg = client.post(f"{url}/api/matches/{match}/notifications",
                          json={"kind": "webhook", "url": target}, headers=_auth(blue))
        assert reg.status_code == 201, reg.text


def delays(client: httpx.Client, url: str, body: dict[str, Any], receiver: Receiver,
           handoffs: int) -> list[float]:
    """A fresh healthy match's `handoffs` handoffs: each notice's delay, in seconds."""
    before = set(receiver.arrived)
    match, tokens = seat_match(client, url, body, receiver)
    play(client, [url, url], match, tokens["red"], handoffs)
    deadline = time.monotonic() + 120
    while len(set(receiver.arrived) - before) < handoffs and time.monotonic() < deadline:
        time.sleep(0.01)
    return [at - datetime.fromisoformat(p["handed_over_at"]).timestamp()
            for d, (at, p) in receiver.arrived.items() if d not in before]


def hang(client: httpx.Client, url: str, body: dict[str, Any], blackhole: Blackhole) -> None:
    """40 webhooks of 4 matches at `blackhole`: their confirmation messages hang there (a
    target that never answers is never confirmed: the confirmation is all it is sent)."""
    for _ in range(4):
        blackholed_match(client, url, body, blackhole.url, BLACKHOLED // 4)
    deadline = time.monotonic() + 30
    while not blackhole.held and time.monotonic() < deadline:
        time.sleep(0.01)


def measure(tmp: str, handoffs: int = 8) -> dict[str, float]:
    receiver, blackhole, same_host = Receiver(), Blackhole(), Blackhole("127.0.0.1")
    server = http_load.start_server(str(Path(tmp) / "lanes.db"), {
        "BATTLELOG_NOTIFY_ALLOW_PRIVATE": "1", "BATTLELOG_CREATE_RATE": "off",
        "BATTLELOG_NOTIFY_MAX_PER_SEAT": "10", "BATTLELOG_NOTIFY_REGISTER_RATE": "off",
        "BATTLELOG_NOTIFY_BUDGET_MATCH": "off", "BATTLELOG_NOTIFY_BUDGET_CREATOR": "off"})
    try:
        with httpx.Client(timeout=30) as client:
            body = client.get(f"{server.url}/api/scenarios/atomic-africa-demo").json()
            alone = delays(client, server.url, body, receiver, handoffs)
            hang(client, server.url, body, blackhole)
            beside = delays(client, server.url, body, receiver, handoffs)
            hanging = len(blackhole.held)
            hang(client, server.url, body, same_host)
            host = delays(client, server.url, body, receiver, handoffs)
            host_hanging = len(same_host.held)
    finally:
        server.stop()
        blackhole.close()
        same_host.close()
        receiver.close()
    return {"notify_alone_p50_s": statistics.median(alone),
            "notify_beside_blackhole_p50_s": statistics.median(beside),
            "notify_beside_blackhole_max_s": max(beside),
            "notify_blackhole_connections": hanging,
            "notify_same_host_p50_s": statistics.median(host) if host else float("inf"),
            "notify_same_host_max_s": max(host, default=float("inf")),
            "notify_same_host_connections": host_hanging,
            "notify_lanes_missed": 3 * handoffs - len(alone) - len(beside) - len(host)}


def rows(f: dict[str, float]) -> list[tuple[str, str, str, str]]:
    """The report's rows (bench/report.py): figure, value, anchor, key."""
    if "notify_beside_blackhole_p50_s" not in f:
        return []
    ms = lambda s: f"{s * 1000:.0f} ms"
    out = [("notify: a notice beside 40 webhooks at a blackhole, p50",
             ms(f["notify_beside_blackhole_p50_s"]),
             (f"the same notice alone p50 {ms(f['notify_alone_p50_s'])} (same run); max "
              f"{ms(f['notify_beside_blackhole_max_s'])}; connections the blackhole held "
              f"{f['notify_blackhole_connections']:.0f}; missed "
              f"{f['notify_lanes_missed']:.0f}"), "notify_beside_blackhole_p50_s")]
    if "notify_same_host_p50_s" in f:  # measured since issue 37
        out.append(("notify: a notice beside 40 webhooks at a blackhole on its own host, p50",
                    ms(f["notify_same_host_p50_s"]),
                    (f"max {ms(f['notify_same_host_max_s'])}; connections that blackhole "
                     f"held {f['notify_same_host_connections']:.0f}"),
                    "notify_same_host_p50_s"))
    return out


def checks(f: dict[str, float]) -> list[tuple[str, bool, str]]:
    """Issue 25's target, and that nothing was lost: (name, PASS, what was seen)."""
    ratio = f["notify_beside_blackhole_p50_s"] / f["notify_alone_p50_s"]
    host = f.get("notify_same_host_p50_s", float("inf")) / f["notify_alone_p50_s"]
    return [("a notice beside a blackhole within 2x of the same notice alone", ratio <= 2,
             f"{ratio:.2f}x"),
            ("a notice beside a blackhole on its own host within 2x of it alone", host <= 2,
             f"{host:.2f}x"),
            ("every healthy notice arrived", f["notify_lanes_missed"] == 0,
             f"missed {f['notify_lanes_missed']:.0f}")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--handoffs", type=int, default=8, help="healthy handoffs per phase")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        f = measure(tmp, args.handoffs)
    shown.show(f, rows, checks, as_json=args.json)


if __name__ == "__main__":
    main()
