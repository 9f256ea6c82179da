"""Dice thrown at the players' table, on a 390x844 phone: the referee declares a 2d6 roll
from More actions (the notation and what it is for typed, the source tapped); the prompt at
the top then says in words what the table owes, with one field per die (no JSON), and Next
step says why it waits. Entering the faces clears the prompt and the dice show.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from phone import Phone, new_match

pytestmark = pytest.mark.e2e


def test_the_table_owes_its_dice_in_words(
        browser: Any, server: str, screenshots: Callable[[Any, str], Path]) -> None:
    phone = Phone(browser, server, "play-table-dice", screenshots)
    phone.open(new_match(server, "atomic-africa-demo"))
    page = phone.page
    more = page.locator("#actions")
    phone.tap(more.locator("button[data-action=roll_dice]"), "roll")
    form = more.locator(".input-form")
    form.get_by_label("Dice", exact=True).fill("2d6")
    form.get_by_label("What for", exact=True).fill("fire at the Militia Band")
    phone.tap(form.locator("label.pick", has_text="dice thrown at the table"), "roll")
    phone.screen("declaring")
    phone.tap(form.locator("button[type=submit]"), "roll")
    phone.acted()

    prompt = page.locator("#awaiting")
    said = prompt.inner_text()
    assert "owes the faces of the 2d6 thrown at the table for fire at the Militia Band" in said
    assert "{" not in said and "version" not in said
    assert page.locator("#advance").is_disabled()
    phone.tap(prompt.locator("button[data-action=record_roll]"), "roll")
    faces = prompt.locator(".input-form input[type=number]")
    assert faces.count() == 2  # one field per die
    faces.nth(0).fill("5")
    faces.nth(1).fill("2")
    phone.screen("owed")
    phone.tap(prompt.locator(".input-form button[type=submit]"), "roll")
    phone.acted()
    assert page.locator("#awaiting").count() == 0
    phone.screen("entered")
    phone.close()
