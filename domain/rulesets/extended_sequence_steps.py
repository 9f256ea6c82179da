"""`extended-sequence`: the sequence of play (ES-1 to ES-6) and the roles in force.

By default a game turn is the Initial Phase (ES-1) and the Rally Phase (ES-2, ES-3), in
which both sides act and each says when it is done; then one Combat Phase (ES-4, ES-5) per
side, its player-turn, in the scenario's side order, each side the attacker in its own and
the defender in the other's; then the Admin Phase (ES-6). With the option `roles` the roles
are fixed for the whole match and the Combat Phase runs once a game turn, for the fixed
attacker. Both sequences have the same steps, so a match created before the roles changed
hands (when `roles` was required) loads and plays on as it was: fixed roles.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.duties import EACH, OWNER, Duty
from domain.sequence import Phase, SequenceOfPlay, Step, current_roles
from domain.state import MatchState

MOVE = ("move_unit", "remove_unit", "set_status", "place_marker", "remove_marker", "roll_dice")
FIRE = ("fire", "enter_result", "place_marker", "remove_marker", "set_status", "roll_dice")
MOVE_AND_FIRE = tuple(dict.fromkeys((*MOVE, *FIRE)))  # each action type once
ROLES = ("attacker", "defender")

# What the steps owe (domain.duties; the tests are the factory's, `extended_sequence`):
# ES-1's weather roll, (ours) by either side: both are waited for until one rolls it; ES-4:
# each of the attacker's routed units moves away (or, unable to, surrenders: removed), then
# each broken one moves to cover ((ours) one already in cover "moves" to where it stands,
# which records that it stays; one that cannot move this player-turn owes nothing).
WEATHER = Duty(rule="ES-1", says="roll for the weather change", by=EACH,
               owed_while="weather_unrolled", done_by=("roll_dice",))
ROUTED = Duty(rule="ES-4", says="move each of your routed units away from the enemy (one "
              "that cannot surrenders)", by=OWNER, units="routed_to_move",
              done_by=("move_unit", "remove_unit"))
BROKEN = Duty(rule="ES-4", says="move each of your broken units toward cover", by=OWNER,
              units="broken_to_move", done_by=("move_unit", "remove_unit"))


def _sequence(fixed: bool) -> SequenceOfPlay:
    # (ours) With fixed roles only the attacker announces reinforcements, as before; with a
    # player-turn per side each side announces its own, for its own player-turn.
    reinforcements = Step(id="reinforcements", title="Reinforcements announced", rule="ES-1",
                          allows=("announce_reinforcements",),
                          **({"acting": "attacker"} if fixed else {"shared": True}))
    # In the Combat Phase both players record what fire did to their own units in every
    # step (acting: any); the step's role moves the marker on (ES-4).
    return SequenceOfPlay(phases=(
        Phase(id="initial", title="Initial Phase", rule="ES-1", children=(
            Step(id="weather", title="Weather change", rule="ES-1", shared=True,
                 allows=("set_track", "roll_dice"), owes=(WEATHER,)),
            Step(id="smoke_and_fire", title="Smoke and fire evolution", rule="ES-1",
                 shared=True, allows=("place_marker", "remove_marker", "roll_dice")),
            reinforcements,
            Step(id="air_strikes", title="Air strikes", rule="ES-1", shared=True,
                 allows=("roll_dice", "place_marker", "remove_marker", "remove_unit")),
            Step(id="artillery", title="Off-board artillery", rule="ES-1", shared=True,
                 allows=("call_artillery", "roll_dice", "place_marker", "remove_marker")),
        )),
        Phase(id="rally", title="Rally Phase", rule="ES-2", children=(
            Step(id="repair", title="Repair equipment", rule="ES-2", shared=True,
                 allows=("rule_roll",)),
            Step(id="ammunition", title="Replenish ammunition", rule="ES-2", shared=True,
                 allows=("roll_dice", "set_status")),
            Step(id="self_rally", title="Self-rally", rule="ES-2", shared=True,
                 allows=("rule_roll",)),
            Step(id="leader_rally", title="Rally with a leader", rule="ES-3", shared=True,
                 allows=("rule_roll",)),
        )),
        Phase(id="combat", title="Combat Phase", rule="ES-4", player_turns=not fixed,
              roles=() if fixed else ROLES, children=(
            Step(id="prepared_fire", title="Attacker's prepared fire", rule="ES-4",
                 advanced_by="attacker", allows=FIRE),
            Step(id="routed_movement", title="Attacker moves routed units", rule="ES-4",
                 advanced_by="attacker", allows=MOVE_AND_FIRE, owes=(ROUTED,)),
            Step(id="broken_movement", title="Attacker moves broken units", rule="ES-4",
                 advanced_by="attacker", allows=MOVE_AND_FIRE, owes=(BROKEN,)),
            Step(id="move_and_fire", title="Attacker moves and fires", rule="ES-4",
                 advanced_by="attacker", allows=MOVE_AND_FIRE),
            Step(id="defensive_fire", title="Defender's fire", rule="ES-4",
                 advanced_by="defender", allows=FIRE),
            Step(id="advancing_fire", title="Attacker's advancing fire", rule="ES-4",
                 advanced_by="attacker", allows=FIRE),
            Step(id="advance", title="Attacker advances", rule="ES-4", advanced_by="attacker",
                 allows=MOVE),
        )),
        Phase(id="admin", title="Admin Phase", rule="ES-6", children=(
            Step(id="victory", title="Markers removed, victory check", rule="ES-6",
                 shared=True, allows=("score_vp", "roll_dice")),
        )),
    ))


PER_SIDE = _sequence(fixed=False)
FIXED = _sequence(fixed=True)


def fixed_roles(options: Mapping[str, Any]) -> bool:
    """The scenario fixes the roles for the whole match (option `roles`)."""
    return "roles" in options


def sequence_for(options: Mapping[str, Any]) -> SequenceOfPlay:
    return FIXED if fixed_roles(options) else PER_SIDE


def roles_now(state: MatchState) -> dict[str, str]:
    """Which side attacks and which defends now (role -> side); outside the Combat Phase of
    a match without fixed roles, none."""
    return current_roles(sequence_for(state.options), state)


def role_of(state: MatchState, side: str) -> str | None:
    return next((role for role, s in roles_now(state).items() if s == side), None)


def step_of(state: MatchState) -> str:
    """The current step's id within its phase (`prepared_fire`)."""
    return state.turn.step.split("/")[-1]
