"""Real receivers of "your turn" notices on loopback, for the notification tests: a webhook
receiver that verifies every signature with `standardwebhooks`, a Web Push service that
decrypts each message with the subscription's own keys (`http_ece`), an SMTP server
(`aiosmtpd`), and the scripted match that hands the turn over (Atomic Africa's demo: the
red player activates and moves on, then undoes and redoes that step). A registration's
confirmation message is kept apart (its code, by registration, in `codes`), not counted
among the notices; `Table.register` confirms with it, as the address's owner would."""

from __future__ import annotations

import base64
import email
import json
import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
from conftest import _free_port as free_port


@dataclass
class Got:
    """What a receiver took in: (seat, delivery id, payload) per request, and the bad ones."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    raw: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    arrived: dict[str, float] = field(default_factory=dict)  # delivery id -> first arrival
    bad: list[str] = field(default_factory=list)
    codes: dict[str, str] = field(default_factory=dict)  # registration -> confirmation code

    def add(self, seat: str, delivery: str, payload: dict[str, Any]) -> None:
        with self.lock:
            self.raw.append((seat, delivery, payload))
            self.arrived.setdefault(delivery, time.time())

    def unique(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """Per delivery id, the seat and payload (a receiver drops redeliveries)."""
        with self.lock:
            return {d: (s, p) for s, d, p in self.raw}

    def handoffs(self) -> list[tuple[str, int]]:
        """(seat, version) of each distinct notice, sorted."""
        return sorted((s, p["version"]) for s, p in self.unique().values())


class _Server(ThreadingHTTPServer):
    daemon_threads = True


def _serve(take: Callable[[BaseHTTPRequestHandler], None]) -> tuple[_Server, str]:
    """A threaded HTTP server on loopback whose every POST is `take(request)`."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            take(self)

        def log_message(self, *args: Any) -> None:
            pass

    server = _Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


class WebhookReceiver:
    """POST /<seat>: verified with that seat's secret (`secrets`), then recorded. `failing`
    seats answer 500 to the first attempt of each notice (the sender must retry)."""

    def __init__(self, failing: frozenset[str] = frozenset()) -> None:
        self.got = Got()
        self.secrets: dict[str, str] = {}
        self.failing = failing
        self.refused: set[str] = set()
        self.server, self.url = _serve(self.take)

    def take(self, request: BaseHTTPRequestHandler) -> None:
        from standardwebhooks.webhooks import Webhook

        seat = request.path.strip("/")
        body = request.rfile.read(int(request.headers.get("content-length", 0)))
        headers = {k.lower(): v for k, v in request.headers.items()}
        if seat not in self.secrets:  # registered a moment ago: its secret is on its way
            request.send_response(503)
            request.end_headers()
            return
        try:
            payload = Webhook(self.secrets[seat]).verify(body, headers)
        except Exception as error:  # noqa: BLE001 - any failure is a bad signature
            self.got.bad.append(f"{seat}: {type(error).__name__}: {error}")
            request.send_response(400)
            request.end_headers()
            return
        delivery = headers["webhook-id"]
        if payload.get("type") == "registration.confirm":
            self.got.codes[payload["registration_id"]] = payload["code"]
            request.send_response(204)
            request.end_headers()
            return
        if seat in self.failing and delivery not in self.refused:
            self.refused.add(delivery)
            request.send_response(500)
            request.end_headers()
            return
        self.got.add(seat, delivery, payload)
        request.send_response(204)
        request.end_headers()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class PushService:
    """A Web Push service: POST /<seat> with an aes128gcm body, decrypted with the
    subscription's private key and auth secret, which this test made."""

    def __init__(self) -> None:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        self.got = Got()
        self.keys: dict[str, tuple[Any, bytes]] = {}
        self._ec, self._ser = ec, serialization
        self.server, self.url = _serve(self.take)

    def subscription(self, seat: str) -> dict[str, Any]:
        """A new subscription for `seat`, as a browser's `PushManager.subscribe()` gives."""
        key = self._ec.generate_private_key(self._ec.SECP256R1())
        auth = os.urandom(16)
        self.keys[seat] = (key, auth)
        public = key.public_key().public_bytes(self._ser.Encoding.X962,
                                               self._ser.PublicFormat.UncompressedPoint)
        b64 = lambda raw: base64.urlsafe_b64encode(raw).decode().rstrip("=")
        return {"endpoint": f"{self.url}/{seat}", "keys": {"p256dh": b64(public),
                                                          "auth": b64(auth)}}

    def take(self, request: BaseHTTPRequestHandler) -> None:
        import http_ece

        seat = request.path.strip("/")
        body = request.rfile.read(int(request.headers.get("content-length", 0)))
        try:
            assert request.headers.get("content-encoding") == "aes128gcm"
            assert request.headers.get("authorization", "").startswith("vapid t=")
            key, auth = self.keys[seat]
            message = json.loads(http_ece.decrypt(body, private_key=key, auth_secret=auth,
                                                  version="aes128gcm"))
        except Exception as error:  # noqa: BLE001
            self.got.bad.append(f"{seat}: {type(error).__name__}: {error}")
            request.send_response(400)
            request.end_headers()
            return
        if message.get("type") == "registration.confirm":  # what the page's worker posts back
            self.got.codes[message["registration_id"]] = message["code"]
        else:  # the payload has no id of its own: the version and reminder make one
            self.got.add(seat, f"{message['match_id']}/{message['version']}/"
                           f"{message.get('reminder', 0)}", message)
        request.send_response(201)
        request.end_headers()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Mailbox:
    """An SMTP server on loopback that keeps every message (aiosmtpd)."""

    def __init__(self) -> None:
        from aiosmtpd.controller import Controller

        self.got = Got()
        mailbox = self

        class Handler:
            async def handle_DATA(self, server: Any, session: Any,
                                  envelope: Any) -> str:
                message = email.message_from_bytes(envelope.content)
                body = message.get_payload(decode=True).decode()
                seat = message["To"].split("@")[0]
                if message["X-Battlelog-Delivery"].startswith("cfm_"):
                    for reg, code in re.findall(r"/notifications/([0-9a-f]+)/confirm\?code="
                                                r"([A-Z0-9]+)", body):
                        mailbox.got.codes[reg] = code
                    return "250 OK"
                mailbox.got.add(seat, message["X-Battlelog-Delivery"],
                                {"subject": message["Subject"], "body": body,
                                 "message_id": message["Message-ID"]})
                return "250 OK"

        self.port = free_port()
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def close(self) -> None:
        self.controller.stop()


def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@dataclass
class Table:
    """A match of Atomic Africa's demo with both sides seated, on server `url`."""

    url: str
    match: str
    tokens: dict[str, str]
    handoffs: list[tuple[str, int]] = field(default_factory=list)  # (seat told, version)

    @classmethod
    def start(cls, url: str) -> Table:
        body = httpx.get(f"{url}/api/scenarios/atomic-africa-demo", timeout=10).json()
        made = httpx.post(f"{url}/api/matches", json=body, timeout=10).json()
        tokens = dict(made["tokens"])
        for side in ("red", "blue"):
            joined = httpx.post(f"{url}/api/matches/{made['match_id']}/seats",
                                json={"player": side.title()},
                                headers=_auth(tokens[f"join:{side}"]), timeout=10)
            assert joined.status_code == 201, joined.text
            tokens[side] = joined.json()["token"]
        return cls(url, made["match_id"], tokens)

    def post(self, seat: str, path: str, body: dict[str, Any] | None = None,
             url: str | None = None) -> httpx.Response:
        return httpx.post(f"{url or self.url}/api/matches/{self.match}/{path}", json=body,
                          headers=_auth(self.tokens[seat]), timeout=20)

    def register(self, seat: str, body: dict[str, Any], by: str | None = None,
                 confirm: Got | None = None) -> dict[str, Any]:
        """Register, and with `confirm` (what the receiver took in) confirm with the code
        that arrives there."""
        made = self.post(by or seat, "notifications", {"seat": seat, **body})
        assert made.status_code == 201, made.text
        if confirm is not None:
            self.confirm(made.json()["registration_id"], confirm)
        return dict(made.json())

    def confirm(self, registration_id: str, got: Got) -> None:
        wait_until(lambda: registration_id in got.codes, 60, "the confirmation message")
        done = httpx.post(f"{self.url}/api/matches/{self.match}/notifications/"
                          f"{registration_id}/confirm", json={"code": got.codes[registration_id]},
                          timeout=20)
        assert done.status_code == 200, done.text

    def act(self, seat: str, path: str, body: dict[str, Any] | None, told: str | None,
            url: str | None = None) -> int:
        done = self.post(seat, path, body, url)
        assert done.status_code == 201, done.text
        version = int(done.headers["etag"].strip('"'))
        if told is not None:
            self.handoffs.append((told, version))
        return version

    def play(self, handoffs: int, urls: list[str] | None = None,
             between: Callable[[int], None] | None = None) -> None:
        """Red activates and moves on (the turn goes to blue), then undoes and redoes that
        (to red, to blue, ...) until `handoffs` handoffs, alternating over `urls`."""
        urls = urls or [self.url]
        self.act("red", "actions", {"type": "activate_unit", "unit_id": "sq1"}, None)
        self.act("red", "actions", {"type": "advance"}, "blue", urls[0])
        for i in range(1, handoffs):
            if between is not None:
                between(i)
            url = urls[i % len(urls)]
            if i % 2:
                self.act("red", "undo", {"actions": 1}, "red", url)
            else:
                self.act("red", "redo", None, "blue", url)


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
