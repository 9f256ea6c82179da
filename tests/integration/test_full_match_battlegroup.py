"""A whole scripted battlegroup match through the HTTP API with the server's dice, to the
end. Then the log is replayed from scratch and must reach exactly the state the service
holds."""

from __future__ import annotations

from fastapi.testclient import TestClient
from rulesets_helpers import Played, assert_replay_matches, scenario

from domain.application import Matches


def test_a_full_battlegroup_match(matches: Matches, client: TestClient) -> None:
    m = Played(client, scenario("battlegroup-demo"))  # 3 rounds, three players
    rolls = 0
    while m.get("")["outcome"] is None:
        step = m.turn["step"]
        if step == "initiation/initiative":
            if m.turn["expects"][0].startswith(("initiative rolls", "tied")):
                m.act("north", type="roll_initiative")
                rolls += 1
            else:
                m.act("north", type="advance")
        elif step == "initiation/cards":
            for side in m.turn["initiative"]:
                hand = next((c["hand"] for c in m.get("/board", side)["cards"]
                             if c["side"] == side), None)
                if hand and m.turn["turn"] > 1:
                    m.act(side, type="discard_cards", cards=hand[:1])
                m.act(side, type="draw_cards")
            m.act("north", type="advance")
        elif step == "activation/activate":
            side = m.turn["active_side"]
            group = m.turn["expects"][0].split(": ")[1].split(", ")[0]
            m.act(side, type="activate_battlegroup", battlegroup=group)
            m.act(side, type="roll_dice", notation="d6", purpose="fire")
            m.act(side, type="advance")
        else:
            m.act("referee", type="score_vp", side=m.turn["initiative"][0], points=1)
            m.act("north", type="advance")
    assert rolls >= 3
    assert "round 3 of 3" in m.get("")["outcome"]["reason"]
    assert_replay_matches(matches, m)
