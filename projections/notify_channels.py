"""How a notice travels: a signed webhook (Standard Webhooks), an e-mail over SMTP, a Web
Push message (VAPID). Each `send` returns an `Answer` (the status code, or the error) and
never raises; what to do next (sent, retry, give up) is the delivery's decision.

Where a notice may go is checked twice, at registration and before every attempt: http(s)
only, and no loopback, private, link-local or otherwise reserved address unless the
settings allow them. A webhook is a request the server makes on a stranger's behalf;
without that check anyone with a seat could make it call services that only the server
can reach (SSRF: the database, a cloud's metadata address, an admin page on localhost)."""

from __future__ import annotations

import asyncio
import base64
import ipaddress
import secrets
import socket
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson

MAX_URL = 2048
TIMEOUT = httpx.Timeout(10.0, connect=5.0)


class Refused(ValueError):
    """A target the notices may not go to, and why."""


def check_url(url: str, *, allow_private: bool, resolve: bool = True) -> str:
    """`url` if notices may be sent there, else `Refused` saying why."""
    if len(url) > MAX_URL:
        raise Refused(f"a URL of at most {MAX_URL} characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused("an http:// or https:// URL with a host")
    if parts.username or parts.password:
        raise Refused("a URL without a user name or password in it")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise Refused("a URL with a valid port") from None
    if allow_private or not resolve:
        return url
    try:
        infos = socket.getaddrinfo(parts.hostname, port, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        raise Refused(f"a host name that resolves ({parts.hostname} does not)") from None
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%")[0])
        if not address.is_global or address.is_multicast:
            raise Refused(f"a public address ({parts.hostname} is {address}: loopback, "
                          "private and reserved addresses are refused)")
    return url


def new_secret() -> str:
    """A webhook secret in the Standard Webhooks format: `whsec_` and 32 random bytes."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


@dataclass(frozen=True)
class Answer:
    status_code: int | None
    error: str | None
    duration_ms: float

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300

    @property
    def final(self) -> bool:
        """A refusal that a retry will not change (a 4xx other than 408, 409, 425, 429;
        for Web Push 404 and 410: the subscription is gone)."""
        code = self.status_code
        return code is not None and 400 <= code < 500 and code not in (408, 409, 425, 429)


def _timed(start: float, status: int | None = None, error: str | None = None) -> Answer:
    return Answer(status, error[:500] if error else None, (time.monotonic() - start) * 1000)


@dataclass(frozen=True)
class SmtpConfig:
    host: str = ""
    port: int = 587
    tls: str = "starttls"  # none | starttls | tls
    user: str = ""
    password: str = ""
    sender: str = ""

    @property
    def on(self) -> bool:
        return bool(self.host and self.sender)


class Channels:
    """The three ways out, with their settings."""

    def __init__(self, *, allow_private: bool, smtp: SmtpConfig,
                 vapid: tuple[str, str] | None = None, vapid_subject: str = "") -> None:
        self.allow_private = allow_private
        self.smtp = smtp
        self.vapid = vapid  # (private PEM, public key)
        self.vapid_subject = vapid_subject or "mailto:battlelog@localhost"
        self.http = httpx.Client(timeout=TIMEOUT, follow_redirects=False)

    def close(self) -> None:
        self.http.close()

    def send(self, kind: str, reg: Any, delivery_id: str, payload: dict[str, Any]) -> Answer:
        start = time.monotonic()
        try:
            if kind == "webhook":
                return self.webhook(reg, delivery_id, payload, start)
            if kind == "email":
                return self.email(reg, delivery_id, payload, start)
            if kind == "push":
                return self.push(reg, payload, start)
            return _timed(start, error=f"unknown kind {kind!r}")
        except Refused as refused:
            return _timed(start, error=f"refused: {refused}")
        except Exception as error:  # noqa: BLE001 - any failure is an attempt's answer
            return _timed(start, error=f"{type(error).__name__}: {error}")

    def webhook(self, reg: Any, delivery_id: str, payload: dict[str, Any],
                start: float) -> Answer:
        from standardwebhooks.webhooks import Webhook

        url = check_url(reg.target, allow_private=self.allow_private)
        body = orjson.dumps(payload).decode()
        now = datetime.now(UTC)
        signature = Webhook(reg.secret).sign(delivery_id, now, body)
        response = self.http.post(url, content=body.encode(), headers={
            "content-type": "application/json", "webhook-id": delivery_id,
            "webhook-timestamp": str(int(now.timestamp())), "webhook-signature": signature,
            "user-agent": "battlelog-notify"})
        return _timed(start, response.status_code)

    def email(self, reg: Any, delivery_id: str, payload: dict[str, Any],
              start: float) -> Answer:
        import aiosmtplib

        if not self.smtp.on:
            return _timed(start, error="e-mail is off (no BATTLELOG_SMTP_HOST/FROM set)")
        message = EmailMessage()
        message["From"] = self.smtp.sender
        message["To"] = reg.target
        message["Subject"] = subject(payload)
        message["Message-ID"] = f"<{delivery_id}@battlelog>"
        message["X-Battlelog-Delivery"] = delivery_id
        message.set_content(text(payload))
        cfg = self.smtp
        asyncio.run(aiosmtplib.send(
            message, hostname=cfg.host, port=cfg.port, username=cfg.user or None,
            password=cfg.password or None, use_tls=cfg.tls == "tls",
            start_tls=cfg.tls == "starttls", timeout=10))
        return _timed(start, 250)

    def push(self, reg: Any, payload: dict[str, Any], start: float) -> Answer:
        from py_vapid import Vapid  # type: ignore[import-untyped]
        from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

        check_url(reg.target, allow_private=self.allow_private)
        if self.vapid is None:
            return _timed(start, error="no VAPID key")
        try:
            response = webpush(
                {"endpoint": reg.target, "keys": {"p256dh": reg.p256dh, "auth": reg.auth}},
                data=orjson.dumps({**payload, "title": subject(payload), "body": text(payload),
                                   "url": payload.get("link")}).decode(),
                vapid_private_key=Vapid.from_pem(self.vapid[0].encode()),
                vapid_claims={"sub": self.vapid_subject}, timeout=10, ttl=24 * 3600)
        except WebPushException as error:
            code = error.response.status_code if error.response is not None else None
            return _timed(start, code, str(error).splitlines()[0])
        return _timed(start, getattr(response, "status_code", 201))


def subject(payload: dict[str, Any]) -> str:
    again = " (reminder)" if payload.get("reminder") else ""
    return f"Your move in {payload.get('title', 'your match')}{again}"


def text(payload: dict[str, Any]) -> str:
    """The notice in words (the e-mail's body, the push message's text)."""
    lines = [f"{payload.get('step', '')}."]
    for wait in payload.get("waiting_for", []):
        lines.append(f"Waiting for {wait['name']}: {wait['reason']}.")
    if payload.get("last"):
        lines.append(f"Last: {payload['last']}")
    lines.append(f"Open the table: {payload.get('link', '')}")
    return "\n".join(lines)


def make_vapid() -> tuple[str, str]:
    """A new VAPID key pair: (private key PEM, public key as the browser's
    `applicationServerKey`: the uncompressed P-256 point, base64url without padding)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    raw = key.public_key().public_bytes(serialization.Encoding.X962,
                                        serialization.PublicFormat.UncompressedPoint)
    return pem, base64.urlsafe_b64encode(raw).decode().rstrip("=")
