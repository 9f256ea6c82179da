"""Is the service up (`live`), can it serve (`ready`: store reachable, not shutting down),
and which matches its background loops pass over (`failing`, admin token)."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache
from importlib.metadata import PackageNotFoundError, version

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from api.deps import MatchesDep
from api.problems import NotReady
from api.routes.matches import admin
from projections.isolation import Failing

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


class FailingMatch(BaseModel):
    loop: str = Field(description="the background loop: flag watcher, notifier outbox, "
                      "catalogue")
    match_id: str
    error: str = Field(description="the last failure, as the log said it")
    failures: int
    since: datetime = Field(description="its first failure")
    retry_at: datetime = Field(description="when the loop tries it again")


def _when(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


@router.get("/health/failing", dependencies=[Depends(admin)])
def failing(request: Request) -> list[FailingMatch]:
    """The matches this process's background loops pass over because their work on them
    failed (a log that does not load, say), oldest first (admin token). Each was logged
    once when it began to fail (docs/deploy.md)."""
    state = request.app.state
    loops: list[Failing] = [state.flags.failing, state.notify.outbox.failing,
                            state.catalogue.failing]
    marks = sorted((m for loop in loops for m in loop.marks()), key=lambda m: m.since)
    return [FailingMatch(loop=m.loop, match_id=m.match_id, error=m.error,
                         failures=m.failures, since=_when(m.since), retry_at=_when(m.retry_at))
            for m in marks]
