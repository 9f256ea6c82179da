"""Outbound requests through the egress (issue 25), with real receivers on loopback: a
webhook and a push endpoint that redirect (301, 302, 307, 308) to a loopback listener get
their redirect recorded as the attempt's failure and the listener sees nothing; a name that
resolves to a public address and then to loopback never reaches loopback; every refused
form is refused at registration (422, nothing kept) and at delivery (nothing sent); a port
outside the allowed set is refused; no refusal says what a name resolved to; over TLS the
request goes to the checked address with the name as server name, and a certificate for
another name is refused."""

from __future__ import annotations

import base64
import os
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from egress_forms import ALL
from fastapi.testclient import TestClient
from notify_confirming import confirm
from notify_targets import stop_accepting
from test_notifications_api import auth, seated

from api.app import create_app
from api.settings import Settings
from domain.app import Matches
from projections.egress import Egress, EgressConfig
from projections.notify_channels import Channels, SmtpConfig, make_vapid, new_secret

PAYLOAD = {"type": "turn.waiting", "title": "Egress", "step": "Turn 1", "version": 3}
PUBLIC = "1.1.1.1"


class Listener:
    """A loopback TCP listener that counts the connections made to it and closes them: the
    service only the server can reach."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.accepting = threading.Thread(target=self._accept, daemon=True)
        self.accepting.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()

    def close(self) -> None:
        stop_accepting(self.sock, self.accepting)


class Receiver:
    """An HTTP server on loopback answering every request with `status` (and a Location to
    `location`), counting them and keeping their Host headers."""

    def __init__(self, status: int = 204, location: str = "") -> None:
        self.status, self.location, self.requests = status, location, 0
        self.hosts: list[str] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def answer(self) -> None:
                self.rfile.read(int(self.headers.get("content-length", 0)))
                receiver.requests += 1
                receiver.hosts.append(self.headers["host"])
                self.send_response(receiver.status)
                if receiver.location:
                    self.send_header("location", receiver.location)
                self.send_header("content-length", "0")
                self.end_headers()

            do_POST = do_GET = answer

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    made = Listener()
    yield made
    made.close()


def subscription_keys() -> dict[str, str]:
    key = ec.generate_private_key(ec.SECP256R1())
    raw = key.public_key().public_bytes(serialization.Encoding.X962,
                                        serialization.PublicFormat.UncompressedPoint)
    b64 = lambda value: base64.urlsafe_b64encode(value).decode().rstrip("=")
    return {"p256dh": b64(raw), "auth": b64(os.urandom(16))}


def registration(url: str) -> SimpleNamespace:
    return SimpleNamespace(target=url, secret=new_secret(), **subscription_keys())


@pytest.mark.parametrize("kind", ["webhook", "push"])
@pytest.mark.parametrize("code", [301, 302, 307, 308])
def test_a_redirect_is_the_attempts_answer_and_its_target_sees_nothing(
        listener: Listener, kind: str, code: int) -> None:
    redirector = Receiver(code, f"http://127.0.0.1:{listener.port}/internal")
    # private targets allowed on any port: were a redirect followed, the listener would see it
    channels = Channels(allow_private=True, smtp=SmtpConfig(), vapid=make_vapid())
    try:
        answer = channels.send(kind, registration(f"{redirector.url}/hook"), "d1", PAYLOAD)
    finally:
        redirector.close()
    assert listener.connections == 0 and redirector.requests == 1
    assert answer.status_code == code and not answer.ok, answer


def app_client(matches: Matches, **settings: Any) -> TestClient:
    return TestClient(create_app(Settings(admin_token="admin-token", **settings),
                                 matches=matches))


def register(client: TestClient, match: str, token: str, kind: str, url: str
             ) -> httpx.Response:
    body: dict[str, Any] = {"kind": kind}
    if kind == "webhook":
        body["url"] = url
    else:
        body["subscription"] = {"endpoint": url, "keys": subscription_keys()}
    made = client.post(f"/api/matches/{match}/notifications", json=body, headers=auth(token))
    if made.status_code == 201:  # confirmed, as its owner would: then it is told
        confirm(client, match, made.json()["registration_id"])
    return made


def hand_over_and_deliver(client: TestClient, match: str, tokens: dict[str, str]) -> None:
    """Red activates and moves on: blue is waited for; the outbox and one delivery run."""
    for action in ({"type": "activate_unit", "unit_id": "sq1"}, {"type": "advance"}):
        done = client.post(f"/api/matches/{match}/actions", json=action,
                           headers=auth(tokens["red"]))
        assert done.status_code == 201, done.text
    notify = client.app.state.notify  # type: ignore[attr-defined]
    notify.step_outbox()
    notify.deliverer().deliver_due()


def attempts(client: TestClient, match: str, token: str, reg: str) -> list[dict[str, Any]]:
    got = client.get(f"/api/matches/{match}/notifications/{reg}/attempts",
                     headers=auth(token))
    assert got.status_code == 200, got.text
    return list(got.json())


def test_redirects_are_recorded_as_failed_attempts(matches: Matches,
                                                   listener: Listener) -> None:
    to_listener = f"http://127.0.0.1:{listener.port}/internal"
    hook, push = Receiver(307, to_listener), Receiver(302, to_listener)
    try:
        with app_client(matches, notify_allow_private=True) as client:
            client.app.state.notify.stop()  # type: ignore[attr-defined]
            match, tokens = seated(client)
            made = {kind: register(client, match, tokens["blue"], kind, f"{server.url}/b")
                    for kind, server in (("webhook", hook), ("push", push))}
            assert all(m.status_code == 201 for m in made.values()), made
            hand_over_and_deliver(client, match, tokens)
            for kind, code in (("webhook", 307), ("push", 302)):
                [tried] = attempts(client, match, tokens["blue"],
                                   made[kind].json()["registration_id"])
                assert tried["status_code"] == code
    finally:
        hook.close()
        push.close()
    assert hook.requests == 1 and push.requests == 1 and listener.connections == 0


@pytest.mark.parametrize("kind", ["webhook", "push"])
def test_a_name_that_resolves_public_then_loopback_never_reaches_loopback(
        monkeypatch: pytest.MonkeyPatch, listener: Listener, kind: str) -> None:
    """The system resolver answers `rebind.test` with a public address, then loopback
    (DNS rebinding); the socket layer lets nothing leave the machine (a public address is
    recorded and refused) and sends loopback to the listener."""
    real_resolve, real_connect = socket.getaddrinfo, socket.create_connection
    resolved: list[str] = []
    dialed: list[str] = []

    def rebinding(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != "rebind.test":
            return real_resolve(host, port, *args, **kwargs)
        resolved.append(host)
        address = PUBLIC if len(resolved) == 1 else "127.0.0.1"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    def connect(address: Any, timeout: Any = None, *args: Any, **kwargs: Any) -> Any:
        ip = rebinding(address[0], address[1])[0][4][0]
        dialed.append(ip)
        if ip == "127.0.0.1":
            return real_connect(("127.0.0.1", listener.port), timeout)
        raise ConnectionRefusedError("the test lets nothing leave the machine")

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    monkeypatch.setattr(socket, "create_connection", connect)
    channels = Channels(allow_private=False, smtp=SmtpConfig(), vapid=make_vapid())
    answer = channels.send(kind, registration("http://rebind.test/hook"), "d1", PAYLOAD)
    assert not answer.ok
    assert listener.connections == 0 and "127.0.0.1" not in dialed
    assert resolved == ["rebind.test"] and dialed == [PUBLIC]


class Nowhere(httpx.BaseTransport):
    """A transport that records every request it is asked to make, and makes none."""

    def __init__(self) -> None:
        self.asked: list[httpx.URL] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.asked.append(request.url)
        raise httpx.ConnectError("nowhere")


def test_every_refused_form_is_refused_at_registration(matches: Matches) -> None:
    with app_client(matches) as client:
        match, tokens = seated(client)
        accepted = []
        for host in ALL:
            for kind in ("webhook", "push"):
                made = register(client, match, tokens["red"], kind, f"https://{host}/x")
                if made.status_code != 422 or made.headers["content-type"] != (
                        "application/problem+json"):
                    accepted.append((kind, host, made.status_code))
        assert accepted == []
        for url in ("http://8.8.8.8:6379/x", "https://1.1.1.1:22/x"):
            refused = register(client, match, tokens["red"], "webhook", url)
            assert refused.status_code == 422 and "port 80 or 443" in refused.text
        assert client.get(f"/api/matches/{match}/notifications",
                          headers=auth(tokens["red"])).json() == []


def test_every_refused_form_is_refused_at_delivery() -> None:
    nowhere = Nowhere()
    channels = Channels(smtp=SmtpConfig(), vapid=make_vapid(),
                        egress=Egress(EgressConfig(), transport=nowhere))
    let_through = []
    for host in ALL + ["8.8.8.8:6379", "1.1.1.1:22"]:
        for kind in ("webhook", "push"):
            answer = channels.send(kind, registration(f"https://{host}/x"), "d1", PAYLOAD)
            if not (answer.error or "").startswith("refused: "):
                let_through.append((kind, host, answer))
    assert let_through == [] and nowhere.asked == []


def test_no_refusal_says_what_a_name_resolved_to(matches: Matches) -> None:
    answers = {"vm": "127.0.0.1", "db.internal": "10.9.8.7"}
    with app_client(matches) as client:
        notify = client.app.state.notify  # type: ignore[attr-defined]
        notify.stop()
        notify.egress.resolve = lambda host, port: [answers[host]]
        match, tokens = seated(client)
        for name, address in answers.items():
            refused = register(client, match, tokens["red"], "webhook", f"https://{name}/x")
            assert refused.status_code == 422 and address not in refused.text
        # registered while it resolved to a public address; refused once it does not
        answers["flip.example"] = PUBLIC
        made = register(client, match, tokens["blue"], "webhook", "https://flip.example/x")
        assert made.status_code == 201, made.text
        answers["flip.example"] = "10.9.8.7"
        hand_over_and_deliver(client, match, tokens)
        [tried] = attempts(client, match, tokens["blue"], made.json()["registration_id"])
        assert tried["status_code"] is None and tried["error"].startswith("refused: ")
        assert "10.9.8.7" not in tried["error"]


def test_only_the_allowed_port_is_reached_when_private_targets_are_allowed(
        matches: Matches, listener: Listener) -> None:
    receiver = Receiver(204)
    try:
        with app_client(matches, notify_allow_private=True,
                        egress_ports=str(receiver.port)) as client:
            client.app.state.notify.stop()  # type: ignore[attr-defined]
            match, tokens = seated(client)
            other = register(client, match, tokens["blue"], "webhook",
                             f"http://127.0.0.1:{listener.port}/x")
            assert other.status_code == 422, other.text
            made = register(client, match, tokens["blue"], "webhook", f"{receiver.url}/b")
            assert made.status_code == 201, made.text
            hand_over_and_deliver(client, match, tokens)
            [tried] = attempts(client, match, tokens["blue"], made.json()["registration_id"])
            assert tried["status_code"] == 204
            channels = client.app.state.notify.deliverer().channels  # type: ignore[attr-defined]
            refused = channels.send("webhook", registration(
                f"http://127.0.0.1:{listener.port}/x"), "d2", PAYLOAD)
            assert refused.error.startswith("refused: ")
    finally:
        receiver.close()
    assert receiver.requests == 1 and listener.connections == 0


def certificate(name: str) -> tuple[bytes, bytes]:
    """A self-signed certificate for `name` and its key, both PEM."""
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
            .sign(key, hashes.SHA256()))
    return (cert.public_bytes(serialization.Encoding.PEM),
            key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                              serialization.NoEncryption()))


@pytest.mark.parametrize("name, trusted, reached", [
    ("hook.test", "hook.test", True), ("hook.test", "other.test", False)])
def test_tls_goes_to_the_checked_address_with_the_name_as_server_name_and_certificate(
        tmp_path: Any, name: str, trusted: str, reached: bool) -> None:
    import ssl

    cert, key = certificate(trusted)
    (tmp_path / "cert.pem").write_bytes(cert)
    (tmp_path / "key.pem").write_bytes(key)
    served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    served.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")
    names: list[str | None] = []
    served.sni_callback = lambda sock, server_name, ctx: names.append(server_name)
    receiver = Receiver(204)
    receiver.server.socket = served.wrap_socket(receiver.server.socket, server_side=True)
    trust = ssl.create_default_context(cadata=cert.decode())
    resolved: list[str] = []
    out = Egress(EgressConfig(ports=frozenset({receiver.port}), allow_private=True),
                 resolve=lambda host, port: resolved.append(host) or ["127.0.0.1"],
                 transport=httpx.HTTPTransport(verify=trust, retries=0))
    try:
        if reached:
            reply = out.post(f"https://{name}:{receiver.port}/hook", b"{}", {})
            assert reply.status_code == 204
            assert receiver.hosts == [f"{name}:{receiver.port}"]
        else:
            with pytest.raises(httpx.ConnectError, match="certificate"):
                out.post(f"https://{name}:{receiver.port}/hook", b"{}", {})
            assert receiver.hosts == []
    finally:
        receiver.close()
    assert names == [name] and resolved == [name]
