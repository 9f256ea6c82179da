"""The store env chosen by the BATTLELOG_* variables: on PostgreSQL, eventsourcing's
one-statement append (its stored function) only when BATTLELOG_PG_DB_FUNCTIONS is on
(issue 30), and a value that is neither on nor off refused."""

from __future__ import annotations

import pytest

from projections.store import env_from_environment

PG = {"BATTLELOG_STORE": "postgres", "BATTLELOG_PG_DBNAME": "battlelog"}


def test_db_functions_are_off_unless_asked_for() -> None:
    assert "POSTGRES_ENABLE_DB_FUNCTIONS" not in env_from_environment(environ=PG)
    off = env_from_environment(environ={**PG, "BATTLELOG_PG_DB_FUNCTIONS": "off"})
    assert "POSTGRES_ENABLE_DB_FUNCTIONS" not in off


def test_db_functions_on_append_in_one_statement() -> None:
    env = env_from_environment(environ={**PG, "BATTLELOG_PG_DB_FUNCTIONS": "on"})
    assert env["POSTGRES_ENABLE_DB_FUNCTIONS"] == "y"


def test_db_functions_take_on_or_off_only() -> None:
    with pytest.raises(ValueError, match="BATTLELOG_PG_DB_FUNCTIONS"):
        env_from_environment(environ={**PG, "BATTLELOG_PG_DB_FUNCTIONS": "yes"})
