"""The store env chosen by the BATTLELOG_* variables: on PostgreSQL, a save is one
statement (our stored function, projections.store_pg) unless BATTLELOG_PG_DB_FUNCTIONS is
off (issue 30), and a value that is neither on nor off refused."""

from __future__ import annotations

import pytest

from projections import store_pg
from projections.store import env_from_environment

PG = {"BATTLELOG_STORE": "postgres", "BATTLELOG_PG_DBNAME": "battlelog"}


def test_a_save_is_one_ordered_statement_unless_told_otherwise() -> None:
    for env in (env_from_environment(environ=PG),
                env_from_environment(environ={**PG, "BATTLELOG_PG_DB_FUNCTIONS": "on"})):
        assert env["POSTGRES_ENABLE_DB_FUNCTIONS"] == "y"
        assert env["APPLICATION_RECORDER_TOPIC"] == store_pg.TOPIC


def test_db_functions_off_is_eventsourcings_pipelined_transaction() -> None:
    off = env_from_environment(environ={**PG, "BATTLELOG_PG_DB_FUNCTIONS": "off"})
    assert "POSTGRES_ENABLE_DB_FUNCTIONS" not in off
    assert "APPLICATION_RECORDER_TOPIC" not in off


def test_db_functions_take_on_or_off_only() -> None:
    with pytest.raises(ValueError, match="BATTLELOG_PG_DB_FUNCTIONS"):
        env_from_environment(environ={**PG, "BATTLELOG_PG_DB_FUNCTIONS": "yes"})
