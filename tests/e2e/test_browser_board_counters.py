"""The units' counters on the board, on a 390-pixel phone in a real browser against a real
`battlelog serve`: markers are drawn on a counter per kind with their count (badges, the
legend, the counter's name for a screen reader); units on one spot are one stack with how many
on it (issue 39: no longer fanned out off their spot), a tap on it opens a sheet that lists
each unit in full, a row selects its unit, ringed and drawn on top of its stack. Screens under
test-artifacts/."""


from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from board_steps import counters, create, open_table, overflow, wheel_in

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]


def test_markers_are_drawn_per_kind_with_their_count(
        contexts: Callable[..., Any], server: str, board_shot: Shot) -> None:
    body = httpx.get(f"{server}/api/scenarios/atomic-africa-demo").json()
    body["units"][0]["markers"] = {"wound": 2, "suppression": 1, "smoke": 3}
    match, tokens = create(server, body)
    page = open_table(contexts, server, match, tokens["referee"])
    sq1 = page.locator('#board svg.map g.unit[data-unit="sq1"]')
    found = {b.get_attribute("data-kind"): (b.locator("text").text_content(),
                                            b.locator("title").text_content())
             for b in sq1.locator("g.badge").all()}
    assert found == {"wound": ("W2", "2 wound markers"),
                     "suppression": ("Su1", "1 suppression marker"),
                     "smoke": ("Sm3", "3 smoke markers")}
    # the counter's name starts with what it shows, badges too (a player says what they see)
    name = sq1.get_attribute("aria-label") or ""
    shown = " ".join([sq1.locator("text.unit-name").first.text_content() or ""]
                     + [t for t, _ in found.values()])
    assert name.startswith(shown), (shown, name)
    assert all(words in name for _, words in found.values())
    legend = page.locator("#board .map-legend").inner_text()
    assert "W wound" in legend and "Su suppression" in legend and "Sm smoke" in legend
    page.locator("#board svg.map").scroll_into_view_if_needed()
    box = sq1.locator("rect.counter").bounding_box()
    for _ in range(12):  # zoom in on sq1 with the wheel, to look at its badges
        if sq1.locator("rect.counter").bounding_box()["height"] >= 44:
            break
        wheel_in(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    board_shot(page, "markers-per-kind")


@pytest.mark.parametrize("where", ["table", "hexes"])
def test_units_on_one_spot_are_a_stack_whose_sheet_lists_and_selects_each(
        contexts: Callable[..., Any], server: str, board_shot: Shot, where: str) -> None:
    spot = {"x": 20, "y": 14} if where == "table" else {"hex": "0504"}
    other = {"x": 30, "y": 20} if where == "table" else {"hex": "0807"}
    body = {"ruleset": "freeform", "scenario": f"A crowded {where}",
            "sides": [{"id": "reds", "name": "Red Army"}, {"id": "blues", "name": "Blue Band"}],
            "units": [{"id": f"u{i}", "side": "reds" if i % 2 else "blues",
                       "name": f"Company {i}", "kind": "company", "position": spot,
                       **({"markers": {"wound": i}} if i else {})} for i in range(4)]
            + [{"id": "lone", "side": "blues", "name": "Lone Scouts", "kind": "team",
                "position": other}]}
    match, tokens = create(server, body)
    page = open_table(contexts, server, match, tokens["referee"])
    # one stack on the spot, how many on it; its counters piled on the spot, not fanned out
    stack = page.locator("#board svg.map g.stack")
    assert stack.count() == 1 and stack.get_attribute("data-count") == "4"
    assert stack.locator(".stack-count text").text_content() == "4"
    marks = [m for m in counters(page) if m["unit"] != "lone"]
    middles = [(m["x"] + m["w"] / 2, m["y"] + m["h"] / 2) for m in marks]
    spread = max(abs(a[0] - b[0]) + abs(a[1] - b[1]) for a in middles for b in middles)
    assert spread <= marks[0]["h"] * 0.5, "a stack is a pile on its spot"
    assert (stack.get_attribute("aria-label") or "").startswith("Stack of ")
    assert page.locator('#board svg.map g.unit[data-unit="lone"]').get_attribute("role") == "button"
    # a tap on the stack lists its four units in full, with their markers in words
    page.locator("#board svg.map").scroll_into_view_if_needed()
    top = stack.locator("g.unit").last.locator("rect.counter").bounding_box()
    page.touchscreen.tap(top["x"] + top["width"] / 2,
                         top["y"] + top["height"] / 2)
    rows = page.locator(".map-sheet button.sheet-unit")
    rows.first.wait_for()
    assert sorted(rows.evaluate_all("bs => bs.map(b => b.dataset.unit)")) == ["u0", "u1", "u2", "u3"]
    assert "Company 2" in rows.nth(2).inner_text() and "wounds: 2" in rows.nth(2).inner_text()
    assert all(r.bounding_box()["height"] >= 44 for r in rows.all())
    assert overflow(page) <= 0
    board_shot(page, f"stack-sheet-on-the-{where}")
    # a row selects its unit: drawn on top of its stack, ringed; the sheet closes
    rows.nth(2).tap()
    page.wait_for_selector('#board svg.map g.unit.selected[data-unit="u2"]')
    assert page.locator(".map-sheet").count() == 0
    mark = page.locator('#board svg.map g.unit[data-unit="u2"]')
    assert mark.locator("rect.ring").count() == 1, "the selected unit is ringed"
    last = page.evaluate("[...document.querySelectorAll('#board svg.map g.stack g.unit')].at(-1)"
                         ".dataset.unit")
    assert last == "u2", "the selected unit is on top of its stack"
    # the keyboard opens it too, and Escape closes it
    stack.focus()
    page.keyboard.press("Enter")
    page.locator(".map-sheet").wait_for()
    page.keyboard.press("Escape")
    assert page.locator(".map-sheet").count() == 0
    board_shot(page, f"stacked-on-the-{where}")
