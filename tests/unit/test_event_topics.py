"""Every event is stored under the topic `domain.events:<Name>`, whichever module defines
it: stored matches name their events' classes by it, and the catalogue and the match log
compare stored topics with the classes' own. Checkpoints keep theirs too,
`domain.persistence:Checkpoint`, from before the class moved into domain/app/."""

from __future__ import annotations

from eventsourcing.utils import get_topic, resolve_topic

from domain import events as ev
from domain.app.persistence import Checkpoint


def test_every_event_keeps_its_topic_in_domain_events() -> None:
    for name, cls in ev.EVENT_TYPES.items():
        assert get_topic(cls) == f"domain.events:{name}"
        assert resolve_topic(f"domain.events:{name}") is cls


def test_checkpoints_keep_the_topic_they_were_stored_under_before_the_move() -> None:
    assert get_topic(Checkpoint) == "domain.persistence:Checkpoint"
    assert resolve_topic("domain.persistence:Checkpoint") is Checkpoint
