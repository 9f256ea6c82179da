"""A whole turn of the extended-sequence-demo on a 390x844 phone, from the referee's seat (switching to a
side's seat, with Acting as, where only that side may act), only by tapping what the page
offers: each step's own actions (first choice, rolled by the service) and Next step, until the
turn marker reaches turn 2. After every screen: no sideways overflow, every tapped control at
least 44x44 px, no console error, no failed request.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from phone import Phone, new_match

pytestmark = pytest.mark.e2e


def test_a_whole_turn_of_extended_sequence(
        browser: Any, server: str, screenshots: Callable[[Any, str], Path]) -> None:
    phone = Phone(browser, server, "play-extended-sequence", screenshots)
    phone.open(new_match(server, "extended-sequence-demo"))
    phone.screen("first-screen")
    assert phone.page.locator("#play").bounding_box()["y"] < 844  # on the first screen
    done = phone.play_turn("extended-sequence", eager=True)
    assert phone.turn() == 2, done
    # the steps' own moves were taken, not only Next step: the weather tracks set, rolls made
    assert phone.taps["act"] + phone.taps["roll"] >= 3, (phone.taps, done)
    phone.screen("turn-2")
    phone.close()
