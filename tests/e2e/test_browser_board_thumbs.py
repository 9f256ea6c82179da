"""The board for thumbs (issue 26, issue 39), on a 390x844 phone in a real browser against a
real `battlelog serve`: in each demo, at the first screen (the map as it opens, no zoom),
every unit of both sides has a counter on its spot that covers no other, and a tap at its
middle selects that unit, with nothing wider than the screen. (Issue 39: counters are no
longer 44 px at the first screen, they stand on their hexes at the hex's size; the 44 px
rule holds for what a finger taps: on a table a tap within 22 px of a small counter reaches
it, and the sheet's rows are 44 px; test_browser_board_fits.py holds counters at 44 px once
zoomed in.) The list of units under the map selects on the map too, and "+" keeps the
selected unit in view. Screens under test-artifacts/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from board_steps import DEMOS, counters, demo_table, overflow, overlapping, tap_tool, view_box

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]
MIN = 44


def on_the_map(unit: dict[str, Any]) -> bool:
    position = unit.get("position") or {}
    return position.get("x") is not None or bool(position.get("hex"))


def tap_counter(page: Any, unit: str) -> None:
    """Bring the unit's counter on screen (the page scrolls, the map does not change), check
    that its middle is this unit's, and tap it there with a finger."""
    rect = page.locator(f'#board svg.map g.unit[data-unit="{unit}"] rect.counter')
    rect.scroll_into_view_if_needed()
    box = rect.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    hit = page.evaluate("p => document.elementFromPoint(p.x, p.y)?.closest('g.unit')"
                        "?.dataset.unit", {"x": x, "y": y})
    assert hit == unit, f"the middle of {unit}'s counter is {hit}'s"
    page.touchscreen.tap(x, y)


@pytest.mark.parametrize("demo", DEMOS)
def test_every_unit_of_both_sides_is_reached_by_a_tap_at_the_first_screen(
        contexts: Callable[..., Any], server: str, board_shot: Shot, demo: str) -> None:
    page, _, _ = demo_table(contexts, server, demo)
    scenario = httpx.get(f"{server}/api/scenarios/{demo}").json()
    wanted = {u["id"]: u for u in scenario["units"] if on_the_map(u)}
    sides = {side["id"] for side in scenario["sides"]}
    assert {u["side"] for u in wanted.values()} == sides and len(sides) >= 2, "every side's units"
    first = view_box(page)
    board_shot(page, f"{demo}-first-screen")
    marks = counters(page)
    assert {m["unit"] for m in marks} == set(wanted)
    assert overlapping(marks) == [], "no counter covers another"
    svg = page.locator("#board svg.map").bounding_box()
    outside = [m["unit"] for m in marks if m["x"] < svg["x"] - 0.5 or m["y"] < svg["y"] - 0.5
               or m["x"] + m["w"] > svg["x"] + svg["width"] + 0.5
               or m["y"] + m["h"] > svg["y"] + svg["height"] + 0.5]
    assert outside == [], f"counters cut off at the first screen: {outside}"
    assert overflow(page) <= 0, "the table page is wider than the phone"

    for unit in sorted(wanted):
        tap_counter(page, unit)
        page.wait_for_selector(f'#board svg.map g.unit.selected[data-unit="{unit}"]')
        assert page.locator("#board svg.map g.unit.selected").count() == 1
        assert page.locator(f'#board .unit-picks button[data-unit="{unit}"]').get_attribute(
            "aria-pressed") == "true", "the list under the map shows the selection"
        assert view_box(page) == first, "a tap selects; the map stays at its first screen"
        assert overflow(page) <= 0
    board_shot(page, f"{demo}-all-tapped")
    if demo in TABLES:
        reach_beside(page, min(wanted))


# the demos played on a wide open table, whose counters are smaller than a finger at the first
# screen (Atomic Africa's four squads have room: about 40 px)
TABLES = ["battlegroup-demo", "wing-command-demo"]


def reach_beside(page: Any, unit: str) -> None:
    """A tap on the table beside a counter smaller than a finger, within 22 px of its middle
    (off the counter), reaches its unit: selected when it is the only one that near, else
    listed in the sheet (its row 44 px tall), a tap on the row selecting it."""
    page.locator('#board .unit-picks button[aria-pressed="true"]').tap()  # unselect the last
    page.wait_for_selector("#board svg.map g.unit.selected", state="detached")
    page.locator("#board svg.map").scroll_into_view_if_needed()
    box = page.locator(f'#board svg.map g.unit[data-unit="{unit}"] rect.counter').bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    off = max(box["height"] / 2 + 4, 12)
    assert off <= 22, "the counter is smaller than a finger"
    # beside the counter, on the table: on no counter
    x, y = next((x, y) for x, y in ((cx, cy + off), (cx, cy - off), (cx + off, cy), (cx - off, cy))
                if page.evaluate("p => document.elementFromPoint(p.x, p.y)?.closest('g.unit') ? 0 : 1",
                                 {"x": x, "y": y}))
    page.touchscreen.tap(x, y)
    page.wait_for_selector(f'#board svg.map g.unit.selected[data-unit="{unit}"], .map-sheet')
    row = page.locator(f'.map-sheet button.sheet-unit[data-unit="{unit}"]')
    if row.count():
        assert row.bounding_box()["height"] >= MIN
        row.tap()
    page.wait_for_selector(f'#board svg.map g.unit.selected[data-unit="{unit}"]')


@pytest.mark.parametrize("demo", ["wing-command-demo", "normandy-demo"])
def test_the_list_under_the_map_selects_on_it_and_zoom_keeps_the_selection_in_view(
        contexts: Callable[..., Any], server: str, board_shot: Shot, demo: str) -> None:
    page, _, _ = demo_table(contexts, server, demo)
    scenario = httpx.get(f"{server}/api/scenarios/{demo}").json()
    names = {u["id"]: u["name"] for u in scenario["units"] if on_the_map(u)}
    picks = page.locator("#board .unit-picks button")
    assert sorted(picks.all_inner_texts()) == sorted(names.values()), "players' words: names"
    for button in picks.all():
        box = button.bounding_box()
        assert box["width"] >= MIN and box["height"] >= MIN, button.inner_text()
    # "+" with nothing selected zooms in on the units: some are still in view
    tap_tool(page, "Zoom in")
    svg = page.locator("#board svg.map").bounding_box()
    inside = [m for m in counters(page) if svg["x"] <= m["x"] + m["w"] / 2 <= svg["x"] + svg["width"]
              and svg["y"] <= m["y"] + m["h"] / 2 <= svg["y"] + svg["height"]]
    assert len(inside) >= len(names) // 4, "+ keeps the units in view"
    # a unit picked in the list, far from where the view is, comes into view
    for unit in sorted(names, key=lambda u: -next(m for m in counters(page) if m["unit"] == u)["y"])[:2]:
        pick = page.locator(f'#board .unit-picks button[data-unit="{unit}"]')
        pick.tap()
        page.wait_for_selector(f'#board svg.map g.unit.selected[data-unit="{unit}"]')
        assert pick.get_attribute("aria-pressed") == "true"
        for _ in range(2):
            tap_tool(page, "Zoom in")
            mark = next(m for m in counters(page) if m["unit"] == unit)
            svg = page.locator("#board svg.map").bounding_box()
            assert svg["x"] <= mark["x"] + mark["w"] / 2 <= svg["x"] + svg["width"], unit
            assert svg["y"] <= mark["y"] + mark["h"] / 2 <= svg["y"] + svg["height"], unit
    assert overflow(page) <= 0
    board_shot(page, f"{demo}-picked-and-zoomed")
