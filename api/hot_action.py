"""The action route's lane (issue 30): `POST /api/matches/{id}/actions` as most clients
send it, served with no framework layer between the one ASGI layer of ours (`Gate`, which
has read the body) and the use case. It does what the route does, in the same order, with
the same functions: who acts (`acting`: the token, the seat it opens at the held head, not
a join token, not a spectator; `If-Match`, `Idempotency-Key`), the body decoded once into
an `Action`, the use case in a worker thread, the answer encoded once
(`api.routes.actions.acted`), a refusal as the same problem detail.

Whatever this lane does not take as it is goes to the FastAPI route, which answers it as
before: a query string (the app-wide check of query parameters), a match id not in its
canonical form, a body that is not JSON or not a valid action (FastAPI's 422 lists the
errors), an `If-Match` or `Idempotency-Key` that FastAPI's header checks would refuse."""

from __future__ import annotations

import json
import re
from typing import Any
from uuid import UUID

from pydantic import TypeAdapter, ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Scope

from api.deps import acting
from api.problems import domain_problem
from api.routes.actions import acted
from domain.commands import Action
from domain.errors import DomainError

PATH = re.compile(r"/api/matches/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
                  r"[0-9a-fA-F]{4}-[0-9a-fA-F]{12})/actions")
ACTION: TypeAdapter[Action] = TypeAdapter(Action)
# FastAPI's checks of the two optional headers (their first value), as `acting` declares
# them: beyond these the route answers (a 422 of FastAPI's).
LENGTHS = {b"if-match": (0, 32), b"idempotency-key": (1, 200)}


def takes(scope: Scope) -> bool:
    """Whether the lane may take this request (before its body is read)."""
    return (scope.get("method") == "POST" and not scope.get("query_string")
            and PATH.fullmatch(str(scope.get("path", ""))) is not None)


async def serve(scope: Scope, body: bytes) -> Response | None:
    """The answer to the action in `body`; None when the route should answer instead
    (nothing was done)."""
    if not body or not takes(scope):
        return None
    path = str(scope["path"])
    seen: set[bytes] = set()
    json_body = False
    for name, value in scope.get("headers") or ():
        if name == b"content-type":
            json_body = value.split(b";")[0].strip().lower() == b"application/json"
        elif name in LENGTHS and name not in seen:
            seen.add(name)
            least, most = LENGTHS[name]
            if not least <= len(value.decode("latin-1")) <= most:
                return None
    if not json_body:
        return None
    try:  # decoded as the route decodes it (the standard library's reader: exact integers)
        action: Any = ACTION.validate_python(json.loads(body), from_attributes=True)
    except (ValueError, ValidationError):  # json.JSONDecodeError is a ValueError
        return None
    match = PATH.fullmatch(path)
    assert match is not None
    match_id = UUID(match.group(1))
    request = Request(scope)
    try:
        who = await acting(request, match_id)
        return await acted(match_id, action, who)
    except DomainError as error:
        return domain_problem(error, path)
