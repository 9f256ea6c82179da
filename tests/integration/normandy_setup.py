"""A Normandy match through the HTTP API, for the Normandy tests: the demo scenario, table
dice, the referee moving the marker on, supply for every unit, the mutual segments."""

from __future__ import annotations

from typing import Any

from duty_pay import pay_owed
from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario

SUPPLIED = {"allied": ["a-1corps", "a-3div", "a-27arm", "a-6para", "a-4agra"],
            "german": ["g-86corps", "g-21pz", "g-716", "g-1716art"]}


def no(client: TestClient, **changes: Any) -> Played:
    return Played(client, scenario("normandy-demo", **changes))


def table(*results: int) -> dict[str, Any]:
    return {"source": "table", "results": list(results)}


def advance_to(m: Played, step: str, side: str | None = None) -> None:
    """The referee moves the marker on once what each segment owes is paid (NO-1's weather
    and sea rolls, NO-2's attacks; each step's own seat is tested where it matters)."""
    while (m.turn["step"], m.turn["active_side"] if side else None) != (step, side):
        if m.turn["step"] == "player_turn/carpet_bombing" and m.turn["expects"][0].startswith(
                "allied resolves"):
            m.act("allied", type="roll_dice", notation="d6", purpose="carpet bombing",
                  rule="NO-2")
        pay_owed(m)
        m.act("referee", type="advance")


def supply_all(m: Played) -> None:
    for side, units in SUPPLIED.items():
        m.act(side, type="set_supply", unit_ids=[u for u in units if u in on_map(m)],
              status="in_supply")


def on_map(m: Played) -> set[str]:
    return {u["id"] for u in m.board["units"] if u["position"] and u["position"].get("hex")}


def through_mutual(m: Played, german_first: bool = False, carpet: str | None = "1406") -> None:
    advance_to(m, "mutual/operations")
    m.act("allied", type="declare_operation", hqs=["a-1corps"], carpet_bombing=carpet)
    m.act("german", type="declare_operation", hqs=["g-86corps"] if german_first else [],
          first=german_first)
    advance_to(m, "mutual/supply")
    supply_all(m)
    m.act("referee", type="advance")
