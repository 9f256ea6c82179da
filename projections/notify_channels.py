"""How a notice travels: a signed webhook (Standard Webhooks), an e-mail over SMTP, a Web
Push message (VAPID). Each `send` returns an `Answer` (the status code, or the error) and
never raises; what to do next (sent, retry, give up) is the delivery's decision.

Webhooks and Web Push go out through `projections.egress`, the one way out: where a notice
may go is checked the same way at registration and on every attempt, the name resolved
once and the request made to exactly the checked address, no redirect followed."""

from __future__ import annotations

import asyncio
import base64
import logging
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from typing import Any

import orjson

from projections.egress import MAX_URL, Egress, EgressConfig, Refused, parse_ports
from projections.notify_words import OUTCOME, SENTENCE, failure, plain

__all__ = ["MAX_URL", "Answer", "Channels", "Refused", "SmtpConfig", "check_url"]
log = logging.getLogger("battlelog.notify")


def check_url(url: str, egress: Egress) -> str:
    """`url` if notices may be sent there, else `Refused` saying what would be allowed
    (the same check as every delivery attempt's)."""
    return egress.check(url)


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

    def __init__(self, *, smtp: SmtpConfig, allow_private: bool = False,
                 vapid: tuple[str, str] | None = None, vapid_subject: str = "",
                 egress: Egress | None = None) -> None:
        self.smtp = smtp
        self.vapid = vapid  # (private PEM, public key)
        self.vapid_subject = vapid_subject or "mailto:battlelog@localhost"
        # `allow_private` only makes the default egress (tests); the service passes its own
        self.egress = egress or Egress(EgressConfig(
            ports=parse_ports("", allow_private), allow_private=allow_private))

    def close(self) -> None:
        """Nothing is kept open: each request has a connection of its own."""

    def send(self, kind: str, reg: Any, delivery_id: str, payload: dict[str, Any]) -> Answer:
        start = time.monotonic()
        try:
            if kind == "webhook":
                return self.webhook(reg, delivery_id, payload, start)
            if kind == "email":
                return self.email(reg, delivery_id, payload, start)
            if kind == "push":
                return self.push(reg, payload, start)
            return _timed(start, error="this kind of notice is not sent by this server")
        except Refused as refused:
            return _timed(start, error=f"refused: {refused}")
        except Exception as error:  # noqa: BLE001 - any failure is an attempt's answer
            # in words for the players (notify_words.failure); the exception to the log
            log.info("a %s notice could not be sent: %s: %s", kind, type(error).__name__, error)
            return _timed(start, error=failure(error))

    def webhook(self, reg: Any, delivery_id: str, payload: dict[str, Any],
                start: float) -> Answer:
        from standardwebhooks.webhooks import Webhook

        body = orjson.dumps(payload).decode()
        now = datetime.now(UTC)
        signature = Webhook(reg.secret).sign(delivery_id, now, body)
        reply = self.egress.post(reg.target, body.encode(), {
            "content-type": "application/json", "webhook-id": delivery_id,
            "webhook-timestamp": str(int(now.timestamp())), "webhook-signature": signature,
            "user-agent": "battlelog-notify"})
        return _timed(start, reply.status_code)

    def email(self, reg: Any, delivery_id: str, payload: dict[str, Any],
              start: float) -> Answer:
        import aiosmtplib

        if not self.smtp.on:
            return _timed(start, error="e-mail is off on this server")
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
        """Encrypted (aes128gcm) and signed (VAPID) by pywebpush, sent by the egress: not
        by pywebpush's `requests`, which would follow redirects."""
        from py_vapid import Vapid  # type: ignore[import-untyped]
        from pywebpush import WebPusher  # type: ignore[import-untyped]

        target = self.egress.target(reg.target)  # resolved and checked once, used below
        if self.vapid is None:
            return _timed(start, error="Web Push is off on this server")
        data = orjson.dumps({**payload, "title": subject(payload), "body": text(payload),
                             "url": payload.get("link")})
        pusher = WebPusher({"endpoint": reg.target,
                            "keys": {"p256dh": reg.p256dh, "auth": reg.auth}})
        encoded = pusher.encode(data, "aes128gcm")
        claims = {"sub": self.vapid_subject, "aud": target.origin,
                  "exp": int(time.time()) + 12 * 3600}
        signed = Vapid.from_pem(self.vapid[0].encode()).sign(claims)
        reply = self.egress.post(target, encoded["body"], {
            **{str(k).lower(): str(v) for k, v in signed.items()},
            "content-encoding": "aes128gcm", "ttl": str(24 * 3600),
            "content-type": "application/octet-stream", "user-agent": "battlelog-notify"})
        return _timed(start, reply.status_code)


CONFIRM = "registration.confirm"  # the payload type of a confirmation message


def subject(payload: dict[str, Any]) -> str:
    """The e-mail's subject, the push message's title: one line, whatever the names."""
    if payload.get("type") == CONFIRM:
        return "Confirm battlelog turn notices for this address"
    again = " (reminder)" if payload.get("reminder") else ""
    return f"Your move in {plain(payload.get('title') or 'your match')}{again}"


def text(payload: dict[str, Any]) -> str:
    """The notice in words (the e-mail's body, the push message's text). Every word a
    player wrote is plain (`notify_words`); the one link is the server's own."""
    if payload.get("type") == CONFIRM:
        return confirmation_text(payload)
    lines = [f"{plain(payload.get('step', ''), SENTENCE)}."]
    for wait in payload.get("waiting_for", []):
        lines.append(f"Waiting for {plain(wait['name'])}: {plain(wait['reason'], SENTENCE)}.")
    if payload.get("last"):
        lines.append(f"Last: {plain(payload['last'], OUTCOME)}")  # an action's outcome
    lines.append(f"Open the table: {payload.get('link', '')}")
    return "\n".join(lines)


def confirmation_text(payload: dict[str, Any]) -> str:
    """The confirmation message: what was asked, the code and the link that confirm it;
    no word a player or the match's creator chose (not even a seat's id: only the
    service's own words and ids)."""
    return "\n".join([
        ("Someone asked that this address be told when it is a seat's turn in battlelog "
         f"match {payload.get('match_id')}."),
        "",
        f"To agree, open {payload.get('link', '')}",
        f"or give the code {payload.get('code', '')}.",
        "",
        ("If it was not you, ignore this message: nothing more is sent here unless it is "
         "confirmed, and the request lapses."),
    ])


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
