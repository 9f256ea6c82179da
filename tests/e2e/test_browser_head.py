"""The head of the table (scenario, seat badge, the Acting as picker) on a 390x844 phone:
a live update from another seat leaves it as it is, so a player who has the seat picker open
does not see it closed under the finger, and the picker still switches seats after it."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from phone import Phone, new_match
from table_steps import wait_version

pytestmark = pytest.mark.e2e


def test_a_live_update_keeps_the_seat_picker_and_it_still_switches(
        browser: Any, server: str, screenshots: Any) -> None:
    match = new_match(server, "atomic-africa-demo")
    phone = Phone(browser, server, "head-kept", screenshots)
    phone.open(match, "referee")
    picker = phone.page.get_by_label("Acting as")
    picker.evaluate("el => { el.keptMark = 'before'; }")  # this very element (not its HTML)
    for text in ("first", "second"):  # another seat acts twice: two live updates
        done = httpx.post(f"{server}/api/matches/{match['id']}/actions",
                          json={"type": "add_note", "text": f"a {text} note"},
                          headers={"Authorization": f"Bearer {match['seats']['red']}"}, timeout=10)
        assert done.status_code == 201, done.text
        wait_version(phone.page, int(done.headers["etag"].strip('"')))
    assert picker.evaluate("el => el.keptMark") == "before", "the head was drawn anew"
    phone.as_seat("Expeditionary Force")
    assert "You: Expeditionary Force" in phone.page.locator("#viewer").inner_text()
    phone.screen("head-after-updates")
    phone.close()
