"""An extended-sequence match through the HTTP API, for the extended sequence tests: the demo
scenario (or a fixed-roles one), table dice, the referee moving the marker on, a fire with
its result entered."""

from __future__ import annotations

from typing import Any

from duty_pay import pay_owed
from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario

FIXED = {"roles": {"attacker": "soviets", "defender": "germans"}, "turns": 3}


def es(client: TestClient, **changes: Any) -> Played:
    return Played(client, scenario("extended-sequence-demo", **changes))


def table(*results: int) -> dict[str, Any]:
    return {"source": "table", "results": list(results)}


def advance_to(m: Played, step: str, attacker: str | None = "germans") -> None:
    """The referee moves the marker on to `step` (in `attacker`'s player-turn, unless the
    roles are fixed: None), once what each step owes is paid (the ES-1 weather roll, ES-4's
    routed and broken units moved); each step's own seat is tested where it matters."""
    while True:
        turn = m.turn
        if turn["step"] == step and (attacker is None or not step.startswith("combat/")
                                     or turn["active_side"] == attacker):
            return
        pay_owed(m)
        m.act("referee", type="advance")


def fire(m: Played, seat: str, unit: str, target: str, *dice: int) -> list[dict[str, Any]]:
    events = m.act(seat, type="fire", unit_id=unit, target_id=target, **table(*dice))
    m.act(seat, type="enter_result", result="no effect")
    return events
