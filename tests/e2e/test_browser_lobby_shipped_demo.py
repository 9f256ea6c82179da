"""The demo of Hold the Towns, the game shipped as a ruleset file, in the lobby of a fresh
server with no configuration, on a 390x844 phone in a real browser (issue 28): it is among
the samples in the game's own title, and chosen then started with one tap as every sample
is, it opens a table that shows the file's first step, and its match pins the shipped file's
hash. No horizontal overflow, every control at least 44 by 44 px, no serious or critical axe
finding, no console error."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from axe_steps import axe_source, readable, violations
from lobby_steps import Thumb, phone_lobby, started
from phone import assert_no_overflow
from table_steps import small_targets

from domain.rulefiles.identity import file_hash
from projections.rulefile_load import check_file
from projections.rulefiles import shipped

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]
SAMPLES = 'form[aria-label="Start a sample scenario"]'


def test_the_shipped_demo_is_a_sample_that_one_tap_starts(
        browser: Any, own_server: str, screenshots: Shot) -> None:
    [path] = [p for p in shipped() if p.name == "hold-the-towns.yaml"]
    pinned = file_hash(check_file(path).data)
    with phone_lobby(browser, own_server) as (page, console):
        start_the_demo(page, console, own_server, pinned, screenshots)


def start_the_demo(page: Any, console: list[str], server: str, pinned: str,
                   screenshots: Shot) -> None:
    form = page.locator(SAMPLES)
    you = Thumb(page)

    sample = form.get_by_label("Sample scenario", exact=True)
    labels = sample.locator("option").all_inner_texts()
    assert "Hold the Towns demo: Kell, Marrow and Tarn" in labels, labels
    assert len(labels) == 6  # beside the five built-in games' demos
    you.choose(sample, "Hold the Towns demo: Kell, Marrow and Tarn")
    assert form.locator(".hint").inner_text() == "Hold the Towns: 8 units, 2 sides"
    assert_no_overflow(page)
    assert small_targets(page, f"{SAMPLES} select, {SAMPLES} button") == []
    found = violations(page, axe_source())
    assert found == [], readable("the lobby with the shipped demo chosen", found)
    screenshots(page, "01-chosen")

    you.tap(form.get_by_role("button", name="Start this match"))  # the one tap
    _, match, _, events = started(page, server)
    created = events["events"][0]
    assert (match["ruleset"], created["type"]) == ("hold-the-towns", "MatchCreated")
    assert created["ruleset_hash"] == pinned  # the file as shipped
    step = page.locator("#turn li[aria-current=step]")
    step.wait_for()
    assert step.get_attribute("data-step") == "player_turn/reinforcement"  # the file's first
    assert "Reinforcement" in page.locator("#turn").inner_text()  # in the file's words
    assert_no_overflow(page)
    found = violations(page, axe_source())
    assert found == [], readable("the table of the shipped demo", found)
    screenshots(page, "02-table")
    assert console == [], console
