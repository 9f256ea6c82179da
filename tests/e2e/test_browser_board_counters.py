"""The units' counters on the board, on a 390-pixel phone in a real browser against a real
`battlelog serve`: markers are drawn on a counter per kind with their count (badges, the
legend, the counter's name for a screen reader); stacked units fan out so no two counters
overlap, each is tapped on its own once zoomed in with the mouse wheel, and the selected one is
ringed and drawn on top. Screens under test-artifacts/."""


from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from board_steps import counters, create, open_table, overflow, overlapping, wheel_in

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
def test_stacked_units_fan_out_each_tappable_and_the_selected_one_stands_out(
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
    marks = [m for m in counters(page) if m["unit"] != "lone"]
    assert len(marks) == 4
    assert overlapping(marks) == [], "units on one spot fan out"
    # the mouse wheel zooms in about the pointer, held over the stack
    page.locator("#board svg.map").scroll_into_view_if_needed()
    marks = [m for m in counters(page) if m["unit"] != "lone"]
    middle = (sum(m["x"] + m["w"] / 2 for m in marks) / 4, sum(m["y"] + m["h"] / 2 for m in marks) / 4)
    for _ in range(12):
        if min(m["h"] for m in counters(page)) >= 44:
            break
        wheel_in(page, *middle)
    marks = [m for m in counters(page) if m["unit"] != "lone"]
    assert min(m["h"] for m in marks) >= 44
    assert overlapping(marks) == []
    assert overflow(page) <= 0
    for m in marks:  # each one is tapped on its own, at its centre
        hit = page.evaluate("p => document.elementFromPoint(p.x, p.y)?.closest('g.unit')"
                            "?.dataset.unit", {"x": m["x"] + m["w"] / 2, "y": m["y"] + m["h"] / 2})
        assert hit == m["unit"], f"the centre of {m['unit']}'s counter taps {hit}"
    mark = page.locator('#board svg.map g.unit[data-unit="u2"]')
    mark.click()
    mark = page.locator('#board svg.map g.unit[data-unit="u2"]')
    assert mark.get_attribute("aria-pressed") == "true"
    assert mark.locator("rect.ring").count() == 1, "the selected unit is ringed"
    last = page.evaluate("[...document.querySelectorAll('#board svg.map g.unit')].at(-1)"
                         ".dataset.unit")
    assert last == "u2", "the selected unit is drawn on top"
    board_shot(page, f"stacked-on-the-{where}")
