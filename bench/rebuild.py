"""Rebuilding the read models (the match catalogue) from a store of many matches, beside
eventsourcing's own replay rates measured on the same store in the same run.

The store is filled quickly: one real match is played (`inprocess.build_long_match`: decide,
fold, chain, checkpoints), and its stored events are copied under fresh match ids (an
event's hash chain does not include its match id, so every copy is a valid match).
"""

from __future__ import annotations

import os
import time
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import StoredEvent

from domain.app import Matches
from projections.catalogue import open_catalogue
from projections.store import sqlite_env


class Counter(Aggregate):
    """eventsourcing's plainest aggregate: the anchor of the append and replay rates."""

    @event("Incremented")
    def increment(self, by: int) -> None:
        self.count = getattr(self, "count", 0) + by


def fill_store(path: str, template: str, template_id: UUID, matches: int) -> tuple[int, int]:
    """`matches` copies of the template match in a fresh store at `path`: (events stored,
    events per match)."""
    source = Matches(env=sqlite_env(template))
    events = list(source.recorder.select_events(template_id))
    source.close()
    target = Matches(env=sqlite_env(path))
    batch: list[StoredEvent] = []
    for _ in range(matches):
        match_id = uuid4()
        batch.extend(StoredEvent(match_id, e.originator_version, e.topic, e.state)
                     for e in events)
        if len(batch) >= 50_000:
            target.recorder.insert_events(batch)
            batch = []
    if batch:
        target.recorder.insert_events(batch)
    target.close()
    return matches * len(events), len(events)


def eventsourcing_replay(path: str, total: int) -> float:
    """eventsourcing's replay of the application's log: its notification log read in pages
    and every event rebuilt by the application's mapper (what its projection runners do
    before a projection sees an event); events/s."""
    app = Matches(env=sqlite_env(path))
    start, seen = 1, 0
    began = time.perf_counter()
    while True:
        page = app.recorder.select_notifications(start=start, limit=1000)
        for n in page:
            app.mapper.to_domain_event(n)
        seen += len(page)
        if len(page) < 1000:
            break
        start = page[-1].id + 1
    elapsed = time.perf_counter() - began
    app.close()
    assert seen == total, (seen, total)
    return seen / elapsed


def eventsourcing_aggregate_replay(path: str, events: int) -> float:
    """eventsourcing's own aggregate replay, its plain `Aggregate` and default mapper: one
    aggregate of `events` events rebuilt by `repository.get`; events/s."""
    app: Application[UUID] = Application(env=sqlite_env(path))
    counter = Counter()
    for _ in range(events - 1):
        counter.increment(by=1)
    app.save(counter)
    began = time.perf_counter()
    app.repository.get(counter.id)
    elapsed = time.perf_counter() - began
    app.close()
    return events / elapsed


def rebuild(path: str, matches: int, per_match: int) -> dict[str, Any]:
    """The catalogue rebuilt from nothing over the whole store; events/s, and a check that
    every match has its row at its last version."""
    app = Matches(env=sqlite_env(path))
    catalogue = open_catalogue(app)
    began = time.perf_counter()
    applied = catalogue.catch_up()
    elapsed = time.perf_counter() - began
    rows = catalogue.list(limit=200)
    assert all(row.version == per_match for row in rows), "a row is behind"
    with app.recorder.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
        c.execute("SELECT COUNT(*) FROM battlelog_catalogue")
        count = c.fetchone()[0]
    app.close()
    assert count == matches, (count, matches)
    return {"rebuild_events": applied, "rebuild_events_per_s": applied / elapsed,
            "rebuild_s": elapsed}


def rebuild_figures(tmp: str, template: str, template_id: UUID,
                    matches: int) -> dict[str, Any]:
    path = os.path.join(tmp, "many.db")
    total, per_match = fill_store(path, template, template_id, matches)
    figures = rebuild(path, matches, per_match)
    figures["eventsourcing_log_replay_per_s"] = eventsourcing_replay(path, total)
    figures["eventsourcing_aggregate_replay_per_s"] = eventsourcing_aggregate_replay(
        os.path.join(tmp, "counter.db"), min(total, 100_000))
    figures["rebuild_matches"] = matches
    return figures
