"""Is the service up (`live`), can it serve (`ready`: store reachable, not shutting down)."""

from __future__ import annotations

from functools import cache
from importlib.metadata import PackageNotFoundError, version

from fastapi import APIRouter, Request
from pydantic import BaseModel

from api.deps import MatchesDep
from api.problems import NotReady

router = APIRouter(prefix="/api", tags=["health"])


class Health(BaseModel):
    status: str
    store: str
    version: str


@cache
def _version() -> str:
    try:
        return version("battlelog")
    except PackageNotFoundError:
        return "dev"


def _store(matches: MatchesDep) -> str:
    module = matches.env.get("PERSISTENCE_MODULE", "")
    return "postgres" if "postgres" in module else "sqlite"


@router.get("/health")
@router.get("/health/live")
async def live(matches: MatchesDep) -> Health:
    """The process answers."""
    # On the event loop: nothing here waits, and a worker thread's hop would cost more
    # than the answer (probes call this often).
    return Health(status="ok", store=_store(matches), version=_version())


@router.get("/health/ready", responses={503: {"description": "not ready"}})
def ready(request: Request, matches: MatchesDep) -> Health:
    """The store answers and the server is not shutting down."""
    problem = None
    if not getattr(request.app.state, "ready", False):
        problem = "shutting down"
    else:
        try:
            matches.recorder.max_notification_id()
        except Exception:  # noqa: BLE001 - any store failure means not ready
            problem = "the store does not answer"
    if problem:
        raise NotReady(problem, rule="core-health")
    return Health(status="ok", store=_store(matches), version=_version())
