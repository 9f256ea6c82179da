"""The PostgreSQL save in one statement (issue 30): one round trip per action, in the order
of the log.

eventsourcing 9.5.6 appends a save's events either in a pipelined transaction (BEGIN, its
lock timeout, `LOCK TABLE ... IN EXCLUSIVE MODE`, NOTIFY, the INSERT, a sync, COMMIT: two
round trips) or, with `POSTGRES_ENABLE_DB_FUNCTIONS`, through a stored function in one
statement. Its function leaves the table lock out: two appends at once may then commit in
the other order than their notification ids, and a follower of the log (the catalogue, the
notifier, `battlelog project`) that read the later id first records a position past the
earlier one and never sees it. `OrderedFunctionRecorder`'s function takes the same lock
as the pipelined transaction, so the one statement keeps the log's order: each append
takes its ids and commits before the next takes any.

The function is named after the events table (`battlelog_insert_<table>`), so it never
replaces eventsourcing's own nor another table's; it is created with the tables (by whoever
opens the store first, `CREATE OR REPLACE`), which needs the right to create in the
schema, as the tables do.

`listen_for_saves` wakes a follower of the log (`battlelog project`'s runner) on the NOTIFY
each append sends."""

from __future__ import annotations

import logging
from threading import Event
from typing import Any

import psycopg
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg.sql import SQL, Identifier

log = logging.getLogger(__name__)
TOPIC = f"{__name__}:OrderedFunctionRecorder"  # eventsourcing's APPLICATION_RECORDER_TOPIC


class OrderedFunctionRecorder(PostgresApplicationRecorder):
    """eventsourcing's application recorder, whose one-statement append (its stored
    function, when the datastore enables them) also takes the table lock its pipelined
    append takes."""

    def __init__(self, datastore: PostgresDatastore, *,
                 events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        schema = Identifier(datastore.schema)
        table = Identifier(events_table_name)
        self.pg_function_name_insert_events = f"battlelog_insert_{events_table_name}"
        function = Identifier(self.pg_function_name_insert_events)
        self.sql_invoke_pg_function_insert_events = SQL(
            "SELECT * FROM {schema}.{function}((%s))").format(schema=schema, function=function)
        self.sql_create_pg_function_insert_events = SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{function}(events {schema}.{event}[]) "
            "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ "
            "BEGIN "
            "SET LOCAL lock_timeout = '{lock_timeout}s'; "
            "LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
            "NOTIFY {channel}; "
            "RETURN QUERY INSERT INTO {schema}.{table} AS t "
            "(originator_id, originator_version, topic, state) "
            "SELECT originator_id, originator_version, topic, state FROM unnest(events) "
            "RETURNING notification_id; "
            "END; $BODY$"
        ).format(schema=schema, function=function, event=Identifier(self.stored_event_type_name),
                 lock_timeout=datastore.lock_timeout, table=table,
                 channel=Identifier(self.channel_name))
        self.sql_create_statements[self.create_insert_function_statement_index] = (
            self.sql_create_pg_function_insert_events)


HEARD_EVERY = 0.1  # seconds between the listener's looks at `stopping` (a stop waits so long)


def listen_for_saves(recorder: PostgresApplicationRecorder, saved: Event,
                     stopping: Event) -> None:
    """Set `saved` whenever an append is committed (each sends a NOTIFY on the recorder's
    channel: eventsourcing's pipelined transaction and the function above alike), until
    `stopping`; one connection of its own held meanwhile (not one of the pool's, which an
    API process keeps for its requests), opened again after an error. Only that something
    was saved is taken: what was saved is read by the caller."""
    while not stopping.is_set():
        try:
            with psycopg.connect(**_connect_kwargs(recorder), autocommit=True) as conn:
                conn.execute(SQL("LISTEN {0}").format(Identifier(recorder.channel_name)))
                while not stopping.is_set():
                    for _ in conn.notifies(timeout=HEARD_EVERY, stop_after=1):
                        saved.set()
        except Exception:  # the store is away: the caller polls meanwhile
            log.warning("no LISTEN on %s (trying again): the runner polls meanwhile",
                        recorder.channel_name, exc_info=True)
            stopping.wait(5.0)


def _connect_kwargs(recorder: PostgresApplicationRecorder) -> dict[str, Any]:
    """What the store's pool connects with (its password asked again, where it asks)."""
    pool = recorder.datastore.pool
    kwargs = pool.kwargs() if callable(pool.kwargs) else dict(pool.kwargs or {})
    if pool.get_password_func is not None:
        kwargs["password"] = pool.get_password_func()
    return {**kwargs, "connect_timeout": 5}
