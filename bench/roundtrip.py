"""One client, one keep-alive connection per server, one request at a time: the round trip
of an action, of `/api/health/live` and of a board read on a real `battlelog serve`
(SQLite), each beside bare FastAPI on uvicorn from the same venv (bench/hello_app.py: a
POST echoing a small JSON body, a GET); and, as the floor under an action, one raw SQLite
commit (WAL, synchronous=FULL) on the same disk.

The measured requests and their anchors alternate in short rounds (an action burst, a bare
POST burst, a health burst, a bare GET burst, ...), so a neighbour's load on the shared
machine falls on both alike. The client is a blocking socket writing prepared bytes and
reading the answer by its Content-Length: it costs microseconds, not an HTTP library's
fraction of a millisecond.

    .venv/bin/python bench/roundtrip.py [--rounds 40] [--per-round 25]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import http_load

# The action mix of the HTTP load (a roll of the server dice, a track, an advance, a note).
ACTIONS = http_load.ACTIONS


class Connection:
    """One keep-alive HTTP/1.1 connection, blocking: send a prepared request, read its
    answer (status line, headers, a Content-Length body)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.file = self.sock.makefile("rb")

    def request(self, raw: bytes) -> int:
        self.sock.sendall(raw)
        status = int(self.file.readline().split()[1])
        length = 0
        while True:
            line = self.file.readline()
            if line in (b"\r\n", b""):
                break
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
        self.file.read(length)
        return status

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def post(path: str, body: bytes, token: str | None = None) -> bytes:
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
            ).encode() + body


def get(path: str, token: str | None = None) -> bytes:
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}\r\n".encode()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def measure(db: str, rounds: int = 40, per_round: int = 25,
            env: dict[str, str] | None = None) -> dict[str, float]:
    """p50 and p99 of each kind of request, in seconds, with the bare app's beside them."""
    server = http_load.start_server(db, env)
    hello = http_load.start_hello()
    try:
        (_, match, token), = http_load.create_matches([server], 1)
        ours, bare = Connection(server.port), Connection(hello.port)
        actions = [post(f"/api/matches/{match}/actions", json.dumps(a).encode(), token)
                   for a in ACTIONS]
        bare_post = post(f"/api/matches/{match}/actions",
                         json.dumps({"type": "set_track", "name": "weather",
                                     "value": "rain"}).encode())
        kinds: dict[str, tuple[Connection, Callable[[int], bytes], int]] = {
            "action": (ours, lambda i: actions[i % len(actions)], 201),
            "bare_post": (bare, lambda i: bare_post, 201),
            "health": (ours, lambda i: get("/api/health/live"), 200),
            "bare_get": (bare, lambda i: get("/api/health/ready"), 200),
            "board": (ours, lambda i: get(f"/api/matches/{match}/board", token), 200),
        }
        samples: dict[str, list[float]] = {k: [] for k in [*kinds, "commit"]}
        commits = sqlite3.connect(db + "-raw", isolation_level=None)
        commits.execute("PRAGMA journal_mode=WAL")
        commits.execute("PRAGMA synchronous=FULL")
        commits.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)")
        for r in range(rounds + 2):  # two rounds of warm-up, not counted
            for i in range(per_round):  # the floor under an action: one fsync'd commit
                start = time.perf_counter()
                commits.execute("BEGIN")
                commits.execute("INSERT INTO t (body) VALUES (?)", (b"x" * 300,))
                commits.execute("COMMIT")
                if r >= 2:
                    samples["commit"].append(time.perf_counter() - start)
            for kind, (conn, make, expected) in kinds.items():
                for i in range(per_round):
                    raw = make(r * per_round + i)
                    start = time.perf_counter()
                    status = conn.request(raw)
                    elapsed = time.perf_counter() - start
                    if status != expected:
                        raise RuntimeError(f"{kind}: {status}, not {expected}")
                    if r >= 2:
                        samples[kind].append(elapsed)
        ours.close()
        bare.close()
        commits.close()
    finally:
        server.stop()
        hello.stop()
    out: dict[str, float] = {"rt_samples": float(rounds * per_round)}
    for kind, values in samples.items():
        out[f"rt_{kind}_p50_s"] = pct(values, 0.50)
        out[f"rt_{kind}_p99_s"] = pct(values, 0.99)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--per-round", type=int, default=25)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        got: dict[str, Any] = measure(os.path.join(tmp, "rt.db"), args.rounds, args.per_round)
    print(f"raw SQLite commit p50 {got['rt_commit_p50_s'] * 1000:.2f} ms (WAL, synchronous=FULL)")
    for kind, anchor in (("action", "bare_post"), ("health", "bare_get"), ("board", "bare_get")):
        p50, a50 = got[f"rt_{kind}_p50_s"], got[f"rt_{anchor}_p50_s"]
        print(f"{kind:8} p50 {p50 * 1000:6.2f} ms  p99 {got[f'rt_{kind}_p99_s'] * 1000:6.2f} ms"
              f"   {anchor} p50 {a50 * 1000:5.2f} ms  -> {p50 / a50:.2f}x")


if __name__ == "__main__":
    main()
