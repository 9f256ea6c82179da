"""What every core action refuses through decide: each refusal names its error and its rule
and appends nothing; a step refuses what it does not allow."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import ACTIONS, OTHER, SQUAD, Table

from domain.commands import ACTION_TYPES, RollDice
from domain.decide import decide
from domain.errors import (
    DomainError,
    InvalidAction,
    NotYourTurn,
    OutOfSequence,
)
from domain.rulesets.base import Ruleset
from domain.sequence import SequenceOfPlay, Step, start

REFUSALS: list[tuple[str, str, dict[str, Any], type[DomainError], str]] = [
    ("deploy: id taken", "red", {"type": "deploy_unit", "unit": SQUAD},
     InvalidAction, "core-units"),
    ("deploy: unknown side", "referee",
     {"type": "deploy_unit", "unit": {**SQUAD, "id": "x", "side": "green"}},
     InvalidAction, "core-sides"),
    ("move: unknown unit", "referee",
     {"type": "move_unit", "unit_id": "nope", "to": {"hex": "0101"}}, InvalidAction,
     "core-units"),
    ("move: unit left play", "referee",
     {"type": "move_unit", "unit_id": "gone", "to": {"hex": "0101"}}, InvalidAction,
     "core-units"),
    ("status: nothing changes", "red", {"type": "set_status", "unit_id": "sq1",
                                        "clear": ["broken"]}, InvalidAction, "core-units"),
    ("status: set and clear one flag", "red",
     {"type": "set_status", "unit_id": "sq1", "set": ["pinned"], "clear": ["pinned"]},
     InvalidAction, "core-units"),
    ("marker: unit and location", "referee",
     {"type": "place_marker", "kind": "smoke", "unit_id": "sq1", "location": "0101"},
     InvalidAction, "core-markers"),
    ("marker: neither unit nor location", "referee",
     {"type": "place_marker", "kind": "smoke"}, InvalidAction, "core-markers"),
    ("marker: on an unknown unit", "referee",
     {"type": "place_marker", "kind": "smoke", "unit_id": "nope"}, InvalidAction,
     "core-units"),
    ("remove marker: more than there are", "referee",
     {"type": "remove_marker", "kind": "suppression", "count": 3, "unit_id": "sq1"},
     InvalidAction, "core-markers"),
    ("remove marker: none at the location", "referee",
     {"type": "remove_marker", "kind": "smoke", "location": "0101"}, InvalidAction,
     "core-markers"),
    ("roll: bad notation", "red", {"type": "roll_dice", "notation": "d7", "purpose": "x"},
     InvalidAction, "core-dice"),
    ("roll: server dice with results", "red",
     {"type": "roll_dice", "notation": "d6", "purpose": "x", "results": [3]},
     InvalidAction, "core-dice"),
    ("record a roll: none is declared", "red", {"type": "record_roll", "results": [3]},
     InvalidAction, "core-dice"),
    ("dispute: about a version to come", "red",
     {"type": "open_dispute", "about_version": 99, "text": "x"}, InvalidAction,
     "core-disputes"),
    ("roll: table dice, one result short", "red",
     {"type": "roll_dice", "notation": "2d6", "purpose": "x", "source": "table",
      "results": [4]}, InvalidAction, "core-dice"),
    ("roll: a face the die does not have", "red",
     {"type": "roll_dice", "notation": "2d6", "purpose": "x", "source": "table",
      "results": [7, 1]}, InvalidAction, "core-dice"),
    ("roll: for an unknown unit", "red",
     {"type": "roll_dice", "notation": "d6", "purpose": "x", "unit_ids": ["nope"]},
     InvalidAction, "core-units"),
    ("split: every figure", "red",
     {"type": "split_unit", "unit_id": "sq1", "new_unit_id": "b", "figures": 11},
     InvalidAction, "core-split"),
    ("split: new id taken", "red",
     {"type": "split_unit", "unit_id": "sq1", "new_unit_id": "bl1", "figures": 2},
     InvalidAction, "core-units"),
    ("split: markers it does not have", "red",
     {"type": "split_unit", "unit_id": "sq1", "new_unit_id": "b", "figures": 2,
      "markers": {"suppression": 3}}, InvalidAction, "core-markers"),
    ("rally: nothing to rally from", "red", {"type": "rally_unit", "unit_id": "sq1"},
     InvalidAction, "core-rally"),
    ("rally: markers it does not have", "red",
     {"type": "rally_unit", "unit_id": "sq1", "remove_markers": {"wound": 1}},
     InvalidAction, "core-markers"),
    ("remove: already removed", "referee",
     {"type": "remove_unit", "unit_id": "gone", "reason": "destroyed"}, InvalidAction,
     "core-units"),
    ("vp: unknown side", "referee", {"type": "score_vp", "side": "green", "points": 1},
     InvalidAction, "core-sides"),
    ("advance: unknown step", "referee", {"type": "advance", "to": "nowhere"},
     InvalidAction, "core-sequence"),
    ("note: about a future version", "red",
     {"type": "add_note", "text": "x", "about_version": 99}, InvalidAction, "core-notes"),
    ("end: unknown winner", "referee", {"type": "end_match", "winner": "green"},
     InvalidAction, "core-sides"),
    ("split: figures not said", "red",
     {"type": "split_unit", "unit_id": "sq1", "new_unit_id": "b"}, InvalidAction, "core-split"),
    ("activate: a unit that has left play", "blue",
     {"type": "activate_unit", "unit_id": "gone"},
     InvalidAction, "core-units"),
    ("activate: a battlegroup, which freeform does not have", "red",
     {"type": "activate_battlegroup", "battlegroup": "bg1"}, InvalidAction, "core-actions"),
    ("morale roll: an AA procedure", "red", {"type": "roll_morale", "unit_id": "sq1"},
     InvalidAction, "core-actions"),
    ("initiative: a BG procedure", "red", {"type": "roll_initiative"}, InvalidAction,
     "core-actions"),
    ("pass initiative: a BG procedure", "red", {"type": "pass_initiative"}, InvalidAction,
     "core-actions"),
    ("draw: no count and no hand size", "red", {"type": "draw_cards"}, InvalidAction,
     "core-cards"),
    ("draw: the referee has no deck", "referee", {"type": "draw_cards", "count": 1},
     NotYourTurn, "core-cards"),
    ("discard: a card not in hand", "red", {"type": "discard_cards", "cards": ["ace"]},
     InvalidAction, "core-cards"),
    ("play: a card not in hand", "red", {"type": "play_card", "card": "ace"}, InvalidAction,
     "core-cards"),
    ("shuffle: no cards at all", "red", {"type": "shuffle_deck"}, InvalidAction, "core-cards"),
    ("cut: your own deck", "red", {"type": "cut_deck", "side": "red", "at": 1}, NotYourTurn,
     "core-cards"),
    ("rule roll: freeform names none", "red", {"type": "rule_roll", "roll": "morale"},
     InvalidAction, "core-rolls"),
    ("result: no roll waits for one", "red", {"type": "enter_result", "result": "hit"},
     InvalidAction, "core-results"),
    ("lose a step: the unit has none", "red", {"type": "lose_step", "unit_id": "sq1"},
     InvalidAction, "core-steps"),
    ("lose a step: not your unit", "blue", {"type": "lose_step", "unit_id": "sq1"},
     NotYourTurn, "core-authority"),
    ("gain a step: the unit keeps none", "red", {"type": "gain_step", "unit_id": "sq1"},
     InvalidAction, "core-steps"),
    ("gain a step: not your unit", "blue", {"type": "gain_step", "unit_id": "sq1"},
     NotYourTurn, "core-authority"),
    ("concede: the referee is no side", "referee", {"type": "concede"}, NotYourTurn,
     "core-end"),
    ("reopen: the match has not ended", "referee", {"type": "reopen_match"}, InvalidAction,
     "core-end"),
    *[(f"{action['type']}: another ruleset's", "red", action, InvalidAction, "core-actions")
      for action in (
          {"type": "fire", "unit_id": "sq1", "target_id": "sq2"},
          {"type": "announce_reinforcements", "unit_ids": ["sq1"], "entry": "north"},
          {"type": "call_artillery", "mission": "m1", "stage": "radio_contact"},
          {"type": "declare_operation", "hqs": ["hq"]},
          {"type": "set_supply", "unit_ids": ["sq1"], "status": "isolated"},
          {"type": "resolve_combat", "attackers": ["sq1"], "defenders": ["sq2"], "odds": "2:1"},
      )],
]


@pytest.mark.parametrize(("case", "actor", "action", "error", "rule"), REFUSALS,
                         ids=[r[0] for r in REFUSALS])
def test_a_refused_action_raises_its_error_naming_the_rule_and_appends_nothing(
    deployed: Table, case: str, actor: str, action: dict[str, Any], error: type[DomainError],
    rule: str,
) -> None:
    deployed.act("red", type="place_marker", kind="suppression", count=2, unit_id="sq1")
    deployed.act("blue", type="deploy_unit", unit={**OTHER, "id": "gone"})
    deployed.act("blue", type="remove_unit", unit_id="gone", reason="destroyed")
    log, state = list(deployed.log), deployed.state
    with pytest.raises(error) as refused:
        deployed.act(actor, **action)
    assert type(refused.value) is error and refused.value.rule == rule
    assert refused.value.detail
    assert deployed.log == log and deployed.state == state


def test_every_action_type_has_a_refusal_case() -> None:
    refused = {action["type"] for _, _, action, _, _ in REFUSALS}
    assert refused >= set(ACTION_TYPES) - {"set_track"}  # any value of a track is allowed


def test_unknown_side_refusal_lists_the_sides(table: Table) -> None:
    with pytest.raises(InvalidAction) as refused:
        table.act(type="score_vp", side="green", points=1)
    assert refused.value.allowed == ["red", "blue"]


def test_a_step_that_does_not_allow_an_action_refuses_it_naming_its_rule() -> None:
    sequence = SequenceOfPlay(phases=(Step(id="move", allows=("move_unit",), rule="XX-1"),))
    ruleset = Ruleset(id="t", version=1, title="t", sequence=sequence)
    table = Table()
    state = table.state.model_copy(update={"turn": start(sequence, ("red", "blue"))})
    with pytest.raises(OutOfSequence) as refused:
        decide(RollDice(notation="d6", purpose="x"), state, ruleset, table.context())
    assert refused.value.rule == "XX-1"
    assert refused.value.allowed == ["add_note", "advance", "concede", "end_match",
                                     "move_unit", "open_dispute", "record_roll",
                                     "reopen_match"]
    for always in ({"type": "advance"}, {"type": "add_note", "text": "x"}):
        assert decide(ACTIONS.validate_python(always), state, ruleset, table.context())
