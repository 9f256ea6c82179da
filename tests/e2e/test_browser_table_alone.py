"""One player plays the Atomic Africa demo alone on one phone, in a real browser against a real
server: both seats taken on this device and switched with Acting as, a turn played (a move
undone and redone), the decks shuffled and cut, tracks set from More actions (a number stays a
number in the API) and the match ended. Screens land in test-artifacts/."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from table_steps import PHONE, Shot, acted, start_sample, unit_card

pytestmark = pytest.mark.e2e


def test_one_player_plays_the_demo_alone_on_one_device_to_the_end(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    """What a new user does after `make run`: start the demo, take both seats on this device,
    play a turn switching seats, and end the match; the generic action form does the rest."""
    page = contexts(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    start_sample(page, server)
    for side, player in (("Expeditionary Force", "Ann"), ("Free Militia", "Bert")):
        page.get_by_label("Acting as").select_option(label="Referee") if page.get_by_label(
            "Acting as").count() else None
        row = page.locator("#seats li", has_text=side)
        row.get_by_role("button", name="Take this seat here").click()
        page.get_by_label("Your name").fill(player)
        page.get_by_role("button", name="Take my seat").click()
        page.wait_for_selector("#turn-marker")
        assert f"You: {side}" in page.locator("#viewer").inner_text()
    seats = page.get_by_label("Acting as")

    def as_side(label: str) -> None:
        seats.select_option(label=label)
        page.wait_for_function(
            "l => document.querySelector('#viewer').textContent.includes(l)", arg=label)

    # Turn 1's activations, alternating seats on the one device.
    for label, unit in (("Expeditionary Force", "sq1"), ("Free Militia", "ml1"),
                        ("Expeditionary Force", "sq2"), ("Free Militia", "mg1")):
        as_side(label)
        unit_card(page, unit).get_by_role("button", name="Activate", exact=True).click()
        acted(page)
        if unit == "sq1":  # the activated squad moves: tap Move, then the table
            card = unit_card(page, "sq1")
            assert "at 10, 12" in card.inner_text()
            card.get_by_role("button", name="Move", exact=True).click()
            page.locator("svg.map.placing").wait_for()
            box = page.locator("svg.map").bounding_box()
            page.locator("svg.map").click(position={"x": box["width"] / 2, "y": box["height"] / 2})
            acted(page)
            moved = re.search(r"at ([\d.]+), ([\d.]+)", unit_card(page, "sq1").inner_text())
            assert moved and (moved.groups() != ("10", "12"))
            # the move is red's own since the last barrier: undo is immediate, redo too
            page.locator("#undo").click()
            acted(page)
            assert "at 10, 12" in unit_card(page, "sq1").inner_text()
            page.get_by_role("button", name="Redo").click()
            acted(page)
            assert f"at {moved.group(1)}, {moved.group(2)}" in unit_card(page, "sq1").inner_text()
        page.locator("#advance").click()
        acted(page)

    def both_done() -> None:  # Clean-Up: each side says it is done with the sub-phase
        for label in ("Expeditionary Force", "Free Militia"):
            as_side(label)
            page.locator("#advance").click()
            acted(page)

    for _ in range(2):  # nothing to split, no morale owed
        both_done()
    assert page.locator("li[aria-current=step]").get_attribute("data-step") == "cleanup/cards"

    # AA-8 from Your move: each side shuffles its deck, then cuts the other's.
    play = page.locator("#play")
    for label in ("Expeditionary Force", "Free Militia"):
        as_side(label)
        play.get_by_role("button", name="Shuffle your deck (AA-8)").click()
        acted(page)
    for label in ("Expeditionary Force", "Free Militia"):
        as_side(label)
        play.locator("button[data-action=cut_deck]:not(.owed-action)").click()  # (the form)
        # (issue 39) the cards that go under: a numbered button, which makes the cut at once
        play.locator(".picks-quick").get_by_role("button", name="2", exact=True).click()
        acted(page)
    both_done()
    assert "Turn 2" in page.locator("#turn-marker").inner_text()

    # The referee sets tracks from More actions (a name and a value, nothing else typed).
    as_side("Referee")
    more = page.locator("#actions")
    for name, value in (("weather", "rain"), ("turn_limit", "3")):
        more.locator("button[data-action=set_track]").click()
        if more.locator(".picker").count():
            more.locator(".picker .picks-grid button", has_text="Another track").click()
        form = more.locator(".input-form")
        form.locator("input").nth(0).fill(name)
        form.locator("input").nth(1).fill(value)
        form.locator("button[type=submit]").click()
        acted(page)
    tracks = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#board dl.tracks dt')].map(dt => [dt.textContent, dt.nextElementSibling.textContent]))""")
    assert tracks == {"Weather": "rain", "Turn limit": "3"}  # titled in words
    api_tracks = httpx.get(f"{server}/api/matches/{page.url.rsplit('/', 1)[-1]}/board",
                           headers={"Authorization": "Bearer " + page.evaluate(
                               "() => Object.values(JSON.parse(localStorage['battlelog.matches']))"
                               "[0].tokens.referee")}).json()["tracks"]
    assert api_tracks == {"weather": "rain", "turn_limit": 3}  # a number stays a number
    page.locator("#turn summary", has_text="End the match").click()
    page.get_by_label("Who wins").select_option(label="Expeditionary Force wins")
    page.get_by_label("Why").fill("demo over")
    page.get_by_role("button", name="End the match now").click()
    acted(page)
    assert "Ended: Expeditionary Force wins" in page.locator(".match-head").inner_text()
    assert page.locator("#advance").count() == 0
    screenshots(page, "01-demo-ended-phone")
