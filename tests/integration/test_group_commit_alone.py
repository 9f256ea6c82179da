"""An append that commits alone (issue 30: no savepoint around it): a clash on any of its
events leaves none of them, raises eventsourcing's IntegrityError, and the next append
commits as before."""

from __future__ import annotations

from pathlib import Path
from uuid import uuid4

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent

from domain.app import Matches
from projections.store import GroupCommitSQLiteApplicationRecorder, sqlite_env


def record(originator: object, version: int) -> StoredEvent:
    return StoredEvent(originator_id=originator, originator_version=version, topic="t:T",
                       state=b"{}")


def test_a_clash_in_an_append_alone_leaves_none_of_its_events(tmp_path: Path) -> None:
    matches = Matches(env=sqlite_env(str(tmp_path / "alone.db")))
    try:
        recorder = matches.recorder
        assert isinstance(recorder, GroupCommitSQLiteApplicationRecorder)
        match = uuid4()
        recorder.insert_events([record(match, 1)])
        commits = recorder.commits
        with pytest.raises(IntegrityError):  # version 2 is new, version 1 clashes
            recorder.insert_events([record(match, 2), record(match, 1)])
        assert [e.originator_version for e in recorder.select_events(match)] == [1]
        recorder.insert_events([record(match, 2)])
        assert [e.originator_version for e in recorder.select_events(match)] == [1, 2]
        assert recorder.commits == commits + 1  # the clash committed nothing
    finally:
        matches.close()
