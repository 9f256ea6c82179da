"""Battlegroup's initiative through the HTTP API with three players: the roll and its lone
6 (BG-2, BG-3), ties thrown again (BG-4) and first place handed over or kept (BG-5)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from test_battlegroup_api import bg

from domain.rulesets.battlegroup import rank

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
    m.refused("referee", 422, "BG-4", type="advance")  # the tie's re-roll is owed
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


def test_a_tied_side_is_not_done_until_its_tie_is_thrown_and_throws_its_own_die(
        client: TestClient) -> None:
    """(ours) A tied side owes the throw that breaks the tie: it cannot say it is done (and
    so be shut out of the step) before it; a side already placed can."""
    m = bg(client)
    m.act("north", type="roll_initiative", source="table",
          results={"north": 1, "south": 4, "west": 4})  # 3, 4, 4: south and west tied
    m.refused("south", 422, "BG-2", type="advance")
    m.act("north", type="advance")  # placed last: done
    [settled] = m.act("south", type="roll_initiative", source="table",
                      results={"south": 5, "west": 2})
    assert settled["actor"] == "south" and settled["ranking"] == [["south"], ["west"], ["north"]]
    m.act("south", type="advance")
    m.act("west", type="advance")
    assert m.turn["step"] != "initiation/initiative"


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


def test_the_initiative_winner_who_says_it_is_done_keeps_first_place(
        client: TestClient) -> None:
    m = bg(client)
    m.act("referee", type="roll_initiative", source="table",
          results={"north": 4, "south": 3, "west": 1})
    m.act("south", type="advance")
    assert m.turn["expects"][0].startswith("north may hand first place to south")
    m.act("north", type="advance")
    m.refused("north", 403, "BG-2", type="pass_initiative")
    m.act("west", type="advance")
    assert m.turn["step"] == "initiation/cards" and m.turn["initiative"] == [
        "north", "south", "west"]


@pytest.mark.parametrize(("dice", "cv", "ranking"), [
    ({"a": 6, "b": 5}, {"a": 0, "b": 3}, [("a",), ("b",)]),  # lone 6 beats 8
    ({"a": 6, "b": 6, "c": 1}, {"a": 0, "b": 2, "c": 0}, [("b",), ("a",), ("c",)]),
    ({"a": 3, "b": 4, "c": 5}, {"a": 2, "b": 1, "c": 0}, [("a", "b", "c")]),
    ({"a": 6, "b": 2, "c": 3}, {"a": 0, "b": 2, "c": 1}, [("a",), ("b", "c")]),
])
def test_rank(dice: dict[str, int], cv: dict[str, int], ranking: list[tuple[str, ...]]) -> None:
    assert list(rank(dice, cv)) == ranking
