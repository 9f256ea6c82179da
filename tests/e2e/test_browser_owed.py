"""What a seat owes, on a 390x844 phone (issue 38): Hold the Towns, North attacks South's 2nd
Fusiliers (a 2 thrown at the table: no effect at 1-1), and the result leaves South owing the
attacked marker's removal (HT-5) in North's combat step. South's page lists it first under
Your move ("You owe"), in the file's words with the unit's name, and one tap on its button
discharges it; North's page says it waits for South and why (whose turn, Your move, and Next
step greyed with the duty's rule), until South has done it. Every tapped control at least
44x44 px, no sideways scrolling, no console error, no failed request."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import ARTIFACTS
from phone import Phone, new_match
from test_browser_play_hold_the_towns import DEMO, move

from projections.rulefile_load import BUILT_IN

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]


def test_south_sees_what_it_owes_after_norths_attack_and_one_tap_does_it(
        browser: Any, server: str, screenshots: Shot) -> None:
    stored = httpx.post(f"{server}/api/rulesets", content=(BUILT_IN / "hold-the-towns.yaml")
                        .read_bytes(), headers={"Content-Type": "application/yaml"})
    assert stored.status_code == 201, stored.text
    match = new_match(server, "hold-the-towns-demo", body=json.loads(DEMO.read_text()))
    phone = Phone(browser, server, "owed-hold-the-towns", screenshots)
    phone.open(match, "north")
    page = phone.page
    phone.next_step()  # reinforcement: nothing is due on game turn 1 (HT-3)
    move(phone, "Grey Lancers", "0504")
    phone.next_step()
    assert phone.step() == "player_turn/combat"
    card = phone.unit_card("2nd Fusiliers")
    phone.tap(card.get_by_role("button", name="Place a marker", exact=True), "marker")
    phone.tap(card.locator(".picks-quick").get_by_role("button", name="defender", exact=True),
              "marker")
    phone.acted()
    # North owes the attack on the defender it named (HT-5): listed first, one tap away
    owes = page.locator("#you-owe")
    assert "attack the unit named as the defender" in owes.inner_text().lower()
    phone.take("Attack", "Grey Lancers", table_dice=[2])

    # North: nothing of its own is owed; the match waits for South, and says why
    assert page.locator("#you-owe").count() == 0
    others = page.locator("#owed-others").inner_text()
    assert "South" in others and "attacked marker" in others and "2nd Fusiliers" in others
    assert "South" in page.locator("#whose").inner_text()
    assert not page.locator("#advance").is_enabled()
    assert "HT-5" in page.locator("#advance-why").inner_text()
    phone.screen("north-waits-for-south")

    # South: what it owes comes first in Your move, and one tap discharges it
    phone.as_seat("South")
    assert phone.waited()
    owes = page.locator("#you-owe")
    said = owes.inner_text()
    assert "attacked marker" in said and "2nd Fusiliers" in said and "HT-5" in said, said
    # what discharges it, one button each for the unit: take the marker off (or eliminate it)
    buttons = owes.locator("button.owed-action", has_text="marker")
    assert buttons.count() == 1, owes.locator("button.owed-action").all_inner_texts()
    play = page.locator("#play").bounding_box()
    assert play is not None and owes.bounding_box()["y"] < play["y"] + play["height"]
    phone.screen("south-owes")
    owes.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "owed-hold-the-towns-south-screen.png"))  # as seen
    before = phone.taps["owed"]
    phone.tap(buttons.first, "owed")
    phone.acted()
    assert phone.taps["owed"] - before == 1  # one tap
    assert page.locator("#you-owe").count() == 0
    assert "attacked" not in phone.unit_card("2nd Fusiliers").inner_text().lower()
    phone.screen("south-discharged")

    # North may move on now: nothing is owed
    phone.as_seat("North")
    assert page.locator("#owed-others").count() == 0
    assert page.locator("#advance").is_enabled()
    board = httpx.get(f"{server}/api/matches/{match['id']}/board",
                      headers={"Authorization": f"Bearer {match['seats']['referee']}"}).json()
    assert board["owed"] == []
    phone.close()
