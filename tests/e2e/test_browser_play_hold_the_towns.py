"""Hold the Towns, the game written only as a ruleset file (docs/rulesets/hold-the-towns.md),
played on a 390x844 phone by tapping: one whole game turn by both sides, each from its own
seat (the phone holds both, switched with "Acting as"). North brings on nothing (nothing is
due on game turn 1), moves the Grey Lancers next to South's 2nd Fusiliers by tapping their
card's Move and then a hex of the map, and attacks; South moves the 1st Fusiliers into Tarn
and attacks back; both close the game turn. The page has no code of this game: the steps,
their titles and whose turn it is come from the file. After every screen: no sideways
overflow, every tapped control at least 44x44 px, no console error, no failed request."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from phone import Phone, new_match

from api.scenarios import HERE
from projections.rulefile_load import BUILT_IN

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]
DEMO = HERE / "files" / "hold-the-towns-demo.json"


def move(phone: Phone, unit: str, to: str) -> None:
    """Move on the unit's card, then the hex `to` on the map."""
    phone.tap(phone.unit_card(unit).get_by_role("button", name="Move", exact=True), "move")
    phone.page.locator("#board svg.map.placing").wait_for()
    phone.page.locator(f'#board svg.map g.hex[data-hex="{to}"] polygon').first.tap()
    phone.taps["move"] += 1
    phone.acted()
    assert f"hex {to}" in phone.unit_card(unit).inner_text()


def attack(phone: Phone, purpose: str) -> None:
    """The attacker's d6 (HT-5), rolled by the service from the Dice panel's form."""
    form = phone.page.get_by_role("form", name="Roll dice")
    form.get_by_label("Dice to roll").fill("d6")
    form.get_by_label("Purpose").fill(purpose)
    phone.tap(form.get_by_role("button", name="Roll"), "roll")
    assert "d6" in phone.acted()


def test_a_whole_game_turn_of_hold_the_towns_by_both_sides(
        browser: Any, server: str, screenshots: Shot) -> None:
    stored = httpx.post(f"{server}/api/rulesets", content=(BUILT_IN / "hold-the-towns.yaml")
                        .read_bytes(), headers={"Content-Type": "application/yaml"})
    assert stored.status_code == 201, stored.text  # the game is a file the server holds
    match = new_match(server, "hold-the-towns-demo", body=json.loads(DEMO.read_text()))
    phone = Phone(browser, server, "play-hold-the-towns", screenshots)
    phone.open(match, "north")
    phone.screen("first-screen")
    assert phone.page.locator("#play").bounding_box()["y"] < 844  # Your move on the first screen
    assert phone.step() == "player_turn/reinforcement"
    assert "Reinforcement" in phone.page.locator("#turn").inner_text()  # the file's words

    for side, unit, to in (("North", "Grey Lancers", "0504"),
                           ("South", "1st Fusiliers", "0603")):
        phone.as_seat(side)
        assert phone.waited(), side  # its player-turn: the match waits for it
        phone.next_step()  # reinforcement: nothing is due on game turn 1 (HT-3)
        assert phone.step() == "player_turn/movement"
        move(phone, unit, to)
        phone.screen(f"{side.lower()}-moved")
        phone.next_step()
        assert phone.step() == "player_turn/combat"
        attack(phone, f"{unit} attacks (HT-5)")
        phone.screen(f"{side.lower()}-combat")
        phone.next_step()

    assert phone.step() == "end_of_turn"
    for side in ("North", "South"):  # each side says it is done with the game turn
        phone.as_seat(side)
        phone.next_step()
    assert phone.turn() == 2
    phone.screen("turn-2")

    events = httpx.get(f"{server}/api/matches/{match['id']}/events", params={"limit": 500},
                       headers={"Authorization": f"Bearer {match['seats']['referee']}"}
                       ).json()["events"]
    by = {(e["type"], e["actor"]) for e in events}
    for side in ("north", "south"):  # each side moved and rolled in its own player-turn
        assert ("UnitMoved", side) in by, (side, sorted(by))
        assert ("DiceRolled", side) in by, (side, sorted(by))
    phone.close()
