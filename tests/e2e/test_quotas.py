"""`battlelog serve` against hostile clients, as a real process: a flood of anonymous
creations meets its quota (429, `Retry-After`) while another address's first ten go
through; an oversized import is 413 and the server's memory stays bounded; sockets that
send their headers or body too slowly are closed by the server. Client addresses are
distinct loopback addresses (127.0.0.x); no figure here is a wall-clock threshold: the
timeouts are short, and the sockets only wait (generously) for the server to act."""

from __future__ import annotations

import json
import select
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from conftest import start_server

pytestmark = pytest.mark.e2e

MiB = 1024 * 1024
SIDES = [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]
ENV = {"BATTLELOG_STORE": "sqlite", "BATTLELOG_CREATE_RATE": "20/minute",
       "BATTLELOG_MAX_IMPORT_BYTES": str(8 * MiB), "BATTLELOG_HEADER_TIMEOUT": "1",
       "BATTLELOG_BODY_TIMEOUT": "1"}
GENEROUS = 30.0  # seconds a socket waits for the server to act; never reached when it works


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    proc, url = start_server(tmp_path / "battlelog.db", ENV)
    try:
        yield proc, url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def rss_kib(proc: subprocess.Popen[bytes], field: str = "VmRSS") -> int:
    for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for {proc.pid}")


def client(address: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=GENEROUS)


def connect(url: str, address: str = "127.0.0.1") -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=GENEROUS,
                                    source_address=(address, 0))
    return sock


def read_all(sock: socket.socket) -> bytes:
    """What the server sends until it closes the connection (b"" if it sends nothing). A
    server that closes with part of a refused body unread resets the connection (TCP's
    RST) after its answer: what came before the reset is the answer."""
    got = b""
    try:
        while chunk := sock.recv(65536):
            got += chunk
    except ConnectionResetError:
        pass
    return got


def test_a_flood_meets_its_quota_while_a_normal_users_first_ten_go_through(
        server: tuple[subprocess.Popen[bytes], str]) -> None:
    _, url = server
    body = {"scenario": "flood", "sides": SIDES}
    with client("127.0.0.2") as flood, client("127.0.0.3") as user:
        statuses = []
        for i in range(30):
            statuses.append(flood.post(f"{url}/api/matches", json=body).status_code)
            if i % 3 == 0:  # the normal user creates now and then, amid the flood
                mine = user.post(f"{url}/api/matches", json={**body, "scenario": "mine"})
                assert mine.status_code == 201, mine.text
        refused = flood.post(f"{url}/api/matches", json=body)
    assert statuses == [201] * 20 + [429] * 10
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    problem = refused.json()
    assert refused.headers["content-type"] == "application/problem+json"
    assert problem["status"] == 429 and problem["rule"] == "core-quotas"


def test_an_oversized_import_is_413_and_memory_stays_bounded(
        server: tuple[subprocess.Popen[bytes], str]) -> None:
    proc, url = server
    before = rss_kib(proc)
    # Declared too large: refused before a byte of the body is read (the client waits for
    # 100 Continue, which never comes).
    sock = connect(url)
    sock.sendall(b"POST /api/matches/import HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
                 b"Content-Length: %d\r\n\r\n" % (64 * MiB))
    declared = read_all(sock)
    sock.close()
    assert declared.startswith(b"HTTP/1.1 413") and b"connection: close" in declared
    assert json.loads(declared.split(b"\r\n\r\n", 1)[1])["rule"] == "core-limits"
    # Streamed (no length) far past the limit: read as it comes, refused at the limit.
    sock = connect(url, "127.0.0.4")
    sock.sendall(b"POST /api/matches/import HTTP/1.1\r\nHost: x\r\n"
                 b"Transfer-Encoding: chunked\r\n\r\n")
    chunk = b"[]\n" * 20_000
    for _ in range(48 * MiB // len(chunk)):
        if select.select([sock], [], [], 0)[0]:
            break  # the server answered: stop sending
        try:
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        except (BrokenPipeError, ConnectionResetError):
            break  # it answered and closed while this chunk was on its way
    streamed = read_all(sock)
    sock.close()
    assert streamed.startswith(b"HTTP/1.1 413")
    # Within the limit, 6 MiB of tiny lines: refused (not an export) without holding them.
    junk = httpx.post(f"{url}/api/matches/import", content=b"{}\n" * (2 * MiB),
                      timeout=GENEROUS)
    assert junk.status_code == 422 and junk.json()["detail"].startswith("the file does not")
    grown = rss_kib(proc, "VmHWM") - before
    assert grown < 128 * 1024, f"the server grew by {grown} KiB"  # before: ~20x the body
    assert httpx.get(f"{url}/api/health/live").status_code == 200


def test_slow_headers_and_slow_bodies_are_cut_off(
        server: tuple[subprocess.Popen[bytes], str]) -> None:
    _, url = server
    silent = connect(url)  # connects and never sends a byte
    slow = connect(url)  # half a request line, then nothing
    slow.sendall(b"GET /api/health/live HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    body = connect(url)  # headers, then part of the body it announced
    body.sendall(b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 1000\r\n\r\n{\"scenario\": ")
    assert read_all(silent) == b"" and read_all(slow) == b""  # closed, no answer
    answered = read_all(body)  # a 408 problem, then closed
    assert answered.startswith(b"HTTP/1.1 408") and b"connection: close" in answered
    assert json.loads(answered.split(b"\r\n\r\n", 1)[1])["rule"] == "core-limits"
    for sock in (silent, slow, body):
        sock.close()
    assert httpx.get(f"{url}/api/health/live").status_code == 200
