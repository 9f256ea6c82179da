"""The Matches application on both stores (SQLite file and a real PostgreSQL): the story of a
match, time travel, checkpoints, concurrency, upcasting and durability."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, ClassVar
from uuid import UUID

import pytest
from application_setup import (
    SETUP,
    created,
)
from eventsourcing.utils import _topic_cache, get_topic
from freezegun import freeze_time

from domain import events as ev
from domain.app import Matches
from domain.commands import (
    Advance,
    DeployUnit,
    MoveUnit,
    NewUnit,
    PlaceMarker,
    RollDice,
    SetTrack,
)
from domain.errors import (
    InvalidAction,
    MatchNotFound,
    VersionConflict,
    VersionNotFound,
)
from domain.history import replay
from domain.state import Position

# ---- the story --------------------------------------------------------------------------------

def test_the_story_of_a_match_create_join_act_undo_redo_and_look_back(app: Matches) -> None:
    result = app.create_match(SETUP)
    match_id = result.events[0].originator_id
    assert result.frame.version == 1 and set(result.tokens) == {"referee", "spectator",
                                                                "join:red", "join:blue"}
    assert app.join(match_id, side="red", player="ann").tokens.keys() == {"red"}
    app.join(match_id, side="blue", player="bob")
    assert app.head(match_id).seats == (("red", "ann"), ("blue", "bob"))

    squad = NewUnit(id="sq1", side="red", name="Squad", figures=10,
                    position=Position(x=1, y=1))
    deployed = app.act(match_id, DeployUnit(unit=squad), actor="red")
    assert deployed.events[0].actor == "red"
    with pytest.raises(InvalidAction):
        app.act(match_id, DeployUnit(unit=squad), actor="red")  # refused: nothing appended
    app.act(match_id, MoveUnit(unit_id="sq1", to=Position(hex="0203")), actor="red")
    roll = app.act(match_id, RollDice(notation="2d6", purpose="fire"), actor="blue")
    app.act(match_id, PlaceMarker(kind="suppression", unit_id="sq1"), actor="blue")
    app.act(match_id, Advance())
    before_undo = app.head(match_id)
    assert before_undo.state.turn.step == "movement"
    assert before_undo.state.units["sq1"].markers == {"suppression": 1}

    undone = app.undo(match_id, actions=2)
    assert isinstance(undone.events[0], ev.ActionsUndone)
    assert undone.events[0].to == roll.frame.version
    assert app.head(match_id).state == app.state_at(match_id, roll.frame.version)
    asked = app.undo(match_id, actions=1, actor="blue")  # a strict match: the roll stays ...
    assert isinstance(asked.events[0], ev.UndoRequested)  # ... unless the other side accepts
    assert app.head(match_id).state == app.state_at(match_id, roll.frame.version)
    redone = app.redo(match_id)
    assert redone.frame.state == before_undo.state == app.head(match_id).state

    events = list(app.events_of(match_id))
    head = app.head(match_id)
    assert [e.version for e in events] == list(range(1, head.version + 1))
    assert head.state == replay(events).state
    for version in range(1, head.version + 1):
        frame = app.frame_at(match_id, version)
        expected = replay(events[:version])
        assert (frame.version, frame.state, frame.redo, frame.seats) == (
            version, expected.state, expected.redo, expected.seats)
    with pytest.raises(VersionNotFound):
        app.frame_at(match_id, head.version + 1)
    with pytest.raises(VersionNotFound):
        app.frame_at(match_id, 0)


def test_version_at_step_is_the_first_version_that_step_was_current(app: Matches) -> None:
    match_id = created(app)
    app.act(match_id, SetTrack(name="t", value=1))  # v2
    movement = app.act(match_id, Advance()).frame.version  # v3: movement
    app.act(match_id, Advance())  # v4 combat
    app.undo(match_id, actions=1)  # v5 back to movement
    app.act(match_id, Advance())  # v6 combat again
    app.act(match_id, Advance())  # v7 end
    turn_2 = app.act(match_id, Advance()).frame.version  # v8 turn 2 setup
    assert app.version_at_step(match_id, 1, "setup") == 1
    assert app.version_at_step(match_id, 1, "movement") == movement
    assert app.version_at_step(match_id, 1, "combat") == 4  # the first time, though undone
    assert app.version_at_step(match_id, 2, "setup") == turn_2
    assert app.state_at(match_id, turn_2).turn.turn == 2
    with pytest.raises(VersionNotFound):
        app.version_at_step(match_id, 2, "combat")
    with pytest.raises(MatchNotFound):
        app.version_at_step(UUID(int=7), 1, "setup")


def test_version_at_time_finds_the_last_version_at_or_before_a_moment(app: Matches) -> None:
    start = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    with freeze_time(start) as clock:
        match_id = created(app)  # v1 at 12:00:00
        versions = {}
        for minutes in (1, 2, 5, 9):
            clock.move_to(start + timedelta(minutes=minutes))
            versions[minutes] = app.act(match_id, SetTrack(name="t", value=minutes)).frame.version
        clock.tick(timedelta(hours=1))
        last = app.act(match_id, Advance()).frame.version
    stamps = [e.timestamp for e in app.events_of(match_id)]
    assert stamps[0] == start and stamps[-1] == start + timedelta(minutes=69)
    at = lambda minutes, seconds=0: app.version_at_time(
        match_id, start + timedelta(minutes=minutes, seconds=seconds))
    assert at(0) == 1
    assert at(0, 59) == 1
    assert at(1) == versions[1]
    assert at(4, 59) == versions[2]
    assert at(5) == versions[5]
    assert at(68) == versions[9]
    assert at(69) == last == at(600)
    with pytest.raises(VersionNotFound):
        at(0, -1)
    state = app.state_at(match_id, at(4))
    assert state.tracks == {"t": 2}


# ---- concurrency ------------------------------------------------------------------------------

def test_a_stale_expected_version_is_a_version_conflict(app: Matches, second: Matches) -> None:
    match_id = created(app)
    second.head(match_id)  # both cache version 1
    app.act(match_id, Advance())
    with pytest.raises(VersionConflict) as conflict:
        second.act(match_id, Advance(), expected_version=1)
    assert conflict.value.rule == "core-concurrency" and conflict.value.status == 409
    assert len(list(app.events_of(match_id))) == 2


def sneak_in(monkeypatch: pytest.MonkeyPatch, slow: Matches, fast: Matches,
             match_id: UUID) -> None:
    """Make `fast` append between `slow` reading its head and saving (a real race). A
    writer reads the head it holds (`_held_head`), not the store's, before deciding."""
    original = slow._held_head
    done = False

    def head_then_sneak(mid: UUID) -> Any:
        nonlocal done
        frame = original(mid)
        if not done:
            done = True
            fast.act(match_id, SetTrack(name="fast", value=1))
        return frame

    monkeypatch.setattr(slow, "_held_head", head_then_sneak)


def test_a_clash_in_the_store_with_an_expected_version_is_a_version_conflict(
    app: Matches, second: Matches, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = created(app)
    second.head(match_id)
    sneak_in(monkeypatch, second, app, match_id)
    with pytest.raises(VersionConflict):
        second.act(match_id, Advance(), expected_version=1)
    assert [e.type_name() for e in app.events_of(match_id)] == ["MatchCreated", "TrackSet"]


def test_a_clash_in_the_store_without_an_expected_version_is_retried_transparently(
    app: Matches, second: Matches, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = created(app)
    second.head(match_id)
    sneak_in(monkeypatch, second, app, match_id)
    result = second.act(match_id, Advance())
    assert [e.version for e in result.events] == [3]
    assert [e.type_name() for e in app.events_of(match_id)] == [
        "MatchCreated", "TrackSet", "PhaseAdvanced"]
    assert result.frame.state.tracks == {"fast": 1}  # decided against the new head
    assert app.head(match_id).state == second.head(match_id).state


def test_a_stale_cache_without_an_expected_version_catches_up(
    app: Matches, second: Matches
) -> None:
    match_id = created(app)
    second.head(match_id)
    app.act(match_id, Advance())
    result = second.act(match_id, PlaceMarker(kind="smoke", location="0101"))
    assert result.frame.version == 3
    assert app.head(match_id).state == second.head(match_id).state


def test_an_unknown_match_is_not_found(app: Matches) -> None:
    with pytest.raises(MatchNotFound):
        app.head(UUID(int=1))
    with pytest.raises(MatchNotFound):
        app.act(UUID(int=1), Advance())


# ---- schema evolution -------------------------------------------------------------------------

class NoteAddedV(ev.Event):
    """A stand-in for an event whose schema grows a field (class_version 1 -> 2)."""

    text: str


def test_a_stored_v1_event_still_loads_after_a_class_version_bump(
    app: Matches, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = created(app)
    topic = get_topic(NoteAddedV)
    old = NoteAddedV(originator_id=match_id, originator_version=2, timestamp=app.clock(),
                     actor="red", command_id="old", text="written long ago")
    app.save(old)  # stored at class_version 1: no `mood`
    [stored] = app.recorder.select_events(match_id, gt=1)
    assert stored.topic == topic
    assert app.mapper.transcoder.decode(stored.state)["class_version"] == 1

    class NoteAddedV2(ev.Event):  # the class as the code has it now
        class_version: ClassVar[int] = 2
        text: str
        mood: str

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> dict[str, Any]:
            return {**state, "mood": "neutral"}

    NoteAddedV2.__qualname__ = NoteAddedV.__qualname__
    NoteAddedV2.__name__ = NoteAddedV.__name__
    assert f"{NoteAddedV2.__module__}:{NoteAddedV2.__qualname__}" == topic
    monkeypatch.setitem(globals(), "NoteAddedV", NoteAddedV2)
    monkeypatch.setitem(_topic_cache, topic, NoteAddedV2)

    fresh = Matches(env=app.env)  # a new process loading the old record
    try:
        [loaded] = list(fresh.events_of(match_id, after=1))
        assert isinstance(loaded, NoteAddedV2)
        assert (loaded.version, loaded.text, loaded.mood, loaded.actor) == (
            2, "written long ago", "neutral", "red")
        assert fresh.head(match_id).version == 2  # the match still loads
        # A new event is stored at the new class version and loads without upcasting.
        new = NoteAddedV2(originator_id=match_id, originator_version=3,
                          timestamp=fresh.clock(), actor="blue", text="now", mood="glad")
        fresh.save(new)
        [record] = fresh.recorder.select_events(match_id, gt=2)
        assert fresh.mapper.transcoder.decode(record.state)["class_version"] == 2
        assert fresh.mapper.to_domain_event(record) == new
    finally:
        fresh.close()


# ---- durability -------------------------------------------------------------------------------

def test_every_sqlite_connection_of_matches_fsyncs_on_commit(
    sqlite_env_path: tuple[dict[str, str], Path],
) -> None:
    env, path = sqlite_env_path
    app = Matches(env=env)
    try:
        match_id = created(app)
        app.act(match_id, Advance())
        assert path.exists()
        pool = app.factory.datastore.pool  # type: ignore[attr-defined]
        held = [pool.get_connection(is_writer=w) for w in (True, False, False)]
        try:
            for conn in held:
                cursor = conn.cursor()
                cursor.execute("PRAGMA synchronous;")
                assert cursor.fetchone()[0] == 2  # FULL
                cursor.execute("PRAGMA journal_mode;")
                assert str(cursor.fetchone()[0]).lower() == "wal"
        finally:
            for conn in held:
                pool.put_connection(conn)
    finally:
        app.close()
