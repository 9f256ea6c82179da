"""One read of the application's log from a notification id: the records the projections that
follow it (the match catalogue, the notifier's outbox) apply. `battlelog project` reads each
batch once and hands it to both (`projections.projector`)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.sqlite import SQLiteApplicationRecorder

from domain.app import Matches

# (notification id, match id, version, topic, stored state), in the log's order
LogRecord = tuple[int, UUID, int, str, bytes]


def read_log(matches: Matches, start: int, limit: int) -> list[LogRecord]:
    """The records of `matches`'s log from notification id `start` on, at most `limit`. On
    SQLite one plain query: the recorder's `Notification` rows parse a UUID each, which
    cost more than the rest of the catalogue's work."""
    recorder = matches.recorder
    ids: dict[Any, UUID] = {}

    def uuid(value: Any) -> UUID:
        known = ids.get(value)
        if known is None:
            known = ids[value] = value if isinstance(value, UUID) else UUID(value)
        return known

    if isinstance(recorder, SQLiteApplicationRecorder):
        with recorder.datastore.transaction(commit=False) as c:
            cursor = c.sqlite_cursor  # rows as tuples, not `sqlite3.Row`s
            cursor.row_factory = None
            cursor.execute(
                "SELECT rowid, originator_id, originator_version, topic, state FROM "
                f"{recorder.events_table_name} WHERE rowid>=? ORDER BY rowid LIMIT ?",
                (start, limit))
            return [(r[0], uuid(r[1]), r[2], r[3], r[4]) for r in cursor.fetchall()]
    return [(n.id, uuid(n.originator_id), n.originator_version, n.topic, n.state)
            for n in recorder.select_notifications(start=start, limit=limit)]
