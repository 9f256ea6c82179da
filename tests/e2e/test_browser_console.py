"""No console error on any page (issue 26), on a 390x844 phone in a real browser against a
real `battlelog serve`: the lobby, the join page and the table of each demo, each used as a
player would (the dice notation typed and checked in the page, the clock's button opened).
The dice notation's check in the page works: "3d6+1" and "2d6-1" pass, "d6x" does not (its
`pattern` was no valid `v`-flag expression, so Chromium logged an error and checked
nothing). "Play with a clock" is drawn as a button. Screens under test-artifacts/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from board_steps import DEMOS, create, overflow
from table_steps import PHONE

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]


def test_no_console_error_on_the_lobby_the_join_page_and_each_demos_table(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    page = contexts(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else None)
    page.goto(server)
    page.get_by_label("Sample scenario", exact=True).wait_for()
    screenshots(page, "lobby")
    for demo in DEMOS:
        match, tokens = create(server, httpx.get(f"{server}/api/scenarios/{demo}").json())
        join = next(token for key, token in tokens.items() if key.startswith("join:"))
        page.goto(f"{server}/play/{match}#join={join}")
        page.get_by_label("Your name").wait_for()
        page.goto(f"{server}/play/{match}#seat={tokens['referee']}")
        page.wait_for_selector("#play .step-now")
        notation = page.locator("form.dice-roller input[name=notation]")
        checked = {}
        for typed in ("3d6+1", "2d6-1", "d6x"):
            notation.fill(typed)
            checked[typed] = notation.evaluate("i => i.checkValidity()")
        assert checked == {"3d6+1": True, "2d6-1": True, "d6x": False}, demo
        summary = page.locator("#clock details.clock-start > summary")
        look = summary.evaluate("""s => { const c = getComputedStyle(s); const b = s.getBoundingClientRect();
            return {border: parseFloat(c.borderTopWidth), style: c.borderTopStyle,
                    w: b.width, h: b.height}; }""")
        assert look["border"] >= 1 and look["style"] == "solid", f"Play with a clock: {look}"
        assert look["w"] >= 44 and look["h"] >= 44, look
        summary.tap()
        page.get_by_role("button", name="Start the clock").wait_for()
        assert overflow(page) <= 0, demo
        screenshots(page, f"table-{demo}")
    assert errors == [], errors
