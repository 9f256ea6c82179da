"""`normandy`: what the steps owe (domain.duties), and the tests that read it from the state.

- NO-1 Weather: the Allied player rolls next turn's weather, then this turn's sea
  conditions. (ours) The first roll made in the segment is the weather's, the second the
  sea's: the service does not read a roll's words, and the segment has no other roll.
- NO-1 Operation Determination: each side declares its operations (an empty declaration
  says none), the Allied player first: the German player owes his once the Allied one is in.
- NO-1 Supply: each side determines the supply of every unit of his on the map.
- NO-2 Carpet Bombing Resolution: an announced bombing is resolved (the Allied roll).
- NO-2/NO-3 Combat: every unit of the phasing side next to an enemy unit attacks, and
  every enemy unit next to it is attacked: a pair of adjacent units is owed until the one
  has attacked and the other been attacked in this Combat segment. After Reserve
  Movement, the same for the Reserve units that moved in it. (ours) Three exceptions, for
  what the service cannot see: a unit the terrain frees from attacking carries the marker
  `no_attack` (its owner places it); a pair that became adjacent by a combat's retreat or
  advance (either unit moved in this segment) owes no new attack, since an attack's result
  ends that unit's part in the segment; a unit with a Reserve marker owes no attack in
  Combat (a): it is held for Reserve Movement, and owes its attack after moving there (b);
  and units in an off-board box are next to nothing.
"""

from __future__ import annotations

import re

from domain.duties import EACH, OWNER, Duty
from domain.rulesets.normandy_rules import (
    CARPET_ROLLER,
    COMBAT,
    MOVED_IN_RESERVE,
    RESERVE,
    RESERVE_STEP,
    SUPPLY,
    carpet_targets,
    roles,
)
from domain.state import MatchState, Unit, step_fact

NO_ATTACK = "no_attack"  # (ours) the terrain frees this unit from attacking (NO-2)
HEX = re.compile(r"^([0-9]{2})([0-9]{2})$")

WEATHER = Duty(rule="NO-1", says="roll next turn's weather", by="allied",
               owed_while="weather_unrolled", done_by=("roll_dice",))
SEA = Duty(rule="NO-1", says="roll this turn's sea conditions (after the weather)",
           by="allied", owed_while="sea_unrolled", done_by=("roll_dice",))
OPERATIONS = Duty(rule="NO-1", says="declare your operations (an empty declaration says none; "
                  "the Allied player first)", by=EACH, owed_while="operations_to_declare",
                  done_by=("declare_operation",))
SUPPLY_DUTY = Duty(rule="NO-1", says="determine the supply of each of your units on the map",
                   by=OWNER, units="supply_missing", done_by=("set_supply",))
CARPET = Duty(rule="NO-2", says="resolve the announced carpet bombing (roll for it)",
              by=CARPET_ROLLER, owed_while="carpet_waiting", done_by=("roll_dice",))
ATTACK = Duty(rule="NO-2", says="attack with each of your units next to an enemy unit, "
              "every enemy unit next to them attacked", by=OWNER, units="must_attack",
              done_by=("resolve_combat",))
RESERVE_ATTACK = Duty(rule="NO-2", says="attack with each Reserve unit that moved, every "
                      "enemy unit next to it attacked", by=OWNER, units="reserve_must_attack",
                      done_by=("resolve_combat",))


def neighbours(hex_id: str) -> set[str]:
    """The six hexes next to `hex_id` (`CCRR`: columns of flat-topped hexes, each odd column
    half a hex lower, as the board draws them); none for another kind of id."""
    found = HEX.match(hex_id)
    if found is None:
        return set()
    column, row = int(found[1]), int(found[2])
    shift = column % 2  # an odd column's side neighbours are half a hex lower
    near = [(column, row - 1), (column, row + 1)] + [
        (column + dc, row + dr) for dc in (-1, 1) for dr in (shift - 1, shift)]
    return {f"{c:02d}{r:02d}" for c, r in near if 0 <= c <= 99 and 0 <= r <= 99}


def hex_of(unit: Unit) -> str | None:
    """The hex a unit stands on (None in an off-board box)."""
    return unit.position.hex if unit.position is not None else None



def _owes_attack(state: MatchState, unit: Unit, moving: bool = False) -> bool:
    """A phasing unit on the map, not freed, with an adjacent enemy unit it has not attacked
    with an attack on that unit, neither having moved in this segment (see the module);
    `moving`: the segment is one the unit moves in first (Reserve Movement), so its own
    moves do not count."""
    where = hex_of(unit)
    if (unit.side != state.turn.active_side or where is None or unit.markers.get(NO_ATTACK)
            or (not moving and state.in_step(step_fact("moved", unit.id)))):
        return False
    near = neighbours(where)
    attacked = state.in_step(step_fact("attacked", unit.id))
    return any(hex_of(enemy) in near and not (
        attacked and state.in_step(step_fact("defended", enemy.id)))
        and not state.in_step(step_fact("moved", enemy.id))
        for enemy in state.in_play() if enemy.side != unit.side)


def must_attack(state: MatchState, unit: Unit) -> bool:
    """NO-2 (a): in Combat, every phasing unit next to an enemy unit, but a Reserve unit
    (held for Reserve Movement, after which it attacks: (ours), see the module)."""
    return (state.turn.step == COMBAT and not unit.markers.get(RESERVE)
            and _owes_attack(state, unit))


def reserve_must_attack(state: MatchState, unit: Unit) -> bool:
    """NO-2 (b): after Reserve Movement, the Reserve units that moved in it."""
    return (state.turn.step == RESERVE_STEP and bool(unit.markers.get(RESERVE))
            and MOVED_IN_RESERVE in unit.status and _owes_attack(state, unit, moving=True))


def _rolls(state: MatchState) -> int:
    return state.this_step.count(step_fact("rolled"))


def _operations_to_declare(state: MatchState, side: str) -> bool:
    """The side has not declared; the German player only once the Allied one has."""
    allied = roles(state)["allied"]
    return not state.done(f"operations:{side}") and (
        side == allied or state.done(f"operations:{allied}"))


def _supply_missing(state: MatchState, unit: Unit) -> bool:
    return hex_of(unit) is not None and not set(SUPPLY) & set(unit.status)


UNIT_TESTS = {"supply_missing": _supply_missing, "must_attack": must_attack,
              "reserve_must_attack": reserve_must_attack}
WEATHER_ROLL, SEA_ROLL = 1, 2  # the first and the second roll of the Weather segment
SIDE_TESTS = {
    "weather_unrolled": lambda s, side: _rolls(s) < WEATHER_ROLL,
    "sea_unrolled": lambda s, side: _rolls(s) < SEA_ROLL,
    "operations_to_declare": _operations_to_declare,
    "carpet_waiting": lambda s, side: bool(carpet_targets(s)),
}
