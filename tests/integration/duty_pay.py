"""Paying what the board says is owed (`owed`, issue 38), for the API tests that walk a match
on: each seat takes the action that discharges its duty, with table dice (so that the
service's own dice, which later steps of a test may read, are not drawn) and moves that leave
a unit where it stands (a move recorded, nothing else changed: the service does not judge
where a routed or broken unit goes, ES-4)."""

from __future__ import annotations

from typing import Any

from rulesets_helpers import Played

from domain.rulesets.normandy_duties import neighbours

TABLE_DICE = {"source": "table", "results": [3, 4]}


def _units(m: Played) -> dict[str, dict[str, Any]]:
    board = m.board
    return {u["id"]: u for u in board["units"] + board["off_board"]}


def _body(m: Played, item: dict[str, Any]) -> dict[str, Any]:
    kind = item["done_by"][0]
    units = _units(m)
    unit = units.get(item["units"][0]) if item["units"] else None
    if unit is None and kind == "move_unit":  # a duty of no one unit: one of the acting units
        unit = next((u for u in units.values() if u["side"] == item["seat"]
                     and not u["removed"] and "acting" in u["status"]), None)
    if kind == "roll_dice":
        return {"type": "roll_dice", "notation": "2d6", "purpose": item["says"][:200],
                **TABLE_DICE}
    if kind == "move_unit" and unit is not None:
        where = {k: v for k, v in unit["position"].items() if v is not None}
        return {"type": "move_unit", "unit_id": unit["id"], "to": where}
    if kind == "set_supply":
        return {"type": "set_supply", "unit_ids": item["units"], "status": "in_supply"}
    if kind == "declare_operation":
        return {"type": "declare_operation", "hqs": []}
    if kind == "resolve_combat" and unit is not None:
        near = neighbours(unit["position"]["hex"])
        enemies = [u["id"] for u in units.values() if u["side"] != unit["side"]
                   and not u["removed"] and (u["position"] or {}).get("hex") in near]
        return {"type": "resolve_combat", "attackers": [unit["id"]], "defenders": enemies,
                "odds": "1:1", **TABLE_DICE}
    raise AssertionError(f"no body pays {item}")


def pay_owed(m: Played, limit: int = 50) -> None:
    """Every seat pays what it owes now, until nothing is owed (a combat's result is entered
    as "no effect")."""
    for _ in range(limit):
        due = m.board["owed"]
        if not due:
            return
        item = due[0]
        body = _body(m, item)
        m.act(item["seat"], **body)
        if body["type"] == "resolve_combat":
            m.act(item["seat"], type="enter_result", result="no effect")
    raise AssertionError(f"still owed: {m.board['owed']}")
