"""Live updates: a Server-Sent Events stream per match, for the table page and any client.

Each message says only that the match moved on (`event: version`, `id:` and `data` the new
version); the page then asks for what its seat may see through the usual views, so private
information has one gate. A reconnecting client sends `Last-Event-ID` and is told at once if
it missed a version. The stream ends when the server shuts down."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.sse import EventSourceResponse, ServerSentEvent

from api.deps import LastEventDep, MatchesDep, ReaderDep
from projections.feed import MatchFeed

router = APIRouter(prefix="/api/matches/{match_id}", tags=["live"])
RECHECK_SECONDS = 15.0  # re-read the head now and then: a write the feed missed still shows


def get_feed(request: Request) -> MatchFeed:
    feed: MatchFeed = request.app.state.feed
    return feed


@router.get("/stream", response_class=EventSourceResponse, responses={
    200: {"description": "`event: version` messages, `data: {\"version\": N}`, one at once "
                         "and one whenever the match moves on; `: ping` comments keep it open"}})
async def stream(match_id: UUID, request: Request, matches: MatchesDep, who: ReaderDep,
                 feed: Annotated[MatchFeed, Depends(get_feed)],
                 last_event_id: LastEventDep) -> AsyncIterator[ServerSentEvent]:
    """Follow a match: its version now, then each new version as it is stored (by any
    process sharing the store). Read what changed through the views with your own token."""
    sub = await run_in_threadpool(feed.subscribe, match_id, asyncio.get_running_loop())
    sent = last_event_id
    try:
        head = await run_in_threadpool(matches.head, match_id)
        sub.version = max(sub.version, head.version)
        while not request.app.state.stopping():
            if sub.version != sent:
                sent = sub.version
                yield ServerSentEvent(event="version", id=str(sent), data={"version": sent})
            if not await sub.wait(timeout=1.0):
                sub.idle += 1.0
                if sub.idle >= RECHECK_SECONDS:
                    sub.idle = 0.0
                    latest = await run_in_threadpool(matches.head, match_id)
                    sub.version = max(sub.version, latest.version)
    finally:
        feed.unsubscribe(sub)
