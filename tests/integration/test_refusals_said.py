"""A refused action carries, beside its `detail`, one sentence for the players at the table
(`said`, issue 39): names for ids, the step's title for its path, and what to do; the table
page's notice shows it (api.js `explained`)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from test_battlegroup_api import bg, to_activation


def test_a_refused_move_on_is_said_for_the_players(client: TestClient) -> None:
    m = bg(client)
    to_activation(m)
    active = m.turn["active_side"]
    other = next(s for s in ("north", "south", "west") if s != active)
    names = {s["id"]: s["name"] for s in m.get("")["sides"]}
    refused = m.refused(other, 403, refused_rule(m), type="advance")
    said = refused["said"]
    title = m.get("/board")["turn"]["sequence_titles"][m.get("/board")["turn"]["sequence"].index(
        "activation/activate")].split(": ")[-1]
    # the step's title, not its path; who moves on, by name; what to do
    rule = refused["rule"]
    ref = "" if rule.startswith("core-") else f" ({rule})"  # the game's rule, to look up
    assert said == (f"In {title} only {names[active]} moves the turn marker on{ref}. "
                    "Wait for them, or ask the referee."), said
    assert "'" not in said and "/" not in said and " seat" not in said, said
    assert not re.search(rf"\b({'|'.join(names)})\b", said), said  # no side id
    assert refused["detail"] != said  # the API's detail stays as it was


def refused_rule(m: object) -> str:
    legal = m.get("/legal", "referee")  # type: ignore[attr-defined]
    return str(legal["advance"].get("rule") or "core-sequence")
