"""Request body limit: 413 past `max_bytes`, reading at most `max_bytes` + one chunk."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.problems import problem


class BodyLimit:
    """ASGI middleware: refuses a declared `Content-Length` over the limit before reading
    anything, and a streamed body as soon as it passes the limit; a body within the limit
    is handed on unchanged. Paths in `larger` have their own limit (an import)."""

    def __init__(self, app: ASGIApp, max_bytes: int,
                 larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.larger = larger or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(str(scope.get("path", "")), self.max_bytes)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._refuse(scope, receive, send, limit)
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
                await self._refuse(scope, receive, send, limit)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return held.pop(0) if held else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        response = problem(413, "Request too large",
                           f"a request body is at most {limit} bytes",
                           code="too-large", instance=str(scope.get("path", "")),
                           rule="core-limits")
        await response(scope, receive, send)
