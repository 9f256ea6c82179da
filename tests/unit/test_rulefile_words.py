"""What a step expects, computed from the match (domain/rulefiles/words.py): the first case
whose `when` holds says its words, a text or a list of texts; each case is checked at load as
every expression, with the functions join, distinct and string."""

from __future__ import annotations

from typing import Any

from domain.rulefiles import check
from domain.rulefiles.compile import compile_file
from tests.unit.legal_play import Match


def _file(expects: Any) -> dict[str, Any]:
    return {"format_version": 1, "id": "words", "title": "Words",
            "sequence": [{"phase": "initiation", "steps": [
                {"step": "initiative", "expects": expects}]}]}


def test_the_first_case_that_holds_says_its_words() -> None:
    checked = check(_file([
        {"when": "size(ties) > 0", "says": "'tied: ' + join(ties.map(g, join(g, '+')), '; ')"},
        {"when": "!('initiative' in facts)",
         "says": "sides.map(s, s + ' rolls, ' + string(hands[s]) + ' cards')"},
        {"says": "'settled: ' + join(distinct(order + order), ', ')"}]))
    assert checked.ok and checked.file is not None, checked.problems
    expects = compile_file(checked.file).expects
    assert expects is not None
    state = Match("battlegroup-demo").state
    assert expects(state) == ["north rolls, 0 cards", "south rolls, 0 cards",
                              "west rolls, 0 cards"]
    tied = state.model_copy(update={"initiative_groups": (("north", "west"), ("south",))})
    assert expects(tied) == ["tied: north+west; south"]
    settled = state.model_copy(update={"this_turn": ("initiative",)})
    assert expects(settled) == ["settled: north, south, west"]


def test_each_case_is_checked_as_every_expression() -> None:
    found = check(_file([{"when": "size(order)", "says": "join(units.map(u, u.id), ', ')"},
                         {"says": "join([1, 2], ', ')"}, {"says": "distinct(turn)"},
                         {"says": "nobody"}]))
    assert [(p.check, p.path[-3:]) for p in found.problems] == [
        ("expression-type", ("expects", 0, "when")),
        ("expression-type", ("expects", 1, "says")),
        ("expression-type", ("expects", 2, "says")),
        ("undeclared-name", ("expects", 3, "says"))]
