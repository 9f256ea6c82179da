"""The event log of a match: paged, filtered by type, actor and turn."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query, Response

from api.deps import MatchesDep, ReaderDep
from api.schemas import EventsPublic
from domain.commands import MAX_INT
from domain.errors import InvalidAction
from domain.events import EVENT_TYPES

router = APIRouter(prefix="/api/matches/{match_id}", tags=["events"])
CHUNK = 500


@router.get("/events")
def events(
    match_id: UUID,
    matches: MatchesDep,
    who: ReaderDep,
    response: Response,
    after: Annotated[int, Query(ge=0, le=MAX_INT, description="only events after this version")] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    type: Annotated[str | None, Query(max_length=64, description="an event type")] = None,
    actor: Annotated[str | None, Query(max_length=64)] = None,
    turn: Annotated[int | None, Query(ge=0, le=MAX_INT)] = None,
) -> EventsPublic:
    """Events in log order. Follow `next_after` for the next page."""
    if type is not None and type not in EVENT_TYPES:
        raise InvalidAction(f"unknown event type '{type}'", rule="core-events",
                            allowed=sorted(EVENT_TYPES))
    head = matches.head(match_id)
    seats = ["referee", *head.state.side_ids()]
    if actor is not None and actor not in seats:
        raise InvalidAction(f"no seat '{actor}' acts in this match", rule="core-events",
                            allowed=seats)
    response.headers["ETag"] = f'"{head.version}"'
    found: list[dict[str, object]] = []
    cursor = after
    while cursor < head.version and len(found) < limit:
        chunk = list(matches.events_of(match_id, after=cursor, upto=head.version, limit=CHUNK))
        for event in chunk:
            cursor = event.version
            if ((type is None or event.type_name() == type)
                    and (actor is None or event.actor == actor)
                    and (turn is None or event.turn == turn)):
                found.append(event.public(who.name))
                if len(found) == limit:
                    break
        if not chunk:
            break
    return EventsPublic(events=found, next_after=cursor if cursor < head.version else None)
