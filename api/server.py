"""The embedded HTTP server `battlelog serve` runs: uvicorn, configured against slow and
numerous clients (docs/configuration.md, docs/deploy.md).

uvicorn bounds the idle time between two requests of a connection (`timeout_keep_alive`)
and, with `limit_concurrency`, the connections and requests it serves at once (past it:
503). It has no timeout for a request's line and headers (`--timeout-request-start` was
planned in its issue #157 and never made): its keep-alive timer is armed only after a
response and cancelled by any byte received, so a client that sends a header byte now and
then, or nothing at all after connecting, holds its socket for ever. `HeaderDeadline` adds
that timeout to uvicorn's httptools protocol: from the connection (or the first byte of a
later request on it) to the end of the headers. The body has its own deadline, in ASGI
(api/limits.py: `Gate`). And where uvicorn writes an answer's head and its body apart, the
cycle's transport (`OneWrite`) writes an answer of known length in one write."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

from api.settings import Settings


class HeaderDeadline(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose request line and headers
    take longer than `header_timeout` seconds (counted from the connection, or from the
    first byte of a later request on it)."""

    header_timeout: ClassVar[float] = 10.0
    _header_timer: asyncio.TimerHandle | None = None

    @classmethod
    def with_timeout(cls, seconds: float) -> type[HeaderDeadline]:
        return type("HeaderDeadline", (cls,), {"header_timeout": seconds})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._header_timer is None:
            self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        before = self.cycle
        super().on_headers_complete()
        if self.cycle is not None and self.cycle is not before:  # a new request's cycle
            self.cycle.transport = OneWrite(self.transport, self.cycle)  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._header_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()  # as nginx does on client_header_timeout: no answer


class OneWrite:
    """The transport as a request's cycle sees it (issue 30): a response's head (status
    line and headers) that declares a body of known length is held until the body's first
    bytes and written with them: one write, one system call and one packet, where uvicorn
    writes each (on loopback the receiving side's work is done in the sender's call: twice,
    both counted in the server's CPU). A head with no body to follow or none of known
    length (a stream: chunked) is written at once, and a held head goes out before anything
    else the cycle asks of the transport (closing it, say)."""

    __slots__ = ("_cycle", "_headed", "_held", "_transport")

    def __init__(self, transport: asyncio.Transport, cycle: RequestResponseCycle) -> None:
        self._transport = transport
        self._cycle = cycle
        self._headed = False  # the head was written or held
        self._held: bytes | None = None

    def write(self, data: bytes) -> None:
        if self._held is not None:  # the body's first bytes: the head goes with them
            data, self._held = self._held + data, None
        elif not self._headed and self._cycle.response_started:  # the response's head
            self._headed = True
            cycle = self._cycle
            if (not cycle.chunked_encoding and cycle.expected_content_length > 0
                    and cycle.scope["method"] != "HEAD"):
                self._held = data
                return
        self._transport.write(data)

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:
        if name not in ("is_closing", "get_extra_info"):
            self._flush()
        return getattr(self._transport, name)

    def _flush(self) -> None:
        if self._held is not None:
            held, self._held = self._held, None
            self._transport.write(held)


def config(app: Any, settings: Settings, **extra: Any) -> uvicorn.Config:
    """uvicorn's configuration for `app` under `settings`. Client addresses (the quotas'
    key) come from `X-Forwarded-For` only when the peer is in `FORWARDED_ALLOW_IPS`
    (uvicorn's variable; default: this host's loopback addresses)."""
    return uvicorn.Config(
        app, host=settings.host, port=settings.port,
        http=HeaderDeadline.with_timeout(settings.header_timeout),
        timeout_keep_alive=settings.keep_alive_timeout,
        limit_concurrency=settings.max_connections,
        **extra)
