"""Checkpoints of the Matches application on both stores: a cold application rebuilds the
head and the past from them, time travel reads from the nearest one, the answer is the same
without them, and a checkpoint that is stale or cannot load is dropped and the events folded."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from uuid import UUID

import pytest
from application_setup import (
    CASUAL,
    INTERVAL,
    created,
    play,
)

from domain import events as ev
from domain.app import Matches
from domain.app.persistence import Checkpoint, StaleCheckpoint
from domain.history import replay


def test_a_cold_application_rebuilds_head_and_past_from_the_checkpoints(
    app: Matches, env: dict[str, str]
) -> None:
    match_id = created(app, CASUAL)
    play(app, match_id, 23)
    head = app.head(match_id)
    assert head.version == 24
    assert app.snapshots is not None
    checkpoints = list(app.snapshots.get(match_id))
    assert checkpoints and all(isinstance(c, Checkpoint) for c in checkpoints)
    versions = [c.originator_version for c in checkpoints]
    assert all(b - a <= INTERVAL for a, b in zip([1, *versions], [*versions, head.version]))
    events = list(app.events_of(match_id))
    for checkpoint in checkpoints:  # each checkpoint is the frame at its version
        assert checkpoint.frame().state == replay(events[:checkpoint.originator_version]).state

    cold = Matches(env=env)
    try:
        assert cold.head(match_id).state == head.state == replay(events).state
        assert cold.head(match_id).redo == head.redo
        assert cold.head(match_id).checkpoint == versions[-1]
        for version in range(1, head.version + 1):
            assert cold.state_at(match_id, version) == app.state_at(match_id, version) == \
                replay(events[:version]).state
    finally:
        cold.close()


def test_time_travel_reads_from_the_nearest_checkpoint_not_the_whole_log(
    app: Matches, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = created(app, CASUAL)
    play(app, match_id, 40)
    events = list(app.events_of(match_id))
    cold = Matches(env=env)
    read: list[int] = []
    original = cold.events_of

    def counting(mid: UUID, **kwargs: Any) -> Iterator[ev.Event]:
        for event in original(mid, **kwargs):
            read.append(event.version)
            yield event

    monkeypatch.setattr(cold, "events_of", counting)
    try:
        cold.head(match_id)
        for version in range(len(events) - 1, 1, -1):
            read.clear()
            assert cold.state_at(match_id, version) == replay(events[:version]).state
            # the events after the checkpoint (and MatchCreated for the seed), never all
            assert len(read) <= 2 * INTERVAL + 1, (version, read)
    finally:
        cold.close()


def test_checkpoints_are_a_cache_the_answer_is_the_same_without_them(
    app: Matches, env: dict[str, str]
) -> None:
    match_id = created(app, CASUAL)
    play(app, match_id, 12)
    without = Matches(env={**env, "CHECKPOINT_INTERVAL": "1000"})
    try:
        events = list(app.events_of(match_id))
        assert without.head(match_id).state == replay(events).state
        assert without.state_at(match_id, 7) == replay(events[:7]).state
    finally:
        without.close()


def test_a_checkpoint_round_trips_through_the_mapper(app: Matches) -> None:
    match_id = created(app, CASUAL)
    play(app, match_id, 6)
    app.join(match_id, side="red", player="ann")
    frame = app.head(match_id)
    checkpoint = Checkpoint.of(match_id, frame, app.clock())
    back = app.mapper.to_domain_event(app.mapper.to_stored_event(checkpoint))
    assert back == checkpoint
    assert (back.frame().state, back.frame().seats, back.frame().tokens) == (
        frame.state, frame.seats, frame.tokens)


def plant_checkpoint(app: Matches, frame: Any, match_id: UUID, **record: Any) -> None:
    """Store a checkpoint of `frame` with fields of its stored record replaced, as an older
    version (or a damaged store) would have left it."""
    stored = app.mapper.to_stored_event(Checkpoint.of(match_id, frame, app.clock()))
    changed = {**app.mapper.transcoder.decode(stored.state), **record}
    assert app.snapshots is not None
    app.snapshots.recorder.insert_events([replace(
        stored, state=app.mapper.transcoder.encode(changed))])


@pytest.mark.parametrize(("class_version", "old_form"), [
    (1, {"discards": {"red": ("CARD-SECRET",)}}),  # discarded and played cards in one pile
    (2, {"this_turn": ("group:1",)}),  # a battlegroup activated this turn, without its side
])
def test_a_checkpoint_of_an_older_class_version_is_dropped_and_the_events_folded(
    app: Matches, env: dict[str, str], class_version: int, old_form: dict[str, Any]
) -> None:
    """A checkpoint of an older class version keeps the state in an older form: a reader
    refuses it (`StaleCheckpoint`) and folds the state from the events instead."""
    match_id = created(app, CASUAL)
    play(app, match_id, 3)
    events = list(app.events_of(match_id))
    frame = replay(events)
    assert app.snapshots is not None and not list(app.snapshots.get(match_id))
    old = frame.state.model_copy(update=old_form)
    plant_checkpoint(app, replace(frame, state=old), match_id, class_version=class_version)
    cold = Matches(env=env)
    try:
        assert cold.snapshots is not None
        with pytest.raises(StaleCheckpoint):
            list(cold.snapshots.get(match_id))
        assert cold.head(match_id).state == frame.state
        assert cold.state_at(match_id, frame.version) == frame.state
    finally:
        cold.close()


def test_a_checkpoint_that_cannot_load_is_dropped_and_the_events_folded(
    app: Matches, env: dict[str, str]
) -> None:
    """A checkpoint is a cache: one that no longer loads never makes its match unreadable."""
    match_id = created(app, CASUAL)
    play(app, match_id, 3)
    frame = replay(list(app.events_of(match_id)))
    plant_checkpoint(app, frame, match_id, state={"not": "a state"})
    cold = Matches(env=env)
    try:
        assert cold.head(match_id).state == frame.state
    finally:
        cold.close()


