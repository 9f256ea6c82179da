"""Players' words where the table page had ids (issue 26, last session's notes): a unit card
shows a marker kind and a status with spaces ("out of command: 1", never "out_of_command"),
and a refusal's notice says who is allowed by the sides' names and "the referee" (never
"Allowed: red, referee"), and an action's type with spaces."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from phone import Phone, new_match

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]


def test_unit_cards_and_refusals_speak_the_players_words(
        browser: Any, server: str, screenshots: Shot) -> None:
    match = new_match(server, "atomic-africa-demo")
    referee = {"Authorization": f"Bearer {match['seats']['referee']}"}
    for body in ({"type": "place_marker", "unit_id": "sq1", "kind": "out_of_command",
                  "count": 1},
                 {"type": "set_status", "unit_id": "sq1", "set": ["low_on_ammo"]}):
        r = httpx.post(f"{server}/api/matches/{match['id']}/actions", json=body,
                       headers=referee)
        assert r.status_code == 201, r.text
    phone = Phone(browser, server, "words-at-the-table", screenshots)
    phone.open(match, "red")
    card = phone.unit_card("1st Squad")
    flags = card.locator("ul.flags").inner_text()
    assert "out of command: 1" in flags and "low on ammo" in flags, flags
    assert "_" not in flags, flags
    phone.screen("unit-card-words")
    # a refusal as the page says it: the allowed seats by name, the referee in words
    said = phone.page.evaluate("""async () => {
        const { ApiError } = await import('/static/api.js');
        const error = new ApiError(403, { detail: "that is Free Militia's unit",
          rule: "core-authority", allowed: ["blue", "referee", "remove_marker"] });
        const names = { red: "Expeditionary Force", blue: "Free Militia" };
        return [error.explainedAs((x) => names[x] || x), error.explained];
    }""")
    assert said[0] == ("that is Free Militia's unit Allowed: Free Militia, the referee, "
                       "remove marker.")
    assert "Allowed: blue, the referee, remove marker." in said[1]  # (no names given)
    phone.close()
