"""What every request meets before a route is one ASGI layer of ours (issue 30): the
quotas, the body's size and nesting and the body deadline are `api.limits.Gate`, and a
request without a body goes through it to the routes with uvicorn's own `receive` and
`send` (nothing wrapped). The refusals themselves are tested where they were
(test_hostile_input.py, test_seats_and_limits.py, e2e/test_quotas.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from api import hot_action, hot_board
from api.app import create_app
from api.limits import Gate, GatedApp
from api.quotas import Quotas
from api.settings import Settings


def test_our_checks_are_one_layer_in_front_of_the_frameworks_own() -> None:
    app = create_app(Settings(admin_token="admin-token"))
    assert app.user_middleware == []  # no layer of ours among the framework's
    assert isinstance(app, GatedApp) and isinstance(app.gate, Gate)
    assert app.gate.lanes == (hot_action.serve, hot_board.serve)


def test_a_request_without_a_body_reaches_the_app_with_the_servers_own_channels() -> None:
    seen: list[tuple[Any, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append((receive, send))

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        pass

    gate = Gate(app, quotas=Quotas({}), max_bytes=10, seconds=1.0)
    scope = {"type": "http", "method": "GET", "path": "/api/health/live",
             "headers": [(b"host", b"x")]}
    asyncio.run(gate(scope, receive, send))
    assert seen == [(receive, send)]
