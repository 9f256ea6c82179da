"""A large board on the table page (issue 25): the legal answer holds a page of the units'
choices, so a unit card outside it offers "What it can do", which reads that unit's choices
alone (GET /legal?unit=) and shows them on its card, ready to tap like any other."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from phone import Phone

from tests.unit.legal_boards import board

pytestmark = pytest.mark.e2e


def test_a_unit_outside_the_answers_page_shows_its_choices_when_asked(
        browser: Any, server: str, screenshots: Callable[[Any, str], Path]) -> None:
    made = httpx.post(f"{server}/api/matches", json=board(40)).json()
    match = made["match_id"]
    joined = httpx.post(f"{server}/api/matches/{match}/seats", json={"player": "Red"},
                        headers={"Authorization": f"Bearer {made['tokens']['join:red']}"})
    red = joined.json()["token"]
    answer = httpx.get(f"{server}/api/matches/{match}/legal",
                       headers={"Authorization": f"Bearer {red}"}).json()
    assert answer["page"]["truncated"]
    outside = next(f"red{i}" for i in range(40) if f"red{i}" not in answer["page"]["units"])
    inside = answer["page"]["units"][0]
    phone = Phone(browser, server, "large-board", screenshots)
    phone.open({"id": match, "seats": {"red": red}}, "red")
    page = phone.page
    card = page.locator(f"#unit-{outside}")
    assert card.get_by_role("button", name="Move", exact=True).count() == 0
    assert page.locator(f"#unit-{inside}").get_by_role(
        "button", name="Move", exact=True).count() == 1  # on the answer's page: shown at once
    with page.expect_response(lambda r: f"/legal?unit={outside}" in r.url):
        phone.tap(card.get_by_role("button", name="What it can do"), "its choices")
    move = card.get_by_role("button", name="Move", exact=True)
    move.wait_for()
    assert card.get_by_role("button", name="What it can do").count() == 0
    phone.screen("its-choices")
    assert not phone.errors and not phone.failed, (phone.errors, phone.failed)
    phone.close()  # (its browser context was left open: tests/leaks.py)
