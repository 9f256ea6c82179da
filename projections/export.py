"""A match's export (docs/interchange.md): a header line, then one line per event as the
viewer sees it (the referee: everything but the private fields; a player: without what that
player may not see, named in `hidden`), each in canonical JSON. Streamed in chunks, so
memory stays flat however long the match.

The lines are made from the stored records themselves where that gives the same bytes
(`Event.record_plan`, `canonical_line`): no pydantic model is built for an event whose
class version and fields are current and whose visibility does not depend on its values.
Any other event goes through the model, as every other surface does."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any, cast
from uuid import UUID

import orjson
from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteAggregateRecorder
from eventsourcing.utils import resolve_topic

from domain import events as ev
from domain.app import Matches
from domain.app.persistence import plain_json
from domain.decide import REFEREE
from domain.events.record_plan import RecordPlan
from domain.integrity import EXPORT_FORMAT, EXPORT_VERSION, canonical, canonical_line, content_hash
from projections.ruleset_store import store_of

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
    if state.ruleset_hash is not None:  # the file it was created under, for an import
        stored = store_of(matches).get(state.ruleset_hash)
        top["ruleset_hash"] = state.ruleset_hash
        top["ruleset_file"] = stored.data if stored is not None else None
    return {**top, "hash": content_hash(top)}


def export_lines(matches: Matches, match_id: UUID, viewer: str = REFEREE) -> Iterator[str]:
    """The export, line by line (each ending in a newline), up to the head at the start."""
    top = header(matches, match_id, viewer)
    yield canonical(top) + "\n"
    after, last = 0, top["events"]
    plain = plain_json(matches.mapper)
    plans: dict[str, RecordPlan | None] = {}  # by topic
    loads = orjson.loads
    while after < last:
        rows = _records(matches, match_id, after, last, CHUNK)
        if not rows:
            break
        for number, topic, state in rows:
            if topic not in plans:
                plans[topic] = cast(type[ev.Event], resolve_topic(topic)).record_plan() if (
                    plain) else None
            plan = plans[topic]
            body = plan.public(number, loads(state)) if plan is not None else None
            if plan is not None and body is not None:
                yield canonical_line(body, floats=plan.floats)
            else:
                event = cast(ev.Event, matches.mapper.to_domain_event(
                    StoredEvent(match_id, number, topic, state)))
                yield canonical(event.public(viewer)) + "\n"
        after = rows[-1][0]
    yield from annotation_lines(matches, match_id, viewer)


def annotation_lines(matches: Matches, match_id: UUID, viewer: str = REFEREE) -> Iterator[str]:
    """The lines after the events: the match's annotations (docs/interchange.md), not
    chained. The referee's export carries their every event (an import keeps them as they
    were); another seat's only the annotations standing now that it sees, each as the
    `AnnotationAdded` it would be now (so no earlier text of one made public since, nor a
    deleted one, is in its bytes)."""
    if viewer == REFEREE:
        for event in matches.annotation_events(match_id):
            yield canonical(event.public(REFEREE)) + "\n"
        return
    stream = ev.annotations_stream(match_id)
    for number, note in enumerate(matches.annotations(match_id, viewer), start=1):
        assert note.added is not None
        event = ev.AnnotationAdded(
            originator_id=stream, originator_version=number, timestamp=note.added,
            actor=note.author, rule="core-annotations", annotation_id=note.id,
            kind=note.kind, at_version=note.at_version, upto_version=note.upto_version,
            text=note.text, start=note.start, end=note.end, units=note.units,
            fork=note.fork, visibility=note.visibility)
        yield canonical(event.public(viewer)) + "\n"


def _records(matches: Matches, match_id: UUID, after: int, upto: int,
             limit: int) -> Sequence[tuple[int, str, bytes]]:
    """(version, topic, state) of the stored events after `after` up to `upto`. On SQLite one
    plain query, without the recorder's per-row `StoredEvent` (whose UUID parsing alone costs
    more than the rest of the line)."""
    recorder = matches.recorder
    if isinstance(recorder, SQLiteAggregateRecorder):
        with recorder.datastore.transaction(commit=False) as c:
            cursor = c.sqlite_cursor  # the plain sqlite3 cursor: rows as tuples, not `Row`s
            cursor.row_factory = None
            cursor.execute(
                f"SELECT originator_version, topic, state FROM {recorder.events_table_name}"
                " WHERE originator_id=? AND originator_version>? AND originator_version<=?"
                " ORDER BY originator_version LIMIT ?", (match_id.hex, after, upto, limit))
            return cast(list[tuple[int, str, bytes]], cursor.fetchall())
    return [(s.originator_version, s.topic, s.state)
            for s in recorder.select_events(match_id, gt=after, lte=upto, limit=limit)]
