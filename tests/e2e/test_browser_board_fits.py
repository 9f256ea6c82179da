"""The board on a phone (issue 17), in a real browser against a real `battlelog serve`, at 360,
390 and 430 pixels wide: the five demos' maps fit the screen with no horizontal overflow; each
unit's counter is 44 by 44 px at least, with a name label of 10 px at least, after two taps on
"+" and after a third (issue 39: counters stand on their hexes and grow with the zoom; at Fit
they are as big as their hex or their spacing on the table allows, test_browser_board_thumbs.py
taps them there), and the selected unit stays in view at each zoom; each side is drawn in the
colour the match view gives it. The join page, the report and the API docs do not overflow either.
Each width is a fresh load of the same page on one phone, the viewport set first. Only the
board panel is looked at (#board, svg.map): the other panels belong to other work. Screens
under test-artifacts/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from board_steps import DEMOS, counters, create, open_table, overflow, rgb, tap_tool

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]
WIDTHS = [360, 390, 430]
ZOOM_TAPS = 3  # taps on "+", each keeping the selection in view
BIG_AFTER = 2  # taps on "+" after which every counter is 44 px, its name 10 px


@pytest.mark.parametrize("demo", DEMOS)
def test_each_demo_map_fits_a_phone_and_its_counters_reach_44_px_zoomed_in(
        contexts: Callable[..., Any], server: str, board_shot: Shot, demo: str) -> None:
    scenario = httpx.get(f"{server}/api/scenarios/{demo}").json()
    match, tokens = create(server, scenario)
    units = {u["id"]: u for u in scenario["units"]
             if u.get("position", {}).get("x") is not None or u.get("position", {}).get("hex")}
    sides = httpx.get(f"{server}/api/matches/{match}",
                      headers={"Authorization": f"Bearer {tokens['referee']}"}).json()["sides"]
    colours = {s["id"]: rgb(s["colour"]) for s in sides}
    names = {s["id"]: s["name"] for s in sides}
    page = open_table(contexts, server, match, tokens["referee"], WIDTHS[0])
    for width in WIDTHS:
        if width != WIDTHS[0]:  # the page loaded afresh at this width: at fit, none selected
            page.set_viewport_size({"width": width, "height": 844})
            page.reload()
            page.wait_for_selector("#board svg.map g.unit, #board svg.map g.hex")
        map_fits_and_counters_reach_44_px(page, board_shot, demo, width, units, colours, names)


def map_fits_and_counters_reach_44_px(page: Any, board_shot: Shot, demo: str, width: int,
                                      units: dict[str, Any], colours: dict[str, str],
                                      names: dict[str, str]) -> None:
    """On the table page freshly loaded `width` px wide: the checks of one width."""
    assert overflow(page) <= 0, f"the table page overflows a {width} px screen"
    svg = page.locator("#board svg.map").bounding_box()
    assert svg["x"] >= 0 and svg["x"] + svg["width"] <= width, width
    for name in ("Zoom in", "Zoom out", "Fit the whole map"):
        box = page.locator("#board .map-tools").get_by_role("button", name=name).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, (name, box, width)
    if width == 390:
        board_shot(page, f"{demo}-1-fit")

    marks = counters(page)
    assert {m["unit"] for m in marks} == set(units)
    for m in marks:
        unit = units[m["unit"]]
        assert m["fill"] == colours[unit["side"]], "each side in the colour the API gives it"
        assert m["label"] != unit["id"] and unit["name"].startswith(m["label"].rstrip("…")[:3])
        assert unit["name"] in m["aria"] and names[unit["side"]] in m["aria"]

    # a unit selected by a tap, "+" zooms in on it
    first = next(iter(sorted(units)))
    page.locator(f'#board svg.map g.unit[data-unit="{first}"]').click()
    page.wait_for_selector(f'#board svg.map g.unit.selected[data-unit="{first}"]')
    for taps in range(1, ZOOM_TAPS + 1):  # and at each zoom, the selected unit in view
        tap_tool(page, "Zoom in")
        marks = counters(page)
        if taps >= BIG_AFTER:
            small = [(m["unit"], round(m["w"]), round(m["h"])) for m in marks
                     if m["w"] < 44 or m["h"] < 44]
            assert small == [], f"after {taps} taps on + at {width} px"
            assert all(m["font"] >= 10 for m in marks), [(m["unit"], m["font"], width) for m in marks]
        svg = page.locator("#board svg.map").bounding_box()
        chosen = next(m for m in marks if m["unit"] == first)
        assert svg["x"] <= chosen["x"] + chosen["w"] / 2 <= svg["x"] + svg["width"], width
        assert svg["y"] <= chosen["y"] + chosen["h"] / 2 <= svg["y"] + svg["height"], (
            f"the selected unit stays in view at {width} px")
    assert overflow(page) <= 0, f"zooming in must not widen the page at {width} px"
    if width == 390:
        board_shot(page, f"{demo}-2-zoomed-{taps}-taps")


def test_the_join_page_the_report_and_the_docs_do_not_overflow_a_phone(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    match, tokens = create(server, httpx.get(f"{server}/api/scenarios/normandy-demo").json())
    phone = contexts(viewport={"width": WIDTHS[0], "height": 844}, is_mobile=True,
                     has_touch=True)
    join = phone.new_page()
    join.goto(f"{server}/play/{match}#join={tokens['join:allied']}")
    join.get_by_label("Your name").wait_for()
    report = phone.new_page()
    html = httpx.get(f"{server}/api/matches/{match}/export", params={"format": "html"},
                     headers={"Authorization": f"Bearer {tokens['referee']}"}).text
    report.set_content(html)
    docs = phone.new_page()
    docs.goto(f"{server}/docs")
    docs.wait_for_selector(".swagger-ui .info")
    for width in WIDTHS:  # each page on the same phone, turned to each width
        for page in (join, report, docs):
            page.set_viewport_size({"width": width, "height": 844})
        assert overflow(join) <= 0, f"the join page at {width} px"
        for control in join.locator("main button, main input").all():
            box = control.bounding_box()
            assert box["height"] >= 44, (width, control.evaluate("e => e.outerHTML"))
        screenshots(join, f"join-{width}")
        assert overflow(report) <= 0, f"the report at {width} px"
        assert overflow(docs) <= 0, f"the API docs landing at {width} px"
