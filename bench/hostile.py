"""Hostile clients against a real `battlelog serve` (its defaults, fresh SQLite file), each
figure beside its anchor measured in the same run:

    .venv/bin/python bench/hostile.py [--import-mib 20] [--sockets 48]

(1) import: a 20 MiB body of tiny lines (`[]`) posted to /api/matches/import, while a
    probe asks /api/health/live every 50 ms: the server's RSS growth (VmHWM during the
    import less VmRSS before it, from /proc) and the slowest health answer. Anchors: the
    server's idle RSS, and the slowest of the same probes just before the import.
    Targets: growth <= 64 MiB; health answers within 250 ms. Then a valid export of the
    same size, posted likewise (the server's child imports it), and imported again by
    `battlelog import` in a process of its own: that process's peak RSS (VmHWM) beside
    the same process's peak for a tiny export. Target: under 128 MiB.
(2) flood: one address creates matches as fast as it can (60 tries) while another, a normal
    user, creates ten amid it. Anchor: the quota (30 a minute per address). Targets: the
    flood meets 429s (each with Retry-After); none of the user's ten is refused.
(3) slowloris: N sockets send a request line and then a header byte a second; N more send
    headers and then a body byte a second. Anchors: the sockets opened, the timeouts.
    Targets: every slow-header socket closed by the server 30 s after opening (default
    header timeout 10 s), every slow-body socket closed 10 s after the body timeout
    (default 60 s); health answers within 250 ms meanwhile.
Client addresses are distinct loopback addresses (127.0.0.x), so each is its own client.
Prints a table and returns the figures (bench/run.py includes them, section `hostile`).
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from typing import Self

import http_load
import shown
from import_memory import child_peak_figures, children_peak_kib, valid_export

MiB = 1024 * 1024
QUOTA = 30  # the default BATTLELOG_CREATE_RATE, 30/minute
HEALTH_TARGET_S = 0.250
GROWTH_TARGET_MIB = 64
CHILD_TARGET_MIB = 128  # a valid 20 MiB import's own process, at its peak
SIDES = [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]
# `battlelog serve` as it ships (an empty variable is the default; bench/run.py turns the
# creation quota off for the load benches).
DEFAULTS = {"BATTLELOG_STORE": "sqlite", **{f"BATTLELOG_{name}": "" for name in (
    "CREATE_RATE", "IMPORT_RATE", "MAX_IMPORT_BYTES", "IMPORTS_AT_ONCE", "HEADER_TIMEOUT",
    "BODY_TIMEOUT", "KEEP_ALIVE_TIMEOUT", "MAX_CONNECTIONS")}}


class Probe:
    """Asks /api/health/live every `every` seconds on a connection of its own, from its
    own address, and keeps each answer's latency (a failure counts as infinite)."""

    def __init__(self, url: str, every: float = 0.05) -> None:
        self.url, self.every = url, every
        self.latencies: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        with client("127.0.0.9", timeout=10) as http:
            while not self._stop.is_set():
                start = time.perf_counter()
                try:
                    ok = http.get(f"{self.url}/api/health/live").status_code == 200
                except httpx.HTTPError:
                    ok = False
                self.latencies.append(time.perf_counter() - start if ok else float("inf"))
                self._stop.wait(self.every)


def client(address: str, timeout: float = 120) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=timeout)


def probed(url: str, seconds: float) -> list[float]:
    with Probe(url) as probe:
        time.sleep(seconds)
    return probe.latencies


def import_figures(server: http_load.Server, mib: int) -> dict[str, float]:
    probed(server.url, 0.5)  # warm up: the first answers of a fresh process are slower
    idle_rss = server.rss_kib() / 1024
    idle = probed(server.url, 3.0)
    body = b"[]\n" * (mib * MiB // 3)
    with Probe(server.url) as probe, client("127.0.0.5") as http:
        start = time.perf_counter()
        answer = http.post(f"{server.url}/api/matches/import", content=body,
                           headers={"Content-Type": "application/x-ndjson"})
        took = time.perf_counter() - start
    return {"import_mib": len(body) / MiB, "import_status": answer.status_code,
            "import_s": took, "import_idle_rss_mib": idle_rss,
            "import_rss_growth_mib": server.rss_kib("VmHWM") / 1024 - idle_rss,
            "import_health_max_s": max(probe.latencies),
            "import_health_p50_s": statistics.median(probe.latencies),
            "import_health_probes": len(probe.latencies),
            "idle_health_max_s": max(idle), "idle_health_p50_s": statistics.median(idle)}


def valid_import_figures(server: http_load.Server, body: bytes) -> dict[str, float]:
    """The same for an export that verifies: every line is parsed, the match replayed and
    stored. Past 1 MiB the server has a child process import it (api/imports.py), whose
    peak RSS is sampled here."""
    before = server.rss_kib() / 1024
    child_peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.1):
            child_peak[0] = max(child_peak[0], children_peak_kib(server.proc.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    with Probe(server.url) as probe, client("127.0.0.11") as http:
        start = time.perf_counter()
        answer = http.post(f"{server.url}/api/matches/import", content=body,
                           headers={"Content-Type": "application/x-ndjson"})
        took = time.perf_counter() - start
    done.set()
    sampler.join()
    return {"valid_mib": len(body) / MiB, "valid_events": body.count(b"\n") - 1,
            "valid_status": answer.status_code, "valid_s": took,
            "valid_rss_growth_mib": server.rss_kib("VmHWM") / 1024 - before,
            "valid_child_peak_mib": child_peak[0] / 1024,
            "valid_health_max_s": max(probe.latencies),
            "valid_health_p50_s": statistics.median(probe.latencies)}


def flood_figures(url: str, tries: int = 60) -> dict[str, float]:
    body = {"scenario": "flood", "sides": SIDES}
    flood: list[httpx.Response] = []
    mine: list[int] = []
    with client("127.0.0.6") as attacker, client("127.0.0.7") as user:
        for i in range(tries):
            flood.append(attacker.post(f"{url}/api/matches", json=body))
            if i % 6 == 0 and len(mine) < 10:
                mine.append(user.post(f"{url}/api/matches", json=body).status_code)
    refused = [r for r in flood if r.status_code == 429]
    return {"flood_tries": tries,
            "flood_created": sum(r.status_code == 201 for r in flood),
            "flood_refused": len(refused),
            "flood_refused_with_retry_after": sum("retry-after" in r.headers for r in refused),
            "flood_first_refusal": next((i for i, r in enumerate(flood, 1)
                                         if r.status_code == 429), 0),
            "user_created": sum(s == 201 for s in mine), "user_tries": len(mine)}


def _open(url: str, address: str) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), source_address=(address, 0))
    sock.setblocking(False)
    return sock


def _closed(sock: socket.socket) -> bool:
    """Whether the server closed the socket (what it sent before, a 408, is read away)."""
    try:
        while data := sock.recv(65536):
            del data
        return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def slowloris_figures(url: str, sockets: int, header_timeout: float = 10.0,
                      body_timeout: float = 60.0) -> dict[str, float]:
    headers = [_open(url, "127.0.0.8") for _ in range(sockets)]
    bodies = [_open(url, "127.0.0.10") for _ in range(sockets)]
    for sock in headers:
        sock.send(b"GET /api/health/live HTTP/1.1\r\nHost: x\r\n")
    nowhere = "/api/matches/00000000-0000-0000-0000-000000000000/actions"  # no quota here
    for sock in bodies:
        sock.send(f"POST {nowhere} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                  "\r\nContent-Length: 10000\r\n\r\n".encode())
    opened = time.monotonic()
    check_headers, check_bodies = header_timeout + 20, body_timeout + 10
    figures: dict[str, float] = {"slow_sockets": sockets, "header_timeout_s": header_timeout,
                                 "body_timeout_s": body_timeout}
    with Probe(url) as probe:
        while True:
            elapsed = time.monotonic() - opened
            for group, byte in ((headers, b"X"), (bodies, b" ")):
                for sock in group:
                    try:
                        sock.send(byte)  # a header byte, or a body byte, a second
                    except OSError:
                        pass
            if "slow_headers_open" not in figures and elapsed >= check_headers:
                figures["slow_headers_open"] = sum(not _closed(s) for s in headers)
                figures["slow_headers_checked_at_s"] = elapsed
            if elapsed >= check_bodies:
                figures["slow_bodies_open"] = sum(not _closed(s) for s in bodies)
                figures["slow_bodies_checked_at_s"] = elapsed
                break
            time.sleep(1.0)
    figures["slowloris_health_max_s"] = max(probe.latencies)
    for sock in headers + bodies:
        sock.close()
    return figures


def measure(import_mib: int = 20, sockets: int = 48) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        server = http_load.start_server(str(Path(tmp) / "hostile.db"), DEFAULTS)
        try:
            figures = import_figures(server, import_mib)
            body = valid_export(import_mib)
            figures.update(valid_import_figures(server, body))
            figures.update(child_peak_figures(body))
            figures.update(flood_figures(server.url))
            figures.update(slowloris_figures(server.url, sockets))
        finally:
            server.stop()
    return {f"hostile_{k}": v for k, v in figures.items()}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def rows(f: dict[str, float]) -> list[tuple[str, str, str, str]]:
    """(figure, value, its anchor and the ratio, key) for bench/run.py's table."""
    if "hostile_import_rss_growth_mib" not in f:
        return []
    g = f.get
    return [
        (f"import of {g('hostile_import_mib', 0):.0f} MiB tiny lines, RSS growth",
         f"{f['hostile_import_rss_growth_mib']:.1f} MiB",
         (f"{f['hostile_import_rss_growth_mib'] / f['hostile_import_mib']:.0%} of the body; "
         f"idle server {f['hostile_import_idle_rss_mib']:.0f} MiB; answered "
         f"{f['hostile_import_status']:.0f} in {f['hostile_import_s']:.1f} s; target 64 MiB"),
         "hostile_import_rss_growth_mib"),
        ("health during that import, slowest", ms(f["hostile_import_health_max_s"]),
         (f"{f['hostile_import_health_max_s'] / f['hostile_idle_health_max_s']:.1f}x the "
         f"slowest when idle ({ms(f['hostile_idle_health_max_s'])}); p50 "
         f"{ms(f['hostile_import_health_p50_s'])} vs {ms(f['hostile_idle_health_p50_s'])}; "
         f"{f['hostile_import_health_probes']:.0f} probes; target 250 ms"),
         "hostile_import_health_max_s"),
        (f"import of a valid {f['hostile_valid_mib']:.0f} MiB export, RSS growth",
         f"{f['hostile_valid_rss_growth_mib']:.0f} MiB",
         (f"{f['hostile_valid_rss_growth_mib'] / f['hostile_valid_mib']:.1f}x the body "
          f"({f['hostile_valid_events']:,.0f} events, answered {f['hostile_valid_status']:.0f} "
          f"in {f['hostile_valid_s']:.1f} s); the child process that imported it peaked at "
          f"{f['hostile_valid_child_peak_mib']:.0f} MiB "
          f"({f['hostile_valid_child_peak_mib'] / f['hostile_valid_mib']:.0f}x the body)"),
         "hostile_valid_rss_growth_mib"),
        (f"import of a valid {f['hostile_child_mib']:.0f} MiB export, its process's peak",
         f"{f['hostile_child_peak_mib']:.0f} MiB",
         (f"{f['hostile_child_peak_mib'] / f['hostile_child_tiny_peak_mib']:.2f}x the same "
          f"process importing a tiny export ({f['hostile_child_tiny_peak_mib']:.0f} MiB); "
          f"target {CHILD_TARGET_MIB} MiB (battlelog import, VmHWM)"),
         "hostile_child_peak_mib"),
        ("health during that import, slowest", ms(f["hostile_valid_health_max_s"]),
         (f"{f['hostile_valid_health_max_s'] / f['hostile_idle_health_max_s']:.1f}x the "
          f"slowest when idle; p50 {ms(f['hostile_valid_health_p50_s'])}; target 250 ms"),
         "hostile_valid_health_max_s"),
        ("flood of creations from one address", f"{f['hostile_flood_refused']:.0f} x 429",
         (f"{f['hostile_flood_created']:.0f} of {f['hostile_flood_tries']:.0f} created "
         f"(quota {QUOTA}/min: {f['hostile_flood_created'] / QUOTA:.0%} of it), first 429 at "
         f"try {f['hostile_flood_first_refusal']:.0f}; a normal user meanwhile "
         f"{f['hostile_user_created']:.0f}/{f['hostile_user_tries']:.0f} created"),
         "hostile_flood"),
        ("slowloris: slow-header sockets still open", f"{g('hostile_slow_headers_open', -1):.0f}",
         (f"of {f['hostile_slow_sockets']:.0f} opened, "
         f"{g('hostile_slow_headers_checked_at_s', 0):.0f} s on (header timeout "
         f"{f['hostile_header_timeout_s']:.0f} s)"), "hostile_slow_headers"),
        ("slowloris: slow-body sockets still open", f"{g('hostile_slow_bodies_open', -1):.0f}",
         (f"of {f['hostile_slow_sockets']:.0f} opened, "
         f"{g('hostile_slow_bodies_checked_at_s', 0):.0f} s on (body timeout "
         f"{f['hostile_body_timeout_s']:.0f} s); health meanwhile at worst "
         f"{ms(f['hostile_slowloris_health_max_s'])}"), "hostile_slow_bodies"),
    ]


def checks(f: dict[str, float]) -> list[tuple[str, bool, str]]:
    if "hostile_import_rss_growth_mib" not in f:
        return []
    growth, health = f["hostile_import_rss_growth_mib"], f["hostile_import_health_max_s"]
    return [
        (f"import of {f['hostile_import_mib']:.0f} MiB tiny lines grows RSS <= 64 MiB",
         growth <= GROWTH_TARGET_MIB, f"{growth:.1f} MiB"),
        ("health answers within 250 ms during that import", health <= HEALTH_TARGET_S,
         ms(health)),
        ((f"a valid {f['hostile_child_mib']:.0f} MiB import peaks under "
         f"{CHILD_TARGET_MIB} MiB in its own process"),
         f["hostile_child_peak_mib"] < CHILD_TARGET_MIB,
         (f"{f['hostile_child_peak_mib']:.0f} MiB (a tiny one: "
         f"{f['hostile_child_tiny_peak_mib']:.0f} MiB)")),
        ("health answers within 250 ms while a valid export is parsed and stored",
         f["hostile_valid_health_max_s"] <= HEALTH_TARGET_S, ms(f["hostile_valid_health_max_s"])),
        ("an anonymous flood gets 429s (with Retry-After), within the quota",
         0 < f["hostile_flood_refused"] == f["hostile_flood_refused_with_retry_after"]
         and f["hostile_flood_created"] <= QUOTA,
         f"{f['hostile_flood_refused']:.0f} refused, {f['hostile_flood_created']:.0f} created"),
        ("a normal user's first ten creations amid it are never refused",
         f["hostile_user_created"] == f["hostile_user_tries"] == 10,
         f"{f['hostile_user_created']:.0f}/{f['hostile_user_tries']:.0f}"),
        ("slow-header and slow-body sockets are all closed by the server",
         f.get("hostile_slow_headers_open") == 0 == f.get("hostile_slow_bodies_open"),
         (f"{f.get('hostile_slow_headers_open', -1):.0f} + "
         f"{f.get('hostile_slow_bodies_open', -1):.0f} of {2 * f['hostile_slow_sockets']:.0f} "
         "open")),
        ("health answers within 250 ms amid the slowloris sockets",
         f["hostile_slowloris_health_max_s"] <= HEALTH_TARGET_S,
         ms(f["hostile_slowloris_health_max_s"])),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--import-mib", type=int, default=20)
    parser.add_argument("--sockets", type=int, default=48)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()
    f = measure(args.import_mib, args.sockets)
    shown.show(f, rows, checks, as_json=args.json)


if __name__ == "__main__":
    main()
