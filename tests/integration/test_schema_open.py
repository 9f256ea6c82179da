"""Opening our read models' tables on PostgreSQL where they are already there changes
nothing and so waits for no writer: even `IF NOT EXISTS`, an index or a column asked for
again locks its table first, and an opener that did so while the runner wrote notices and
rows deadlocked with it (found in CI)."""

from __future__ import annotations

import threading

import psycopg
import pytest

from domain.app import Matches
from projections.catalogue import TABLE, CatalogueService
from projections.notify_store import ATTEMPTS, OUTBOX, REG, WAITING, open_view


@pytest.mark.parametrize("store_env", ["postgres"], indirect=True)
def test_opening_existing_tables_waits_for_no_writer(matches: Matches,
                                                      pg_database: dict[str, str]) -> None:
    open_view(matches.factory, True)  # the tables, made once
    CatalogueService(matches)
    with psycopg.connect(**pg_database) as writer:  # a writer at work on every table
        writer.execute("SET lock_timeout = '30s'")
        for table in (REG, WAITING, OUTBOX, ATTEMPTS, TABLE):
            writer.execute(f"LOCK TABLE {table} IN ROW EXCLUSIVE MODE")
        opened: list[object] = []  # both opened again while the writer holds its locks
        opening = threading.Thread(target=lambda: opened.extend(
            [open_view(matches.factory, True), CatalogueService(matches)]), daemon=True)
        opening.start()
        opening.join(timeout=20)
        done = not opening.is_alive()
        writer.rollback()  # (lets a waiting opener finish)
        assert done, "opening the tables again waited for the writer"
        assert len(opened) == 2
