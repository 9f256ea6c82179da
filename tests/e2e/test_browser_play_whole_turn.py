"""A whole turn of a demo on a 390x844 phone, from the referee's seat (switching to a side's
seat, with Acting as, where only that side may act), only by tapping what the page offers:
each step's own actions (first choice, rolled by the service) and Next step, until the turn
marker reaches turn 2: Wing Command, Normandy and the extended sequence (where each step's own
moves are taken before Next step). After every screen: no sideways overflow, every tapped
control at least 44x44 px, no console error, no failed request.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from phone import phone_at, play_a_whole_turn

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]


def test_a_whole_turn_of_wing_command(browser: Any, server: str, screenshots: Shot) -> None:
    phone = phone_at(browser, server, screenshots, "wing-command-demo", "play-wing-command")
    play_a_whole_turn(phone, "wing-command")
    phone.close()


def test_a_whole_turn_of_normandy(browser: Any, server: str, screenshots: Shot) -> None:
    phone = phone_at(browser, server, screenshots, "normandy-demo", "play-normandy")
    play_a_whole_turn(phone, "normandy")
    phone.close()


def test_a_whole_turn_of_extended_sequence(browser: Any, server: str, screenshots: Shot) -> None:
    phone = phone_at(browser, server, screenshots, "extended-sequence-demo",
                     "play-extended-sequence")
    done = play_a_whole_turn(phone, "extended-sequence", eager=True)
    # the steps' own moves were taken, not only Next step: the weather tracks set, rolls made
    assert phone.taps["act"] + phone.taps["roll"] >= 3, (phone.taps, done)
    phone.close()
