"""How many sides a ruleset plays is its data (`Ruleset.sides`): a set-up with another count
is refused, whether it is created or imported."""

from __future__ import annotations

import pytest
from conftest import Table

from domain import events as ev
from domain.errors import InvalidAction
from domain.interchange import divergence
from domain.rulesets import get_ruleset
from domain.rulesets.base import Sides
from domain.state import Side


def test_a_count_outside_the_rulesets_sides_is_refused_naming_its_rule() -> None:
    two = get_ruleset("wing-command").sides
    two.check(2, "Wing command")
    with pytest.raises(InvalidAction) as refused:
        two.check(3, "Wing command")
    assert refused.value.rule == "WC-9"
    assert "Wing command is played by 2 sides, not 3" in str(refused.value)
    get_ruleset("freeform").sides.check(8, "Freeform")


def test_a_ruleset_cannot_declare_more_sides_than_a_match_may_have() -> None:
    with pytest.raises(ValueError, match="outside 2 to 8"):
        Sides(2, 9)
    with pytest.raises(ValueError, match="outside 2 to 8"):
        Sides(3, 2)


def test_an_imported_log_whose_sides_its_ruleset_cannot_play_does_not_fit(table: Table) -> None:
    created = table.log[0]
    assert isinstance(created, ev.MatchCreated)
    two = created.model_copy(update={"ruleset": "extended-sequence"})
    assert divergence([two]) is None
    three = two.model_copy(update={"sides": (*two.sides, Side(id="green", name="Green"))})
    said = divergence([three])
    assert said is not None and said.startswith("line 2: event 1 (MatchCreated): ES-4")
