"""A hex map on the board, in a real browser against a real `battlelog serve`: the Normandy
map on a 390-pixel phone shows every hex with a unit, a marker or a city, the cities named and
held; on a desktop the hex map draws every unit of the scenario, and the keyboard (Tab, Enter)
selects a unit's card. Screens under test-artifacts/."""


from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from board_steps import demo_table
from table_steps import low_contrast, start_sample, unlabelled_controls

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]


def test_the_normandy_map_shows_every_hex_with_a_unit_marker_or_city_and_names_the_cities(
        contexts: Callable[..., Any], server: str, board_shot: Shot) -> None:
    page, match, tokens = demo_table(contexts, server, "normandy-demo")
    board = httpx.get(f"{server}/api/matches/{match}/board",
                      headers={"Authorization": f"Bearer {tokens['referee']}"}).json()
    cities = {c["hex"]: c for c in board["map"]["cities"]}
    held = {"allied": "Second Army", "german": "Panzergruppe West"}
    wanted = ({u["position"]["hex"] for u in board["units"] if u["position"].get("hex")}
              | set(board["location_markers"]) | set(cities))
    svg = page.locator("#board svg.map").bounding_box()
    for hex_id in sorted(wanted):
        cell = page.locator(f'#board svg.map g.hex[data-hex="{hex_id}"] polygon').first
        box = cell.bounding_box()
        assert box is not None, f"hex {hex_id} is not drawn"
        assert (box["x"] >= svg["x"] - 0.5 and box["y"] >= svg["y"] - 0.5
                and box["x"] + box["width"] <= svg["x"] + svg["width"] + 0.5
                and box["y"] + box["height"] <= svg["y"] + svg["height"] + 0.5), (
            f"hex {hex_id} is cut: {box} outside {svg}")
    for hex_id, city in cities.items():
        cell = page.locator(f'#board svg.map g.hex[data-hex="{hex_id}"]')
        assert cell.get_attribute("data-city") == city["name"]
        title = cell.locator("title").text_content() or ""
        assert city["name"] in title and held[city["controlled_by"]] in title
    labels = page.locator("#board svg.map .city-label text").all_text_contents()
    assert sorted(labels) == sorted(c["name"] for c in cities.values())
    legend = page.locator("#board .map-legend").inner_text()
    assert "Caen (Panzergruppe West)" in legend and "Bayeux (Second Army)" in legend
    counter = page.locator('#board svg.map g.unit[data-unit="g-21pz"]')
    badge = counter.locator("g.badge")
    assert badge.locator("text").text_content() == "D1"
    assert badge.locator("title").text_content() == "1 disorganized marker"
    # its name starts with what its counter shows (two short lines and the badge)
    assert (counter.get_attribute("aria-label") or "").startswith("21. Panzer-D… D1: 21. Panzer-Division")
    board_shot(page, "normandy-cities")


def test_a_hex_game_draws_its_map_and_the_keyboard_selects_a_unit(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    page = contexts().new_page()
    start_sample(page, server, "normandy-demo")
    scenario = httpx.get(f"{server}/api/scenarios/normandy-demo").json()
    on_hexes = [u["id"] for u in scenario["units"] if (u["position"] or {}).get("hex")]
    units = page.locator("svg.map.hexes g.unit")
    assert sorted(units.evaluate_all("gs => gs.map(g => g.dataset.unit)")) == sorted(on_hexes)
    assert page.locator("svg.map.hexes g.hex").count() >= units.count()
    # A unit on the map is a button: Tab to it, Enter selects its card.
    first = units.first
    selected = first.get_attribute("data-unit")  # read first: the selected unit is drawn on top
    first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(f'li.unit-card.selected[data-unit="{selected}"]')
    assert unlabelled_controls(page) == [] and low_contrast(page) == []
    screenshots(page, "01-normandy-hex-map")
