"""A step where every side acts, through the table page in a real browser at phone size.

The referee starts the extended-sequence demo from the lobby; both sides join on phones. The
first step (weather) is shared: each page reads "Done with this step" and names the sides it
waits for. The first side taps it: its button greys out and says why, the other page shows
live that only it is awaited, and its tap moves the turn on for both. Screens land in
test-artifacts/.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from table_steps import (  # the table page's own helpers
    PHONE,
    acted,
    join,
    join_link,
    low_contrast,
    policed_contexts,
    start_sample,
    version_of,
    wait_version,
)

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]


@pytest.fixture
def contexts(browser: Any, server: str) -> Iterator[Callable[..., Any]]:
    yield from policed_contexts(browser, server)


def test_a_shared_step_waits_for_every_side_to_say_it_is_done(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    referee = contexts(viewport=PHONE).new_page()
    start_sample(referee, server, "extended-sequence-demo")
    sides = [label.removeprefix("Join link for ") for label in referee.locator(
        "#seats li a.share-link").all_inner_texts()]
    assert len(sides) == 2
    phones = [join(contexts(viewport=PHONE, is_mobile=True, has_touch=True),
                   join_link(referee, side), player,
                   screenshots, f"shared-00-{n}")
              for n, (side, player) in enumerate(zip(sides, ("Ann", "Bert"), strict=True))]
    first, second = phones
    step = first.locator("li[aria-current=step]").inner_text()

    # (issue 38) the weather change is owed first (ES-1): one side's roll discharges it for
    # both, from You owe, and then each side may say it is done
    for page in phones:
        assert page.locator("#you-owe button.owed-action").count() >= 1
        assert page.get_by_role("button", name="Done with this step").is_disabled()
    # (issue 39) the roll owed is its dice, one tap each (what it is for: the duty's words)
    assert first.locator(".input-form").count() == 0
    first.locator("#you-owe .owed-values").get_by_role("button", name=re.compile("d6$")).first.tap()
    acted(first)
    wait_version(second, version_of(first))
    for page in phones:
        assert f"Waiting for: {sides[0]}, {sides[1]}." in page.locator("#waiting-for").inner_text()
        assert page.get_by_role("button", name="Done with this step").is_enabled()
    screenshots(first, "shared-01-both-awaited")

    first.get_by_role("button", name="Done with this step").tap()
    acted(first)
    assert first.locator("li[aria-current=step]").inner_text() == step  # not moved on yet
    assert f"Waiting for: {sides[1]}." in first.locator("#waiting-for").inner_text()
    assert first.locator("#advance").is_disabled()
    assert "You have said you are done" in first.locator("#advance-why").inner_text()
    assert low_contrast(first) == []
    screenshots(first, "shared-02-first-is-done")

    # The other phone follows live: it alone is awaited, and its tap moves the turn on.
    wait_version(second, version_of(first))
    assert f"Waiting for: {sides[1]}." in second.locator("#waiting-for").inner_text()
    second.get_by_role("button", name="Next step").tap()
    acted(second)
    for page in (second, first):
        wait_version(page, version_of(second))
        assert page.locator("li[aria-current=step]").inner_text() != step
    screenshots(second, "shared-03-moved-on")
