"""A match's export (docs/interchange.md): a header line, then one line per event as the
viewer sees it (the referee: everything but the private fields; a player: without what that
player may not see, named in `hidden`), each in canonical JSON. Streamed in chunks, so
memory stays flat however long the match."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import PackageNotFoundError, version
from typing import Any
from uuid import UUID

from domain import events as ev
from domain.application import Matches
from domain.decide import REFEREE
from domain.integrity import EXPORT_FORMAT, EXPORT_VERSION, canonical, content_hash

CHUNK = 1000


def battlelog_version() -> str:
    try:
        return version("battlelog")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "unknown"


def header(matches: Matches, match_id: UUID, viewer: str = REFEREE) -> dict[str, Any]:
    """The first line: what the match is, and the chain head and event count it ends with;
    sealed with its own `hash`."""
    head = matches.head(match_id)
    state = head.state
    created = next(iter(matches.events_of(match_id, upto=1)))
    assert isinstance(created, ev.MatchCreated)
    top = {
        "format": EXPORT_FORMAT, "format_version": EXPORT_VERSION,
        "battlelog": battlelog_version(), "match_id": str(match_id),
        "ruleset": state.ruleset, "ruleset_version": state.ruleset_version,
        "scenario": state.scenario, "sides": [s.model_dump() for s in state.sides],
        "seats": [{"side": side, "player": player} for side, player in head.seats],
        "dice_commitment": created.dice_commitment, "events": head.version,
        "chain_head": head.chain_head, "viewer": viewer,
    }
    return {**top, "hash": content_hash(top)}


def export_lines(matches: Matches, match_id: UUID, viewer: str = REFEREE) -> Iterator[str]:
    """The export, line by line (each ending in a newline), up to the head at the start."""
    top = header(matches, match_id, viewer)
    yield canonical(top) + "\n"
    after, last = 0, top["events"]
    while after < last:
        chunk = list(matches.events_of(match_id, after=after, upto=last, limit=CHUNK))
        if not chunk:
            break
        for event in chunk:
            yield canonical(event.public(viewer)) + "\n"
        after = chunk[-1].version
