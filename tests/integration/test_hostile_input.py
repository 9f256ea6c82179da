"""Hostile input, in-process on both stores: headers with bytes no client sends, JSON nested
100,000 deep, imports that are not what they claim, floods of anonymous creations and
bodies that never arrive. Each is a 4xx problem detail that appends nothing.

The headers are sent as raw bytes straight to the ASGI app (an HTTP client would encode
them first, as uvicorn hands them on: unchanged)."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from test_http_api import SIDES, TOKENS, J, _act, _create, _version, auth

from api import imports
from api.app import create_app
from api.cli import main as cli
from api.settings import Settings
from domain.app import Matches
from projections.store import sqlite_env

DEEP = b"[" * 100_000  # over the body limit too: 413 or 422, never a 500
DEEP_SMALL = b"[" * 60_000  # within 64 KiB: json.loads would recurse 60,000 times
NOTE = {"type": "add_note", "text": "hello"}


@pytest.fixture
def client(matches: Matches) -> Iterator[TestClient]:
    settings = Settings(admin_token="admin-token", create_rate="5/minute",
                        import_rate="3/minute", max_import_bytes=256 * 1024,
                        body_timeout=0.5)
    with TestClient(create_app(settings, matches=matches)) as client:
        yield client


class Answer:
    def __init__(self, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
        self.status, self.body = status, body
        self.headers = {k.decode(): v.decode() for k, v in headers}

    def json(self) -> Any:
        return json.loads(self.body)

    def refused(self, status: int) -> dict[str, Any]:
        """The problem detail of a refusal with `status`."""
        assert self.status == status, (self.status, self.body[:300])
        assert self.headers["content-type"] == "application/problem+json"
        problem: dict[str, Any] = self.json()
        assert problem["status"] == status and problem["detail"]
        return problem


def raw(client: TestClient, method: str, path: str, headers: list[tuple[bytes, bytes]],
        body: bytes | list[bytes] | None = b"", address: str = "10.0.0.1") -> Answer:
    """One request straight to the ASGI app, its headers byte for byte. `body`: bytes (with
    their Content-Length), chunks (streamed, no length), or None (a body is announced and
    never comes). The answer ends at the first body chunk (a stream goes on for ever)."""
    chunks = [body] if isinstance(body, bytes) else body or []
    pending = [{"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1}
               for i, chunk in enumerate(chunks)]
    length = ([(b"content-length", str(len(body)).encode())] if isinstance(body, bytes)
              else [(b"transfer-encoding", b"chunked")] if body
              else [(b"content-length", b"100")])
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "client": (address, 40000),
             "server": ("testserver", 80),
             "headers": [(b"host", b"testserver"), *length, *headers]}
    sent: list[dict[str, Any]] = []

    async def call() -> None:
        answered = anyio.Event()

        async def receive() -> dict[str, Any]:
            if pending:
                return pending.pop(0)
            await answered.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)
            if message["type"] == "http.response.body":
                answered.set()

        with anyio.fail_after(30):
            async with anyio.create_task_group() as group:
                group.start_soon(client.app, scope, receive, send)
                await answered.wait()
                group.cancel_scope.cancel()

    assert client.portal is not None
    client.portal.call(call)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body_sent = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return Answer(start["status"], start.get("headers", []), body_sent)


def bearer(token: str) -> tuple[bytes, bytes]:
    return (b"authorization", f"Bearer {token}".encode())


JSON = (b"content-type", b"application/json")


# ---- 1. headers: one place reads them, and refuses what no client sends -----------------

@pytest.mark.parametrize("value", [b"\xb2", b'"\xb9"', b'W/"\xc2\xb2"', "\"١\"".encode()])
def test_an_if_match_with_non_ascii_bytes_is_422_and_appends_nothing(
        client: TestClient, value: bytes) -> None:
    match = _create(client)
    r = raw(client, "POST", f"/api/matches/{match}/actions",
            [bearer(TOKENS[match]["referee"]), JSON, (b"if-match", value)],
            json.dumps(NOTE).encode())
    assert r.refused(422)["rule"] == "core-requests" and "If-Match" in r.json()["detail"]
    assert _version(client, match) == J


def test_a_last_event_id_with_non_ascii_bytes_is_422_not_a_broken_stream(
        client: TestClient) -> None:
    match = _create(client)
    path = f"/api/matches/{match}/stream"
    r = raw(client, "GET", path, [bearer(TOKENS[match]["referee"]), (b"last-event-id", b"\xb2")])
    assert "Last-Event-ID" in r.refused(422)["detail"]
    r = raw(client, "GET", path, [bearer(TOKENS[match]["referee"]), (b"last-event-id", b"x1")])
    assert r.refused(422)["rule"] == "core-live"
    ok = raw(client, "GET", path, [bearer(TOKENS[match]["referee"]), (b"last-event-id", b"3")])
    assert ok.status == 200 and ok.body.startswith(b"event: version")


@pytest.mark.parametrize("token", [b"\xff\xfe", "t\u00e9".encode(), "t\u00e9".encode("latin-1"),
                                   b"ok\x00"])
def test_a_bearer_token_with_non_ascii_bytes_is_a_4xx_everywhere(
        client: TestClient, token: bytes) -> None:
    match = _create(client)
    header = (b"authorization", b"Bearer " + token)
    acted = raw(client, "POST", f"/api/matches/{match}/actions", [header, JSON],
                json.dumps(NOTE).encode())
    assert acted.refused(422)["rule"] == "core-requests"
    # The admin catalogue compared tokens with hmac.compare_digest on str: a TypeError.
    catalogue = raw(client, "GET", "/api/matches", [header])
    assert catalogue.refused(422)["rule"] == "core-requests"
    assert _version(client, match) == J


def test_a_non_ascii_admin_token_still_compares(matches: Matches) -> None:
    with TestClient(create_app(Settings(admin_token="sch\u00fcssel"), matches=matches)) as c:
        assert c.get("/api/matches", headers={"Authorization": "Bearer other"}).status_code == 401
        r = raw(c, "GET", "/api/matches", [(b"authorization", "Bearer sch\u00fcssel".encode())])
        assert r.refused(422)  # the token must be ASCII on the wire; no 500 either way


@pytest.mark.parametrize("key", [b"k\xe9", "k\u00f6".encode(), b"\xff" * 10])
def test_an_idempotency_key_with_non_ascii_bytes_is_422_and_appends_nothing(
        client: TestClient, key: bytes) -> None:
    match = _create(client)
    r = raw(client, "POST", f"/api/matches/{match}/actions",
            [bearer(TOKENS[match]["referee"]), JSON, (b"idempotency-key", key)],
            json.dumps(NOTE).encode())
    assert "Idempotency-Key" in r.refused(422)["detail"]
    assert _version(client, match) == J


def test_a_malformed_idempotency_key_is_a_4xx_and_appends_nothing(client: TestClient) -> None:
    match = _create(client)
    path = f"/api/matches/{match}/actions"
    twice = raw(client, "POST", path, [bearer(TOKENS[match]["referee"]), JSON,
                                       (b"idempotency-key", b"a"), (b"idempotency-key", b"b")],
                json.dumps(NOTE).encode())
    assert "once" in twice.refused(422)["detail"]
    long = client.post(path, json=NOTE, headers={**auth(match), "Idempotency-Key": "k" * 201})
    assert long.status_code == 422
    assert _version(client, match) == J
    fine = client.post(path, json=NOTE, headers={**auth(match), "Idempotency-Key": "k-1 x"})
    assert fine.status_code == 201


# ---- 2. JSON nesting is bounded before any parser sees it -------------------------------

@pytest.mark.parametrize("body", [DEEP_SMALL, b'{"type": "add_note", "text": ' + b"[" * 65
                                  + b'"x"' + b"]" * 65 + b"}"])
def test_json_nested_too_deep_is_422_on_every_body(client: TestClient, body: bytes) -> None:
    match = _create(client)
    for path, headers in ((f"/api/matches/{match}/actions", [bearer(TOKENS[match]["referee"])]),
                          ("/api/matches", [])):
        r = raw(client, "POST", path, [JSON, *headers], body)
        assert r.refused(422)["rule"] == "core-limits" and "64" in r.json()["detail"]
    assert _version(client, match) == J


def test_json_nested_100000_deep_is_refused_not_a_500(client: TestClient) -> None:
    match = _create(client)
    r = raw(client, "POST", f"/api/matches/{match}/actions",
            [bearer(TOKENS[match]["referee"]), JSON], DEEP)
    assert r.status in (413, 422) and r.refused(r.status)["rule"] == "core-limits"
    assert _version(client, match) == J


def test_nesting_within_the_bound_still_parses(client: TestClient) -> None:
    match = _create(client)
    note = {"type": "add_note", "text": "[[[[{{{{" * 20}  # brackets in a string nest nothing
    assert client.post(f"/api/matches/{match}/actions", json=note,
                       headers=auth(match)).status_code == 201


# ---- 3. imports: streamed, every line checked before the application parses it ---------

def _import(client: TestClient, body: bytes, address: str = "10.0.0.9") -> Answer:
    return raw(client, "POST", "/api/matches/import",
               [(b"content-type", b"application/x-ndjson")], body, address=address)


def test_an_import_whose_first_line_nests_100000_deep_is_422_naming_the_line(
        client: TestClient) -> None:
    r = _import(client, DEEP + b"\n")
    problem = r.refused(422)
    assert problem["rule"] == "core-import" and problem["detail"].startswith("line 1:")


def test_an_import_with_a_deep_later_line_or_bad_bytes_is_422_naming_it(
        client: TestClient) -> None:
    match = _create(client)
    exported = client.get(f"/api/matches/{match}/export", headers=auth(match)).content
    first = exported.split(b"\n", 1)[0] + b"\n"
    deep = _import(client, first + b"[" * 70 + b"]" * 70 + b"\n", "10.0.0.10")
    assert deep.refused(422)["detail"].startswith("line 2:")
    latin = _import(client, first + b'{"note": "caf\xe9"}\n', "10.0.0.11")
    assert "line 2: not UTF-8" in latin.refused(422)["detail"]


def test_a_junk_import_is_refused_with_the_applications_words(client: TestClient) -> None:
    for body, said in ((b"", "line 1"), (b"{}\n" * 10_000, "line 1"),
                       (b"not json\n", "line 1")):
        r = _import(client, body, address=f"10.1.0.{len(body) % 250}")
        assert r.refused(422)["rule"] == "core-import" and said in r.json()["detail"]


def test_an_oversized_import_is_413_declared_or_streamed(client: TestClient) -> None:
    big = b"{}\n" * 100_000  # 300,000 bytes > 256 KiB
    declared = _import(client, big, "10.2.0.1")
    assert declared.refused(413)["rule"] == "core-limits"
    streamed = raw(client, "POST", "/api/matches/import", [], [b"{}\n" * 1000] * 100,
                   address="10.2.0.2")  # no Content-Length: counted while it streams
    assert streamed.refused(413)["rule"] == "core-limits"
    assert streamed.headers["connection"] == "close"  # the rest is never waited for


def test_a_large_import_is_rebuilt_by_a_child_process(
        client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    match = _create(client)
    assert _act(client, match, type="roll_dice", notation="2d6", purpose="x").status_code == 201
    exported = client.get(f"/api/matches/{match}/export", headers=auth(match)).content
    monkeypatch.setattr(imports, "ISOLATE_ABOVE", 0)  # every import: a child process
    monkeypatch.setattr(imports, "SPOOL_IN_MEMORY", 100)  # spooled to a file, as a large one
    # this test's own temporary folder: another process's import (another worker, another
    # run on the machine) spools beside it in the shared one
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    spools = set(Path(tempfile.gettempdir()).glob("battlelog-import-*"))
    # Into the same store: the match is already there, and the child's refusal comes back.
    again = _import(client, exported, "10.3.0.1")
    assert again.refused(422)["rule"] == "core-import" and "already here" in again.json()["detail"]
    fresh = Matches(env=sqlite_env(str(tmp_path / "elsewhere.db")))
    with TestClient(create_app(Settings(admin_token="a"), matches=fresh)) as elsewhere:
        made = _import(elsewhere, exported, "10.3.0.2")
        assert made.status == 201, made.body
        referee = {"Authorization": f"Bearer {made.json()['tokens']['referee']}"}
        read = elsewhere.get(f"/api/matches/{match}", headers=referee)  # the parent reads it
        assert read.status_code == 200 and read.json()["version"] == J + 1
    fresh.close()
    assert set(Path(tempfile.gettempdir()).glob("battlelog-import-*")) <= spools  # deleted


def test_the_cli_refuses_a_deep_first_line_naming_it(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "deep.jsonl"
    bad.write_bytes(DEEP + b"\n")
    assert cli(["import", str(bad), "--db", str(tmp_path / "x.db")]) == 1
    assert "refused: line 1:" in capsys.readouterr().err


# ---- 4. quotas per client address; bodies that never arrive ----------------------------

def _create_from(client: TestClient, address: str) -> Answer:
    body = json.dumps({"scenario": "quota", "sides": SIDES}).encode()
    return raw(client, "POST", "/api/matches", [JSON], body, address=address)


def test_anonymous_creations_past_the_quota_are_429_with_retry_after(
        client: TestClient) -> None:
    made = [_create_from(client, "192.0.2.7") for _ in range(8)]
    assert [r.status for r in made] == [201] * 5 + [429] * 3
    problem = made[-1].refused(429)
    assert problem["rule"] == "core-quotas" and int(made[-1].headers["retry-after"]) >= 1
    # Another address (an IPv6 /64 counts as one) is not held back by the first.
    assert [_create_from(client, f"2001:db8::{i}").status for i in range(1, 6)] == [201] * 5
    assert _create_from(client, "2001:db8::ff").status == 429
    assert _create_from(client, "192.0.2.8").status == 201
    # An in-process caller has no address to count (one bucket for all would let one hold
    # back every other): the test client is never refused.
    assert all(client.post("/api/matches", json={"scenario": "in-process", "sides": SIDES})
               .status_code == 201 for _ in range(8))


def test_imports_have_their_own_smaller_quota(client: TestClient) -> None:
    answers = [_import(client, b"not json\n", address="198.51.100.1") for _ in range(5)]
    assert [r.status for r in answers] == [422] * 3 + [429] * 2
    assert answers[-1].headers["retry-after"]


def test_a_body_that_never_arrives_is_408_and_closes_the_connection(
        client: TestClient) -> None:
    match = _create(client)
    for path, headers in ((f"/api/matches/{match}/actions", [bearer(TOKENS[match]["referee"]),
                                                             JSON]),
                          ("/api/matches/import", [])):
        r = raw(client, "POST", path, headers, body=None, address="203.0.113.5")
        assert r.refused(408)["rule"] == "core-limits"
        assert r.headers["connection"] == "close"
    assert _version(client, match) == J
