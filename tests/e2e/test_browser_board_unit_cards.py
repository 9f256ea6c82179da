"""A game written as a ruleset file shows what its file declares of its units (issue 39), on a
390x844 phone in a real browser against a real `battlelog serve`: Ridge Watch's scouts (the
tutorial's file and scenario) have cards that say their kind ("Scout") and their values by the
file's titles ("Eyes 2", "Speed in hexes 2"), in the Units panel and in the sheet a tap on a
scout's hex opens (a tap on the hex's number: the hex, not its counter). Screens under
test-artifacts/."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from board_steps import create, open_table

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]
TUTORIAL = Path(__file__).parents[2] / "docs" / "rulesets" / "tutorial.md"
BLOCK = re.compile(r"^```(\w+) (\w+)\n(.*?)^```$", re.DOTALL | re.MULTILINE)


def test_a_file_games_unit_cards_say_the_attributes_its_file_declares(
        contexts: Callable[..., Any], server: str, board_shot: Shot) -> None:
    found = {tag: text for _, tag, text in BLOCK.findall(TUTORIAL.read_text())}
    stored = httpx.post(f"{server}/api/rulesets", content=found["whole"],
                        headers={"Content-Type": "application/yaml"})
    assert stored.status_code in (200, 201), stored.text
    match, tokens = create(server, json.loads(found["scenario"]))
    page = open_table(contexts, server, match, tokens["referee"])
    card = page.locator('li.unit-card[data-unit="ash"]')
    assert "Scout" in card.locator(".meta").inner_text()
    facts = card.locator(".facts").inner_text()
    assert "Eyes 2" in facts and "Speed in hexes 2" in facts, facts
    wren = page.locator('li.unit-card[data-unit="wren"] .facts').inner_text()
    assert "Eyes 0" in wren and "Speed in hexes 3" in wren, "a value of 0 is a value"

    # a tap on the hex Ash stands on (on its number, above the counter) lists it in full
    page.locator("#board svg.map").scroll_into_view_if_needed()
    number = page.locator("#board svg.map text.hex-id >> text='0102'").bounding_box()
    page.touchscreen.tap(number["x"] + number["width"] / 2, number["y"] + number["height"] / 2)
    row = page.locator('.map-sheet button.sheet-unit[data-unit="ash"]')
    row.wait_for()
    assert "Hex 0102" in page.locator(".map-sheet h3").inner_text()
    said = row.inner_text()
    assert "Ash" in said and "Scout" in said and "Eyes 2" in said and "Speed in hexes 2" in said
    board_shot(page, "ridge-watch-sheet")
    row.tap()
    page.wait_for_selector('#board svg.map g.unit.selected[data-unit="ash"]')
