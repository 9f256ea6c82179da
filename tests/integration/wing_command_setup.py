"""The wing command match the API tests play (the shipped `wing-command-demo`), and the
moves that bring it to Pre-Activation and the activations, with table dice."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario

PRE = "phase/pre_activation"
RUN = "phase/activations"


def wc(client: TestClient, **changes: Any) -> Played:
    return Played(client, scenario("wing-command-demo", **changes))


def table(*results: int) -> dict[str, Any]:
    return {"source": "table", "results": list(results)}


def french_first(m: Played) -> None:
    """WC-1: French 4 + LV 2 = 6 beats British 4 + LV 1 = 5; each side says it is done;
    then on to (b) Unit Morale."""
    m.act("french", type="roll_initiative", source="table", results={"french": 4, "british": 4})
    m.act("french", type="advance")
    m.act("british", type="advance")
    m.act("french", type="advance", to=f"{PRE}/b_unit_morale")


def to_corner_lock(m: Played) -> None:
    """French first; (b) and (c) done; the marker on (d), the French corner locks."""
    french_first(m)
    m.act("french", type="rule_roll", roll="unit_morale", unit_id="f-line", **table(6))
    m.act("french", type="advance")
    for piece in ("f-line-1", "f-line-2"):
        m.act("french", type="rule_roll", roll="disruption_recovery", unit_id=piece, **table(6))
    m.act("french", type="advance")


def to_activations(m: Played) -> None:
    """French first; (b) and (c) done; the marker on the first French activation."""
    to_corner_lock(m)
    m.act("french", type="advance", to=f"{RUN}/activate")


def french_activates_the_line(m: Played) -> None:
    """f-line activates with two dice (4, 5 against QV 4: both pass: the service
    settles it, ours); the marker then stands on its actions."""
    m.act("french", type="rule_roll", roll="activation", unit_id="f-line", dice=2, **table(4, 5))
    m.act("french", type="advance")
