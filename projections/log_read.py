"""One read of the application's log from a notification id: the records the projections that
follow it (the match catalogue, the notifier's outbox) apply. `battlelog project` reads each
batch once and hands it to both (`projections.projector`). The outbox, run on its own, reads
only the records of the matches it follows (`only`): those of the others stay in the store."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any
from uuid import UUID

from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder
from psycopg.sql import SQL, Identifier

from domain.app import Matches

# (notification id, match id, version, topic, stored state), in the log's order
LogRecord = tuple[int, UUID, int, str, bytes]


def read_log(matches: Matches, start: int, limit: int, *, stop: int | None = None,
             only: Collection[str] | None = None) -> list[LogRecord]:
    """The records of `matches`'s log from notification id `start` on (up to `stop`, if
    given), at most `limit`; with `only`, those of these matches alone, chosen by the store
    (the others are neither sent nor decoded). On SQLite one plain query: the recorder's
    `Notification` rows parse a UUID each, which cost more than the rest of the catalogue's
    work."""
    recorder = matches.recorder
    ids: dict[Any, UUID] = {}

    def uuid(value: Any) -> UUID:
        known = ids.get(value)
        if known is None:
            known = ids[value] = value if isinstance(value, UUID) else UUID(value)
        return known

    if only is not None and not only:
        return []
    if isinstance(recorder, SQLiteApplicationRecorder):
        where, params = "rowid>=?", list[object]([start])
        if stop is not None:
            where += " AND rowid<=?"
            params.append(stop)
        if only is not None:
            # `+`: the rows are found by their rowid (the new ones), never through the
            # primary key's index (every event of the followed matches)
            where += " AND +originator_id IN (SELECT value FROM json_each(?))"
            params.append(json.dumps(sorted(uuid(m).hex for m in only)))  # ids as stored
        with recorder.datastore.transaction(commit=False) as c:
            cursor = c.sqlite_cursor  # rows as tuples, not `sqlite3.Row`s
            cursor.row_factory = None
            cursor.execute(
                "SELECT rowid, originator_id, originator_version, topic, state FROM "
                f"{recorder.events_table_name} WHERE {where} ORDER BY rowid LIMIT ?",
                (*params, limit))
            return [(r[0], uuid(r[1]), r[2], r[3], r[4]) for r in cursor.fetchall()]
    if isinstance(recorder, PostgresApplicationRecorder) and only is not None:
        return [(r["notification_id"], uuid(r["originator_id"]), r["originator_version"],
                 r["topic"], bytes(r["state"])) for r in _pg_read(recorder, start, stop,
                                                                  only, limit)]
    return [(n.id, uuid(n.originator_id), n.originator_version, n.topic, n.state)
            for n in recorder.select_notifications(start=start, limit=limit, stop=stop)]


def _pg_read(recorder: PostgresApplicationRecorder, start: int, stop: int | None,
             only: Collection[str], limit: int) -> list[Any]:
    """The rows of `only`'s matches from `start` (to `stop`) on PostgreSQL."""
    statement = SQL("SELECT notification_id, originator_id, originator_version, topic, state "
                    "FROM {schema}.{table} WHERE notification_id >= %s").format(
        schema=Identifier(recorder.datastore.schema),
        table=Identifier(recorder.events_table_name))
    params: list[Any] = [start]
    if stop is not None:
        statement += SQL(" AND notification_id <= %s")
        params.append(stop)
    statement += SQL(" AND originator_id = ANY(%s) ORDER BY notification_id LIMIT %s")
    params += [sorted(UUID(str(m)) for m in only), limit]
    with recorder.datastore.get_connection() as conn, conn.cursor() as curs:
        curs.execute(statement, params, prepare=True)
        return list(curs.fetchall())
