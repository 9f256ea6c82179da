"""`normandy`: what the rules compute (NO-1 to NO-5), and what the service does itself as
the marker arrives at a step or after an action. The sequence and the factory are in
`domain.rulesets.normandy`; the players' procedures and the checks in `normandy_procedures`.
"""

from __future__ import annotations

from domain import events as ev
from domain.context import Emit
from domain.state import MatchState, Unit, operation_fact

SUPPLY = ("in_supply", "out_of_supply", "isolated")
RESERVE, DISORGANIZED, REGROUP = "reserve", "disorganized", "regroup"
MOVED = "moved_tactically"  # NO-2: a flag the service sets; strategic movement is for the rest
MOVED_IN_RESERVE = "moved_in_reserve"  # NO-2: a Reserve unit that moved in Reserve Movement
CARPET = "carpet_bombing"  # NO-1: the marker on the hex of an announced carpet bombing
ENTRENCHMENT = "entrenchment"
ARTILLERY = "artillery"
# (ours) The city VP come once every four Game-Turns, on the shaded spaces of a turn track we
# do not have: they are scored on Game-Turns 4, 8, 12, ...
CITY_VP_EVERY = 4
# (ours) A unit's counter has two sides, full and reduced, unless it says otherwise
# (`extra.full_steps`); the text defers the details to rules it does not include.
FULL_STEPS = 2
REPLACEMENT_COST = 1  # (ours) replacement points per step regained; the text gives no rate
RESERVE_SHARE = (2, 3)  # NO-2: Reserve units move up to 2/3 of their printed allowance

WEATHER_STEP, ALLIED_AIR, SUPPORT_STEP = "mutual/weather", "mutual/allied_air", "mutual/support"
OPERATIONS, ARMY_SUPPORT, SUPPLY_STEP = "mutual/operations", "mutual/army_support", "mutual/supply"
REPLACEMENT = "player_turn/replacement"
TACTICAL, STRATEGIC = "player_turn/tactical_movement", "player_turn/strategic_movement"
CARPET_STEP, COMBAT = "player_turn/carpet_bombing", "player_turn/combat"
RESERVE_STEP, ENGINEERING = "player_turn/reserve_movement", "player_turn/engineering"
AIR_STEP, REGROUP_STEP = "player_turn/air_interdiction", "player_turn/regroup"

# NO-2: the flag a move sets, by the step it is made in, on the units carrying the marker
# named (None: any unit). Strategic movement is for the units that did not move tactically;
# after Reserve Movement, the Reserve units that moved attack.
MOVE_FLAGS: dict[str, tuple[str, str | None]] = {
    TACTICAL: (MOVED, None), RESERVE_STEP: (MOVED_IN_RESERVE, RESERVE)}
# NO-1: the roles whose HQs in an operation turn to their Operation side (the Allied only)
HQ_FLIPS = ("allied",)
OPERATION_SIDE = "operation"  # the status an HQ turned to its Operation side carries
# NO-2: the role whose roll in Carpet Bombing Resolution resolves the bombing (or the
# referee's, who may act for it); the other side's rolls there resolve nothing
CARPET_ROLLER = "allied"


def roles(state: MatchState) -> dict[str, str]:
    """The two roles (`allied`, `german`) and their sides, fixed for the match."""
    given = state.options.get("roles")
    return {str(k): str(v) for k, v in given.items()} if isinstance(given, dict) else {}


def control(state: MatchState) -> dict[str, str]:
    """Who controls each city hex: the scenario's start, then the `control.<hex>` tracks."""
    cities = state.options.get("cities")
    start = dict(cities) if isinstance(cities, dict) else {}
    return {hex_id: str(state.tracks.get(f"control.{hex_id}", side))
            for hex_id, side in start.items()}


def city_vp(turn: int, controlled: int) -> int:
    """NO-4: on every fourth Game-Turn one Allied VP per Allied-controlled city hex."""
    return controlled if turn % CITY_VP_EVERY == 0 else 0


def regroup_flips(unit: Unit, phasing: bool) -> tuple[dict[str, int], dict[str, int]]:
    """NO-2/NO-3 Disorganization/Regroup: the phasing side's Regroup markers come off; the
    other side's Disorganized markers flip to Regroup. The markers removed and placed."""
    if phasing:
        return ({REGROUP: unit.markers[REGROUP]} if unit.markers.get(REGROUP) else {}), {}
    count = unit.markers.get(DISORGANIZED, 0)
    return ({DISORGANIZED: count}, {REGROUP: count}) if count else ({}, {})


def on_map(state: MatchState, side: str | None = None) -> list[Unit]:
    return [u for u in state.in_play(side) if u.position is not None
            and u.position.hex is not None]


def supply_missing(state: MatchState) -> list[Unit]:
    """NO-1: units on the map whose supply is not determined this turn."""
    return [u for u in on_map(state) if not set(SUPPLY) & set(u.status)]


def full_steps(unit: Unit) -> int:
    """A unit's steps at full strength (`extra.full_steps`, else a two-sided counter)."""
    full = unit.extra.get("full_steps")
    return full if isinstance(full, int) and full > 0 else FULL_STEPS


def reserve_allowance(movement: int) -> int:
    """NO-2: how far a Reserve unit moves in Reserve Movement, 2/3 of its printed allowance,
    rounded down (ours: up to two thirds is never more than two thirds; shown, not enforced,
    as the service does not know the map's movement costs)."""
    share, of = RESERVE_SHARE
    return movement * share // of


def unit_info(state: MatchState, unit: Unit) -> dict[str, int | bool]:
    """Shown on the board: full strength, whether reduced, and the Reserve allowance of a
    unit that carries its printed movement allowance (`extra.movement`)."""
    if unit.steps is None:
        return {}
    info: dict[str, int | bool] = {"full_steps": full_steps(unit),
                                   "reduced": unit.steps < full_steps(unit)}
    movement = unit.extra.get("movement")
    if isinstance(movement, int):
        info["reserve_allowance"] = reserve_allowance(movement)
    return info


def hq_in_operation(state: MatchState, unit: Unit) -> bool:
    """NO-1: the unit's corps HQ was declared in an operation this Game-Turn (either side's:
    only the Allied HQs turn to an Operation side, `operation`)."""
    hq = state.units.get(str(unit.extra.get("corps", "")))
    return hq is not None and state.done(operation_fact(hq.id))


def carpet_targets(state: MatchState) -> list[str]:
    """NO-1/NO-2: the hexes of announced carpet bombings not yet resolved."""
    return sorted(h for h, markers in state.location_markers.items() if markers.get(CARPET))


# ---- what the service does as the marker arrives -------------------------------------------

def new_weather(state: MatchState, emit: Emit) -> None:
    """NO-1: this turn's weather is the one rolled last turn for `next`, revealed now."""
    coming = state.tracks.get("weather.next")
    if coming is not None and state.tracks.get("weather.now") != coming:
        emit(ev.TrackSet, name="weather.now", value=coming, rule="NO-1")


def new_operations(state: MatchState, emit: Emit) -> None:
    """NO-1: last turn's operations end; the Allied HQs turn back."""
    for unit in state.in_play():
        if OPERATION_SIDE in unit.status:
            emit(ev.UnitStatusChanged, unit_id=unit.id, cleared=(OPERATION_SIDE,), rule="NO-1")


def new_supply(state: MatchState, emit: Emit) -> None:
    """NO-1: a supply status lasts until the next Supply segment: as it begins, every status
    on the map is cleared and each side determines its units' supply again (ours: so that no
    status from an earlier turn stands in for this turn's determination)."""
    for unit in on_map(state):
        cleared = tuple(s for s in SUPPLY if s in unit.status)
        if cleared:
            emit(ev.UnitStatusChanged, unit_id=unit.id, cleared=cleared, rule="NO-1")


def regroup(state: MatchState, emit: Emit) -> None:
    """NO-2/NO-3: the phasing side's Regroup markers come off and the other side's
    Disorganized markers flip to Regroup ((ours): the non-phasing side may regroup, and doing
    so is always to its advantage, so the service does it for every unit). What marked units
    for this player-turn ends: the tactical-movement flags, and ((ours): the text says when the
    Reserve marker goes on, not when it comes off) the phasing side's Reserve markers."""
    phasing = state.turn.active_side
    for unit in state.in_play():
        removed, placed = regroup_flips(unit, unit.side == phasing)
        if unit.side == phasing and unit.markers.get(RESERVE):
            removed[RESERVE] = unit.markers[RESERVE]
        for kind, count in removed.items():
            emit(ev.MarkerRemoved, kind=kind, count=count, unit_id=unit.id, rule="NO-2")
        for kind, count in placed.items():
            emit(ev.MarkerPlaced, kind=kind, count=count, unit_id=unit.id, rule="NO-2")
        moved = tuple(flag for flag, _ in MOVE_FLAGS.values() if flag in unit.status)
        if moved:
            emit(ev.UnitStatusChanged, unit_id=unit.id, cleared=moved, rule="NO-2")


def victory_points(state: MatchState, emit: Emit) -> None:
    allied = roles(state)["allied"]
    cities = [h for h, side in control(state).items() if side == allied]
    points = city_vp(state.turn.turn, len(cities))
    if points:
        emit(ev.VictoryPointsScored, side=allied, points=points, rule="NO-4",
             reason=f"Game-Turn {state.turn.turn}: Allied-controlled cities "
                    f"{', '.join(sorted(cities))}")


# ---- what the service does after an action -------------------------------------------------

def react(state: MatchState, emit: Emit) -> None:
    """After an action, in the step it was taken in: a step regained with replacement points
    spends them (NO-2); a unit that moved is flagged as `MOVE_FLAGS` says (NO-2); the
    Allied roll of a carpet bombing resolves it and its marker comes off (NO-2)."""
    step = state.turn.step
    for event in list(emit.events):
        if isinstance(event, ev.StepGained) and step == REPLACEMENT:
            owner = emit.state.units[event.unit_id].side
            track = f"replacements.{owner}"
            left = int(emit.state.tracks.get(track, 0)) - REPLACEMENT_COST
            emit(ev.TrackSet, name=track, value=left, rule="NO-2")
        elif isinstance(event, ev.UnitMoved) and step in MOVE_FLAGS:
            flag, marker = MOVE_FLAGS[step]
            moved = emit.state.units[event.unit_id]
            if flag not in moved.status and (marker is None or moved.markers.get(marker)):
                emit(ev.UnitStatusChanged, unit_id=moved.id, set=(flag,), rule="NO-2")
        elif (isinstance(event, ev.DiceRolled) and step == CARPET_STEP
              and event.actor in ("referee", roles(state)[CARPET_ROLLER])):
            # (ours) the first Allied roll resolves the bombing; its effects are the players'
            # to enter
            for target in carpet_targets(emit.state):
                count = emit.state.location_markers[target][CARPET]
                emit(ev.MarkerRemoved, kind=CARPET, count=count, location=target, rule="NO-2")
