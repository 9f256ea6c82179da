"""What every request meets before a route, in one ASGI layer (`Gate`): the quotas (429),
the body's size (413), how deep its JSON nests (422) and how long it may take to arrive
(408). Each refusal is a problem detail; nothing reaches a route past them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, cast

from fastapi import FastAPI
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.nesting import MAX_DEPTH, too_deep
from api.problems import BodyTimeout, TooLarge, problem
from api.quotas import Quotas

log = logging.getLogger(__name__)

# A lane past the checks: (scope, the body read whole) -> its answer, or None (declined).
Lane = Callable[[Scope, bytes], Awaitable[Response | None]]


class Gate:
    """The one ASGI layer in front of the routes, for what the service checks before any
    route runs, in this order:

    - the quotas (`api.quotas`): a request past its quota is a 429 before its body is read;
    - the body's size: a declared `Content-Length` over the limit is a 413 before reading
      anything, a body is refused as soon as it passes the limit; a body within it is read
      whole (at most `max_bytes` + one chunk), refused (422) if its JSON nests deeper than
      MAX_DEPTH, and handed on unchanged;
    - the time the body may take: all of it must arrive within `seconds` of the request's
      headers (uvicorn waits as long as a client trickles bytes), else a 408.

    Paths in `streamed` (an import) have their own, larger limit and are not held: their
    route reads the body as it arrives (within the same deadline), and reading past the
    limit raises `TooLarge` there (a 413, like the others); the route checks the nesting of
    what it reads itself. A response that starts before the body was read to its end (a
    413, a 429) closes the connection (`Connection: close`): the rest of a refused body is
    never waited for. A request without a body (a GET, most often) only meets the quotas:
    its headers are looked at once and the route is called with uvicorn's own `receive`
    and `send`. A request past the checks, with a body read whole (in one message) or none,
    is first offered to the `lanes` (`api.hot_action`, `api.hot_board`): the one that takes
    it answers it with no framework layer (the Gate is in front of the framework's whole
    stack: `in_front`), its answer sent as two messages to uvicorn's `send`; an error it does
    not turn into a problem itself is the same 500 problem as a route's. One none takes
    goes to the framework and the routes."""

    def __init__(self, app: ASGIApp, *, quotas: Quotas, max_bytes: int, seconds: float,
                 streamed: dict[str, int] | None = None, lanes: tuple[Lane, ...] = ()
                 ) -> None:
        self.app = app
        self.lanes = lanes  # each answers a request past the checks, or declines
        self.quotas = quotas
        self.max_bytes = max_bytes
        self.seconds = seconds
        self.streamed = streamed or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        declared: bytes | None = None
        chunked = False
        for name, value in scope.get("headers") or ():
            if name == b"content-length":
                declared = value
            elif name == b"transfer-encoding":
                chunked = True
        has_body = chunked or (declared or b"0").strip() not in (b"0", b"")
        refused = self.quotas.refusal(scope, scope.get("method", ""), path)
        if not has_body:
            if refused is None and await self._lane(scope, b"", send):
                return
            await (refused or self.app)(scope, receive, send)
            return
        deadline = asyncio.get_running_loop().time() + self.seconds
        state = {"received": False, "started": False}

        async def timed() -> Message:
            if state["received"]:
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise BodyTimeout(f"the request body did not arrive within {self.seconds:g} s",
                                  rule="core-limits") from None
            if message["type"] != "http.request" or not message.get("more_body", False):
                state["received"] = True
            return message

        async def closing(message: Message) -> None:
            if message["type"] == "http.response.start":
                state["started"] = True
                if not state["received"]:
                    message = {**message, "headers": [*message.get("headers", []),
                                                      (b"connection", b"close")]}
            await send(message)

        try:
            await self._body(scope, path, declared, refused, timed, closing, send)
        except BodyTimeout as error:  # raised where no route turned it into a response
            if state["started"]:
                raise
            await problem(error.status, error.title, error.detail, code="body-timeout",
                          instance=path, rule=error.rule)(scope, receive, closing)

    async def _lane(self, scope: Scope, body: bytes, send: Send) -> bool:
        """Whether a lane answered the request."""
        for lane in self.lanes:
            try:
                response = await lane(scope, body)
            except Exception:  # as the app's handler of any error does (api.problems)
                path = str(scope.get("path", ""))
                log.exception("unhandled error on %s", path)
                response = problem(500, "Internal error", "something went wrong on the server",
                                   code="internal", instance=path)
            if response is not None:
                await send({"type": "http.response.start", "status": response.status_code,
                            "headers": response.raw_headers})
                await send({"type": "http.response.body", "body": response.body})
                return True
        return False

    async def _body(self, scope: Scope, path: str, declared: bytes | None,
                    refused: ASGIApp | None, receive: Receive, send: Send,
                    sent: Send) -> None:
        """A request with a body: refused (quota, size, nesting) or handed on, held whole
        unless its path is streamed. `send` closes the connection when the answer starts
        before the body was read whole; `sent` is uvicorn's own, for once it was."""
        if refused is not None:
            await refused(scope, receive, send)
            return
        limit = self.streamed.get(path, self.max_bytes)
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _refuse(_too_large(limit), scope, receive, send)
            return
        if path in self.streamed:
            await self.app(scope, _counted(receive, limit), send)
            return
        held: list[Message] = []
        seen = 0
        while True:
            message = await receive()
            held.append(message)
            if message["type"] != "http.request":
                break
            seen += len(message.get("body", b""))
            if seen > limit:
                await _refuse(_too_large(limit), scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        if seen > MAX_DEPTH and too_deep(b"".join(m.get("body", b"") for m in held)):
            await problem(422, "Invalid request", f"the JSON nests deeper than {MAX_DEPTH} "
                          "levels", code="invalid-request", instance=path,
                          rule="core-limits")(scope, receive, send)
            return

        if len(held) == 1 and await self._lane(scope, held[0].get("body", b""), sent):
            return

        async def replay() -> Message:
            return held.pop(0) if held else await receive()

        await self.app(scope, replay, sent)  # the body was read whole: nothing to close


class GatedApp(FastAPI):
    """A FastAPI app with the `Gate` in front of the framework's whole stack (its error and
    telemetry layers, its routing), so that a request a lane answers meets none of them
    (`in_front`). Other requests go through the Gate to the framework as before."""

    gate: Gate | None = None

    async def _framework(self, scope: Scope, receive: Receive, send: Send) -> None:
        await super().__call__(scope, receive, send)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        gate = self.gate
        if gate is None or scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        scope["app"] = self  # what the framework sets: the lanes' requests read app.state
        await gate(scope, receive, send)


def in_front(app: FastAPI, **options: Any) -> None:
    """Put a `Gate` (with these options) in front of everything `app` does. `app` is a
    plain FastAPI app (fastapi-offline makes ours: it is no class to derive from); it
    becomes a `GatedApp`, whose instances hold nothing more."""
    if type(app) is not FastAPI:
        msg = f"a Gate goes in front of a plain FastAPI app, not a {type(app).__name__}"
        raise TypeError(msg)
    app.__class__ = GatedApp
    gated = cast(GatedApp, app)
    gated.gate = Gate(gated._framework, **options)


def _too_large(limit: int) -> TooLarge:
    return TooLarge(f"a request body is at most {limit} bytes here", rule="core-limits")


async def _refuse(error: TooLarge, scope: Scope, receive: Receive, send: Send) -> None:
    await problem(error.status, error.title, error.detail, code="too-large",
                  instance=str(scope.get("path", "")), rule=error.rule)(scope, receive, send)


def _counted(receive: Receive, limit: int) -> Receive:
    seen = 0

    async def counting() -> Message:
        nonlocal seen
        message = await receive()
        seen += len(message.get("body", b""))
        if seen > limit:
            raise _too_large(limit)
        return message

    return counting
