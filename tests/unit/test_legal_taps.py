"""No keyboard to play (issue 39): the legal answer lists what a tap needs, from the declared
domains (domain/legal/domains.py): a roll's dice as the domain's notations, what it is for
in the words of the duty it discharges, a results table's odds as its columns."""

from __future__ import annotations

from domain.legal import legal_actions, offered
from domain.legal.domains import ODDS
from domain.legal.model import LegalActions
from tests.unit.legal_play import Match


def legal(m: Match, seat: str) -> LegalActions:
    return legal_actions(m.state, m.ruleset, seat, version=m.version)


def test_an_owed_roll_lists_its_dice_and_says_what_it_is_for_in_the_dutys_words() -> None:
    m = Match("normandy-demo")  # NO-1: the Allied player owes next turn's weather roll
    roll = next(a for a in legal(m, "allied").actions if a.type == "roll_dice")
    choice = roll.choices[0]
    assert choice.body["purpose"] == "next turn's weather"
    notation = next(i for i in choice.inputs if i.name == "notation")
    assert notation.kind == "choice" and notation.required and notation.open
    assert [o.value for o in notation.values or ()] == ["d6", "2d6", "d10"]
    purpose = next(i for i in choice.inputs if i.name == "purpose")
    assert not purpose.required  # what it is for is in the body: nothing to type
    for dice in ("d6", "2d6", "d10"):  # each listed notation is one tap, offered and accepted
        body = {**choice.body, "notation": dice}
        assert offered(legal(m, "allied"), body)
        assert m.decide("allied", body)
    referee = next(a for a in legal(m, "referee").actions if a.type == "roll_dice")
    assert referee.choices[0].body["purpose"] == "a roll"  # who owes no roll: a roll


def test_the_odds_of_an_attack_are_the_results_tables_columns() -> None:
    from domain.legal.games import resolve_combat
    from domain.legal.probe import Probe
    m = Match("normandy-demo")
    probe = Probe(m.state, m.ruleset, "allied", m.version)
    offers = list(resolve_combat(probe))
    assert offers, "an attack is generated for the Allied units"
    for _, candidates in offers:
        odds = next(i for i in candidates[0].inputs if i.name == "odds")
        assert odds.kind == "choice" and odds.required and not odds.open
        assert tuple(o.value for o in odds.values or ()) == ODDS


def test_a_split_of_an_odd_number_of_figures_asks_which_half_takes_the_odd_one() -> None:
    from domain.legal.probe import Probe
    from domain.legal.units import split
    m = Match("atomic-africa-demo")  # AA-3: halves as equal as possible, the odd one chosen
    probe = Probe(m.state, m.ruleset, "red", m.version)
    odd = {u.id for u in m.state.units.values() if (u.figures or 0) % 2}
    even = {u.id for u in m.state.units.values() if u.figures and not u.figures % 2}
    assert odd and even, "the demo has units of odd and of even figures"
    for _, candidates in split(probe):
        unit = candidates[0].unit_id
        asked = {i.name: i for i in candidates[0].inputs}
        if unit in odd:
            halves = asked["odd_to.figures"]
            assert halves.kind == "choice" and [o.value for o in halves.values or ()] == [
                "first", "second"]
        else:
            assert "odd_to.figures" not in asked
