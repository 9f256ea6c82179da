"""Who moves the turn marker: shared steps end when every side has said it is done, roles
follow the player-turn, and the turn view says who may act and who may advance."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from conftest import ACTIONS, T0, Table

from domain import events as ev
from domain.decide import Context, decide
from domain.dice import SeededDice
from domain.errors import NotYourTurn, OutOfSequence
from domain.evolve import evolve
from domain.rulesets.base import Ruleset
from domain.sequence import Phase, SequenceOfPlay, Step, current_roles, start
from domain.state import MatchState
from projections.views import turn_view

SHARED = SequenceOfPlay(phases=(
    Step(id="deploy", shared=True, allows=("move_unit", "add_note")),
    Phase(id="player", player_turns=True, roles=("attacker", "defender"), children=(
        Step(id="fire", acting="attacker", allows=("roll_dice",)),
        Step(id="react", acting="defender", advanced_by="attacker", allows=("roll_dice",)),
    )),
))
RULESET = Ruleset(id="test", version=1, title="Test", sequence=SHARED)
UNITS = [{"id": "r1", "side": "red", "name": "Red 1", "position": {"x": 1, "y": 1}},
         {"id": "b1", "side": "blue", "name": "Blue 1", "position": {"x": 5, "y": 5}}]


class Match:
    """A match on the test ruleset above, decided and folded in memory."""

    def __init__(self) -> None:
        table = Table(units=UNITS)
        self.match_id = table.match_id
        self.state: MatchState = table.state.model_copy(
            update={"turn": start(SHARED, ("red", "blue"))})
        self.version = 1

    def act(self, actor: str, **action: Any) -> list[ev.Event]:
        context = Context(match_id=self.match_id, version=self.version, actor=actor,
                          command_id=f"c{self.version}",
                          now=T0 + timedelta(seconds=self.version),
                          dice=SeededDice(b"test-seed"), roll_index=self.version)
        events = decide(ACTIONS.validate_python(action), self.state, RULESET, context)
        for event in events:
            self.state = evolve(self.state, event)
        self.version += len(events)
        return events


@pytest.fixture
def match(monkeypatch: pytest.MonkeyPatch) -> Match:
    monkeypatch.setattr("projections.views.get_ruleset", lambda ruleset, options, content_hash=None: RULESET)
    return Match()


def test_a_shared_step_moves_on_only_when_every_side_has_said_it_is_done(match: Match) -> None:
    done = match.act("red", type="advance")
    assert [type(e).__name__ for e in done] == ["SideDone"]
    assert match.state.turn.step == "deploy"
    assert turn_view(match.state).waiting_for == ["blue"]
    match.act("blue", type="move_unit", unit_id="b1", to={"x": 6, "y": 5})
    moved = match.act("blue", type="advance")
    assert [type(e).__name__ for e in moved] == ["PhaseAdvanced"]
    assert match.state.turn.step == "player/fire"
    assert match.state.turn.done == ()


def test_a_side_that_said_done_neither_says_it_twice_nor_acts_again(match: Match) -> None:
    match.act("red", type="advance")
    with pytest.raises(NotYourTurn, match="waiting for blue"):
        match.act("red", type="advance")
    with pytest.raises(NotYourTurn, match="has said it is done"):
        match.act("red", type="move_unit", unit_id="r1", to={"x": 2, "y": 2})
    assert match.act("red", type="add_note", text="still watching")  # records stay open


def test_the_referee_moves_a_shared_step_on_at_once(match: Match) -> None:
    match.act("referee", type="advance")
    assert match.state.turn.step == "player/fire"


def test_a_side_cannot_skip_ahead_from_a_shared_step_before_the_others_are_done(
        match: Match) -> None:
    with pytest.raises(OutOfSequence, match="waiting for blue"):
        match.act("red", type="advance", to="player/react")
    assert match.state.turn.done == ()


def test_roles_follow_the_player_turn(match: Match) -> None:
    match.act("referee", type="advance")
    assert current_roles(SHARED, match.state) == {"attacker": "red", "defender": "blue"}
    with pytest.raises(NotYourTurn):
        match.act("blue", type="roll_dice", notation="d6", purpose="fire")
    match.act("red", type="roll_dice", notation="d6", purpose="fire")
    match.act("red", type="advance")
    assert turn_view(match.state).acting_sides == ["blue"]
    assert turn_view(match.state).advanced_by == ["red", "referee"]
    with pytest.raises(NotYourTurn, match="moves the turn marker on"):
        match.act("blue", type="advance")
    match.act("red", type="advance")  # blue's player-turn: blue attacks
    assert match.state.turn.step == "player/fire"
    assert current_roles(SHARED, match.state) == {"attacker": "blue", "defender": "red"}
    assert turn_view(match.state).roles == {"attacker": "blue", "defender": "red"}
    match.act("blue", type="roll_dice", notation="d6", purpose="fire")
    with pytest.raises(NotYourTurn):
        match.act("red", type="roll_dice", notation="d6", purpose="fire")


def test_the_turn_view_names_who_may_act_and_who_may_advance(match: Match) -> None:
    view = turn_view(match.state)
    assert (view.shared, view.acting_sides, view.advanced_by, view.waiting_for) == (
        True, ["red", "blue"], ["red", "blue", "referee"], ["red", "blue"])
    match.act("blue", type="advance")
    view = turn_view(match.state)
    assert (view.acting_sides, view.advanced_by, view.waiting_for) == (
        ["red"], ["red", "referee"], ["red"])


def test_fixed_roles_come_from_the_match_option_outside_a_player_turn_with_roles() -> None:
    seq = SequenceOfPlay(phases=(Phase(id="p", player_turns=True, children=(Step(id="s"),)),))
    state = Table(options={"roles": {"attacker": "blue", "defender": "red"}}).state
    state = state.model_copy(update={"turn": start(seq, ("red", "blue"))})
    assert current_roles(seq, state) == {"attacker": "blue", "defender": "red"}


def test_a_shared_step_cannot_also_name_who_moves_the_marker() -> None:
    with pytest.raises(ValueError, match="shared step"):
        Step(id="x", shared=True, advanced_by="active")


def test_gain_step_gives_a_unit_one_step_back() -> None:
    table = Table(units=[{**UNITS[0], "steps": 2}])
    table.act("red", type="lose_step", unit_id="r1")
    assert table.state.units["r1"].steps == 1
    gained = table.act("red", type="gain_step", unit_id="r1", rule="NO-2", reason="replacement")
    assert [(type(e).__name__, e.rule) for e in gained] == [("StepGained", "NO-2")]
    assert table.state.units["r1"].steps == 2
    assert table.replayed().state == table.state
