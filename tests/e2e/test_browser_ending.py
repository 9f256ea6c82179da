"""The end of a match through the table page, in a real browser against a real server.

Red (a desktop) proposes "Red wins"; Blue's page (a 390-pixel phone) shows the proposal live
and agrees, and every page shows "Ended: Red wins"; the referee reopens the match and play goes
on; redo shows only to the seat that may redo, and a refused redo is told in words. In another
match Blue concedes after confirming, and Red's page shows "Red wins". Screens land in
test-artifacts/.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from table_steps import (  # the table page's own steps
    PHONE,
    acted,
    fits_the_phone,
    join,
    join_link,
    low_contrast,
    small_targets,
    unlabelled_controls,
    version_of,
    wait_version,
)

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]
DESKTOP = {"width": 1280, "height": 900}


def start_red_blue(contexts: Callable[..., Any], server: str, shot: Shot) -> tuple[Any, Any, Any]:
    """The referee starts a freeform match of Red and Blue from the lobby; Red joins on a
    desktop, Blue on a phone. Returns the three pages."""
    referee = contexts(viewport=DESKTOP).new_page()
    referee.goto(server)
    own = referee.locator('form[aria-label="Start your own match"]')
    own.get_by_label("Scenario name").fill("Bridge at Arnhem")
    own.get_by_label("Side name").nth(0).fill("Red")
    own.get_by_label("Side name").nth(1).fill("Blue")
    own.get_by_role("button", name="Start this match").click()
    referee.wait_for_selector("#turn-marker")
    red = join(contexts(viewport=DESKTOP), join_link(referee, "Red"),
               "Ann", shot, "00-red")
    blue = join(contexts(viewport=PHONE, is_mobile=True, has_touch=True),
                join_link(referee, "Blue"), "Bert", shot, "00-blue")
    return referee, red, blue


def test_red_proposes_blue_agrees_live_and_the_referee_reopens(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    referee, red, blue = start_red_blue(contexts, server, screenshots)

    # Red proposes an end: Red wins, and why.
    red.get_by_text("End the match…").click()
    form = red.locator('form[aria-label="End the match"]')
    form.get_by_label("Who wins").select_option(label="Red wins")
    assert [o.strip() for o in form.get_by_label("Who wins").locator("option").all_inner_texts()] == [
        "Choose…", "Red wins", "Blue wins", "A draw"]
    form.get_by_label("Why").fill("the bridge is taken")
    screenshots(red, "01-red-proposes")
    form.get_by_role("button", name="Propose this end").click()
    acted(red)
    proposal = "Red proposes: Red wins (the bridge is taken) — agreed by Red"
    assert proposal in red.locator("#end-proposal").inner_text()
    assert "You agreed. Waiting for Blue." in red.locator("#end-proposal").inner_text()
    assert red.locator("#end-proposal").get_by_role("button", name="Agree").count() == 0
    assert red.locator("#ended").count() == 0  # a proposal does not end the match

    # Blue's phone shows it live (no reload), with Agree; so does the referee's page.
    wait_version(blue, version_of(red))
    shown = blue.locator("#end-proposal")
    assert proposal in shown.inner_text()
    agree = shown.get_by_role("button", name="Agree")
    assert agree.is_visible()
    assert small_targets(blue, "#end-proposal button, .ending summary") == []
    assert fits_the_phone(blue) and low_contrast(blue) == [] and unlabelled_controls(blue) == []
    screenshots(blue, "02-blue-phone-sees-the-proposal")
    wait_version(referee, version_of(red))
    assert proposal in referee.locator("#end-proposal").inner_text()
    assert referee.locator("#end-proposal").get_by_role("button", name="End it as proposed").count() == 1

    # Blue agrees: the match ends, on every page.
    agree.tap()
    acted(blue)
    for page in (blue, red, referee):
        wait_version(page, version_of(blue))
        assert page.locator("#ended").inner_text() == "Ended: Red wins"
        assert page.locator("#end-proposal").count() == 0
        assert "The match has ended: Red wins (the bridge is taken)." in page.locator("#turn").inner_text()
        assert page.get_by_role("button", name="Next step").count() == 0
    assert red.get_by_text("End the match…").count() == 0 and red.get_by_text("Concede…").count() == 0
    assert fits_the_phone(blue)
    screenshots(blue, "03-blue-phone-ended")
    screenshots(red, "04-red-ended")

    # The referee reopens the match, with a reason, after a confirmation.
    referee.get_by_text("Reopen the match…").click()
    reopen = referee.locator('form[aria-label="Reopen the match"]')
    assert "Reopen this match?" in reopen.inner_text()
    reopen.get_by_label("Why").fill("Blue agreed by mistake")
    assert unlabelled_controls(referee) == [] and low_contrast(referee) == []
    screenshots(referee, "05-referee-reopens")
    reopen.get_by_role("button", name="Yes, reopen the match").click()
    acted(referee)
    assert referee.locator("#ended").count() == 0
    assert "reopen" in referee.locator("#log").inner_text().lower()  # the log's words for it

    # Playable again: red advances the turn marker, then undoes it (its own action).
    wait_version(red, version_of(referee))
    assert red.locator("#ended").count() == 0
    assert red.get_by_text("End the match…").count() == 1
    step = red.locator("li[aria-current=step]").inner_text()
    red.get_by_role("button", name="Next step").click()
    acted(red)
    assert red.locator("li[aria-current=step]").inner_text() != step
    red.locator("#undo").click()
    acted(red)
    assert red.locator("li[aria-current=step]").inner_text() == step

    # Redo is red's (or the referee's): blue's page has no Redo, and says whose it is.
    wait_version(blue, version_of(red))
    assert blue.get_by_role("button", name="Redo").count() == 0
    assert "Only Red or the referee may redo: Red made the last undo." in blue.locator("#time").inner_text()
    wait_version(referee, version_of(red))
    assert referee.get_by_role("button", name="Redo").count() == 1
    # A filtered log cannot tell whose the undo was: Redo shows, and the refusal is in words.
    blue.locator("#log").get_by_label("Seat").select_option("referee")
    redo = blue.get_by_role("button", name="Redo")
    redo.wait_for()
    redo.click()
    notice = blue.locator("#notice")
    notice.wait_for(state="visible")
    assert "error" in (notice.get_attribute("class") or "")
    assert notice.inner_text() == (
        "Only Red or the referee may redo this: Red made the last undo.")  # no core-* id
    blue.evaluate("window.scrollTo(0, 0)")  # the notice stands at the top of the page
    screenshots(blue, "06-blue-phone-redo-refused")
    blue.evaluate("document.querySelector('#notice').hidden = true")
    red.get_by_role("button", name="Redo").click()
    acted(red)
    assert red.locator("li[aria-current=step]").inner_text() != step


def test_blue_concedes_after_confirming_and_red_sees_red_win(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    referee, red, blue = start_red_blue(contexts, server, screenshots)
    before = version_of(blue)
    # Freeform allows any action in every step: the page lists the legal ones by their
    # titles (as buttons), never "*" or an action it does not know.
    titles = red.locator("#play button[data-action], #actions button[data-action]").all_inner_texts()
    assert titles and all(t.strip() and "*" not in t and "_" not in t for t in titles)
    assert "Unknown action" not in red.locator("#actions").inner_text()

    # The first tap only asks; "Keep playing" leaves the match as it was.
    blue.get_by_text("Concede…").tap()
    confirm = blue.locator('form[aria-label="Concede the match"]')
    assert "Concede the match? Red wins at once" in confirm.inner_text()
    assert small_targets(blue, ".ending summary, .ending button") == []
    assert fits_the_phone(blue) and low_contrast(blue) == [] and unlabelled_controls(blue) == []
    screenshots(blue, "01-blue-phone-confirms")
    confirm.get_by_role("button", name="Keep playing").tap()
    assert not confirm.is_visible()
    assert version_of(blue) == before

    # Conceding, confirmed: Red wins on Red's page, live.
    blue.get_by_text("Concede…").tap()
    confirm.get_by_label("Why (optional)").fill("out of time")
    confirm.get_by_role("button", name="Yes, concede: Red wins").tap()
    acted(blue)
    assert blue.locator("#ended").inner_text() == "Ended: Red wins"
    wait_version(red, version_of(blue))
    assert red.locator("#ended").inner_text() == "Ended: Red wins"
    assert "The match has ended: Red wins (Blue conceded: out of time)." in red.locator("#turn").inner_text()
    assert red.get_by_role("button", name="Next step").count() == 0
    screenshots(red, "02-red-sees-red-win")
    screenshots(blue, "03-blue-phone-conceded")
    wait_version(referee, version_of(blue))
    assert referee.get_by_text("Reopen the match…").count() == 1
