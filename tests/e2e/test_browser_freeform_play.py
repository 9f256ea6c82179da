"""A freeform match set up in the lobby's scenario form on a 390x844 phone, then played on its
table only by tapping what the page offers (GET /legal behind every button): the referee
deploys one more unit (More actions: Deploy a unit, the side by its name, the unit's name and
its place) and moves a unit (Move on its card, then a tap on the map). The board then
holds the form's units, the new one where the map was tapped, and the moved one elsewhere.
No sideways overflow, every tapped control at least 44x44 px, no console error, no failed
request."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from lobby_steps import Thumb, board_of, fill_allies_and_axis
from phone import Phone

pytestmark = pytest.mark.e2e


def tap_map(phone: Phone, action: str) -> None:
    """Tap the middle of the map, which waits for a place."""
    page = phone.page
    page.locator("svg.map.placing").wait_for()
    svg = page.locator("svg.map")
    svg.scroll_into_view_if_needed()
    box = svg.bounding_box()
    svg.tap(position={"x": box["width"] / 2, "y": box["height"] / 2})
    phone.taps[action] += 1


def test_a_freeform_match_from_the_form_deploys_and_moves_by_taps(
        browser: Any, server: str, screenshots: Callable[[Any, str], Path]) -> None:
    phone = Phone(browser, server, "freeform-play", screenshots)
    page = phone.page
    page.goto(server)
    you = Thumb(page)
    you.form.wait_for()
    fill_allies_and_axis(you, "Crossroads")
    phone.screen("lobby-filled")
    you.tap(you.form.get_by_role("button", name="Start this match"))
    page.wait_for_url("**/play/*")
    page.wait_for_selector("#play .step-now")
    phone.settle()
    phone.screen("table")
    before = {u["name"]: u for u in board_of(page, server)["units"]}
    assert sorted(before) == ["1st Squad", "Grenadiers", "Panzer IV", "Sherman troop"]

    # Deploy one more unit: More actions, the side by its name, its name and place.
    more = page.locator("#actions")
    phone.tap(more.locator("button.big.action", has_text="Deploy a unit").first, "deploy")
    picker = more.locator(".picker")
    phone.tap(picker.get_by_role("button", name="Axis", exact=True), "deploy")
    detail = more.locator(".choice-detail")
    # Its name typed, its place tapped on the map: the form is drawn again while the map
    # waits, and keeps both (it lost them once).
    phone.tap(detail.get_by_label("Its name"), "deploy")
    detail.get_by_label("Its name").fill("Tiger")
    phone.tap(detail.get_by_role("button", name="Tap the map"), "deploy")
    tap_map(phone, "deploy")
    detail = more.locator(".choice-detail")
    assert detail.get_by_label("Its name").input_value() == "Tiger"
    placed = detail.get_by_label("Where it stands").input_value()
    assert re.fullmatch(r"-?[\d.]+, -?[\d.]+", placed), placed
    phone.screen("deploy-form")
    phone.tap(detail.locator(".input-form button[type=submit]").first, "deploy")
    phone.acted()
    phone.screen("deployed")

    # Move 1st Squad: Move on its card, then a tap on the map.
    card = phone.unit_card("1st Squad")
    phone.tap(card.get_by_role("button", name="Move", exact=True), "move")
    tap_map(phone, "move")
    phone.acted()
    phone.screen("moved")

    after = {u["name"]: u for u in board_of(page, server)["units"]}
    assert sorted(after) == ["1st Squad", "Grenadiers", "Panzer IV", "Sherman troop", "Tiger"]
    tiger = after["Tiger"]
    assert tiger["side"] == before["Grenadiers"]["side"]
    assert f"{tiger['position']['x']:g}, {tiger['position']['y']:g}" == placed
    moved, was = after["1st Squad"]["position"], before["1st Squad"]["position"]
    assert (moved["x"], moved["y"]) != (was["x"], was["y"]) and moved["box"] is None
    for name in ("Grenadiers", "Panzer IV", "Sherman troop"):
        assert after[name]["position"] == before[name]["position"]
    phone.close()
