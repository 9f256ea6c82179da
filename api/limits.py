"""Request body limits: its size (413), how deep its JSON nests (422), and how long it may
take to arrive (408). Each refusal is a problem detail; nothing reaches a route past them."""

from __future__ import annotations

import asyncio

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.nesting import MAX_DEPTH, too_deep
from api.problems import BodyTimeout, TooLarge, problem


class BodyLimit:
    """ASGI middleware: refuses a declared `Content-Length` over the limit before reading
    anything, and a body as soon as it passes the limit. A body within the limit is read
    whole (at most `max_bytes` + one chunk), refused if its JSON nests deeper than
    MAX_DEPTH, and handed on unchanged.

    Paths in `streamed` (an import) have their own, larger limit and are not held: their
    route reads the body as it arrives, and reading past the limit raises `TooLarge` there
    (a 413, like the others); the route checks the nesting of what it reads itself."""

    def __init__(self, app: ASGIApp, max_bytes: int,
                 streamed: dict[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.streamed = streamed or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _has_body(scope):
            await self.app(scope, receive, send)  # nothing to hold (a GET, most often)
            return
        path = str(scope.get("path", ""))
        limit = self.streamed.get(path, self.max_bytes)
        declared = dict(scope.get("headers") or []).get(b"content-length")
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

        async def replay() -> Message:
            return held.pop(0) if held else await receive()

        await self.app(scope, replay, send)


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


class BodyDeadline:
    """ASGI middleware: the whole body must arrive within `seconds` of the request's headers
    (uvicorn waits as long as a client trickles bytes). Past that, reading it fails with a
    408 problem. A response that starts before the body was read to its end closes the
    connection (`Connection: close`): the rest of a refused body is never waited for."""

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _has_body(scope):
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.seconds
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
            await self.app(scope, timed, closing)
        except BodyTimeout as error:  # raised where no route turned it into a response
            if state["started"]:
                raise
            await problem(error.status, error.title, error.detail, code="body-timeout",
                          instance=str(scope.get("path", "")),
                          rule=error.rule)(scope, receive, closing)


def _has_body(scope: Scope) -> bool:
    """Whether the request announced a body (HTTP/1.1: a length or a transfer coding)."""
    headers = dict(scope.get("headers") or [])
    if b"transfer-encoding" in headers:
        return True
    return headers.get(b"content-length", b"0").strip() not in (b"0", b"")
