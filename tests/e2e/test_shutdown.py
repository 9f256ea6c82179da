"""Graceful shutdown: a request in flight when SIGTERM arrives is still answered (and its
action recorded); new connections are refused; the server then exits."""

from __future__ import annotations

import json
import signal
import socket
import time
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest
from conftest import start_server

pytestmark = pytest.mark.e2e


def test_sigterm_drains_the_request_in_flight(tmp_path: Path) -> None:
    db = tmp_path / "drain.db"
    proc, url = start_server(db)
    created = httpx.post(f"{url}/api/matches", json={
        "scenario": "drain", "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]})
    match, token = created.json()["match_id"], created.json()["tokens"]["referee"]
    body = json.dumps({"type": "set_track", "name": "w", "value": "rain"}).encode()
    host = urlparse(url)
    with socket.create_connection((host.hostname, host.port), timeout=10) as conn:
        head = (f"POST /api/matches/{match}/actions HTTP/1.1\r\nHost: x\r\n"
                f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
        conn.sendall(head + body[:10])  # the request is in flight: half its body sent
        time.sleep(0.3)
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        assert proc.poll() is None  # still draining
        conn.sendall(body[10:])
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 201"), answer[:200]
    proc.wait(timeout=15)
    proc2, url2 = start_server(db)
    try:
        board = httpx.get(f"{url2}/api/matches/{match}/board",
                          headers={"Authorization": f"Bearer {token}"})
        assert board.json()["tracks"] == {"w": "rain"}
    finally:
        proc2.terminate()
        proc2.wait(timeout=10)
