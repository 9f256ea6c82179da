"""The SQLite catalogue trails behind the saves (it writes a batch of them in one
transaction, not a commit beside every action's), yet the match list still shows every
match and action saved before it is asked, and a stop writes what was still trailing."""

from __future__ import annotations

from pathlib import Path

from pydantic import TypeAdapter

from domain.app import Matches
from domain.commands import Action, CreateMatch
from projections.catalogue import CatalogueService

SETUP = CreateMatch(scenario="trail", sides=[{"id": "red", "name": "Red"},
                                             {"id": "blue", "name": "Blue"}])
ADVANCE = TypeAdapter(Action).validate_python({"type": "advance"})


def test_a_reader_that_waits_sees_every_save_at_once_however_far_it_trails(
        sqlite_env_path: tuple[dict[str, str], Path]) -> None:
    env, _ = sqlite_env_path
    matches = Matches(env=env)
    catalogue = CatalogueService(matches, trail=3600.0)  # would trail for an hour
    catalogue.start()
    try:
        match_id = matches.create_match(SETUP).events[0].originator_id
        matches.act(match_id, ADVANCE)
        version = matches.head(match_id).version
        # No time to wait at all: the reader applies what was saved itself.
        catalogue.wait_until_caught_up(timeout=0)
        row = catalogue.get(match_id)
        assert row is not None and row.version == version
        assert [e.match_id for e in catalogue.list()] == [match_id]
    finally:
        catalogue.stop()
        matches.close()


def test_a_stop_writes_what_was_still_trailing(
        sqlite_env_path: tuple[dict[str, str], Path]) -> None:
    env, _ = sqlite_env_path
    matches = Matches(env=env)
    catalogue = CatalogueService(matches, trail=3600.0)
    catalogue.start()
    match_id = matches.create_match(SETUP).events[0].originator_id
    matches.act(match_id, ADVANCE)
    version = matches.head(match_id).version
    catalogue.stop()
    try:
        assert catalogue.position() == matches.recorder.max_notification_id()
        row = catalogue.get(match_id)
        assert row is not None and row.version == version
    finally:
        matches.close()
