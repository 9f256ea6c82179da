"""A dispute through the table page, in a real browser against a real server: Blue (a phone)
disputes the match's first event, the referee's page shows it live and rules, Blue's page shows
the ruling; the log filters by seat. Screens land in test-artifacts/."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from table_steps import PHONE, Shot, acted, join, join_link, start_sample, version_of, wait_version

pytestmark = pytest.mark.e2e


def test_the_log_filters_and_a_dispute_goes_to_the_referee(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    referee = contexts().new_page()
    start_sample(referee, server)
    blue = join(contexts(viewport=PHONE), join_link(referee, "Free Militia"), "Bert", screenshots,
                "01-blue")

    # Blue disputes the match's first event; the referee sees it live and rules.
    entry = blue.locator('#log li[data-version="1"]')
    entry.locator("summary", has_text="Note or dispute").click()
    entry.get_by_label("Text").fill("The 1st Squad started with 2 wounds? It had none.")
    entry.get_by_role("button", name="Open dispute").click()
    acted(blue)
    wait_version(referee, version_of(blue))
    disputes = referee.locator("#disputes")
    assert "It had none" in disputes.inner_text()
    disputes.get_by_label("Ruling").fill("The scenario sets 2 wounds; play on.")
    disputes.get_by_role("button", name="Record the ruling").click()
    acted(referee)
    wait_version(blue, version_of(referee))
    ruled = blue.locator("#disputes .ruling").inner_text()
    assert ruled.startswith("Referee ruled on the dispute about ")
    assert "The scenario sets 2 wounds" in ruled

    # The log filters by seat and type.
    log = referee.locator("#log")
    log.get_by_label("Seat").select_option("blue")
    referee.wait_for_function("() => [...document.querySelectorAll('#log li .meta')]"
                              ".every(m => m.textContent.includes('Free Militia'))")
    assert log.locator("li").count() >= 1
    screenshots(referee, "02-referee-dispute-ruled")
