"""A whole turn of the Atomic Africa demo on a 390x844 phone, from both sides' seats, only by
tapping what the page offers (GET /legal behind every button): each side activates its units
from "Your move" (a picker of unit names), a squad moves by a tap on the map, a wound goes on a
unit from its card, each side says it is done with the shared Clean-Up sub-phases, shuffles
its deck and cuts the other's, and the turn marker reaches turn 2. After every screen: no
sideways overflow, every tapped control at least 44x44 px, no console error, no failed request.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from phone import phone_at

pytestmark = pytest.mark.e2e
RED, BLUE = "Expeditionary Force", "Free Militia"


def test_a_whole_turn_of_atomic_africa_from_both_seats(
        browser: Any, server: str, screenshots: Callable[[Any, str], Path]) -> None:
    phone = phone_at(browser, server, screenshots, "atomic-africa-demo", "play-atomic-africa",
                     seat="red")
    page = phone.page
    phone.screen("red-first-screen")
    # A unit tapped on the map: its card is selected and scrolled into view on the phone.
    mark = page.locator('svg.map g.unit[data-unit="mg1"]')
    mark.scroll_into_view_if_needed()
    mark.tap()
    card = page.locator("li.unit-card.selected", has_text="MG Nest")
    card.wait_for()
    page.wait_for_function("""() => { const r = document.querySelector('li.unit-card.selected')
        .getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; }""")
    page.evaluate("window.scrollTo(0, 0)")
    # Your move is on the first screen, and Next step says in words why it is refused.
    assert page.locator("#play").bounding_box()["y"] < 844
    assert page.locator("#advance").is_disabled()
    assert "1st Squad" in page.locator("#advance-why").inner_text()

    for side, unit in ((RED, "1st Squad"), (BLUE, "Militia Band"), (RED, "2nd Squad"), (BLUE, "MG Nest")):
        phone.as_seat(side)
        assert "Activate a unit (AA-1)" in phone.offered()  # (after what is owed, You owe)
        said = phone.take("Activate a unit", unit, counted="activate")
        assert unit in said
        card = phone.unit_card(unit)
        # a refused action is never offered: no Activate on a unit that has activated
        assert card.get_by_role("button", name="Activate", exact=True).count() == 0
        if unit == "1st Squad":  # it moves: Move on its card, then a tap on the map
            before = card.locator(".facts").inner_text()
            phone.tap(card.get_by_role("button", name="Move", exact=True), "move")
            page.locator("svg.map.placing").wait_for()
            phone.screen("red-placing")
            box = page.locator("svg.map").bounding_box()
            page.locator("svg.map").tap(position={"x": box["width"] / 2, "y": box["height"] / 2})
            phone.taps["move"] += 1
            phone.acted()
            assert card.locator(".facts").inner_text() != before
        if unit == "Militia Band":  # a wound from its card: the kinds the service lists
            phone.tap(card.get_by_role("button", name="Place a marker", exact=True), "marker")
            phone.screen("blue-marker-kinds")
            phone.tap(card.get_by_role("button", name="wound", exact=True), "marker")
            phone.acted()
            assert "wounds: 1" in card.locator(".flags").inner_text()
            # Undo is in Your move, one tap: the wound is taken back, then placed again
            phone.tap(page.locator("#undo-here"), "undo")
            phone.acted()
            assert "wounds" not in phone.unit_card(unit).inner_text()
            card = phone.unit_card(unit)
            phone.tap(card.get_by_role("button", name="Place a marker", exact=True), "marker")
            phone.tap(card.get_by_role("button", name="wound", exact=True), "marker")
            phone.acted()
        phone.screen(f"activated-{unit.replace(' ', '-')}")
        phone.next_step()

    for _ in ("split", "morale"):  # shared sub-phases: each side says it is done
        for side in (RED, BLUE):
            phone.as_seat(side)
            phone.next_step()
        phone.screen(f"after-{phone.step().replace('/', '-')}")
    assert phone.step() == "cleanup/cards"

    for side, other in ((RED, BLUE), (BLUE, RED)):
        phone.as_seat(side)
        phone.take("Shuffle")
    for side, other in ((RED, BLUE), (BLUE, RED)):
        phone.as_seat(side)
        phone.take("Cut", pick="2")  # (issue 39) a numbered button: the cut is made by it
    phone.screen("cards-done")
    for side in (RED, BLUE):
        phone.as_seat(side)
        phone.next_step()
    assert phone.turn() == 2
    phone.screen("turn-2")
    phone.close()
