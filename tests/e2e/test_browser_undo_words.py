"""Undo and rulings in words at the table, on 390x844 phones (issue 26).

Red takes back its own activation at once, the Undo button and the notice naming it; after
Blue's activation Red's button asks Blue to take back Blue's activation, by name, and Blue's
prompt says who asks and what it takes back; Blue accepts. Then the referee rules "Roll again"
on a disputed server roll, picked in words in the ruling form; the roll is made again and
the log and the disputes say so in words. Screens land in test-artifacts/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from phone import Phone, new_match

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]


def wait_version(phone: Phone, version: int) -> None:
    phone.page.wait_for_function(
        "v => document.querySelector('#where')?.dataset.version === String(v)",
        arg=version, timeout=10_000)
    phone.settle()


def test_undo_says_what_it_takes_back_and_asks_by_name(
        browser: Any, server: str, screenshots: Shot) -> None:
    match = new_match(server, "atomic-africa-demo")
    red = Phone(browser, server, "undo-words-red", screenshots)
    red.open(match, "red")
    blue = Phone(browser, server, "undo-words-blue", screenshots)
    blue.open(match, "blue")

    # Red's own activation: the Undo button names it and takes it back at once.
    red.take("Activate", "1st Squad")
    undo = red.page.locator("#undo-here")
    assert undo.inner_text() == "↶ Undo: Expeditionary Force activated 1st Squad"
    red.screen("own-undo-named")
    red.tap(undo, "undo")
    assert red.acted() == "Undone: Expeditionary Force activated 1st Squad."
    assert red.page.locator("#undo-here").count() == 0  # nothing of the game to take back
    assert any(t.startswith("Activate") for t in red.offered())

    # Red activates again and is done; Blue activates: Red's Undo asks Blue, by name.
    red.take("Activate", "1st Squad")
    red.next_step()
    wait_version(blue, red.version())
    blue.take("Activate", "Militia Band")
    wait_version(red, blue.version())
    ask = red.page.locator("#undo-here")
    asked = "Ask Free Militia to take back: Free Militia activated Militia Band"
    assert ask.inner_text() == asked
    assert red.page.locator("#undo").inner_text() == asked  # the panel's button says the same
    red.screen("ask-blue")
    red.tap(ask, "undo")
    assert red.acted() == ("Asked Free Militia to take back: Free Militia activated Militia "
                           "Band. Waiting for the answer.")
    assert "You asked Free Militia to take back: Free Militia activated Militia Band" in \
        red.page.locator("#undo-q").inner_text()

    # Blue's prompt says who asks and what it takes back; Blue accepts.
    wait_version(blue, red.version())
    question = blue.page.locator("#undo-q")
    assert question.inner_text() == ("Expeditionary Force asks to take back: Free Militia "
                                     "activated Militia Band.")
    assert "version" not in question.inner_text() and "last event" not in question.inner_text()
    blue.screen("blue-asked")
    blue.tap(blue.page.locator("#prompt").get_by_role("button", name="Accept"), "accept")
    blue.acted()
    assert any(t.startswith("Activate") for t in blue.offered())  # the Militia Band's activation is taken back
    wait_version(red, blue.version())
    assert red.page.locator("#prompt").inner_text() == ""
    red.screen("taken-back")
    red.close()
    blue.close()


def test_the_referee_rules_roll_again_in_words(
        browser: Any, server: str, screenshots: Shot) -> None:
    match = new_match(server, "atomic-africa-demo")
    api = f"{server}/api/matches/{match['id']}"

    def post(seat: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        made = httpx.post(f"{api}{path}", json=body,
                          headers={"Authorization": f"Bearer {match['seats'][seat]}"})
        assert made.status_code == 201, made.text
        return dict(made.json())

    [rolled] = post("blue", "/actions", {"type": "roll_dice", "notation": "2d6",
                                         "purpose": "fire at 1st Squad"})["events"]
    post("red", "/actions", {"type": "open_dispute", "about_version": rolled["version"],
                             "text": "The dice fell off the table."})
    referee = Phone(browser, server, "ruling-words", screenshots)
    referee.open(match, "referee")
    page = referee.page
    form = page.locator("#disputes form")
    outcomes = form.locator("label.outcome")
    assert outcomes.all_inner_texts()[0].strip() == "Roll again"
    said = outcomes.all_inner_texts()[1]
    assert said.strip().startswith("Take back to before: Free Militia rolled ")
    assert "version" not in form.inner_text().lower() and "reroll" not in form.inner_text()
    assert form.locator("input[name=outcome]:checked").get_attribute("value") == "none"
    referee.tap(outcomes.first, "ruling")
    form.get_by_label("Your ruling, said to the table").fill("Off the table: roll again.")
    referee.screen("ruling-form")
    referee.tap(form.get_by_role("button", name="Record the ruling"), "ruling")
    referee.acted()

    events = httpx.get(f"{api}/events", params={"after": rolled["version"]}, headers={
        "Authorization": f"Bearer {match['seats']['referee']}"}).json()["events"]
    again = [e for e in events if e["type"] == "DiceRolled"]
    assert len(again) == 1 and again[0]["replaces"] == rolled["version"]
    ruled = page.locator("#disputes .ruling").inner_text()
    assert "Roll again: Free Militia rolled" in ruled and "version" not in ruled
    log = page.locator("#log li p.said").all_inner_texts()
    assert any("Roll again: Free Militia rolled" in line for line in log)
    assert any(line == again[0]["said"] for line in log) and "again" in again[0]["said"]
    referee.screen("rolled-again")
    referee.close()
