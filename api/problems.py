"""Errors as RFC 9457 problem details (`application/problem+json`).

Every refusal names its `rule` and, where it helps, what is `allowed`; a refused action
also carries `said`: the refusal as one sentence for the players (names for ids, the step's
title, what to do), which the table page shows. A request that fails
never appended anything: the domain raises before the save.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict
from starlette.exceptions import HTTPException
from starlette.routing import Match

from domain.errors import DomainError

log = logging.getLogger("battlelog.api")
MEDIA_TYPE = "application/problem+json"


class Problem(BaseModel):
    """An RFC 9457 problem detail, with the rule that refused the request."""

    model_config = ConfigDict(extra="allow")
    type: str
    title: str
    status: int
    detail: str
    instance: str = ""
    rule: str | None = None
    allowed: list[str] | None = None
    said: str | None = None  # a refused action, as one sentence for the players at a table


def _documented(title: str) -> dict[str, Any]:
    return {"description": title, "content": {MEDIA_TYPE: {"schema": Problem.model_json_schema()}}}


PROBLEMS: dict[int | str, dict[str, Any]] = {
    status: _documented(title)
    for status, title in [
        (400, "The body is not JSON"),
        (401, "No token, or one that opens no seat here"),
        (403, "The seat may not do this"),
        (404, "No such match or scenario, or a point the match never reached"),
        (408, "The body did not arrive in time"),
        (409, "Refused by the state of the match (undo, end, concurrency)"),
        (412, "If-Match is stale"),
        (413, "The body is too large"),
        (422, "The request or the action does not fit"),
        (500, "Unexpected failure"),
        (503, "Not ready"),
    ]
}


def _rate_limited(title: str) -> dict[int | str, dict[str, Any]]:
    return {429: {**_documented(title), "headers": {"Retry-After": {
        "description": "seconds to wait", "schema": {"type": "integer"}}}}}


# The routes under a quota per client address (api/quotas.py) answer 429 past it.
RATE_LIMITED = _rate_limited("Too many from this address: try again after `Retry-After` seconds")
# The routes under a rate per seat of a match (api/quotas.py `Quota`) too.
SEAT_RATE_LIMITED = _rate_limited(
    "Too many changes by this seat in this match: try again after `Retry-After` seconds")


def problem(status: int, title: str, detail: str, *, code: str, instance: str = "",
            **extra: Any) -> JSONResponse:
    body: dict[str, Any] = {
        "type": f"/problems/{code}",
        "title": title,
        "status": status,
        "detail": detail,
        "instance": instance,
    }
    body.update({k: v for k, v in extra.items() if v is not None})
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE)


def _kebab(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


class ScenarioNotFound(DomainError):
    status = 404
    title = "Scenario not found"


class RulesetFileNotFound(DomainError):
    status = 404
    title = "Ruleset file not found"


class Unauthorized(DomainError):
    """No token, or one that opens no seat here."""

    status = 401
    title = "Unauthorized"


class Forbidden(DomainError):
    """The seat exists but may not do this."""

    status = 403
    title = "Forbidden"


class NotReady(DomainError):
    status = 503
    title = "Not ready"


class BadHeader(DomainError):
    """A header the API reads holds what no client of it sends (non-ASCII bytes, control
    characters, twice the same header). A 422 like every request that does not fit (a
    malformed If-Match always was)."""

    title = "Bad header"


class TooLarge(DomainError):
    status = 413
    title = "Request too large"


class BodyTimeout(DomainError):
    """The request body did not arrive in time (a slow or stalled client)."""

    status = 408
    title = "Request timeout"


class PreconditionFailed(DomainError):
    """`If-Match` named a version that is no longer current."""

    status = 412
    title = "Precondition failed"


def domain_problem(exc: DomainError, path: str) -> JSONResponse:
    """The problem detail of a domain error (a 401 names the bearer scheme)."""
    response = problem(exc.status, exc.title, exc.detail, code=_kebab(exc.code),
                       instance=path, rule=exc.rule, allowed=exc.allowed,
                       said=getattr(exc, "said", None))
    if exc.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="battlelog"'
    retry = getattr(exc, "retry_after", None)
    if retry is not None:  # a quota's (api.quotas.TooManyRequests)
        response.headers["Retry-After"] = str(retry)
    return response


def install(app: FastAPI) -> None:
    @app.exception_handler(DomainError)
    async def domain_error(request: Request, exc: DomainError) -> JSONResponse:
        return domain_problem(exc, request.url.path)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {"loc": [str(p) for p in e.get("loc", ())][:8], "msg": str(e.get("msg", ""))[:200]}
            for e in exc.errors()[:20]
        ]
        return problem(422, "Invalid request", "the request does not match the schema",
                       code="invalid-request", instance=request.url.path, errors=errors)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        response = problem(exc.status_code, str(exc.detail), str(exc.detail),
                           code=f"http-{exc.status_code}", instance=request.url.path)
        response.headers.update(exc.headers or {})
        if exc.status_code == 405:  # Allow: every method any route of this path takes
            response.headers["Allow"] = ", ".join(sorted(_allowed(request)))
        return response

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s", request.url.path)
        return problem(500, "Internal error", "something went wrong on the server",
                       code="internal", instance=request.url.path)


def _routes(routes: Iterable[Any]) -> Iterator[Any]:
    """Every route of an app, those of its included routers too (FastAPI keeps an included
    router as one entry whose `effective_candidates()` are its routes)."""
    for route in routes:
        inner = getattr(route, "effective_candidates", None)
        if callable(inner):
            yield from _routes(inner())
        else:
            yield route


def _allowed(request: Request) -> set[str]:
    """The methods the routes of this path take (each route's own match: its converters too,
    so `/api/rulesets/check` is not taken for a content hash)."""
    methods: set[str] = set()
    for route in _routes(request.app.router.routes):
        matches = getattr(route, "matches", None)
        if matches is not None and matches(request.scope)[0] is not Match.NONE:
            methods |= set(getattr(route, "methods", None) or ())
    return methods
