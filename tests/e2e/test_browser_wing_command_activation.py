"""Wing Command's activation on a 390x844 phone (issue 26, item 9): after "Roll here" the
service has counted the dice that pass, so the page asks for no result read at the table
and no "It failed" box; and Next step offers one way forward per destination (no "On to"
beside a "Next step" that goes to the same step)."""

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
PRE = "phase/pre_activation"
RUN = "phase/activations"


def _to_the_activations(server: str, match: dict[str, Any]) -> None:
    """French first (table dice 4 against 4, LV 2 against 1), on to the first French
    activation by the API, as the players would have tapped it."""
    def act(seat: str, **body: Any) -> None:
        r = httpx.post(f"{server}/api/matches/{match['id']}/actions", json=body,
                       headers={"Authorization": f"Bearer {match['seats'][seat]}"})
        assert r.status_code < 300, r.text

    def table(*faces: int) -> dict[str, Any]:
        return {"source": "table", "results": list(faces)}

    act("french", type="roll_initiative", source="table", results={"french": 4, "british": 4})
    act("french", type="advance")
    act("british", type="advance")
    act("french", type="advance", to=f"{PRE}/b_unit_morale")
    act("french", type="rule_roll", roll="unit_morale", unit_id="f-line", **table(6))
    act("french", type="advance")
    for piece in ("f-line-1", "f-line-2"):
        act("french", type="rule_roll", roll="disruption_recovery", unit_id=piece, **table(6))
    act("french", type="advance")
    act("french", type="advance", to=f"{RUN}/activate")


def _destinations(phone: Phone) -> list[str]:
    """Where each way forward of the Next step row leads, in its own words."""
    row = phone.page.locator("#play .advance .row button:not(#undo-here)")
    return [re.sub(r"^(Next step: |On to |Next turn: turn \d+, )", "", t.strip())
            for t in row.all_inner_texts()]


def test_a_served_activation_asks_for_no_table_result_and_offers_each_way_once(
        browser: Any, server: str, screenshots: Shot) -> None:
    match = new_match(server, "wing-command-demo")
    _to_the_activations(server, match)
    phone = Phone(browser, server, "wing-command-activation", screenshots)
    phone.open(match, "french")
    assert phone.step() == f"{RUN}/activate"
    phone.open_action("Roll to activate a unit")
    phone.tap(phone.play.locator(".picker .picks-grid button", has_text="4e Ligne").first, "act")
    detail = phone.play.locator(".choice-detail")
    # (issue 39) how many dice: a numbered button, never typed
    phone.tap(detail.get_by_role("button", name="2", exact=True).first, "act")
    roll_here = detail.get_by_role("button", name="Roll here")
    if roll_here.count():
        phone.tap(roll_here, "roll")
    said = phone.acted()
    phone.screen("after-roll-here")
    assert "4e Ligne" in said, said
    # the service counted the passing dice: nothing is owed from the table
    whole = phone.page.locator("main").inner_text()
    for asked in ("The result read on your table", "It failed", "Enter the result"):
        assert asked not in whole, f"{asked!r} is still asked after a served roll"
    assert phone.page.locator("#advance").is_enabled(), \
        phone.page.locator("#advance-why").all_inner_texts()
    ways = _destinations(phone)
    assert len(ways) == len(set(ways)), f"a destination offered twice: {ways}"
    phone.close()
