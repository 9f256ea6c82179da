"""The event log of a match: paged, filtered by type, actor and turn; each event with its
sentence in the players' words (`said`: projections.sentences), as the reader may see it."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query, Response

from api.deps import MatchesDep, ReaderDep
from api.schemas import EventsPublic
from domain.commands import MAX_INT
from domain.errors import InvalidAction
from domain.events import EVENT_TYPES, Event
from projections.sentences import Narrator, public_line

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
    """Events in log order, each with `said`: the event in words, as your seat may see it.
    Follow `next_after` for the next page."""
    if type is not None and type not in EVENT_TYPES:
        raise InvalidAction(f"unknown event type '{type}'", rule="core-events",
                            allowed=sorted(EVENT_TYPES))
    head = matches.head(match_id)
    seats = ["referee", *head.state.side_ids()]
    if actor is not None and actor not in seats:
        raise InvalidAction(f"no seat '{actor}' acts in this match", rule="core-events",
                            allowed=seats)
    response.headers["ETag"] = f'"{head.version}"'

    def lookup(since: int, upto: int) -> list[Event]:
        """Events the page did not read (what an undo or a note is about): one query."""
        return list(matches.events_of(match_id, after=since, upto=min(upto, head.version),
                                      limit=max(1, upto - since)))

    # The names of the match once per request: the head's sides, units and steps, and the
    # units the events read here bring (one undone since is still named).
    narrator = Narrator.of_state(head.state, who.name, lookup)
    found: list[dict[str, object]] = []
    cursor = after
    while cursor < head.version and len(found) < limit:
        chunk = list(matches.events_of(match_id, after=cursor, upto=head.version, limit=CHUNK))
        for event in chunk:
            cursor = event.version
            narrator.see(event)
            if ((type is None or event.type_name() == type)
                    and (actor is None or event.actor == actor)
                    and (turn is None or event.turn == turn)):
                found.append(public_line(event, narrator))
                if len(found) == limit:
                    break
        if not chunk:
            break
    return EventsPublic(events=found, next_after=cursor if cursor < head.version else None)
