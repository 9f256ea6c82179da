"""The match's integrity: its export (JSON Lines), the check of it, and the dice seed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal
from uuid import UUID

from fastapi import APIRouter, Response
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, StreamingResponse

from api.deps import MatchesDep, ReaderDep, RefereeDep, TokenDep
from api.schemas import ActedPublic
from domain import events as ev
from domain.integrity import verify as verify_export
from projections import report
from projections.dice_stats import csv_lines, statistics
from projections.export import export_lines

router = APIRouter(prefix="/api/matches/{match_id}", tags=["integrity"])


@router.get("/export", response_class=StreamingResponse,
            responses={200: {"content": {"application/x-ndjson": {}, "text/csv": {},
                                         "application/json": {}, "text/markdown": {},
                                         "text/html": {}}}})
def export(match_id: UUID, matches: MatchesDep, who: ReaderDep,
           format: Literal["jsonl", "csv", "dice", "md", "html"] = "jsonl") -> Any:
    """`jsonl`: the whole match as JSON Lines, a header then every event with its hashes, as
    your seat sees it (the referee's export is complete and imports elsewhere; a player's
    hides what that player may not see); `battlelog verify FILE` checks it offline
    (docs/interchange.md). `csv`: every die rolled, one row each. `dice`: dice statistics
    per seat, die type and purpose. `md`, `html`: the after-action report with its charts
    (docs/reports.md)."""
    if format in ("md", "html"):
        # the integrity section: the check `battlelog verify` makes, of the referee's export
        built = report.build(_all_events(matches, match_id),
                             integrity=verify_export(export_lines(matches, match_id)))
        if format == "md":
            return PlainTextResponse(report.markdown(built), media_type="text/markdown")
        return HTMLResponse(report.html(built))
    if format == "dice":
        return JSONResponse(statistics(_all_events(matches, match_id)))
    if format == "csv":
        matches.head(match_id)  # a missing match is a 404 before the stream starts
        return StreamingResponse(csv_lines(_all_events(matches, match_id)),
                                 media_type="text/csv", headers={
                                     "Content-Disposition":
                                     f'attachment; filename="{match_id}-dice.csv"'})
    lines = export_lines(matches, match_id, who.name)
    first = next(lines)  # a missing match is a 404 before the stream starts
    return StreamingResponse(_chain(first, lines),
                             media_type="application/x-ndjson",
                             headers={"Content-Disposition":
                                      f'attachment; filename="{match_id}.jsonl"'})


def _all_events(matches: MatchesDep, match_id: UUID) -> Iterator[ev.Event]:
    """The match's events up to its head now, read in chunks."""
    after, last = 0, matches.head(match_id).version
    while after < last:
        chunk = list(matches.events_of(match_id, after=after, upto=last, limit=1000))
        if not chunk:
            return
        yield from chunk
        after = chunk[-1].version


def _chain(first: str, rest: Iterator[str]) -> Iterator[str]:
    yield first
    yield from rest


@router.get("/verify")
def verify(match_id: UUID, matches: MatchesDep, who: ReaderDep) -> dict[str, Any]:
    """Check the stored log as `battlelog verify` checks an export: the hash chain, and every
    server roll whose seed is revealed."""
    return verify_export(export_lines(matches, match_id)).as_dict()


@router.post("/dice/reveal", status_code=201)
def reveal(match_id: UUID, matches: MatchesDep, who: RefereeDep, token: TokenDep,
           response: Response) -> ActedPublic:
    """Reveal the dice seed so far to settle a dispute (referee only); a fresh secret seed is
    committed for the rest of the match."""
    result = matches.reveal_seed(match_id, actor=who, token=token)
    response.headers["ETag"] = f'"{result.frame.version}"'
    return ActedPublic(version=result.frame.version,
                       events=[e.public(who) for e in result.events])
