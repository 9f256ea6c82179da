"""PostgreSQL with BATTLELOG_PG_DB_FUNCTIONS=on, the default (issue 30): a save is one
statement (our stored function, projections.store_pg), and what the held head relies on
still holds: two processes on one database, the one whose head is stale finds out at its
append and decides again; a stale If-Match is still a conflict. The function takes the
table lock the pipelined save takes, which keeps the ids in the order of the commits (a
follower of the log never passes over an id committed later)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from domain.app import Matches
from domain.commands import Advance, CreateMatch, SetTrack
from domain.errors import VersionConflict
from projections.store import env_from_environment

SETUP = CreateMatch(scenario="test", sides=[{"id": "red", "name": "Red"},
                                            {"id": "blue", "name": "Blue"}])


@pytest.fixture
def pair(pg_database: dict[str, Any]) -> Iterator[tuple[Matches, Matches]]:
    env = env_from_environment(environ={
        "BATTLELOG_STORE": "postgres", "BATTLELOG_PG_DBNAME": pg_database["dbname"],
        "BATTLELOG_PG_HOST": str(pg_database["host"]),
        "BATTLELOG_PG_PORT": str(pg_database["port"]),
        "BATTLELOG_PG_USER": pg_database["user"],
        "BATTLELOG_PG_PASSWORD": pg_database["password"] or "",
        "BATTLELOG_PG_DB_FUNCTIONS": "on"})
    one, two = Matches(env=env), Matches(env=env)
    yield one, two
    one.close()
    two.close()


@pytest.mark.postgres
def test_with_db_functions_a_stale_head_decides_again_and_a_stale_if_match_conflicts(
        pair: tuple[Matches, Matches]) -> None:
    one, two = pair
    assert one.recorder.datastore.enable_db_functions  # type: ignore[attr-defined]
    match_id = one.create_match(SETUP).events[0].originator_id
    two.head(match_id)
    one.act(match_id, Advance())  # two's held head is one version behind
    newest = one.head(match_id).version
    result = two.act(match_id, SetTrack(name="t", value=1))
    assert result.frame.version == newest + 1
    assert one.head(match_id).version == newest + 1
    with pytest.raises(VersionConflict):
        one.act(match_id, SetTrack(name="t", value=2), expected_version=newest)
    assert two.head(match_id).version == newest + 1


@pytest.mark.postgres
def test_the_one_statement_save_takes_the_table_lock_that_keeps_the_logs_order(
        pair: tuple[Matches, Matches], pg_database: dict[str, Any]) -> None:
    one, _ = pair
    match_id = one.create_match(SETUP).events[0].originator_id
    table = one.recorder.events_table_name  # type: ignore[attr-defined]
    saved: list[int] = []
    with psycopg.connect(dbname=pg_database["dbname"], host=str(pg_database["host"]),
                         port=pg_database["port"], user=pg_database["user"],
                         password=pg_database["password"] or "") as holder:
        holder.execute(f'LOCK TABLE "{table}" IN SHARE MODE')  # held until the rollback
        saving = threading.Thread(target=lambda: saved.append(
            one.act(match_id, SetTrack(name="t", value=1)).frame.version))
        saving.start()
        waits: list[Any] = []
        for _ in range(400):  # until the save waits for the table (its lock timeout is 5 s)
            waits = holder.execute(
                "SELECT mode FROM pg_locks WHERE relation = %s::regclass AND NOT granted",
                (f'"{table}"',)).fetchall()
            if waits:
                break
            time.sleep(0.005)
        holder.rollback()
        saving.join()
    assert waits == [("ExclusiveLock",)]  # not the INSERT's own RowExclusiveLock
    assert saved == [one.head(match_id).version]
