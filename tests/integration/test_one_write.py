"""A response of known length leaves `battlelog serve`'s HTTP protocol (api/server.py) in
one write, its head with its body (issue 30: one system call and one packet, not two);
a stream's head still goes out at once, before any of its body exists, and a HEAD
answer's head is written alone. Driven through uvicorn's own protocol with a transport
that records what it is asked to write."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import uvicorn
from uvicorn.server import ServerState

from api.server import HeaderDeadline

T = TypeVar("T")


def run_alone(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """`asyncio.run(main())` in a thread of its own: a loop this thread may have, even
    one marked running (as Playwright's sync API does while it is open), is not in its way."""
    with ThreadPoolExecutor(1) as alone:
        return alone.submit(lambda: asyncio.run(main())).result()


class Recorded(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: Any) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(
            name, default)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


def served(app: Any, request: bytes, *, until: bytes = b"") -> list[bytes]:
    """What the protocol wrote for `request`, once `until` was written (default: once the
    app ended)."""
    async def run() -> list[bytes]:
        config = uvicorn.Config(app, http=HeaderDeadline, lifespan="off", log_level="error")
        protocol = HeaderDeadline(config, ServerState(), {}, asyncio.get_running_loop())
        transport = Recorded()
        protocol.connection_made(transport)
        protocol.data_received(request)
        for _ in range(200):
            await asyncio.sleep(0)
            if (until and until in b"".join(transport.writes)) or (
                    not until and protocol.cycle is not None and protocol.cycle.response_complete):
                break
        protocol.connection_lost(None)
        return transport.writes

    return run_alone(run)


async def sized(scope: Any, receive: Any, send: Any) -> None:
    body = b'{"version": 2}'
    await send({"type": "http.response.start", "status": 201, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def test_a_response_of_known_length_is_one_write_head_and_body() -> None:
    writes = served(sized, b"POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n")
    assert len(writes) == 1
    assert writes[0].startswith(b"HTTP/1.1 201 Created\r\n")
    assert writes[0].endswith(b'\r\n\r\n{"version": 2}')


def test_two_requests_on_one_connection_are_one_write_each() -> None:
    request = b"GET /x HTTP/1.1\r\nHost: a\r\n\r\n"

    async def run() -> list[bytes]:
        config = uvicorn.Config(sized, http=HeaderDeadline, lifespan="off", log_level="error")
        protocol = HeaderDeadline(config, ServerState(), {}, asyncio.get_running_loop())
        transport = Recorded()
        protocol.connection_made(transport)
        for _ in range(2):
            protocol.data_received(request)
            for _ in range(100):
                await asyncio.sleep(0)
        protocol.connection_lost(None)
        return transport.writes

    writes = run_alone(run)
    assert len(writes) == 2
    assert all(w.startswith(b"HTTP/1.1 201") and w.endswith(b'{"version": 2}') for w in writes)


def test_a_streams_head_goes_out_before_its_body_exists() -> None:
    gate = asyncio.Event()

    async def stream(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/event-stream")]})
        await gate.wait()  # never set: the body never comes in this test

    writes = served(stream, b"GET /live HTTP/1.1\r\nHost: a\r\n\r\n", until=b"\r\n\r\n")
    assert len(writes) == 1 and writes[0].startswith(b"HTTP/1.1 200 OK\r\n")
    assert b"transfer-encoding: chunked" in writes[0]


def test_a_head_answer_is_its_head_alone() -> None:
    writes = served(sized, b"HEAD /x HTTP/1.1\r\nHost: a\r\n\r\n")
    assert b"".join(writes).endswith(b"\r\n\r\n")
    assert writes[0].startswith(b"HTTP/1.1 201")


def test_it_runs_where_an_event_loop_is_marked_running() -> None:
    """As in a thread where Playwright's sync API is open (the browser tests): asyncio.run()
    refuses to run there, the helper does not."""
    loop = asyncio.new_event_loop()
    asyncio._set_running_loop(loop)
    try:
        writes = served(sized, b"POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n")
    finally:
        asyncio._set_running_loop(None)
        loop.close()
    assert len(writes) == 1 and writes[0].startswith(b"HTTP/1.1 201 Created\r\n")
