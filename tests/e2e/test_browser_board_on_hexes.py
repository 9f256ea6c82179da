"""Counters on the map (issue 39), on a 390x844 phone in a real browser against a real
`battlelog serve`, for each demo and a game written as a ruleset file (Hold the Towns): every
unit's counter stands on its hex (its centre inside the hex's outline, both measured on the
screen from the SVG) or on its point of the open table, at the first screen, after two taps
on "+" and after a drag; no counter covers a city's name, and once zoomed in city names and
hex numbers are at least 10 px tall; two units on one spot are one
stack with how many on it, and a tap on the stack opens the sheet that lists every unit of
it in full, a tap on a row selecting that unit; axe finds nothing serious and the page logs
no error. Screens under test-artifacts/."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from axe_steps import axe_source, readable, violations
from board_steps import DEMOS, Touch, create, open_table, overflow, tap_tool

from api.scenarios import HERE
from projections.rulefile_load import BUILT_IN

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]
FILE_GAME = "hold-the-towns-demo"
NEAR = 0.5  # inches: board.js's NEAR, how far from a stack's first point its units may stand

# Each counter, measured on the screen: its centre, size, its unit's spot (a hex's outline as
# screen points, or the unit's point of the table) and the scale (screen px per map unit).
MEASURE = """(positions) => {
  const svg = document.querySelector('#board svg.map');
  const m = svg.getScreenCTM();
  const screen = (x, y) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
  return [...svg.querySelectorAll('g.unit')].map(g => {
    const r = g.querySelector('rect.counter').getBoundingClientRect();
    const at = positions[g.dataset.unit];
    const out = {unit: g.dataset.unit, cx: r.left + r.width / 2, cy: r.top + r.height / 2,
                 w: r.width, h: r.height, scale: m.a};
    if (at.hex) {
      const poly = svg.querySelector(`g.hex[data-hex="${at.hex}"] polygon`);
      out.hex = at.hex;
      out.outline = [...poly.points].map(p => screen(p.x, p.y));
    } else out.point = screen(at.x, at.y);
    return out;
  });
}"""

LABELS = """() => [...document.querySelectorAll('#board svg.map .city-label text')].map(t => {
  const r = t.getBoundingClientRect();
  return {name: t.textContent, x: r.left, y: r.top, w: r.width, h: r.height};
})"""


def inside(point: tuple[float, float], outline: list[list[float]]) -> bool:
    """Whether `point` is inside the convex polygon `outline` (its corners in order)."""
    signs = []
    for i, (ax, ay) in enumerate(outline):
        bx, by = outline[(i + 1) % len(outline)]
        signs.append((bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax) >= 0)
    return all(signs) or not any(signs)


def off_their_spots(page: Any, positions: dict[str, Any]) -> list[str]:
    """The counters whose centre is not inside their unit's hex (not within NEAR inches and a
    third of a counter of their unit's point of the table), each said with where it is."""
    wrong = []
    for c in page.evaluate(MEASURE, positions):
        centre = (c["cx"], c["cy"])
        if "outline" in c:
            if not inside(centre, c["outline"]):
                wrong.append(f"{c['unit']} at {centre} is off hex {c['hex']}")
        else:
            far = ((centre[0] - c["point"][0]) ** 2 + (centre[1] - c["point"][1]) ** 2) ** 0.5
            if far > NEAR * c["scale"] + c["h"] / 3:
                wrong.append(f"{c['unit']} is {far:.1f} px from its point")
    return wrong


def covered_labels(page: Any) -> list[tuple[str, str]]:
    """(city, unit) for each city name a counter covers, from their boxes on the screen."""
    boxes = page.evaluate("""() => [...document.querySelectorAll('#board svg.map g.unit')].map(
      g => { const r = g.querySelector('rect.counter').getBoundingClientRect();
             return {unit: g.dataset.unit, x: r.left, y: r.top, w: r.width, h: r.height}; })""")
    return [(t["name"], b["unit"]) for t in page.evaluate(LABELS) for b in boxes
            if t["x"] < b["x"] + b["w"] and b["x"] < t["x"] + t["w"]
            and t["y"] < b["y"] + b["h"] and b["y"] < t["y"] + t["h"]]


def stacked_body(server: str, demo: str) -> dict[str, Any]:
    """The demo's scenario with its second unit on the map moved onto its first's spot."""
    if demo == FILE_GAME:
        stored = httpx.post(f"{server}/api/rulesets",
                            content=(BUILT_IN / "hold-the-towns.yaml").read_bytes(),
                            headers={"Content-Type": "application/yaml"})
        assert stored.status_code in (200, 201), stored.text
        body: dict[str, Any] = json.loads((HERE / "files" / f"{demo}.json").read_text())
    else:
        body = httpx.get(f"{server}/api/scenarios/{demo}").json()
    placed = [u for u in body["units"] if (u.get("position") or {}).get("hex")
              or (u.get("position") or {}).get("x") is not None]
    same = [u for u in placed[1:] if u["side"] == placed[0]["side"]]
    same[0]["position"] = dict(placed[0]["position"])
    return body


@pytest.mark.parametrize("demo", [*DEMOS, FILE_GAME])
def test_counters_stand_on_their_hexes_and_a_stack_lists_its_units(
        contexts: Callable[..., Any], server: str, board_shot: Shot, demo: str) -> None:
    match, tokens = create(server, stacked_body(server, demo))
    errors: list[str] = []
    page = open_table(contexts, server, match, tokens["referee"])
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.locator("#board svg.map").scroll_into_view_if_needed()
    board = httpx.get(f"{server}/api/matches/{match}/board",
                      headers={"Authorization": f"Bearer {tokens['referee']}"}).json()
    on_map = {u["id"]: u for u in board["units"]
              if (u["position"] or {}).get("hex") or (u["position"] or {}).get("x") is not None}
    positions = {uid: u["position"] for uid, u in on_map.items()}
    drawn = page.locator("#board svg.map g.unit").evaluate_all("gs => gs.map(g => g.dataset.unit)")
    assert sorted(drawn) == sorted(on_map), "a counter for every unit on the map"

    legible = []
    for moment in ("first screen", "zoomed in twice", "panned"):
        if moment == "zoomed in twice":
            tap_tool(page, "Zoom in")
            tap_tool(page, "Zoom in")
        if moment == "panned":
            svg = page.locator("#board svg.map").bounding_box()
            Touch(page).drag(svg["x"] + svg["width"] / 2, svg["y"] + svg["height"] / 2, -60, -40)
        assert off_their_spots(page, positions) == [], moment
        labels = page.evaluate(LABELS)
        if labels and min(t["h"] for t in labels) >= 10:  # names a player can read
            legible.append(moment)
        numbers = page.locator("#board svg.map text.hex-id").evaluate_all(
            "ts => ts.map(t => t.getBoundingClientRect().height)")
        if numbers and moment != "first screen":
            assert min(numbers) >= 10, f"hex numbers {min(numbers):.1f} px tall ({moment})"
        hexes = page.locator("#board svg.map g.hex polygon:first-of-type").evaluate_all(
            "ps => ps.map(p => p.getBoundingClientRect().height)")
        if hexes and moment != "first screen":
            assert min(hexes) >= 44, f"a hex is a finger's tap target once zoomed in ({moment})"
        assert covered_labels(page) == [], f"a counter covers a city's name ({moment})"
        board_shot(page, moment.replace(" ", "-"))
    if board.get("map", {}) and board["map"]["cities"]:
        assert "zoomed in twice" in legible, "city names are legible once zoomed in"

    # the two units on one spot: one stack, with how many on it; its sheet lists both
    tap_tool(page, "Fit the whole map")
    stack = page.locator("#board svg.map g.stack")
    assert stack.count() == 1 and stack.get_attribute("data-count") == "2"
    units = stack.locator("g.unit").evaluate_all("gs => gs.map(g => g.dataset.unit)")
    box = stack.locator("g.unit").last.locator("rect.counter").bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    sheet = page.locator(".map-sheet")
    sheet.wait_for()
    rows = sheet.locator("button.sheet-unit")
    assert sorted(rows.evaluate_all("bs => bs.map(b => b.dataset.unit)")) == sorted(units)
    for row in rows.all():
        uid = row.get_attribute("data-unit")
        assert on_map[uid]["name"] in row.inner_text(), "each name in full"
        r = row.bounding_box()
        assert r["height"] >= 44 and r["width"] >= 44, "each row a tap target"
    assert overflow(page) <= 0
    board_shot(page, "stack-sheet")
    page.screenshot(path=str(board_shot(page, "stack-sheet")).replace(".png", "-page.png"))
    found = violations(page, axe_source())
    assert found == [], readable(f"{demo} with the sheet open", found)
    under = units[0]  # the one drawn under the other
    sheet.locator(f'button.sheet-unit[data-unit="{under}"]').tap()
    page.wait_for_selector(f'#board svg.map g.unit.selected[data-unit="{under}"]')
    assert page.locator(".map-sheet").count() == 0, "choosing a unit closes the sheet"
    assert page.locator(f'#board .unit-picks button[data-unit="{under}"]').get_attribute(
        "aria-pressed") == "true"
    found = violations(page, axe_source())
    assert found == [], readable(f"{demo} with a stacked unit selected", found)
    assert errors == []
