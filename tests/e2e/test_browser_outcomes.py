"""The outcome of a rule roll after the tap, on a 390x844 phone: the notice says what the roll
did and why (the dice, what they were against, what followed), the same words the service
answered as the action's `outcome` and the log says for its events, never "Roll initiative.
Done." One roll kind per game at least, table-driven:

- Battlegroup: initiative, the dice thrown at the table (BG-2);
- Wing Command: initiative rolled here (WC-1), and the unit morale check the issue met
  (WC-3: 2 + 1 leadership against QV 4 fails; the line and its pieces leave play and a
  casualty marker takes their place);
- Atomic Africa: an activation (AA-1);
- Extended sequence and Normandy: their first step's roll (weather, sea conditions), a die
  roll from More actions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from phone import Phone, new_match

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]


def act(server: str, match: dict[str, Any], seat: str, **action: Any) -> None:
    made = httpx.post(f"{server}/api/matches/{match['id']}/actions", json=action,
                      headers={"Authorization": f"Bearer {match['seats'][seat]}"})
    made.raise_for_status()


def to_unit_morale(server: str, match: dict[str, Any]) -> None:
    """Wing Command: the French win the initiative and reach (b) Unit Morale."""
    act(server, match, "french", type="roll_initiative", source="table",
        results={"french": 4, "british": 4})
    act(server, match, "french", type="advance")
    act(server, match, "british", type="advance")
    act(server, match, "french", type="advance", to="phase/pre_activation/b_unit_morale")


def take(title: str, **how: Any) -> Callable[[Phone], str]:
    return lambda phone: phone.take(title, **how)


def more_roll(notation: str, purpose: str) -> Callable[[Phone], str]:
    """A die roll from More actions, rolled here by the service."""
    def roll(phone: Phone) -> str:
        more = phone.page.locator("#actions")
        phone.tap(more.locator("button[data-action=roll_dice]"), "roll")
        # (issue 39) the game's dice are buttons that roll at once; what the roll is for,
        # in words, under "With more detail…"
        phone.tap(more.locator("details.inline > summary"), "roll")
        form = more.locator(".input-form")
        # (issue 39) the game's dice, tapped: no notation typed
        phone.tap(form.locator("label.pick").filter(
            has_text=re.compile(rf"^\s*{re.escape(notation)}\s*$")), "roll")
        form.get_by_label("What for", exact=True).fill(purpose)
        phone.tap(form.locator("button[type=submit]"), "roll")
        return phone.acted()
    return roll


# (demo, the seat that rolls, how the match gets there, the tap, words the notice must hold)
ROLLS = {
    "battlegroup-initiative": ("battlegroup-demo", "referee", None,
                               take("Roll for the initiative", table_dice=[6, 3, 1]),
                               ["Initiative: ", "order: "]),
    "wing-command-initiative": ("wing-command-demo", "referee", None,
                                take("Roll for the initiative"), ["Initiative: ", "order: "]),
    "wing-command-morale": ("wing-command-demo", "french", to_unit_morale,
                            take("morale", choice="4e Ligne", table_dice=[2],
                                 fill={}),
                            ["4e Ligne", "failed (needed 4+)", "Out of play (casualty)"]),
    "atomic-africa-activation": ("atomic-africa-demo", "referee", None,
                                 take("Activate a unit"), ["activated"]),
    "extended-sequence-weather": ("extended-sequence-demo", "referee", None,
                                  more_roll("2d6", "weather change"), ["for weather change (2d6)"]),
    "normandy-sea": ("normandy-demo", "referee", None, more_roll("d6", "sea conditions"),
                     ["for sea conditions (d6)"]),
}


@pytest.mark.parametrize("kind", list(ROLLS))
def test_the_page_says_a_rolls_outcome_after_the_tap(browser: Any, server: str,
                                                     screenshots: Shot, kind: str) -> None:
    demo, seat, before, tap, words = ROLLS[kind]
    match = new_match(server, demo)
    if before is not None:
        before(server, match)
    phone = Phone(browser, server, f"outcome-{kind}", screenshots)
    phone.open(match, seat)
    with phone.page.expect_response(lambda r: r.url.endswith("/actions")
                                    and r.request.method == "POST") as answered:
        said = tap(phone)
    answer = answered.value.json()
    assert said == answer["outcome"], said  # the service's words, not "Roll initiative. Done."
    assert not said.endswith("Done.")
    for word in words:
        assert word in said, (word, said)
    versions = [e["version"] for e in answer["events"]]
    log = httpx.get(f"{server}/api/matches/{match['id']}/events",
                    params={"after": versions[0] - 1, "limit": len(versions)},
                    headers={"Authorization": f"Bearer {match['seats'][seat]}"}).json()["events"]
    deciding = [e["said"] for e in log if e["type"] in (
        "DiceRolled", "InitiativeRolled", "UnitsActivated")]
    assert deciding and said.startswith(deciding[0])  # the log says the same, first
    phone.page.evaluate("document.querySelector('#notice').hidden = false")  # as it was shown
    phone.page.evaluate("window.scrollTo(0, 0)")
    phone.screen("outcome")
    phone.close()


def test_a_long_outcome_stays_long_enough_to_read(browser: Any, server: str,
                                                  screenshots: Shot) -> None:
    """The morale check's outcome (four sentences) is still shown 6 s after the tap, when a
    short notice is gone: 60 ms a character (the page's clock run on by the test)."""
    match = new_match(server, "wing-command-demo")
    to_unit_morale(server, match)
    phone = Phone(browser, server, "outcome-long", screenshots)
    phone.page.clock.install()
    phone.open(match, "french")
    said = phone.take("morale", choice="4e Ligne", table_dice=[2])  # read, then hidden
    assert len(said) > 150 and "Out of play" in said, said
    notice = phone.page.locator("#notice")
    phone.page.evaluate("document.querySelector('#notice').hidden = false")  # as it was shown
    phone.page.clock.run_for(6000)
    assert notice.is_visible()  # a short notice hides after 5 s
    phone.page.clock.run_for(60 * len(said))
    assert not notice.is_visible()
    phone.close()
