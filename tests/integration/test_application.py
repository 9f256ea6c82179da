"""The Matches application on both stores: checkpoints, concurrency, upcasting, durability."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar
from uuid import UUID

import pytest
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import _topic_cache, get_topic

from domain import events as ev
from domain.application import Matches
from domain.commands import Advance, CreateMatch, PlaceMarker, RollDice, SetTrack
from domain.errors import MatchNotFound, VersionConflict, VersionNotFound
from domain.history import replay
from domain.persistence import Checkpoint

SETUP = CreateMatch(scenario="test", casual=True,
                    sides=[{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}])


@pytest.fixture
def env(store_env: dict[str, str]) -> dict[str, str]:
    return {**store_env, "CHECKPOINT_INTERVAL": "5"}


@pytest.fixture
def app(env: dict[str, str]) -> Iterator[Matches]:
    matches = Matches(env=env)
    yield matches
    matches.close()


def _play(app: Matches, match_id: UUID, n: int) -> None:
    for i in range(n):
        if i % 7 == 6:
            app.undo(match_id, actions=2)
        elif i % 5 == 4:
            app.act(match_id, RollDice(notation="d6", purpose="x"))
        elif i % 3 == 0:
            app.act(match_id, Advance())
        else:
            app.act(match_id, SetTrack(name="t", value=i))


def test_cold_application_gives_the_same_head_and_past_from_checkpoints(
    app: Matches, env: dict[str, str]
) -> None:
    match_id = app.create_match(SETUP).events[0].originator_id
    _play(app, match_id, 23)
    head = app.head(match_id)
    assert app.snapshots is not None
    checkpoints = [c.originator_version for c in app.snapshots.get(match_id)]
    assert checkpoints and all(b - a <= 5 for a, b in zip([1, *checkpoints], checkpoints))
    events = list(app.events_of(match_id))
    cold = Matches(env=env)
    try:
        assert cold.head(match_id).state == head.state == replay(events).state
        assert cold.head(match_id).checkpoint == checkpoints[-1]
        for version in range(1, head.version + 1):
            assert cold.state_at(match_id, version) == replay(events[:version]).state
    finally:
        cold.close()


def test_checkpoints_are_a_cache_the_answer_is_the_same_without_them(
    app: Matches, env: dict[str, str]
) -> None:
    match_id = app.create_match(SETUP).events[0].originator_id
    _play(app, match_id, 12)
    no_checkpoints = Matches(env={**env, "CHECKPOINT_INTERVAL": "1000"})
    try:
        expected = replay(list(app.events_of(match_id))).state
        assert no_checkpoints.head(match_id).state == expected
    finally:
        no_checkpoints.close()


def test_version_clash_between_two_processes(app: Matches, env: dict[str, str]) -> None:
    match_id = app.create_match(SETUP).events[0].originator_id
    other = Matches(env=env)
    try:
        other.head(match_id)  # both now cache version 1
        app.act(match_id, Advance())
        with pytest.raises(VersionConflict):
            other.act(match_id, Advance(), expected_version=1)
        # Without If-Match the stale cache is brought up to date and the action applies.
        result = other.act(match_id, PlaceMarker(kind="smoke", location="0101"))
        assert result.frame.version == 3
        assert app.head(match_id).state == other.head(match_id).state
    finally:
        other.close()


def test_a_clash_inside_save_is_retried_against_the_new_head(
    app: Matches, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = app.create_match(SETUP).events[0].originator_id
    other = Matches(env=env)
    try:
        other.head(match_id)
        original = other.head
        sneaked = False

        def head_then_sneak(mid: UUID) -> Any:
            nonlocal sneaked
            frame = original(mid)
            if not sneaked:  # another process appends between our read and our save
                sneaked = True
                app.act(match_id, Advance())
            return frame

        monkeypatch.setattr(other, "head", head_then_sneak)
        result = other.act(match_id, SetTrack(name="w", value=1))
        assert [e.version for e in result.events] == [3]
        assert [e.type_name() for e in app.events_of(match_id)] == [
            "MatchCreated", "PhaseAdvanced", "TrackSet"]
    finally:
        other.close()


def test_unknown_match_and_unreached_points(app: Matches) -> None:
    with pytest.raises(MatchNotFound):
        app.head(UUID(int=1))
    match_id = app.create_match(SETUP).events[0].originator_id
    with pytest.raises(VersionNotFound):
        app.frame_at(match_id, 2)
    with pytest.raises(VersionNotFound):
        app.version_at_step(match_id, 3, "setup")


class NoteAddedV(ev.Event):
    """A stand-in for an event whose schema grows a field (class_version 1 -> 2)."""

    text: str


def test_a_stored_v1_event_loads_after_a_class_version_bump(
    app: Matches, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = app.create_match(SETUP).events[0].originator_id
    v1 = NoteAddedV(originator_id=match_id, originator_version=2,
                    timestamp=app.clock(), actor="red", text="old")
    app.save(v1)  # written at class_version 1, without `mood`

    class NoteAddedV2(ev.Event):
        class_version: ClassVar[int] = 2
        text: str
        mood: str

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> dict[str, Any]:
            return {**state, "mood": "neutral"}

    topic = get_topic(NoteAddedV)
    monkeypatch.setitem(globals(), "NoteAddedV", NoteAddedV2)  # the class as the code has it now
    monkeypatch.setitem(_topic_cache, topic, NoteAddedV2)
    [stored] = app.recorder.select_events(match_id, gt=1)
    assert stored.topic == topic
    loaded = app.mapper.to_domain_event(StoredEvent(
        originator_id=stored.originator_id, originator_version=stored.originator_version,
        topic=stored.topic, state=stored.state))
    assert isinstance(loaded, NoteAddedV2)
    assert (loaded.text, loaded.mood) == ("old", "neutral")


def test_checkpoint_round_trips_through_the_mapper(app: Matches) -> None:
    match_id = app.create_match(SETUP).events[0].originator_id
    _play(app, match_id, 6)
    frame = app.head(match_id)
    checkpoint = Checkpoint.of(match_id, frame, app.clock())
    back = app.mapper.to_domain_event(app.mapper.to_stored_event(checkpoint))
    assert back == checkpoint and back.frame().state == frame.state
