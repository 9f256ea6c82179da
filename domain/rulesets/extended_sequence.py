"""`extended-sequence`: the WW2 extended sequence of play (rules ES-1 to ES-6), attacker
against defender, in an ASL-style game turn: by default one player-turn per side, each
side the attacker in its own (the option `roles`: {"attacker": side, "defender": side}
fixes them for the whole match instead). `extended_sequence_steps` holds the sequence.

The service keeps the weather tracks, the reinforcements announced and the off-board
artillery missions (ES-1, `extended_sequence_initial`); resolves the Q rolls of the Rally
Phase (ES-2, ES-3, `extended_sequence_rally`); counts the shots, places the fire markers,
refuses what they forbid and clears them (ES-4 to ES-6, `extended_sequence_combat`).

Units are bases with a quality `q` and `extra.rof` (shots per player-turn, 1 if not
given); a leader is `kind: leader` with `q` and `extra.modifier` (Q4+1 is q 4, modifier
+1); a vehicle is `kind: vehicle`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.rulesets.base import (
    Roll,
    Ruleset,
    Sides,
    end_by_points,
    number_option,
    roles_option,
)
from domain.rulesets.extended_sequence_combat import (
    STOPPED_BY,
    check,
    clear_fire_markers,
    eliminate_routed,
    fire,
)
from domain.rulesets.extended_sequence_initial import TRACK_TITLES, TRACKS, announce, artillery
from domain.rulesets.extended_sequence_rally import (
    REPAIR,
    leader_rally,
    q_roll_passes,
    rally_capacity,
    repair,
    self_rally,
)
from domain.rulesets.extended_sequence_steps import (
    ROLES,
    fixed_roles,
    roles_now,
    sequence_for,
)
from domain.state import MatchState, Unit, step_fact

__all__ = ["extended_sequence", "q_roll_passes", "rally_capacity"]

WHERE = {
    "announce_reinforcements": ("ES-1", "reinforcements are announced in the Initial Phase"),
    "call_artillery": ("ES-1", "off-board artillery is called in the Initial Phase"),
    "fire": ("ES-4", "units fire in the Combat Phase"),
    "set_track": ("ES-1", "the weather changes at the start of the Initial Phase"),
}


def _expects(state: MatchState) -> list[str]:
    if state.awaiting is not None:
        return [f"{state.awaiting.by} to enter the result of {state.awaiting.what}"]
    roles = roles_now(state)
    attacker, defender = roles.get("attacker"), roles.get("defender")
    each = (f"{attacker} announces" if fixed_roles(state.options) else "each side announces")
    hints = {
        "initial/weather": "roll for a weather change and set the weather tracks",
        "initial/smoke_and_fire": "smoke and fire spread or dissolve (location markers)",
        "initial/reinforcements": f"{each} reinforcements and their entry point",
        "initial/air_strikes": "check for air strikes and resolve them",
        "initial/artillery": "off-board artillery: radio contact, spotting, corrections, FFE",
        "rally/repair": "broken-down equipment: a Q roll repairs it",
        "rally/ammunition": "ammunition replenishment rolls at the HQ",
        "rally/self_rally": "broken (not routed) units may self-rally",
        "rally/leader_rally": "leaders rally broken and routed units",
        "combat/prepared_fire": f"{attacker}'s prepared fire, while ROF lasts",
        "combat/routed_movement": f"{attacker} moves routed units; {defender} may fire",
        "combat/broken_movement": f"{attacker} moves broken units to cover; {defender} may fire",
        "combat/move_and_fire": f"{attacker} moves and fires; {defender} may interrupt",
        "combat/defensive_fire": f"{defender} fires with every unit still able",
        "combat/advancing_fire": f"{attacker}'s advancing fire (one shot each, no ROF)",
        "combat/advance": f"{attacker} advances one base, possibly into close combat",
        "admin/victory": "markers are removed; check victory, then go on",
    }
    return [hints.get(state.turn.step, "go on when done")]


def _to_move(state: MatchState, unit: Unit) -> bool:
    """ES-4: an attacker's unit on the map that has not moved in this step of this
    player-turn."""
    return (roles_now(state).get("attacker") == unit.side
            and not (unit.position is not None and unit.position.box is not None)
            and not state.in_step(step_fact("moved", unit.id)))


def _routed_to_move(state: MatchState, unit: Unit) -> bool:
    return "routed" in unit.status and _to_move(state, unit)


def _broken_to_move(state: MatchState, unit: Unit) -> bool:
    """(ours) A broken unit that cannot move this player-turn (it fired prepared fire, or
    was halted) owes no move."""
    return ("broken" in unit.status and "routed" not in unit.status and _to_move(state, unit)
            and not any(unit.markers.get(marker) for marker in STOPPED_BY))


def extended_sequence(options: Mapping[str, Any]) -> Ruleset:
    if fixed_roles(options):
        roles_option(options, ROLES, "ES-4")
    turns = number_option(options, "turns", 1, 100, "a number of turns")
    number_option(options, "radio_contact", 1, 6, "the d6 score for radio contact", "ES-1")
    number_option(options, "q_roll_margin", 0, 10, "the Q roll's margin over Q", "ES-2")
    return Ruleset(
        id="extended-sequence", version=2, title="WW2 extended sequence",
        sequence=sequence_for(options),
        unit_tests={"routed_to_move": _routed_to_move, "broken_to_move": _broken_to_move},
        side_tests={"weather_unrolled": lambda s, side: not s.in_step(step_fact("rolled"))},
        checks=(check,),
        actions={"fire": fire, "announce_reinforcements": announce, "call_artillery": artillery},
        rolls={
            "repair": Roll("ES-2", ("rally/repair",), repair),
            "self_rally": Roll("ES-2", ("rally/self_rally",), self_rally),
            "leader_rally": Roll("ES-3", ("rally/leader_rally",), leader_rally),
        },
        react=eliminate_routed,
        # ES-6: the fire markers come off as each player-turn ends (ours: as the next one
        # begins) and in the Admin Phase.
        on_enter={"combat/prepared_fire": clear_fire_markers,
                  "admin/victory": clear_fire_markers},
        end_of_turn=end_by_points(turns, "turn", "ES-6"),
        expects=_expects,
        where=WHERE,
        rolled_by_service=("ES-4", "ES-4a", REPAIR),  # shots count against the ROF (ES-5)
        tracks=TRACKS,
        track_titles=TRACK_TITLES,
        sides=Sides(2, 2, "ES-4"),  # an attacker and a defender
    )
