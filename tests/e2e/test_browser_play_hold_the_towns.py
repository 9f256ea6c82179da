"""Hold the Towns, the game written only as a ruleset file (docs/rulesets/hold-the-towns.md),
played on a 390x844 phone by tapping: one whole game turn by both sides, each from its own
seat (the phone holds both, switched with "Acting as"). North brings on nothing (nothing is
due on game turn 1), moves the Grey Lancers next to South's 2nd Fusiliers by tapping their
card's Move and then a hex of the map, and attacks them (naming the defender, then Attack with the
d6 thrown at the table, the result read from the file's table); South moves the 2nd
Fusiliers into Marrow and attacks back; the defender's owner takes the attacked marker off; both
close the game turn. The page has no code of this game: the steps,
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


def attack(phone: Phone, side: str, other: str, attacker: str, defender: str) -> str:
    """One attack (HT-5): the phasing side names the defender (Place a marker on its card),
    then Attack with its unit, a 2 thrown at the table (no effect at 1-1); the service
    reads the table (HT-6), the defender marker becoming the attacked marker. Then the
    defender's owner, who owes it (HT-5), takes the attacked marker off its card."""
    card = phone.unit_card(defender)
    phone.tap(card.get_by_role("button", name="Place a marker", exact=True), "marker")
    # the file's one marker kind, offered as a button of its own (the legal actions list the
    # marker kinds the file declares, and no other): one tap places it
    phone.tap(card.locator(".picks-quick").get_by_role("button", name="defender", exact=True),
              "marker")
    phone.acted()
    said = phone.take("Attack", attacker, table_dice=[2])
    phone.as_seat(other)
    card = phone.unit_card(defender)
    phone.tap(card.get_by_role("button", name="Remove a marker", exact=True), "marker")
    phone.tap(card.locator(".picks-quick").get_by_role("button", name="attacked (1)"), "marker")
    phone.acted()
    phone.as_seat(side)
    return said


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

    for side, other, unit, to, defender in (
            ("North", "South", "Grey Lancers", "0504", "2nd Fusiliers"),  # 5 to 4: 1-1
            ("South", "North", "2nd Fusiliers", "0404", "Grey Lancers")):  # 2 to 2: 1-1
        phone.as_seat(side)
        assert phone.waited(), side  # its player-turn: the match waits for it
        phone.next_step()  # reinforcement: nothing is due on game turn 1 (HT-3)
        assert phone.step() == "player_turn/movement"
        move(phone, unit, to)
        phone.screen(f"{side.lower()}-moved")
        phone.next_step()
        assert phone.step() == "player_turn/combat"
        said = attack(phone, side, other, unit, defender)
        assert "NE: no effect" in said, said
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
        assert ("ResultRecorded", side) in by, (side, sorted(by))  # the table read by the service
    phone.close()
