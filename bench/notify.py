""""Your turn" notices: from the handoff event's stored time to the webhook's arrival, with
`matches` matches played at once through 2 API processes (`BATTLELOG_PROJECTIONS=
external`) and `battlelog project` (the notifier) on a pgserver PostgreSQL; beside the
action's own round trip (sent to acknowledged), measured in the same run.

Each match is Atomic Africa's demo with both seats registered for webhooks (each confirmed
with the code its confirmation message brings; budgets off); red activates
and moves on (the turn goes to blue), then undoes and redoes that step: every action is a
handoff. The receiver is a threaded HTTP server in this process that verifies every
signature; the notifier polls the store at its default interval (BATTLELOG_NOTIFY_POLL).

    .venv/bin/python bench/notify.py [--matches 200] [--handoffs 4]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

import http_load
import scale


class Receiver:
    """Webhooks in, verified, each delivery id's first arrival kept with its payload."""

    def __init__(self) -> None:
        self.secrets: dict[str, str] = {}  # path -> secret
        self.codes: dict[str, str] = {}  # registration -> its confirmation code
        self.arrived: dict[str, tuple[float, dict[str, Any]]] = {}
        self.raw = 0
        self.bad = 0
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                receiver.take(self)

            def log_message(self, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        self.server = server
        self.url = f"http://127.0.0.1:{server.server_address[1]}"
        threading.Thread(target=server.serve_forever, daemon=True).start()

    def take(self, request: BaseHTTPRequestHandler) -> None:
        from standardwebhooks.webhooks import Webhook

        now = time.time()
        body = request.rfile.read(int(request.headers.get("content-length", 0)))
        headers = {k.lower(): v for k, v in request.headers.items()}
        if request.path not in self.secrets:  # registered a moment ago: its secret is coming
            request.send_response(503)
            request.end_headers()
            return
        try:
            payload = Webhook(self.secrets[request.path]).verify(body, headers)
        except Exception:  # noqa: BLE001 - counted
            with self.lock:
                self.bad += 1
            request.send_response(400)
            request.end_headers()
            return
        with self.lock:
            if payload.get("type") == "registration.confirm":
                self.codes[payload["registration_id"]] = payload["code"]
            else:
                self.raw += 1
                self.arrived.setdefault(headers["webhook-id"], (now, payload))
        request.send_response(204)
        request.end_headers()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def seat_match(client: httpx.Client, url: str, body: dict[str, Any],
               receiver: Receiver) -> tuple[str, dict[str, str]]:
    made = client.post(f"{url}/api/matches", json=body).json()
    match, tokens = made["match_id"], dict(made["tokens"])
    for side in ("red", "blue"):
        tokens[side] = client.post(f"{url}/api/matches/{match}/seats", json={"player": side},
                                   headers=_auth(tokens[f"join:{side}"])).json()["token"]
        path = f"/{match}/{side}"
        reg = client.post(f"{url}/api/matches/{match}/notifications",
                          json={"kind": "webhook", "url": receiver.url + path},
                          headers=_auth(tokens[side]))
        assert reg.status_code == 201, reg.text
        receiver.secrets[path] = reg.json()["secret"]
        confirm(client, url, match, reg.json()["registration_id"], receiver)
    return match, tokens


def confirm(client: httpx.Client, url: str, match: str, registration_id: str,
            receiver: Receiver) -> None:
    """Confirm with the code the confirmation message brought to `receiver`."""
    deadline = time.monotonic() + 60
    while registration_id not in receiver.codes:
        assert time.monotonic() < deadline, "no confirmation message"
        time.sleep(0.02)
    done = client.post(f"{url}/api/matches/{match}/notifications/{registration_id}/confirm",
                       json={"code": receiver.codes[registration_id]})
    assert done.status_code == 200, done.text


def play(client: httpx.Client, urls: list[str], match: str, token: str,
         handoffs: int) -> list[float]:
    """Red's handoffs in `match`; the round trip of each action, in seconds."""
    steps: list[tuple[str, dict[str, Any] | None]] = [
        ("actions", {"type": "advance"}), ("undo", {"actions": 1}), ("redo", None)]
    client.post(f"{urls[0]}/api/matches/{match}/actions",
                json={"type": "activate_unit", "unit_id": "sq1"}, headers=_auth(token))
    trips = []
    for i in range(handoffs):
        path, body = steps[0] if i == 0 else steps[1 + (i - 1) % 2]
        start = time.perf_counter()
        done = client.post(f"{urls[i % 2]}/api/matches/{match}/{path}", json=body,
                           headers=_auth(token))
        trips.append(time.perf_counter() - start)
        assert done.status_code == 201, done.text
    return trips


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def lags(pg: dict[str, Any], dbname: str) -> tuple[list[float], list[float]]:
    """Where the time went, from the outbox's own rows: handoff event to outbox row (the
    projection), and outbox row to sent (the delivery)."""
    import psycopg

    with psycopg.connect(dbname=dbname, host=pg["host"], port=pg["port"],
                         user=pg["user"]) as conn:
        rows = conn.execute("SELECT payload, created, done FROM battlelog_notify_outbox "
                            "WHERE status = 'sent' AND reminder >= 0").fetchall()
    made = [datetime.fromisoformat(json.loads(p)["handed_over_at"]).timestamp()
            for p, _, _ in rows]
    return ([c - m for m, (_, c, _) in zip(made, rows, strict=True)],
            [d - c for _, c, d in rows])


def measure(tmp: str, matches: int = 200, handoffs: int = 4,
            clients: int = 16) -> dict[str, float]:
    receiver = Receiver()
    with scale.postgres(tmp) as pg:
        env = {**scale.new_database(pg, "notify"), "BATTLELOG_PROJECTIONS": "external",
               "BATTLELOG_NOTIFY_ALLOW_PRIVATE": "1", "BATTLELOG_CREATE_RATE": "off",
               "BATTLELOG_NOTIFY_REGISTER_RATE": "off", "BATTLELOG_NOTIFY_BUDGET_MATCH": "off",
               "BATTLELOG_NOTIFY_BUDGET_CREATOR": "off"}
        servers = [http_load.start_server("unused.db", env) for _ in range(2)]
        projector = http_load.start_projector(env)
        urls = [s.url for s in servers]
        try:
            with httpx.Client(timeout=30) as client:
                body = client.get(f"{urls[0]}/api/scenarios/atomic-africa-demo").json()
            with ThreadPoolExecutor(clients) as pool:
                def seat(i: int) -> tuple[str, dict[str, str]]:
                    with httpx.Client(timeout=30) as client:
                        return seat_match(client, urls[i % 2], body, receiver)
                tables = list(pool.map(seat, range(matches)))

                def run(table: tuple[str, dict[str, str]]) -> list[float]:
                    with httpx.Client(timeout=30) as client:
                        return play(client, urls, table[0], table[1]["red"], handoffs)
                started = time.perf_counter()
                trips = [t for got in pool.map(run, tables) for t in got]
                played = time.perf_counter() - started
            expected = matches * handoffs
            deadline = time.monotonic() + 120
            while len(receiver.arrived) < expected and time.monotonic() < deadline:
                time.sleep(0.1)
            delays = [at - datetime.fromisoformat(p["handed_over_at"]).timestamp()
                      for at, p in receiver.arrived.values()]
            outbox, sending = lags(pg, env["BATTLELOG_PG_DBNAME"])
        finally:
            for server in servers:
                server.stop()
            projector.terminate()
            projector.wait(timeout=15)
            receiver.close()
    return {
        "notify_matches": matches, "notify_handoffs": expected,
        "notify_missed": expected - len(receiver.arrived),
        "notify_redelivered": receiver.raw - len(receiver.arrived),
        "notify_bad_signatures": receiver.bad,
        "notify_delivery_p50_s": statistics.median(delays),
        "notify_delivery_p95_s": pct(delays, 0.95),
        "notify_outbox_lag_p50_s": statistics.median(outbox),
        "notify_outbox_lag_p95_s": pct(outbox, 0.95),
        "notify_send_lag_p50_s": statistics.median(sending),
        "notify_send_lag_p95_s": pct(sending, 0.95),
        "notify_action_round_trip_p50_s": statistics.median(trips),
        "notify_action_round_trip_p95_s": pct(trips, 0.95),
        "notify_actions_per_s": len(trips) / played,
    }


def rows(f: dict[str, float]) -> list[tuple[str, str, str, str]]:
    """The report's rows (bench/report.py): figure, value, anchor, key."""
    if "notify_delivery_p95_s" not in f:
        return []
    ms = lambda s: f"{s * 1000:.0f} ms"
    return [("notify: handoff to webhook arrival, p95", ms(f["notify_delivery_p95_s"]),
             (f"p50 {ms(f['notify_delivery_p50_s'])}; the action's own round trip p50 "
             f"{ms(f['notify_action_round_trip_p50_s'])}, p95 "
             f"{ms(f['notify_action_round_trip_p95_s'])}; of which event to outbox row p50 "
             f"{ms(f['notify_outbox_lag_p50_s'])}, outbox row to sent p50 "
             f"{ms(f['notify_send_lag_p50_s'])}; {f['notify_matches']:.0f} matches, "
             f"{f['notify_handoffs']:.0f} handoffs over 2 API processes on PostgreSQL; "
             f"missed {f['notify_missed']:.0f}, raw redeliveries {f['notify_redelivered']:.0f},"
             f" bad signatures {f['notify_bad_signatures']:.0f}"), "notify_delivery_p95_s")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--handoffs", type=int, default=4, help="handoffs per match")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name, value in measure(tmp, args.matches, args.handoffs).items():
            print(f"{name}: {value:.4f}" if isinstance(value, float) else f"{name}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
