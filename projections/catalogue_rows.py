"""The match catalogue's rows: one per match (`CatalogueEntry`), what one event changes in
its match's row (`row_change`), and a batch of changes folded to one per match
(`coalesce`). projections/catalogue.py writes them and runs the projection."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import singledispatch
from typing import Any, Literal
from uuid import UUID

from eventsourcing.utils import get_topic
from pydantic import BaseModel

from domain import events as ev


class CatalogueEntry(BaseModel):
    match_id: UUID
    ruleset: str
    scenario: str
    sides: list[str]
    created: datetime
    last_activity: datetime
    turn: int
    status: Literal["active", "ended"]
    winner: str | None
    version: int


@dataclass(frozen=True)
class Change:
    """What one event changes in its match's row (None: unchanged)."""

    match_id: UUID
    version: int
    when: datetime
    turn: int | None = None
    ended: bool | None = None  # True: the match ended; False: the referee reopened it
    winner: str | None = None


@singledispatch
def row_change(domain_event: Any) -> Change | CatalogueEntry:
    """What one event does to its match's row: a new row, or a change to it."""
    e: ev.Event = domain_event
    return Change(e.originator_id, e.version, e.timestamp)


@row_change.register
def _(domain_event: ev.MatchCreated) -> Change | CatalogueEntry:
    e = domain_event
    return CatalogueEntry(
        match_id=e.originator_id, ruleset=e.ruleset, scenario=e.scenario,
        sides=[s.id for s in e.sides], created=e.timestamp, last_activity=e.timestamp,
        turn=e.turn, status="active", winner=None, version=e.version)


@row_change.register
def _(domain_event: ev.TurnAdvanced) -> Change | CatalogueEntry:
    e = domain_event
    return Change(e.originator_id, e.version, e.timestamp, turn=e.marker.turn)


@row_change.register
def _(domain_event: ev.ActionsUndone | ev.ActionsRedone) -> Change | CatalogueEntry:
    e = domain_event
    return Change(e.originator_id, e.version, e.timestamp, turn=e.resulting_turn)


@row_change.register
def _(domain_event: ev.MatchEnded) -> Change | CatalogueEntry:
    e = domain_event
    return Change(e.originator_id, e.version, e.timestamp, ended=True, winner=e.winner)


@row_change.register
def _(domain_event: ev.MatchReopened) -> Change | CatalogueEntry:
    e = domain_event
    return Change(e.originator_id, e.version, e.timestamp, ended=False)


# The events whose row change needs more than the envelope (the rest: `Change` of it).
TYPED = frozenset(get_topic(cls) for cls in (ev.MatchCreated, ev.TurnAdvanced,
                                             ev.ActionsUndone, ev.ActionsRedone,
                                             ev.MatchEnded, ev.MatchReopened))


def coalesce(changes: Iterable[Change | CatalogueEntry]) -> list[Change | CatalogueEntry]:
    """Row changes in log order, folded to at most one per match (a new row with its later
    changes applied, or one change), with the effect of applying them one by one."""
    entries: dict[UUID, CatalogueEntry] = {}
    merged: dict[UUID, Change] = {}
    for change in changes:
        if isinstance(change, CatalogueEntry):
            entries[change.match_id] = change
            merged.pop(change.match_id, None)  # (an update before its row changed nothing)
            continue
        before = merged.get(change.match_id)
        merged[change.match_id] = change if before is None else Change(
            change.match_id, change.version, change.when,
            turn=before.turn if change.turn is None else change.turn,
            ended=before.ended if change.ended is None else change.ended,
            winner=before.winner if change.ended is None else change.winner)
    rows: list[Change | CatalogueEntry] = []
    for match_id, entry in entries.items():
        last = merged.pop(match_id, None)
        rows.append(entry if last is None else entry.model_copy(update={
            "version": last.version, "last_activity": last.when,
            "turn": entry.turn if last.turn is None else last.turn,
            "status": entry.status if last.ended is None else (
                "ended" if last.ended else "active"),
            "winner": entry.winner if last.ended is None else last.winner}))
    return [*rows, *merged.values()]
