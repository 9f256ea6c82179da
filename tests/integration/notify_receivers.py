"""Receivers of notices for the in-process notification tests: an SMTP server (`aiosmtpd`)
and a webhook receiver on loopback, each keeping what arrived; and a seated Atomic Africa
demo on a test client whose notifier the test drives (the outbox applied, the due notices
delivered, when the test says)."""

from __future__ import annotations

import email
import re
import socket
import threading
from dataclasses import dataclass, field
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import orjson
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from domain.app import Matches
from projections.notify_channels import Channels, make_vapid
from projections.notify_delivery import Deliverer


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Mailbox:
    """An SMTP server on loopback (aiosmtpd) keeping every message it is given."""

    def __init__(self) -> None:
        from aiosmtpd.controller import Controller

        self.messages: list[Message] = []
        box = self

        class Handler:
            async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
                box.messages.append(email.message_from_bytes(envelope.content))
                return "250 OK"

        self.port = _free_port()
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def bodies(self) -> list[str]:
        return [str(m.get_payload(decode=True).decode()) for m in self.messages]

    def code(self, registration_id: str = "[0-9a-f]+") -> str:
        """The code of the last confirmation message (for `registration_id`)."""
        found = re.findall(rf"/notifications/{registration_id}/confirm\?code=([A-Z0-9]+)",
                           "\n".join(self.bodies()))
        assert found, "no confirmation message arrived"
        return str(found[-1])

    def close(self) -> None:
        self.controller.stop()


class Hooks:
    """A webhook receiver on loopback: every POST's body, by path."""

    def __init__(self) -> None:
        self.got: list[tuple[str, dict[str, Any]]] = []
        hooks = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                hooks.got.append((self.path, orjson.loads(body)))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def mail_settings(mailbox: Mailbox, **changes: Any) -> Settings:
    """A server's settings that send e-mail to `mailbox` and notices to loopback."""
    return Settings(admin_token="admin-token", notify_allow_private=True,
                    smtp_host="127.0.0.1", smtp_port=mailbox.port, smtp_tls="none",
                    smtp_from="battlelog@example.org", **changes)


def serve_notifying(matches: Matches, settings: Settings,
                    client: tuple[str, int] = ("testclient", 50000)) -> TestClient:
    """A test client of an app on `matches` whose notifier the test drives (enter it)."""
    return TestClient(create_app(settings, matches=matches), client=client)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Table:
    """Atomic Africa's demo, both sides seated, on `client` (its notifier stopped: `run`
    applies the log and delivers what is due)."""

    client: TestClient
    match: str
    tokens: dict[str, str]
    told: list[str] = field(default_factory=list)

    @classmethod
    def seat(cls, client: TestClient, **changes: Any) -> Table:
        body = {**client.get("/api/scenarios/atomic-africa-demo").json(), **changes}
        made = client.post("/api/matches", json=body)
        assert made.status_code == 201, made.text
        match, tokens = made.json()["match_id"], dict(made.json()["tokens"])
        for side in ("red", "blue"):
            tokens[side] = client.post(f"/api/matches/{match}/seats", json={"player": side},
                                       headers=auth(tokens[f"join:{side}"])).json()["token"]
        return cls(client, match, tokens)

    def register(self, by: str, body: dict[str, Any]) -> Any:
        return self.client.post(f"/api/matches/{self.match}/notifications", json=body,
                                headers=auth(self.tokens[by]))

    def confirm(self, registration_id: str, code: str) -> Any:
        return self.client.post(
            f"/api/matches/{self.match}/notifications/{registration_id}/confirm",
            json={"code": code})

    def listed(self, by: str) -> list[dict[str, Any]]:
        answer = self.client.get(f"/api/matches/{self.match}/notifications",
                                 headers=auth(self.tokens[by]))
        assert answer.status_code == 200, answer.text
        return list(answer.json())

    def attempts(self, by: str, registration_id: str) -> list[dict[str, Any]]:
        answer = self.client.get(
            f"/api/matches/{self.match}/notifications/{registration_id}/attempts",
            headers=auth(self.tokens[by]))
        assert answer.status_code == 200, answer.text
        return list(answer.json())

    def hand_over(self, times: int = 1) -> None:
        """Red activates and advances (the turn goes to blue), then undoes that and
        advances again (red, blue, ...): `times` handoffs."""
        if not self.told:
            self.act("actions", {"type": "activate_unit", "unit_id": "sq1"})
        for _ in range(times):
            undo = bool(self.told) and self.told[-1] == "blue"
            self.act("undo" if undo else "actions", {"actions": 1} if undo else {
                "type": "advance"})
            self.told.append("red" if undo else "blue")

    def act(self, path: str, body: dict[str, Any] | None) -> None:
        done = self.client.post(f"/api/matches/{self.match}/{path}", json=body,
                                headers=auth(self.tokens["red"]))
        assert done.status_code == 201, done.text

    def run(self) -> None:
        """Apply the log to the outbox, then send everything due (with channels of its
        own: the stopped notifier closed its own)."""
        notify = self.client.app.state.notify
        notify.outbox.catch_up()
        config = notify.config
        channels = Channels(smtp=config.smtp,
                            vapid=notify.view.vapid(make_vapid), egress=notify.egress)
        try:
            Deliverer(notify.view, channels, config.delivery).deliver_due()
        finally:
            channels.close()
