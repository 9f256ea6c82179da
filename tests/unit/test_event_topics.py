"""Every event is stored under the topic `domain.events:<Name>`, whichever module defines
it: stored matches name their events' classes by it, and the catalogue and the match log
compare stored topics with the classes' own."""

from __future__ import annotations

from eventsourcing.utils import get_topic, resolve_topic

from domain import events as ev


def test_every_event_keeps_its_topic_in_domain_events() -> None:
    for name, cls in ev.EVENT_TYPES.items():
        assert get_topic(cls) == f"domain.events:{name}"
        assert resolve_topic(f"domain.events:{name}") is cls
