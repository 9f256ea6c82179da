"""The times an event may carry (`domain.events.base.usable_time`): with a UTC offset, from
1970 to before the year 3000. One outside does not build, so a stored one does not load
(its match answers 409: tests/integration/test_poisoned_match.py)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta, timezone

import pytest
from pydantic import ValidationError

from domain import events as ev
from domain.events.base import EARLIEST, LATEST


def paused(timestamp: object) -> ev.ClockPaused:
    return ev.ClockPaused.model_validate({"originator_id": uuid.uuid4(), "originator_version": 2,
                                          "timestamp": timestamp, "actor": "referee"})


@pytest.mark.parametrize("timestamp", [
    "9999-12-31T23:59:59.5Z", LATEST, EARLIEST - timedelta(microseconds=1),
    "2026-05-01T09:00:00",  # no offset: naive
    datetime(2026, 5, 1, 9, 0),
])
def test_a_time_outside_the_window_or_without_offset_is_refused(timestamp: object) -> None:
    with pytest.raises(ValidationError, match="an event's time"):
        paused(timestamp)


@pytest.mark.parametrize("timestamp", [
    EARLIEST, LATEST - timedelta(microseconds=1), "2026-05-01T09:00:00+02:00",
    datetime(2026, 5, 1, 9, 0, tzinfo=timezone(timedelta(hours=-5))),
])
def test_a_time_inside_the_window_with_an_offset_is_kept(timestamp: object) -> None:
    event = paused(timestamp)
    assert event.timestamp.utcoffset() is not None
    assert EARLIEST <= event.timestamp.astimezone(UTC) < LATEST
