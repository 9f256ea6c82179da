"""What is offered comes from the inputs' declared domains, never from a refusal's words
(issue 38): a game that accepts only a split into halves as equal as possible is offered
that split; a game whose guard refuses every marker kind but one, in words that name no
kind, is offered that kind; and the domains themselves (a split's figures, the hexes within
a unit's movement, the ruleset's own marker kinds) are what the declaration says."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain.commands import Command
from domain.errors import InvalidAction
from domain.legal import legal_actions, offered
from domain.legal.domains import DOMAINS, View, bodies, domain_of, values
from domain.legal.model import LegalActions
from domain.rulesets.freeform import freeform
from domain.state import MatchState
from tests.unit.legal_play import Match, filled

SQUAD = {"id": "sq", "side": "red", "name": "1st Squad", "figures": 10,
         "position": {"hex": "0303"}, "extra": {"movement": 1}}
FAR = {"id": "far", "side": "blue", "name": "Far Post", "position": {"hex": "0707"}}


def match(check: Any, **rules: Any) -> Match:
    """A freeform match of one squad (and a post far off) whose rules add `check`."""
    ruleset = replace(freeform({}), checks=(check,), **rules)
    return Match("club", rules=ruleset, body={
        "ruleset": "freeform", "scenario": "club", "units": [SQUAD, FAR],
        "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]})


def choices(answer: LegalActions, kind: str) -> list[Any]:
    return [c for a in answer.actions if a.type == kind for c in a.choices]


def halves(command: Command, state: MatchState, actor: str) -> None:
    """A club's split: halves as equal as possible; its refusal names no number."""
    if command.type == "split_unit":
        unit = state.units[command.unit_id]
        if command.figures != (unit.figures or 0) // 2:
            raise InvalidAction("AA-3: a unit splits into halves as equal as possible",
                                rule="AA-3")


def test_a_split_into_equal_halves_is_offered_with_the_one_count_accepted() -> None:
    m = match(halves)
    answer = legal_actions(m.state, m.ruleset, "red", version=m.version)
    split = [c for c in choices(answer, "split_unit") if c.unit_id == "sq"]
    assert len(split) == 1
    figures = next(i for i in split[0].inputs if i.name == "figures")
    assert [o.value for o in figures.values or ()] == [5]
    body = filled(split[0])
    assert body["figures"] == 5 and m.decide("red", body)
    assert offered(answer, {"type": "split_unit", "unit_id": "sq", "new_unit_id": "x",
                            "figures": 5})
    assert not offered(answer, {"type": "split_unit", "unit_id": "sq", "new_unit_id": "x",
                                "figures": 1})


def the_defender(command: Command, state: MatchState, actor: str) -> None:
    """A hex game's guard: only the defender marker; its refusal names no kind."""
    if command.type == "place_marker" and command.kind != "defender":
        raise InvalidAction("HT-5: the phasing side names one enemy unit at a time",
                            rule="HT-5")


def test_a_marker_kind_refused_in_words_that_name_no_kind_is_still_found() -> None:
    m = match(the_defender, marker_kinds=("ammo", "bold", "cover", "defender"))
    answer = legal_actions(m.state, m.ruleset, "red", version=m.version)
    placing = [c for c in choices(answer, "place_marker") if c.unit_id == "far"]
    assert len(placing) == 1
    kinds = next(i for i in placing[0].inputs if i.name == "kind")
    assert [o.value for o in kinds.values or ()] == ["defender"]
    assert m.decide("red", filled(placing[0]))


def test_the_domains_are_read_from_the_state_and_the_ruleset() -> None:
    m = match(halves, marker_kinds=("defender",))
    view = View(m.state, m.ruleset, "red", m.version)
    squad = {"unit_id": "sq"}
    assert values(domain_of("split_unit", "figures"), view, squad) == list(range(1, 10))
    assert values(domain_of("place_marker", "kind"), view, squad) == ["defender"]
    assert values(domain_of("fire", "target_id"), view, squad) == ["far"]
    hexes = [p["hex"] for p in values(domain_of("move_unit", "to"), view, squad) if "hex" in p]
    # where it stands, then its neighbours within its movement of 1 that are on the map
    # the match names (columns and rows 03 to 07: not 0203, 0204 nor 0302)
    assert hexes == ["0303", "0304", "0403", "0404"]
    assert values(domain_of("move_unit", "to"), view, {"unit_id": "far"})[0] == {"hex": "0707"}
    split = list(bodies("split_unit", view))
    assert {"type": "split_unit", "unit_id": "sq", "figures": 9} in split
    assert {"type": "split_unit", "unit_id": "sq"} in split  # an optional field left out


def test_every_action_type_declares_its_domains() -> None:
    from domain.commands import ACTION_TYPES
    assert set(DOMAINS) == set(ACTION_TYPES)
