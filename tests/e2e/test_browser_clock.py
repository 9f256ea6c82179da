"""Whose turn and the game clock on a phone (390x844), in a real browser against a real
server: the lobby lists this device's matches with whose turn in words, the one waiting for
this device first ("Your move"); the table page shows both sides' clocks, the one of the side
the match waits for counting down each second and the other standing still; the referee's
clock buttons are big enough to tap. No overflow, no console error, no failed request."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from phone import Phone, new_match

pytestmark = pytest.mark.e2e


def start_clock(server: str, match: dict[str, Any], minutes: int = 90) -> None:
    answer = httpx.post(f"{server}/api/matches/{match['id']}/actions",
                        headers={"Authorization": f"Bearer {match['seats']['referee']}"},
                        json={"type": "start_clock", "controls": {
                            "red": {"total": minutes * 60}, "blue": {"total": minutes * 60}}})
    answer.raise_for_status()


def clocks(page: Any) -> dict[str, str]:
    return {str(el.get_attribute("data-side")): str(el.locator(".time").inner_text())
            for el in page.locator("#clock .side-clock").all()}


def test_the_lobby_puts_your_move_first_and_the_table_runs_both_clocks(
        browser: Any, server: str, screenshots: Callable[[Any, str], Path]) -> None:
    phone = Phone(browser, server, "clock", screenshots)
    yours, theirs = new_match(server, "atomic-africa-demo"), new_match(server, "atomic-africa-demo")
    start_clock(server, yours)
    phone.open(yours, "red")  # red is the active side: this match waits for this device
    # the blue seat's match is held last, so the lobby lists it first by time
    phone.open(theirs, "blue")
    page = phone.page

    page.goto(f"{server}/")
    page.wait_for_selector(".matches li .whose:not(:empty)")
    page.wait_for_function("() => [...document.querySelectorAll('.matches .whose')]"
                           ".every((p) => p.textContent)")
    items = page.locator(".matches li")
    assert items.count() == 2
    assert items.nth(0).get_attribute("data-id") == yours["id"]
    first, second = items.nth(0).locator(".whose").inner_text(), items.nth(1).locator(".whose").inner_text()
    # (what the side owes: AA-1's activation)
    assert first.startswith("Your move: to activate one of your units"), first
    assert second.startswith("Waiting for ") and "Your move" not in second, second
    phone.screen("lobby-your-move-first")

    page.goto(f"{server}/play/{yours['id']}")
    page.wait_for_selector("#clock .side-clock")
    assert page.locator("#clock .whose").inner_text().startswith("Your move")
    before = clocks(page)
    assert set(before) == {"red", "blue"} and re.fullmatch(r"1:(29:\d\d|30:00)", before["red"])
    page.wait_for_timeout(2500)
    after = clocks(page)
    assert after["red"] != before["red"]  # the side waited for: its clock counts down
    assert after["blue"] == before["blue"] == "1:30:00"  # the other stands still
    phone.screen("table-clocks")

    phone.as_seat("Referee")
    pause = page.get_by_role("button", name="Pause the clock")
    phone.tap(pause, "pause the clock")
    assert phone.acted() == "The clock is paused."
    page.wait_for_selector("#clock .side-clock[data-running=false][data-side=red]")
    held = clocks(page)
    page.wait_for_timeout(1500)
    assert clocks(page) == held  # paused: nothing counts down
    phone.check_size(page.get_by_role("button", name="Restart the clock"), "restart the clock")
    phone.check_size(page.get_by_role("button", name="Give or take time"), "adjust the clock")
    phone.screen("referee-paused")
    phone.close()
