"""The order `verify` reads an initiative roll's dice in (docs/integrity.md): the export
writes `dice` with its keys sorted, so the check puts them back in the order the rules drew
them (`domain.rulesets.base`): every side in the match's order, a re-roll the tied sides in
the order the roll before it ranked them."""

from __future__ import annotations

from domain.integrity_rolls import InitiativeOrder


def test_a_first_roll_is_read_in_the_matchs_order_of_sides() -> None:
    order = InitiativeOrder()
    order.sides = ["french", "british"]
    body = {"dice": {"british": 3, "french": 6}, "ranking": [["french"], ["british"]]}
    assert list(order.ordered(body)["dice"]) == ["french", "british"]
    assert order.tied == []


def test_a_re_roll_is_read_in_the_order_the_tie_was_ranked() -> None:
    order = InitiativeOrder()
    order.sides = ["north", "south", "west"]
    tie = {"dice": {"north": 4, "south": 4, "west": 4}, "ranking": [["west", "north", "south"]]}
    assert list(order.ordered(tie)["dice"]) == ["north", "south", "west"]  # a fresh roll
    partial = {"dice": {"north": 1, "south": 4, "west": 4},
               "ranking": [["west", "south"], ["north"]]}
    # every side again: the tied three, in the tie's ranking order
    assert list(order.ordered(partial)["dice"]) == ["west", "north", "south"]
    settled = {"dice": {"south": 2, "west": 5}, "ranking": [["west"], ["south"], ["north"]]}
    assert list(order.ordered(settled)["dice"]) == ["west", "south"]
    fresh = {"dice": {"north": 2, "south": 1, "west": 6}, "ranking": [["west"], ["north"],
                                                                     ["south"]]}
    assert list(order.ordered(fresh)["dice"]) == ["north", "south", "west"]
