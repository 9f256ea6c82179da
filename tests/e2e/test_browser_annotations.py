"""Annotations on the table page (docs/replay.md), in a real browser at 390x844: Blue steps
back one event, taps a comment in for everyone and a private chapter title there; the
referee's page, shown that event, reads the comment and the chapter (the referee reads
every annotation), the spectator's only the comment; every target of the panel is 44 px at
least. Screens land in test-artifacts/."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from table_steps import (
    PHONE,
    Shot,
    acted,
    fits_the_phone,
    join,
    join_link,
    panel_shot,
    small_targets,
    start_sample,
    version_of,
    wait_version,
)

pytestmark = pytest.mark.e2e


def annotate(page: Any, text: str, *, chapter: bool = False, seen_by: str = "Only me") -> None:
    notes = page.locator("#notes")
    notes.get_by_label("Comment or chapter title", exact=False).fill(text)
    if chapter:
        notes.locator("label.pick", has_text="A chapter title").click()
    notes.get_by_label("Who sees it").select_option(label=seen_by)
    notes.get_by_role("button", name="Add at event").click()
    acted(page)


def test_a_player_adds_a_comment_at_the_event_on_screen_by_tapping(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    referee = contexts().new_page()
    start_sample(referee, server)
    blue = join(contexts(viewport=PHONE), join_link(referee, "Free Militia"), "Bert", screenshots,
                "01-blue")
    wait_version(referee, version_of(blue))
    head = version_of(blue)
    blue.locator("#time").get_by_role("button", name="One event back").click()
    shown = head - 1
    notes = blue.locator("#notes")
    notes.get_by_role("button", name=f"Add at event {shown}").wait_for()
    assert small_targets(blue, "#notes button, #notes select, #notes textarea, #notes label.pick") == []
    annotate(blue, "The squad was pinned here, not routed", seen_by="Everyone")
    annotate(blue, "Bert's secret plan", chapter=True)
    notes.locator("li", has_text="pinned here").wait_for()
    said = notes.inner_text()
    assert "Chapter: Bert's secret plan" in said and "only you" in said
    assert fits_the_phone(blue)
    panel_shot(screenshots, blue, "02-blue-annotated", "#notes")
    assert version_of(blue) == head  # annotations are not the match's events

    referee.locator("#time").get_by_role("button", name="One event back").click()
    referee.locator("#notes li", has_text="pinned here").wait_for()
    assert "Chapter: Bert's secret plan" in referee.locator("#notes").inner_text()

    watcher = contexts(viewport=PHONE).new_page()
    link = referee.get_by_role("link", name="Spectator link").get_attribute("href")
    watcher.goto(str(link))
    watcher.wait_for_selector("#turn-marker")
    watcher.locator("#time").get_by_role("button", name="One event back").click()
    watcher.locator("#notes li", has_text="pinned here").wait_for()
    assert "secret plan" not in watcher.locator("#notes").inner_text()
    assert watcher.locator("#notes form").count() == 0  # a spectator adds none
    screenshots(watcher, "03-spectator")
