"""The after-action report beside the table page, in a real browser: each side's lines in the
colour the match view gives that side (`side.colour`, the one the table page draws it in),
the legend naming each side whole, and the report readable on a 390-pixel phone with no
horizontal overflow."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from table_steps import PHONE, policed_contexts, start_sample

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]
SVG = "{http://www.w3.org/2000/svg}"
SAMPLE = "atomic-africa-demo"


@pytest.fixture
def contexts(browser: Any, server: str) -> Iterator[Callable[..., Any]]:
    yield from policed_contexts(browser, server)


def rgb(colour: str) -> str:
    """'#b3261e' as the browser computes it: 'rgb(179, 38, 30)'."""
    return "rgb({}, {}, {})".format(*(int(colour[i:i + 2], 16) for i in (1, 3, 5)))


def test_the_report_draws_each_side_in_its_table_colour_with_its_whole_name(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    page = contexts(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    start_sample(page, server, SAMPLE)
    scenario = httpx.get(f"{server}/api/scenarios/{SAMPLE}").json()
    match = page.url.rstrip("/").rsplit("/", 1)[-1]
    token = page.evaluate("id => { const e = JSON.parse(localStorage.getItem('battlelog.matches'))[id];"
                          " return e.tokens[e.seat]; }", match)
    sides = httpx.get(f"{server}/api/matches/{match}",
                      headers={"Authorization": f"Bearer {token}"}).json()["sides"]
    on_table = {s["id"]: rgb(s["colour"]) for s in sides}
    assert len(set(on_table.values())) == len(on_table)
    for side in scenario["sides"]:  # the page draws each side in the colour the API gives it
        unit = next(u["id"] for u in scenario["units"] if u["side"] == side["id"])
        counter = page.locator(f'#board svg.map g.unit[data-unit="{unit}"] rect.counter')
        assert counter.evaluate("r => getComputedStyle(r).fill") == on_table[side["id"]]

    opened_errors: list[str] = []
    page.context.on("page", lambda tab: tab.on(
        "console", lambda m: opened_errors.append(m.text) if m.type == "error" else None))
    with page.expect_popup() as opened:  # the HTML report opens to be read, not downloaded
        page.get_by_role("link", name="Report (opens in a new tab)").click()
    report = opened.value
    report.wait_for_selector("svg polyline", state="attached")  # the report, at its address
    html = report.content()
    begin = html.index("<svg")
    chart = ET.fromstring(html[begin:html.index("</svg>", begin) + len("</svg>")])
    lines = {p.get("data-side"): rgb(p.get("stroke", "")) for p in chart.findall(f"{SVG}polyline")}
    assert lines == on_table
    legend = {g.get("data-side"): " ".join(t.text or "" for t in g.iter(f"{SVG}tspan"))
              for g in chart.findall(f"{SVG}g[@data-side]")}
    assert legend == {s["id"]: s["name"] for s in scenario["sides"]}
    # its style sheet applies (the page's policy allows it), and nothing is refused
    assert report.evaluate("getComputedStyle(document.body).maxWidth") == "832px"
    assert opened_errors == [], opened_errors
    # both sides start on 0 points: their lines are side by side, not one over the other
    points = [p.get("points") for p in chart.findall(f"{SVG}polyline")]
    assert len(set(points)) == len(points), points
    dashes = [p.get("stroke-dasharray") for p in chart.findall(f"{SVG}polyline")]
    assert len(set(dashes)) == len(dashes), "each side's line has its own stroke"
    assert report.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # the axis labels are read at 14 px at least on the phone (the chart is not shrunk)
    sizes = report.evaluate("""[...document.querySelectorAll('svg text')].map(t =>
        Number(t.getAttribute('font-size')) * t.ownerSVGElement.getScreenCTM().a)""")
    assert min(sizes) >= 13.5, sizes
    screenshots(report, "01-report-on-a-phone")
