"""Dice thrown at the players' table, on a 390x844 phone.

The referee declares a 2d6 roll from More actions (the notation and what it is for typed, the
source tapped); the prompt at the top then says in words what the table owes, with one field
per die (no JSON), and Next step says why it waits. Entering the faces clears the prompt and
the dice show.

A whole turn of the Battlegroup demo (three sides), from the referee's seat (and each side's,
switched with Acting as, for what is the side's own: its cards), only by tapping what the page
offers: initiative rolled once at the table (the faces typed, one field per side's die named
by its purpose), then each step's actions (activating battlegroups from a picker of their
names) and Next step until the turn marker reaches turn 2.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from phone import phone_at

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]


def test_the_table_owes_its_dice_in_words(browser: Any, server: str, screenshots: Shot) -> None:
    phone = phone_at(browser, server, screenshots, "atomic-africa-demo", "play-table-dice")
    page = phone.page
    more = page.locator("#actions")
    phone.tap(more.locator("button[data-action=roll_dice]"), "roll")
    # (issue 39) the dice are buttons that roll at once; the players' own dice and what the
    # roll is for are under "With more detail…"
    phone.tap(more.locator("details.inline > summary"), "roll")
    form = more.locator(".input-form")
    # (issue 39) the dice are the game's, tapped: no notation typed
    phone.tap(form.locator("label.pick").filter(has_text=re.compile(r"^\s*2d6\s*$")), "roll")
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
    faces = prompt.locator(".input-form fieldset.faces")
    assert faces.count() == 2  # (issue 39) a row of face buttons per die, tapped
    phone.tap(faces.nth(0).locator("label.pick").nth(4), "roll")  # a 5
    phone.tap(faces.nth(1).locator("label.pick").nth(1), "roll")  # a 2
    phone.screen("owed")
    phone.tap(prompt.locator(".input-form button[type=submit]"), "roll")
    phone.acted()
    assert page.locator("#awaiting").count() == 0
    phone.screen("entered")
    phone.close()


def test_a_whole_turn_of_battlegroup(browser: Any, server: str, screenshots: Shot) -> None:
    phone = phone_at(browser, server, screenshots, "battlegroup-demo", "play-battlegroup")
    page = phone.page
    phone.screen("initiative")
    assert page.locator("#advance").is_disabled()
    why = page.locator("#advance-why").inner_text()
    assert "Northern Column" in why and "north" not in why.split(":")[-1]  # names, not ids
    assert phone.offered() == ["Roll for the initiative (BG-2)"]  # the file's title
    said = phone.take("Roll for the initiative", table_dice=[6, 3, 1])
    assert "initiative" in said.lower()
    phone.screen("initiative-rolled")
    done = phone.play_turn("bg")
    assert phone.turn() == 2, done
    phone.screen("turn-2")
    phone.close()
