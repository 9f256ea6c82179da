"""A whole scripted atomic-africa match through the HTTP API with the server's dice, to the
end. Then the log is replayed from scratch and must reach exactly the state the service
holds."""

from __future__ import annotations

from fastapi.testclient import TestClient
from rulesets_helpers import Played, assert_replay_matches, scenario

from domain.application import Matches


def test_a_full_atomic_africa_match(matches: Matches, client: TestClient) -> None:
    m = Played(client, scenario("atomic-africa-demo"))  # 3 turns
    seen: set[str] = set()
    while m.get("")["outcome"] is None:
        turn, step = m.turn["turn"], m.turn["step"]
        if step == "activation/activate":
            side = m.turn["active_side"]
            foe = "blue" if side == "red" else "red"
            unit = next(u for u in m.board["units"] if u["side"] == side
                        and "activated" not in u["status"] and u["position"]["box"] is None)
            m.act(side, type="activate_unit", unit_id=unit["id"])
            if turn == 1:
                m.act(side, type="draw_cards", count=1)
            m.act(side, type="roll_dice", notation="2d6", purpose="fire", unit_ids=[unit["id"]])
            # the players say the shot hits the biggest enemy unit: one wound, one suppression
            target = max((u for u in m.board["units"] if u["side"] == foe),
                         key=lambda u: u["figures"])
            m.act(side, type="place_marker", kind="suppression", unit_id=target["id"])
            m.act(side, type="place_marker", kind="wound", unit_id=target["id"])
            seen.add("fire")
            m.act(side, type="advance")
        elif step == "cleanup/split":
            for unit in m.board["units"]:
                if unit["computed"].get("must_split"):
                    m.act(unit["side"], type="split_unit", unit_id=unit["id"],
                          new_unit_id=f"{unit['id']}-t{turn}")
                    seen.add("split")
                    break
            else:
                m.act("red", type="advance")
        elif step == "cleanup/morale":
            owed = [u for u in m.board["units"] if u["markers"].get("suppression")
                    and "morale_rolled" not in u["status"]]
            if owed:
                m.act(owed[0]["side"], type="roll_morale", unit_id=owed[0]["id"])
                seen.add("morale")
            else:
                m.act("red", type="advance")
        else:
            assert step == "cleanup/cards"
            for side, foe in (("red", "blue"), ("blue", "red")):
                m.act(side, type="shuffle_deck")
                m.act(foe, type="cut_deck", side=side, at=2)
            seen.add("cards")
            m.act("red", type="advance")
    assert seen == {"fire", "split", "morale", "cards"}
    assert m.get("")["outcome"]["reason"].startswith("turn 3 of 3")
    assert_replay_matches(matches, m)
