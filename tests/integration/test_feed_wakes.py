"""The live feed is woken by a save of this process only when a page follows the match
saved, or that match's notes (issue 30: background loops wake on what concerns them); its
own timer still finds the rest."""

from __future__ import annotations

import asyncio

from domain.app import Matches
from domain.commands import AddNote, CreateMatch
from domain.commands.annotations import AddAnnotation
from projections.feed import MatchFeed

SIDES = [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]


def test_a_save_wakes_the_feed_only_for_a_followed_match_or_its_notes(
        matches: Matches) -> None:
    followed, other = (matches.create_match(CreateMatch.model_validate(
        {"scenario": name, "sides": SIDES})).events[0].originator_id
        for name in ("followed", "other"))
    feed = MatchFeed(matches)
    woken: list[int] = []
    feed._ticker.wake = lambda: woken.append(1)  # type: ignore[method-assign]
    feed.start()
    loop = asyncio.new_event_loop()
    try:
        matches.act(other, AddNote(text="nobody follows this"))
        assert woken == []  # no page follows any match
        feed.subscribe(followed, loop)
        matches.act(other, AddNote(text="still nobody"))
        assert woken == []  # a page follows another match
        matches.act(followed, AddNote(text="the hedgerow holds"))
        assert len(woken) == 1
        matches.annotate(followed, AddAnnotation(kind="comment", at_version=1, text="look"),
                         actor="referee")
        assert len(woken) == 2  # the followed match's notes, a stream of their own
    finally:
        feed.stop()
        loop.close()
