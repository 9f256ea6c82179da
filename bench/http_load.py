"""Real `battlelog serve` processes under load: 32 concurrent clients, each playing its own
match (one keep-alive connection each, one action at a time), for the HTTP, PostgreSQL and
memory figures of bench/run.py.

The load generator is a few lines of asyncio over raw sockets, not an HTTP library: on a
2-core machine it shares the CPU with the servers, and it should take as little as it can.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
ACTIONS = [
    {"type": "roll_dice", "notation": "2d6", "purpose": "fire"},
    {"type": "set_track", "name": "weather", "value": "rain"},
    {"type": "advance"},
    {"type": "add_note", "text": "the hedgerow holds"},
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    url: str
    port: int

    def rss_kib(self, field: str = "VmRSS") -> int:
        """The process's resident set (VmRSS) or its peak (VmHWM), KiB."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1])
        return 0

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def start_server(db: str, env: dict[str, str] | None = None) -> Server:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--db", db, "--host", "127.0.0.1",
         "--port", str(port)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})})
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/api/health/ready", timeout=1).status_code == 200:
                return Server(proc, url, port)
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise RuntimeError(f"battlelog serve did not come up:\n{err}")
        time.sleep(0.1)


def start_projector(env: dict[str, str]) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "api.cli", "project"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env={**os.environ, **env})
    assert proc.stdout is not None
    proc.stdout.readline()
    return proc


def create_matches(servers: list[Server], n: int) -> list[tuple[Server, str, str]]:
    """`n` matches, spread over the servers: (server, match id, referee token)."""
    made = []
    with httpx.Client(timeout=30) as client:
        for i in range(n):
            server = servers[i % len(servers)]
            r = client.post(f"{server.url}/api/matches", json={
                "scenario": f"bench {i}", "casual": True,
                "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]})
            r.raise_for_status()
            made.append((server, r.json()["match_id"], r.json()["tokens"]["referee"]))
    return made


async def _player(port: int, match: str, token: str, stop_at: float, results: list[float],
                  errors: list[int], bodies: list[bytes]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = (f"POST /api/matches/{match}/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n")
    requests = [(head + f"Content-Length: {len(b)}\r\n\r\n").encode() + b for b in bodies]
    i = 0
    try:
        while time.perf_counter() < stop_at:
            start = time.perf_counter()
            writer.write(requests[i % len(requests)])
            i += 1
            status = await _read_response(reader)
            elapsed = time.perf_counter() - start
            if status == 201:
                results.append(elapsed)
            else:
                errors.append(status)
    finally:
        writer.close()


def load(matches: list[tuple[Server, str, str]], seconds: float,
         warmup: float = 1.0) -> dict[str, float]:
    """Each match played by one client, all at once, for `seconds` (after `warmup`):
    actions/s and latency percentiles of the round trips that ended in 201."""
    bodies = [json.dumps(a).encode() for a in ACTIONS]

    async def run(duration: float) -> tuple[list[float], list[int], float]:
        results: list[float] = []
        errors: list[int] = []
        start = time.perf_counter()
        await asyncio.gather(*(
            _player(server.port, match, token, start + duration, results, errors, bodies)
            for server, match, token in matches))
        return results, errors, time.perf_counter() - start

    if warmup:
        asyncio.run(run(warmup))
    results, errors, elapsed = asyncio.run(run(seconds))
    ordered = sorted(results)

    def pct(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")

    return {"actions_per_s": len(results) / elapsed, "p50_s": pct(0.50), "p99_s": pct(0.99),
            "errors": float(len(errors)), "clients": float(len(matches))}


def fill(matches: list[tuple[Server, str, str]], actions: int) -> None:
    """`actions` actions in each match, and each match's board read (so it is held)."""
    bodies = [json.dumps(a).encode() for a in ACTIONS]

    async def one(server: Server, match: str, token: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        head = (f"POST /api/matches/{match}/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n")
        for i in range(actions):
            body = bodies[i % len(bodies)]
            writer.write((head + f"Content-Length: {len(body)}\r\n\r\n").encode() + body)
            await _read_response(reader)
        writer.write((f"GET /api/matches/{match}/board HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      f"Authorization: Bearer {token}\r\n\r\n").encode())
        await _read_response(reader)
        writer.close()

    async def run() -> None:
        gate = asyncio.Semaphore(32)

        async def gated(m: tuple[Server, str, str]) -> None:
            async with gate:
                await one(*m)

        await asyncio.gather(*(gated(m) for m in matches))

    asyncio.run(run())


async def _read_response(reader: asyncio.StreamReader) -> int:
    """Read one HTTP/1.1 response (status line, headers, a Content-Length body): its status."""
    status = int((await reader.readline()).split()[1])
    length = 0
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        if line[:15].lower() == b"content-length:":
            length = int(line[15:])
    await reader.readexactly(length)
    return status


def http_figures(db: str, seconds: float, clients: int = 32) -> dict[str, Any]:
    """32 clients against one `battlelog serve` on SQLite."""
    server = start_server(db)
    try:
        matches = create_matches([server], clients)
        return load(matches, seconds)
    finally:
        server.stop()


def side_by_side(db: str, seconds: float, clients: int = 32, rounds: int = 4
                 ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The 32-client load against `battlelog serve` and against bench/hello_app.py, both
    running, in alternating rounds of `seconds / rounds` each (so the machine's other load
    falls on both alike): battlelog's figures and the bare app's, over all rounds."""
    server = start_server(db)
    hello = start_hello(clients)
    try:
        ours = create_matches([server], clients)
        bare = [(hello, f"m{i}", "t") for i in range(clients)]
        got: dict[str, list[dict[str, float]]] = {"ours": [], "bare": []}
        for r in range(rounds):
            got["ours"].append(load(ours, seconds / rounds, warmup=1.0 if r == 0 else 0.2))
            got["bare"].append(load(bare, seconds / rounds, warmup=1.0 if r == 0 else 0.2))
    finally:
        server.stop()
        hello.stop()

    def merged(runs: list[dict[str, float]]) -> dict[str, float]:
        return {"actions_per_s": sum(r["actions_per_s"] for r in runs) / len(runs),
                "p50_s": sorted(r["p50_s"] for r in runs)[len(runs) // 2],
                "p99_s": max(r["p99_s"] for r in runs),
                "errors": sum(r["errors"] for r in runs), "clients": float(clients)}

    return merged(got["ours"]), merged(got["bare"])


def start_hello(clients: int = 32) -> Server:
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "hello_app.py"), str(port)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = Server(proc, f"http://127.0.0.1:{port}", port)
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"{server.url}/api/health/ready", timeout=1).status_code == 200:
                return server
        except httpx.TransportError:
            if time.monotonic() > deadline:
                server.stop()
                raise
        time.sleep(0.1)
