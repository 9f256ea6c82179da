"""A side's standing pass on a 390x844 phone (issue 26): "Pass until I must act" sits beside
Done with this step; one tap turns it on (the log says the side's done "by its standing
pass"), the page then reads "Passing until you must act" with "Stop passing", and one tap
on that stops it: the button is back. Every tapped control is at least 44x44 px, the page
does not scroll sideways, and no console error or failed request."""

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
    assert "for the rest of this turn" in page.locator("#pass-until-what").inner_text()
    phone.screen("pass-offered")
    phone.tap(page.locator("#pass-until"), "pass")
    assert phone.acted() == "Pass until I must act. Done."
    passing = page.locator("#passing")
    assert passing.inner_text().startswith("Passing until you must act")
    assert page.locator("#pass-until").count() == 0
    assert not phone.waited()  # its done with the weather was said for it
    log = page.locator("ol.log").inner_text()
    assert "Rifle Company Orlov is done with" in log and "(by its standing pass)" in log
    phone.screen("passing")
    phone.tap(page.locator("#stop-passing"), "stop")
    phone.acted()
    assert page.locator("#passing").count() == 0
    assert page.locator("#pass-until").count() == 1
    assert "stopped passing" in page.locator("ol.log").inner_text()
    phone.screen("stopped")
    phone.close()
