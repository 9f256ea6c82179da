"""A side's standing pass on a 390x844 phone (issue 26): "Pass until I must act" sits beside
Done with this step, saying where it stops next (issue 38: the first step where the side owes
something or has a move to choose: the weather change here, where the Soviets may set the
weather); one tap turns it on, the page then reads "Passing: stops at ..." with "Stop
passing", the match still waiting for the Soviets (their choice is theirs), and one tap on
that stops it: the button is back. Every tapped control is at least 44x44 px, the page does
not scroll sideways, and no console error or failed request."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from phone import Phone, new_match

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]


def test_a_side_passes_until_it_must_act_and_stops_passing(
        browser: Any, server: str, screenshots: Shot) -> None:
    phone = Phone(browser, server, "standing-pass", screenshots)
    phone.open(new_match(server, "extended-sequence-demo"), "soviets")
    page = phone.page
    beside = page.locator(".advance .row")
    assert beside.locator("#advance").count() and beside.locator("#pass-until").count()
    said = page.locator("#pass-until-what").inner_text()
    assert "stops at this step, Weather change (ES-1)" in said, said
    phone.screen("pass-offered")
    phone.tap(page.locator("#pass-until"), "pass")
    assert phone.acted() == "Pass until I must act. Done."
    passing = page.locator("#passing")
    assert passing.inner_text().startswith("Passing: stops at this step, Weather change")
    assert page.locator("#pass-until").count() == 0
    # the weather is the Soviets' to set (a move of their own): the pass said no done
    assert phone.waited()
    assert "(by its standing pass)" not in page.locator("ol.log").inner_text()
    phone.screen("passing")
    phone.tap(page.locator("#stop-passing"), "stop")
    phone.acted()
    assert page.locator("#passing").count() == 0
    assert page.locator("#pass-until").count() == 1
    assert "stopped passing" in page.locator("ol.log").inner_text()
    phone.screen("stopped")
    phone.close()
