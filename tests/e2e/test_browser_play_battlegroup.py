"""A whole turn of the Battlegroup demo (three sides) on a 390x844 phone, from the referee's
seat (and each side's, switched with Acting as, for what is the side's own: its cards), only by tapping what the page offers: initiative rolled once at the table (the faces
typed, one field per side's die named by its purpose), then each step's actions (activating
battlegroups from a picker of their names) and Next step until the turn marker reaches turn 2.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from phone import Phone, new_match

pytestmark = pytest.mark.e2e


def test_a_whole_turn_of_battlegroup(
        browser: Any, server: str, screenshots: Callable[[Any, str], Path]) -> None:
    phone = Phone(browser, server, "play-battlegroup", screenshots)
    phone.open(new_match(server, "battlegroup-demo"))
    page = phone.page
    phone.screen("initiative")
    assert page.locator("#advance").is_disabled()
    why = page.locator("#advance-why").inner_text()
    assert "Northern Column" in why and "north" not in why.split(":")[-1]  # names, not ids
    assert phone.offered() == ["Roll initiative (BG-2)"]
    said = phone.take("Roll initiative", table_dice=[6, 3, 1])
    assert "initiative" in said.lower()
    phone.screen("initiative-rolled")
    done = phone.play_turn("bg")
    assert phone.turn() == 2, done
    phone.screen("turn-2")
    phone.close()
