"""The table page in a real browser (headless Chromium) against a real `battlelog serve`.

Three seats in three browser contexts (so three separate devices): the referee starts the
Atomic Africa demo from the lobby and hands out the join links; red joins on a desktop, blue
on a 390-pixel phone. They play AA-X1 through the page (RULES.md: 11 figures, 2 wounds, 3
more wounds and 4 suppression, the compulsory split into 6 and 5, then a morale roll), each
page following the other live; then an undo that needs the other side's consent, time travel
back and forward, and the exports. Every screen is saved under test-artifacts/.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from table_steps import (  # the table page's own steps; other test modules import them here too
    PHONE,
    Shot,
    acted,
    join,
    join_link,
    low_contrast,
    place_markers,
    policed_contexts,  # noqa: F401
    start_sample,  # noqa: F401
    unit_card,
    unlabelled_controls,
    version_of,
    wait_version,
)

pytestmark = pytest.mark.e2e


def test_two_players_play_aa_x1_live_with_undo_consent_time_travel_and_export(
        contexts: Callable[..., Any], server: str, screenshots: Shot, tmp_path: Path) -> None:
    # The referee starts the demo from the lobby.
    referee = contexts(viewport={"width": 1280, "height": 900}).new_page()
    referee.goto(server)
    referee.get_by_label("Sample scenario", exact=True).select_option("atomic-africa-demo")
    assert unlabelled_controls(referee) == [] and low_contrast(referee) == []
    screenshots(referee, "01-lobby")
    referee.get_by_role("button", name="Start this match").first.click()
    referee.wait_for_selector("#turn-marker")
    assert "You: Referee" in referee.locator("#viewer").inner_text()
    red_link = join_link(referee, "Expeditionary Force")
    blue_link = join_link(referee, "Free Militia")
    assert "#join=" in red_link and "#join=" in blue_link
    screenshots(referee, "02-referee-table")

    red = join(contexts(viewport={"width": 1280, "height": 900}), red_link, "Ann", screenshots,
               "03-red")
    blue = join(contexts(viewport=PHONE, is_mobile=True, has_touch=True), blue_link, "Bert",
                screenshots, "04-blue-phone")
    assert "You: Expeditionary Force" in red.locator("#viewer").inner_text()
    assert "You: Free Militia" in blue.locator("#viewer").inner_text()
    assert blue.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert unlabelled_controls(red) == [] and low_contrast(red) == []
    # Private information: each side sees its own deck order, never the other's.
    # (cards by their titles: red-1 is "Red 1")
    assert re.search(r"Red \d", red.locator("#board").inner_text())
    assert not re.search(r"Red \d|red-\d", blue.locator("main").inner_text())
    assert not re.search(r"Blue \d|blue-\d", red.locator("main").inner_text())

    # Out of turn: blue may not activate while red activates, so its page offers no Activate.
    assert unit_card(blue, "ml1").get_by_role("button", name="Activate", exact=True).count() == 0
    screenshots(blue, "04b-blue-out-of-turn")

    # AA-1: red activates sq1; blue's page follows without a reload.
    expects = red.locator(".expects")
    assert "Expeditionary Force to activate one of: 1st Squad, 2nd Squad" in expects.inner_text()
    unit_card(red, "sq1").get_by_role("button", name="Activate", exact=True).click()
    acted(red)
    wait_version(blue, version_of(red))
    assert "activated" in unit_card(blue, "sq1").inner_text()

    # AA-X1: 3 more wounds (5 in all) and 4 suppression; the card says it must split.
    place_markers(blue, "sq1", "wound", 3)
    place_markers(blue, "sq1", "suppression", 4)
    wait_version(red, version_of(blue))
    card = unit_card(red, "sq1")
    assert "wounds: 5" in card.inner_text() and "suppression: 4" in card.inner_text()
    assert "must split" in card.inner_text()
    assert low_contrast(red) == [] and low_contrast(blue) == []
    screenshots(red, "05-red-must-split")
    screenshots(blue, "06-blue-phone-markers")

    # The dice roller shows each die (red records fire).
    red.get_by_label("Dice to roll").fill("3d6")
    red.get_by_label("Purpose").fill("1st Squad fires at the Militia Band")
    red.get_by_role("button", name="Roll", exact=True).click()
    acted(red)
    faces = red.locator("#last-roll .die")
    assert faces.count() == 3
    assert all(1 <= int(f) <= 6 for f in faces.all_inner_texts())

    # Activations alternate until every unit has gone, then Clean-Up: Split.
    for page, unit in ((red, None), (blue, "ml1"), (red, "sq2"), (blue, "mg1")):
        if unit:
            wait_version(page, max(version_of(red), version_of(blue)))
            unit_card(page, unit).get_by_role("button", name="Activate", exact=True).click()
            acted(page)
        page.locator("#advance").click()
        acted(page)
    wait_version(red, version_of(blue))
    assert red.locator("li[aria-current=step]").get_attribute("data-step") == "cleanup/split"
    assert "units that must split: 1st Squad" in red.locator(".expects").inner_text()

    # AA-3: the compulsory split, 11 figures into 6 and 5, wounds 3 + 2, suppression 2 + 2.
    before_split = version_of(red)
    card = unit_card(red, "sq1")
    card.locator("button[data-action=split_unit]").click()  # as the rules divide it: at once
    if card.locator(".picker").count():  # where the rules offer two ways: the first
        card.locator(".picker .picks-grid button").first.click()
    if card.locator(".input-form").count():  # which half takes an odd marker: the first
        for group in card.locator("fieldset.picks:has(input[type=radio])").all():
            group.locator("label.pick").first.click()
        card.locator(".input-form button[type=submit]").click()
    acted(red)
    first, second = unit_card(red, "sq1").inner_text(), unit_card(red, "sq1-2").inner_text()
    assert "6 figures" in first and "wounds: 3" in first and "suppression: 2" in first
    assert "5 figures" in second and "wounds: 2" in second and "suppression: 2" in second
    assert "morale d4 (base d10)" in first and "morale d6 (base d10)" in second
    assert "must split" not in first
    wait_version(blue, version_of(red))
    assert unit_card(blue, "sq1-2").count() == 1
    screenshots(red, "07-red-after-split")

    # AA-7: on to Morale once both sides are done splitting; red rolls for sq1-2 (d6 against
    # 2 suppression).
    red.locator("#advance").click()  # "Done with this step"
    acted(red)
    wait_version(blue, version_of(red))
    blue.locator("#advance").click()
    acted(blue)
    wait_version(red, version_of(blue))
    assert "units owing a Morale roll: 1st Squad" in red.locator(".expects").inner_text()
    unit_card(red, "sq1-2").get_by_role("button", name="Morale roll").click()
    roll_here = unit_card(red, "sq1-2").get_by_role("button", name="Roll here")
    if roll_here.count():
        roll_here.click()
    acted(red)
    die = red.locator("#last-roll .die")
    assert die.count() == 1 and 1 <= int(die.inner_text()) <= 6
    rolled = version_of(red)
    # rolled once: its card offers no Morale roll any more
    assert unit_card(red, "sq1-2").get_by_role("button", name="Morale roll").count() == 0
    screenshots(red, "08-red-morale-roll")

    # Undo across the die: red asks, blue's page shows the question live, blue accepts.
    red.locator("#undo-here").click()
    acted(red)
    wait_version(blue, rolled + 1)
    prompt = blue.locator("#prompt")
    # who asks and what it takes back, in words (issue 26)
    assert "Expeditionary Force asks to take back: Expeditionary Force rolled" in \
        prompt.inner_text()
    assert "version" not in prompt.inner_text()
    screenshots(blue, "09-blue-undo-consent")
    prompt.get_by_role("button", name="Accept").click()
    acted(blue)
    wait_version(red, version_of(blue))
    assert unit_card(red, "sq1-2").get_by_role("button", name="Morale roll").count() == 1
    assert red.locator("#prompt").inner_text() == ""
    assert red.locator(f'#log li.undone[data-version="{rolled}"]').count() == 1  # struck out
    # Redo belongs to red, who asked for the undo: blue's page offers none.
    assert red.get_by_role("button", name="Redo").count() == 1
    assert blue.get_by_role("button", name="Redo").count() == 0

    # Time travel: back to before the split (the board says it is the past), then forward.
    now = version_of(red)
    slider = red.locator("#time-slider")
    slider.fill(str(before_split))
    slider.dispatch_event("change")
    red.locator("#past").wait_for(state="visible")
    assert f"version {before_split} of {now}" in red.locator("#past").inner_text()
    assert unit_card(red, "sq1-2").count() == 0
    assert "11 figures" in unit_card(red, "sq1").inner_text()
    assert red.locator("#advance").count() == 0  # no acting in the past
    assert low_contrast(red) == []
    screenshots(red, "10-red-time-travel")
    red.get_by_role("button", name="One event forward").click()
    red.wait_for_function("() => document.querySelector('#time-shown').textContent"
                          f".startsWith('Event {before_split + 1} of')")
    assert unit_card(red, "sq1-2").count() == 1
    red.locator("#past").get_by_role("button", name="Back to now").click()
    red.locator("#past").wait_for(state="hidden")
    assert red.locator("#advance").count() == 1

    # Exports: the match file verifies as JSON Lines with every event; the report has charts.
    with red.expect_download() as download:
        red.get_by_role("button", name="Match file (JSONL)").click()
    path = tmp_path / "match.jsonl"
    download.value.save_as(path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["format"] == "battlelog-match" and lines[0]["viewer"] == "red"
    assert [e["version"] for e in lines[1:]] == list(range(1, now + 1))
    with referee.expect_popup() as opened:  # the report opens in a tab of its own
        referee.get_by_role("link", name="Report (opens in a new tab)").click()
    report = opened.value
    report.wait_for_selector("svg")
    assert "Free Militia" in report.content()
    report.close()
    wait_version(referee, now)
    screenshots(referee, "11-referee-end")
