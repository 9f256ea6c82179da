"""A webhook target on loopback that counts what reaches it, for the delivery lane tests:
a raw TCP listener that, per `mode`, holds every connection open without a word until the
sender gives up (`hang`: a blackhole), closes it at once (`drop`), reads the request
and answers 204 (`answer`), or reads it and answers 204 only once `release` is set
(`hold`: a slow receiver, held by the test, not by a clock). Also the registrations and notices the tests put straight in
the store (the outbox's projection is tested elsewhere)."""

from __future__ import annotations

import socket
import threading
import uuid
from collections.abc import Callable

from projections.notify_channels import new_secret
from projections.notify_store import CONFIRMED, Notice, NotifyView, Registration


def stop_accepting(server: socket.socket, accepting: threading.Thread) -> None:
    """Close a listening socket and wait for the thread blocked in its accept() to end: on
    Linux closing it alone does not wake that thread (it waited for the process's end)."""
    try:
        server.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    server.close()
    accepting.join(5)


class Target:
    def __init__(self, host: str, mode: str) -> None:
        self.mode = mode
        self.accepted = 0  # connections taken
        self.finished = 0  # held connections the sender gave up on (closed its end)
        self.answered: list[str] = []  # the webhook-id of each request answered
        self.on_request: Callable[[], None] = lambda: None  # before each answer
        self.release = threading.Event()  # `hold`: answer the requests held so far and on
        self.holding = 0  # `hold`: requests read and held now
        self._lock = threading.Lock()
        self._held: list[socket.socket] = []
        self._server = socket.create_server((host, 0))
        self.url = f"http://{host}:{self._server.getsockname()[1]}/hook"
        self._accepting = threading.Thread(target=self._accept, daemon=True)
        self._accepting.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._server.accept()
            except OSError:
                return
            with self._lock:
                self.accepted += 1
                self._held.append(conn)
            threading.Thread(target=self._serve, args=(conn, self.mode), daemon=True).start()

    def _serve(self, conn: socket.socket, mode: str) -> None:
        try:
            if mode == "drop":
                conn.close()
                return
            head = _request(conn)
            if mode == "hang":
                while conn.recv(4096):  # never a word back; b"": the sender gave up
                    pass
                with self._lock:
                    self.finished += 1
                return
            if mode == "hold":
                with self._lock:
                    self.holding += 1
                self.release.wait()
                with self._lock:
                    self.holding -= 1
            self.on_request()
            delivery = next((line.split(":", 1)[1].strip() for line in head.split("\r\n")
                             if line.lower().startswith("webhook-id:")), "")
            with self._lock:
                self.answered.append(delivery)
            conn.sendall(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n"
                         b"Connection: close\r\n\r\n")
            conn.close()
        except OSError:  # closed by close(): the test is over
            pass

    def count(self) -> tuple[int, int]:
        """(connections accepted, held connections the sender gave up on), read at once."""
        with self._lock:
            return self.accepted, self.finished

    def close(self) -> None:
        """Stop listening and cut every connection (hanging sends end at once)."""
        self.release.set()
        stop_accepting(self._server, self._accepting)
        with self._lock:
            held, self._held = self._held, []
        for conn in held:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            conn.close()


def _request(conn: socket.socket) -> str:
    """Read one HTTP request (its body by its content-length); its head."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(4096)
        if not chunk:
            return data.decode("latin-1")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    text = head.decode("latin-1")
    length = next((int(line.split(":", 1)[1]) for line in text.split("\r\n")
                   if line.lower().startswith("content-length:")), 0)
    while len(body) < length:
        chunk = conn.recv(4096)
        if not chunk:
            break
        body += chunk
    return text


def registered(view: NotifyView, url: str, match_id: str, seat: str, at: float) -> str:
    """A confirmed webhook registration for `url`, stored; its id."""
    reg = Registration(registration_id=str(uuid.uuid4()), match_id=match_id, seat=seat,
                       kind="webhook", target=url, secret=new_secret(), p256dh=None,
                       auth=None, created=at, status=CONFIRMED, confirmed=at)
    assert view.add_registration(reg, 100, 100) is None
    return reg.registration_id


def notice(view: NotifyView, registration_id: str, match_id: str, due: float) -> str:
    """A pending handoff notice to that registration, due at `due`, stored; its id."""
    delivery = f"msg_{uuid.uuid4().hex}"
    view.execute([view.notice_sql(Notice(
        delivery_id=delivery, registration_id=registration_id, match_id=match_id,
        seat="blue", version=2, reminder=0,
        payload={"type": "turn.handoff", "match_id": match_id, "version": 2},
        status="pending", attempts=0, due=due, lease_until=None, created=due, done=None))])
    return delivery
