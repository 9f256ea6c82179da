"""Battlegroup through the HTTP API with three players: initiative BG-2..BG-5, Command
Cards BG-6, activation BG-7, Round Up and the round limit BG-8/BG-9."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario

from domain.rulesets.battlegroup import rank


def bg(client: TestClient, **changes: Any) -> Played:
    return Played(client, scenario("battlegroup-demo", **changes))


# The demo's Commanders: north CV 2 on the table; south CV 1 embarked in a transport; west none.

def test_a_lone_natural_6_wins_over_a_higher_total(client: TestClient) -> None:
    m = bg(client)
    [rolled] = m.act("north", type="roll_initiative", source="table",
                     results={"north": 5, "south": 6, "west": 2})
    assert rolled["cv"] == {"north": 2, "south": 0, "west": 0}  # embarked: not on the table
    assert rolled["ranking"] == [["south"], ["north"], ["west"]]
    assert m.turn["initiative"] == ["south", "north", "west"]


def test_two_natural_6s_fall_back_to_totals(client: TestClient) -> None:
    m = bg(client)
    [rolled] = m.act("west", type="roll_initiative", source="table",
                     results={"north": 6, "south": 6, "west": 4})
    assert rolled["ranking"] == [["north"], ["south"], ["west"]]  # 8, 6, 4


def test_a_three_way_tie_is_re_rolled_by_the_tied_players_only(client: TestClient) -> None:
    m = bg(client)
    [tie] = m.act("north", type="roll_initiative", source="table",
                  results={"north": 2, "south": 4, "west": 4})  # 4, 4, 4
    assert tie["ranking"] == [["north", "south", "west"]]
    assert m.board["initiative_groups"] == [["north", "south", "west"]]
    m.refused("north", 422, "BG-2", type="advance")
    [partial] = m.act("north", type="roll_initiative", source="table",
                      results={"north": 1, "south": 4, "west": 4})  # 3, 4, 4
    assert partial["ranking"] == [["south", "west"], ["north"]]
    m.refused("north", 422, "BG-4", type="roll_initiative", source="table",
              results={"north": 1, "south": 3, "west": 3})  # north is placed: not re-rolled
    [settled] = m.act("south", type="roll_initiative", source="table",
                      results={"south": 2, "west": 5})
    assert settled["ranking"] == [["west"], ["south"], ["north"]] and settled["rule"] == "BG-4"
    assert m.turn["initiative"] == ["west", "south", "north"]
    m.refused("west", 422, "BG-2", type="roll_initiative")  # settled for the round


def test_server_dice_settle_the_initiative_and_record_the_roll_index(client: TestClient) -> None:
    m = bg(client)
    while not m.turn["expects"][0].startswith(("north may", "south may", "west may")):
        [rolled] = m.act("north", type="roll_initiative")
        assert rolled["source"] == "server" and rolled["roll_index"] is not None
    assert sorted(m.turn["initiative"]) == ["north", "south", "west"]


def test_the_winner_may_pass_first_place_to_the_second(client: TestClient) -> None:
    m = bg(client)
    m.refused("north", 422, "BG-5", type="pass_initiative")  # nothing to pass yet
    m.act("north", type="roll_initiative", source="table",
          results={"north": 4, "south": 3, "west": 1})
    assert m.turn["initiative"] == ["north", "south", "west"]
    m.refused("south", 403, "BG-5", type="pass_initiative")
    [passed] = m.act("north", type="pass_initiative")
    assert passed["order"] == ["south", "north", "west"]
    assert m.turn["initiative"] == ["south", "north", "west"]
    m.refused("south", 422, "BG-5", type="pass_initiative")  # once a round


def settle(m: Played, **results: int) -> None:
    m.act("north", type="roll_initiative", source="table", results=results)
    m.act("north", type="advance")


def test_hands_are_filled_to_the_highest_cv_and_private(client: TestClient) -> None:
    m = bg(client)
    settle(m, north=4, south=3, west=1)
    assert m.turn["step"] == "initiation/cards"
    m.refused("north", 422, "BG-6", type="advance")
    m.refused("north", 422, "BG-6", type="draw_cards", count=3)
    [drawn] = m.act("north", type="draw_cards")
    assert drawn["count"] == 2  # CV 2
    hand = drawn["cards"]
    m.refused("north", 422, "BG-6", type="discard_cards", cards=hand[:1])  # discard first
    assert m.act("south", type="draw_cards")[0]["count"] == 1  # embarked Commander, CV 1
    assert m.act("west", type="draw_cards")[0]["count"] == 1  # no Commander
    for seat in ("south", "west", "spectator"):
        north = next(c for c in m.get("/board", seat)["cards"] if c["side"] == "north")
        assert north["hand"] is None and north["hand_count"] == 2
        seen = next(e for e in m.get("/events", seat)["events"] if e["type"] == "CardsDrawn")
        assert "cards" not in seen and seen["count"] == 2
    assert next(c for c in m.get("/board", "north")["cards"]
                if c["side"] == "north")["hand"] == hand
    m.act("north", type="advance")
    assert m.turn["step"] == "activation/activate"


def test_next_round_discards_then_draws_up_to_the_hand_size(client: TestClient) -> None:
    m = bg(client, options={"rounds": 2})
    play_round(m)
    settle(m, north=4, south=3, west=1)
    hand = m.get("/board", "north")["cards"][0]["hand"]
    m.act("north", type="discard_cards", cards=[hand[0]])
    [drawn] = m.act("north", type="draw_cards")
    assert drawn["count"] == 1
    assert len(m.get("/board", "north")["cards"][0]["hand"]) == 2


def play_round(m: Played, **points: int) -> list[tuple[str, str]]:
    """Draw, then activate every battlegroup in turn, score `points` in Round Up; returns
    who activated what."""
    if m.turn["step"] == "initiation/initiative":
        settle(m, north=4, south=3, west=1)
    for side in m.turn["initiative"]:
        if not any(w.startswith("hands") for w in m.turn["expects"]):
            m.act(side, type="draw_cards")
    m.act("north", type="advance")
    done = []
    while m.turn["step"] == "activation/activate":
        side = m.turn["active_side"]
        group = m.turn["expects"][0].split(": ")[1].split(", ")[0]
        m.act(side, type="activate_battlegroup", battlegroup=group)
        m.act(side, type="advance")
        done.append((side, group))
    assert m.turn["step"] == "round_up"
    for side, vp in points.items():
        m.act("referee", type="score_vp", side=side, points=vp)
    m.act("north", type="advance")
    return done


def test_activation_follows_the_order_skips_and_passes_over(client: TestClient) -> None:
    m = bg(client)
    settle(m, north=4, south=3, west=1)
    for side in ("north", "south", "west"):
        m.act(side, type="draw_cards")
    m.act("north", type="advance")
    assert m.turn["active_side"] == "north"
    m.refused("south", 403, "BG-7", type="activate_battlegroup", battlegroup="s-1")
    m.refused("north", 422, "BG-7", type="advance")  # must activate: no skipping
    m.refused("north", 403, "core-authority", type="activate_battlegroup", battlegroup="n-1",
              auxiliaries=["s-rifles"])  # another side's squad
    [activated] = m.act("north", type="activate_battlegroup", battlegroup="n-1",
                        auxiliaries=["n-snipers"])
    assert activated["unit_ids"] == ["n-hq", "n-rifles", "n-snipers"]
    m.refused("north", 422, "BG-7", type="activate_battlegroup", battlegroup="n-2")
    m.act("north", type="move_unit", unit_id="n-rifles", to={"x": 9, "y": 30})
    m.act("north", type="advance")
    assert m.turn["active_side"] == "south"
    m.act("south", type="activate_battlegroup", battlegroup="s-1")
    m.act("south", type="advance")
    assert m.turn["active_side"] == "west"
    # w-2 is all in reserve: it cannot be activated
    m.refused("west", 422, "BG-7", type="activate_battlegroup", battlegroup="w-2")
    m.act("west", type="activate_battlegroup", battlegroup="w-1")
    m.act("west", type="advance")
    # south and west have nothing left: passed over; north activates its last battlegroup
    assert m.turn["active_side"] == "north"
    m.refused("north", 422, "BG-7", type="activate_battlegroup", battlegroup="n-1")
    m.act("north", type="activate_battlegroup", battlegroup="n-2")
    m.act("north", type="advance")
    assert m.turn["step"] == "round_up"


def test_the_round_limit_ends_the_match_most_points_wins(client: TestClient) -> None:
    m = bg(client, options={"rounds": 2})
    play_round(m)
    assert m.turn["turn"] == 2
    play_round(m, west=3)
    match = m.get("")
    assert match["outcome"]["winner"] == "west"
    assert "round 2 of 2" in match["outcome"]["reason"]
    m.refused("north", 409, "core-end", type="advance")


def test_rounds_are_required(client: TestClient) -> None:
    r = client.post("/api/matches", json=scenario("battlegroup-demo", options={}))
    assert r.status_code == 422 and r.json()["rule"] == "BG-1"


@pytest.mark.parametrize(("dice", "cv", "ranking"), [
    ({"a": 6, "b": 5}, {"a": 0, "b": 3}, [("a",), ("b",)]),  # lone 6 beats 8
    ({"a": 6, "b": 6, "c": 1}, {"a": 0, "b": 2, "c": 0}, [("b",), ("a",), ("c",)]),
    ({"a": 3, "b": 4, "c": 5}, {"a": 2, "b": 1, "c": 0}, [("a", "b", "c")]),
    ({"a": 6, "b": 2, "c": 3}, {"a": 0, "b": 2, "c": 1}, [("a",), ("b", "c")]),
])
def test_rank(dice: dict[str, int], cv: dict[str, int], ranking: list[tuple[str, ...]]) -> None:
    assert list(rank(dice, cv)) == ranking


def test_equal_points_at_the_round_limit_is_a_tie(client: TestClient) -> None:
    m = bg(client, options={"rounds": 1})
    play_round(m, north=2, south=2)
    outcome = m.get("")["outcome"]
    assert outcome["winner"] is None and "victory points tied" in outcome["reason"]


def test_a_bad_scenario_is_refused_naming_the_field(client: TestClient) -> None:
    body = scenario("battlegroup-demo")
    body["units"][3]["side"] = "east"
    r = client.post("/api/matches", json=body)
    assert r.status_code == 422 and "units[3] (n-snipers): there is no side 'east'" in r.text
    body = scenario("battlegroup-demo")
    body["units"][1]["figures"] = -1
    r = client.post("/api/matches", json=body)
    assert r.status_code == 422 and "units" in r.text and "figures" in r.text
