"""Live updates: a Server-Sent Events stream per match, for the table page and any client.

Each message says only that the match moved on (`event: version`, `id:` and `data` the new
version); the page then asks for what its seat may see through the usual views, so private
information has one gate. An annotation added, changed or deleted comes as an `annotation`
message, only to a seat that may see it (`domain.annotations.changes_seen`): the annotation
itself, or `{"gone": id}` for one it saw and sees no more; a page never gets one it may not
see. A reconnecting client sends `Last-Event-ID` and is told at once if
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
from domain.annotations import changes_seen
from domain.app import Matches
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
        told = await run_in_threadpool(matches.annotations_version, match_id)
        sub.notes = max(sub.notes, told)
        while not request.app.state.stopping():
            if sub.version != sent:
                sent = sub.version
                yield ServerSentEvent(event="version", id=str(sent), data={"version": sent})
            if sub.notes > told:
                told, seen = await run_in_threadpool(_notes_since, matches, match_id, told,
                                                     who.name)
                for change in seen:
                    yield ServerSentEvent(event="annotation", data=change)
            if not await sub.wait(timeout=1.0):
                sub.idle += 1.0
                if sub.idle >= RECHECK_SECONDS:
                    sub.idle = 0.0
                    latest = await run_in_threadpool(matches.head, match_id)
                    sub.version = max(sub.version, latest.version)
                    count = await run_in_threadpool(matches.annotations_version, match_id)
                    sub.notes = max(sub.notes, count)
    finally:
        feed.unsubscribe(sub)


def _notes_since(matches: Matches, match_id: UUID, since: int,
                 viewer: str) -> tuple[int, list[dict[str, object]]]:
    """How many annotation events there are now, and what `viewer` is told of those after
    the first `since`."""
    events = matches.annotation_events(match_id)
    return len(events), changes_seen(events, since, viewer)
