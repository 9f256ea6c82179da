"""A store written before domain/ became packages (issue 27) still loads, on both stores.

tests/fixtures/store_before_layout.sqlite.gz is a SQLite store that `main` wrote before the
move (tests/fixtures/make_store_fixture.py: the five demos played at random through their
legal actions, with server dice, cards, undos at once and with consent, redos, the game
clock, a fork, and a checkpoint every 20 versions); store_before_layout.json beside it holds
each match's head as it was then. Its records name their classes by the topics of that time
(`domain.events:<Name>`, `domain.persistence:Checkpoint`). On SQLite the file itself is
opened; on PostgreSQL its records are copied as they are stored (topic and bytes untouched)
through the recorders. A cold application must then read every match back to the recorded
head (version and hash chain head), from its checkpoints (since issue 38 refused as stale:
the state keeps more, and is rebuilt from the events) and by a full replay, and its export
must verify to the same chain head."""

from __future__ import annotations

import gzip
import json
import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import orjson
import pytest

from domain.app import Matches
from domain.app.persistence import StaleCheckpoint
from domain.commands import AddNote
from domain.events import SeatJoined
from domain.history import replay
from domain.integrity import GENESIS, chained, verify
from projections.export import export_lines
from projections.store import sqlite_env

FIXTURES = Path(__file__).parent.parent / "fixtures"
HEADS: dict[str, dict[str, object]] = json.loads(
    (FIXTURES / "store_before_layout.json").read_text())["matches"]
OLD_TOPICS = ("domain.events:", "domain.persistence:Checkpoint")


def unpacked(path: Path) -> Path:
    with gzip.open(FIXTURES / "store_before_layout.sqlite.gz", "rb") as packed, \
            path.open("wb") as raw:
        shutil.copyfileobj(packed, raw)
    return path


@pytest.fixture
def old_store(store_env: dict[str, str], tmp_path: Path) -> Iterator[dict[str, str]]:
    """The env of a store holding the fixture's records as they were written."""
    if "SQLITE_DBNAME" in store_env:  # the file as main wrote it
        unpacked(Path(store_env["SQLITE_DBNAME"]))
        yield store_env
        return
    source = Matches(env={**sqlite_env(str(unpacked(tmp_path / "before.sqlite"))),
                          "CREATE_TABLE": "n"})
    target = Matches(env=store_env)
    try:
        assert source.snapshots is not None and target.snapshots is not None
        for match in HEADS:
            match_id = UUID(match)
            target.recorder.insert_events(source.recorder.select_events(match_id))
            target.snapshots.recorder.insert_events(
                source.snapshots.recorder.select_events(match_id))
    finally:
        source.close()
        target.close()
    yield store_env


@pytest.fixture
def cold(old_store: dict[str, str]) -> Iterator[Matches]:
    """An application that holds nothing of the store in memory."""
    matches = Matches(env=old_store)
    yield matches
    matches.close()


def test_the_store_holds_the_topics_written_before_the_move(cold: Matches) -> None:
    assert cold.snapshots is not None
    for match in HEADS:
        stored = [*cold.recorder.select_events(UUID(match)),
                  *cold.snapshots.recorder.select_events(UUID(match))]
        assert stored and all(s.topic.startswith(OLD_TOPICS) for s in stored)


@pytest.mark.parametrize("match", list(HEADS))
def test_a_match_written_before_the_move_replays_to_its_recorded_head(
    cold: Matches, match: str
) -> None:
    match_id, recorded = UUID(match), HEADS[match]
    head = cold.head(match_id)  # from its newest checkpoint and the events after it
    assert (head.version, head.chain_head) == (recorded["version"], recorded["chain_head"])
    assert cold.snapshots is not None
    stored = list(cold.snapshots.recorder.select_events(match_id))
    assert [s.originator_version for s in stored] == recorded["checkpoints"]
    # (issue 38) its checkpoints are of class version 3, kept before the state held the facts
    # of the step under way that duties read: each is refused as stale (a cache, safe to
    # drop), and the head is rebuilt from the events, the same as a full replay
    with pytest.raises(StaleCheckpoint):
        list(cold.snapshots.get(match_id))

    events = list(cold.events_of(match_id))
    assert dict(Counter(type(e).__name__ for e in events)) == recorded["events"]
    full = replay(events)
    assert (full.version, full.chain_head) == (head.version, head.chain_head)
    assert full.state == head.state

    report = verify(export_lines(cold, match_id))
    assert report.ok, report.problems
    assert (report.events, report.chain_head) == (head.version, head.chain_head)


def valued(record: bytes) -> dict[str, object]:
    """A stored record's keys that hold a value (not null)."""
    return {k: v for k, v in orjson.loads(record).items() if v is not None}


def test_each_stored_event_chained_again_gets_its_stored_hash_and_record(cold: Matches) -> None:
    """An event is dumped to JSON once for its hash, its stored record and its answer
    (`Event.keep_json`, issue 30): each event of the old store, its hashes cleared and
    chained again, gets the very hash it was stored with (the hash chain's bytes are
    unchanged), the mapper writes the record it was stored as (some fields have moved in
    their classes since, some were added with a null default: the same values) and the
    same bytes as from a fresh dump, and every seat's view of it is the one a fresh dump
    gives."""
    mapper = cold.mapper
    for match in HEADS:
        prev, seats = GENESIS, ["referee", "spectator", ""]
        for stored in cold.recorder.select_events(UUID(match)):
            event = mapper.to_domain_event(stored)
            seats += [event.side] if isinstance(event, SeatJoined) and event.side else []
            bare = event.model_copy(update={"prev_hash": "", "hash": ""})
            linked = chained([bare], prev)[0]
            assert (linked.prev_hash, linked.hash) == (event.prev_hash, event.hash)
            assert linked == event and linked.as_json() == event.model_dump(mode="json")
            again = mapper.to_stored_event(linked).state
            if orjson.loads(stored.state).get("class_version", 1) == type(event).class_version:
                assert valued(again) == valued(stored.state)  # not upcast
            assert again == mapper.to_stored_event(event).state  # made without a kept dump
            for seat in seats:
                assert linked.public(seat) == event.public(seat)
            prev = event.hash


@pytest.mark.parametrize("match", list(HEADS))
def test_a_match_stored_before_commitments_verifies_for_every_seat_and_commits_from_now_on(
        cold: Matches, match: str) -> None:
    """docs/integrity.md, matches stored before commitments: each seat's export verifies,
    its hidden events counted as not checked (their hash covers values it does not hold);
    the referee's export imports elsewhere as it was; an event recorded now is committed,
    and from it on a hidden field without a commitment would be refused."""
    match_id = UUID(match)
    events = list(cold.events_of(match_id))
    assert not any(getattr(e, "salts", None) for e in events)  # none was salted then
    seats = ["spectator", *sorted({e.side for e in events
                                   if isinstance(e, SeatJoined) and e.side})]
    for seat in seats:
        report = verify(export_lines(cold, match_id, seat))
        assert report.ok, (seat, report.problems)
        assert report.events_unchecked == report.events_hidden, (seat, report)
    elsewhere = Matches()
    try:
        imported = elsewhere.import_match(list(export_lines(cold, match_id)))
        assert imported.frame.chain_head == HEADS[match]["chain_head"]
        assert imported.verified is not None and imported.verified["events_unchecked"] == 0
    finally:
        elsewhere.close()
    [noted] = cold.act(match_id, AddNote(text="PLANTED old-match note", private=True),
                       actor="referee").events
    assert noted.salts is not None and set(noted.salts) == {"text"}
    for seat in seats:
        lines = list(export_lines(cold, match_id, seat))
        report = verify(lines)
        assert report.ok and report.events_hidden == report.events_unchecked + 1, report
        assert "PLANTED" not in lines[-1] and '"commitments":{"text":' in lines[-1]
