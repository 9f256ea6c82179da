"""`normandy`: Normandy operational (RULES.md NO-1 to NO-5), Allied against German on a hex
map (option `roles`: {"allied": side, "german": side}).

A Game-Turn: the mutual segments (NO-1), then the two player-turns (NO-2 Allied, NO-3
German; a German operation puts the German one first for that turn, NO-5), then the end of
the turn (NO-4). Units stand on hexes (`1405`) or in off-board boxes and have `steps`
(2 full, 1 reduced). A unit's corps HQ is the unit named by its `extra.corps`.

Scenario options: `turns` (the last Game-Turn) and `cities` ({hex: side controlling it at
the start}); control changes with the track `control.<hex>`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit
from domain.context import unit as unit_in_play
from domain.errors import InvalidAction, NotYourTurn
from domain.rulesets.base import Ruleset, end_by_points, number_option, roles_option, roll
from domain.sequence import Phase, SequenceOfPlay, Step
from domain.state import MatchState, Unit

SUPPLY = ("in_supply", "out_of_supply", "isolated")
RESERVE, DISORGANIZED, REGROUP = "reserve", "disorganized", "regroup"
CITY_VP_EVERY = 4  # NO-4: every fourth Game-Turn, one Allied VP per Allied-controlled city
WEATHER = ("clear", "overcast", "rain", "storm")
SEA = ("calm", "moderate", "rough", "storm")

PLAYER_TURN = (
    Step(id="replacement", title="Replacement", rule="NO-2", acting="active",
         allows=("set_track", "roll_dice", "deploy_unit")),
    Step(id="interdiction_effects", title="Air Interdiction Determination", rule="NO-3",
         acting="active", only="german", allows=("roll_dice",)),
    Step(id="tactical_movement", title="Tactical Movement", rule="NO-2", acting="active",
         allows=("move_unit", "place_marker", "remove_marker", "set_track")),
    Step(id="strategic_movement", title="Strategic Movement", rule="NO-2", acting="active",
         optional=True, allows=("move_unit",)),
    Step(id="carpet_bombing", title="Carpet Bombing", rule="NO-2", acting="active",
         only="allied", optional=True,
         allows=("roll_dice", "place_marker", "remove_marker", "lose_step")),
    Step(id="combat", title="Combat", rule="NO-2", advanced_by="active",
         allows=("resolve_combat", "enter_result", "lose_step", "move_unit", "place_marker",
                 "remove_marker", "set_track")),
    Step(id="reserve_movement", title="Reserve Movement and combat", rule="NO-2",
         advanced_by="active", optional=True,
         allows=("move_unit", "remove_marker", "resolve_combat", "enter_result", "lose_step",
                 "place_marker")),
    Step(id="engineering", title="Engineering", rule="NO-2", acting="active", optional=True,
         allows=("place_marker", "remove_marker", "roll_dice")),
    Step(id="air_interdiction", title="Air Interdiction", rule="NO-2", acting="active",
         only="allied", optional=True, allows=("place_marker", "remove_marker")),
    Step(id="regroup", title="Disorganization/Regroup", rule="NO-2"),
)

SEQUENCE = SequenceOfPlay(phases=(
    Phase(id="mutual", title="Mutual segments", rule="NO-1", children=(
        Step(id="weather", title="Weather", rule="NO-1", acting="allied",
             allows=("set_track", "roll_dice")),
        Step(id="allied_air", title="Allied Air", rule="NO-1", acting="allied",
             allows=("set_track", "roll_dice")),
        Step(id="support", title="Corps and Artillery Support", rule="NO-1",
             allows=("set_track", "roll_dice", "place_marker", "remove_marker")),
        Step(id="operations", title="Operation Determination", rule="NO-1",
             allows=("declare_operation",), leave_when="operations_declared"),
        Step(id="army_support", title="Army Support", rule="NO-1", allows=("set_track",)),
        Step(id="supply", title="Supply", rule="NO-1", allows=("set_supply",),
             leave_when="supply_set"),
    )),
    Phase(id="player_turn", title="Player-Turn", rule="NO-2", player_turns=True,
          children=PLAYER_TURN),
    Phase(id="end", title="End of turn", rule="NO-4", children=(
        Step(id="victory_points", title="Victory Points", rule="NO-4",
             allows=("score_vp", "roll_dice")),
    )),
))

WHERE = {
    "set_supply": ("NO-1", "supply is set only in the Supply segment, held until the next"),
    "declare_operation": ("NO-1", "operations are declared in Operation Determination"),
    "resolve_combat": ("NO-2", "attacks are resolved in the Combat segment"),
}


# ---- what the rules compute ---------------------------------------------------------------

def _roles(state: MatchState) -> dict[str, str]:
    roles = state.options.get("roles")
    return dict(roles) if isinstance(roles, dict) else {}


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


def supply_missing(state: MatchState) -> list[Unit]:
    """NO-1: units on the map without a supply status."""
    return [u for u in state.in_play() if u.position is not None and u.position.hex is not None
            and not set(SUPPLY) & set(u.status)]


def _hq_in_operation(state: MatchState, unit: Unit) -> bool:
    hq = state.units.get(str(unit.extra.get("corps", "")))
    return hq is not None and "operation" in hq.status


# ---- procedures ---------------------------------------------------------------------------

def _declare(command: cmd.DeclareOperation, state: MatchState, emit: Emit) -> None:
    roles = _roles(state)
    actor = emit.context.actor
    if actor not in roles.values():
        raise NotYourTurn("NO-1: each side declares its own operations", rule="NO-1",
                          allowed=list(roles.values()))
    if state.done(f"operations:{actor}"):
        raise InvalidAction("NO-1: your operations are declared for this turn", rule="NO-1")
    if actor == roles["german"] and not state.done(f"operations:{roles['allied']}"):
        raise InvalidAction("NO-1: the Allied player declares first", rule="NO-1",
                            allowed=[roles["allied"]])
    if command.first and actor != roles["german"]:
        raise InvalidAction("NO-5: only a German operation changes the player-turn order",
                            rule="NO-5")
    if command.first and not command.hqs:
        raise InvalidAction("NO-5: the German player-turn comes first only with an operation "
                            "(name its HQs)", rule="NO-5")
    if command.carpet_bombing is not None and actor != roles["allied"]:
        raise InvalidAction("NO-1: carpet bombing is announced by the Allied player",
                            rule="NO-1")
    for hq_id in command.hqs:
        hq = unit_in_play(state, hq_id)
        if hq.side != actor or hq.kind != "hq":
            raise InvalidAction(f"NO-1: '{hq_id}' is not one of your HQs", rule="NO-1")
    order = (roles["german"], roles["allied"]) if command.first else state.turn.initiative
    emit(ev.OperationDeclared, side=actor, hqs=tuple(command.hqs), order=order,
         carpet_bombing=command.carpet_bombing, rule="NO-5" if command.first else "NO-1")
    for hq_id in command.hqs:
        emit(ev.UnitStatusChanged, unit_id=hq_id, set=("operation",), rule="NO-1")


def _supply(command: cmd.SetSupply, state: MatchState, emit: Emit) -> None:
    units = [unit_in_play(state, unit_id) for unit_id in dict.fromkeys(command.unit_ids)]
    actor = emit.context.actor
    for unit in units:
        if actor not in ("referee", unit.side):
            raise NotYourTurn(f"NO-1: '{unit.id}' is not yours", rule="NO-1")
    for unit in units:
        cleared = tuple(s for s in SUPPLY if s in unit.status and s != command.status)
        if command.status not in unit.status or cleared:
            emit(ev.UnitStatusChanged, unit_id=unit.id, set=(command.status,), cleared=cleared,
                 rule="NO-1")


def _combat(command: cmd.ResolveCombat, state: MatchState, emit: Emit) -> None:
    side = state.turn.active_side
    if emit.context.actor not in ("referee", side):
        raise NotYourTurn(f"NO-2: the phasing player ({side}) attacks", rule="NO-2")
    attackers = [unit_in_play(state, u) for u in dict.fromkeys(command.attackers)]
    defenders = [unit_in_play(state, u) for u in dict.fromkeys(command.defenders)]
    if any(u.side != side for u in attackers) or any(u.side == side for u in defenders):
        raise InvalidAction("NO-2: attackers are the phasing side's units, defenders the "
                            "enemy's", rule="NO-2")
    if state.turn.step.endswith("reserve_movement") and any(
            not u.markers.get(RESERVE) for u in attackers):
        raise InvalidAction("NO-2: after Reserve Movement only units that moved from reserve "
                            "attack", rule="NO-2")
    modifier = sum(command.modifiers.values())
    where = ", ".join(sorted({u.position.label() for u in defenders if u.position}))
    what = f"NO-2 combat at {where or '?'}: {command.odds}, modifiers {modifier:+d}"
    emit(ev.CombatDeclared, attackers=tuple(u.id for u in attackers),
         defenders=tuple(u.id for u in defenders), odds=command.odds,
         modifiers=dict(command.modifiers), rule="NO-2")
    roll(command, "2d6", emit, what, "NO-2", tuple(u.id for u in (*attackers, *defenders)),
         modifier, awaits=what)


def _check(command: cmd.Command, state: MatchState, actor: str) -> None:
    step = state.turn.step
    if isinstance(command, cmd.SetTrack):
        _check_air(command, state)
    if isinstance(command, cmd.PlaceMarker) and command.kind == RESERVE and command.unit_id:
        unit = unit_in_play(state, command.unit_id)
        if not _hq_in_operation(state, unit):
            raise InvalidAction(f"NO-2: Reserve markers go only on units of a corps in an "
                                f"Operation ('{unit.id}''s corps HQ is not)", rule="NO-2")
    if isinstance(command, cmd.MoveUnit):
        unit = unit_in_play(state, command.unit_id)
        if step == "player_turn/strategic_movement" and unit.markers.get(RESERVE):
            raise InvalidAction(f"NO-2: '{unit.id}' is in Reserve and cannot move "
                                "strategically", rule="NO-2")
        if step == "player_turn/reserve_movement" and not unit.markers.get(RESERVE) and (
                unit.side == state.turn.active_side):
            raise InvalidAction(f"NO-2: only Reserve units move now; '{unit.id}' has no Reserve "
                                "marker", rule="NO-2")


def _check_air(command: cmd.SetTrack, state: MatchState) -> None:
    if command.name not in ("air.interdiction", "air.ground_support") or not isinstance(
            command.value, int):
        return  # the track's own check refuses a value that is not a number
    other = "air.ground_support" if command.name == "air.interdiction" else "air.interdiction"
    received = int(state.tracks.get("air.received", 0))
    split = command.value + int(state.tracks.get(other, 0))
    if split > received:
        raise InvalidAction(f"NO-1: the Air Points split ({split}) exceeds those received "
                            f"({received}); set air.received first", rule="NO-1")


def _new_weather(state: MatchState, emit: Emit) -> None:
    """NO-1: this turn's weather and sea are the ones rolled last turn for `next`."""
    for track in ("weather", "sea"):
        coming = state.tracks.get(f"{track}.next")
        if coming is not None and state.tracks.get(f"{track}.now") != coming:
            emit(ev.TrackSet, name=f"{track}.now", value=coming, rule="NO-1")


def _new_operations(state: MatchState, emit: Emit) -> None:
    """NO-1: last turn's operations end; HQs flip back."""
    for unit in state.in_play():
        if "operation" in unit.status:
            emit(ev.UnitStatusChanged, unit_id=unit.id, cleared=("operation",), rule="NO-1")


def _regroup(state: MatchState, emit: Emit) -> None:
    phasing = state.turn.active_side
    for unit in state.in_play():
        removed, placed = regroup_flips(unit, unit.side == phasing)
        for kind, count in removed.items():
            emit(ev.MarkerRemoved, kind=kind, count=count, unit_id=unit.id, rule="NO-2")
        for kind, count in placed.items():
            emit(ev.MarkerPlaced, kind=kind, count=count, unit_id=unit.id, rule="NO-2")


def _victory_points(state: MatchState, emit: Emit) -> None:
    allied = _roles(state)["allied"]
    cities = [h for h, side in control(state).items() if side == allied]
    points = city_vp(state.turn.turn, len(cities))
    if points:
        emit(ev.VictoryPointsScored, side=allied, points=points, rule="NO-4",
             reason=f"Game-Turn {state.turn.turn}: Allied-controlled cities "
                    f"{', '.join(sorted(cities))}")


def _expects(state: MatchState) -> list[str]:
    step = state.turn.step
    roles = _roles(state)
    side = state.turn.active_side
    if state.awaiting is not None:
        return [f"{state.awaiting.by} to enter the result of {state.awaiting.what}"]
    if step == "mutual/operations":
        waiting = [s for s in (roles["allied"], roles["german"])
                   if not state.done(f"operations:{s}")]
        return ([f"operations to declare (Allied first): {', '.join(waiting)}"] if waiting
                else ["operations declared: advance"])
    if step == "mutual/supply":
        missing = supply_missing(state)
        return ([f"units without a supply status: {', '.join(u.id for u in missing)}"]
                if missing else ["every unit's supply is set: advance"])
    hints = {
        "mutual/weather": f"{roles['allied']} rolls next turn's weather and the sea conditions",
        "mutual/allied_air": "Air Points received, split between interdiction and ground "
                             "support",
        "mutual/support": "corps and artillery support levels",
        "mutual/army_support": "support points into each army's reserve",
        "player_turn/combat": f"{side} resolves its attacks, then advances",
        "player_turn/regroup": "Regroup markers flipped by the service: advance",
        "end/victory_points": "both sides record victory points; the German player declares "
                              "any Withdrawal",
    }
    return [hints.get(step, f"{side}: {step.split('/')[-1].replace('_', ' ')}, then advance")]


def _options(options: Mapping[str, Any]) -> tuple[dict[str, str], int | None]:
    roles = roles_option(options, ("allied", "german"), "NO-1")
    turns = number_option(options, "turns", 1, 200, "a number of Game-Turns")
    cities = options.get("cities", {})
    if not isinstance(cities, dict) or not set(cities.values()) <= set(roles.values()):
        raise InvalidAction("option 'cities' maps city hexes to the side controlling them",
                            rule="NO-4")
    return dict(roles), turns


def normandy(options: Mapping[str, Any]) -> Ruleset:
    roles, turns = _options(options)
    sides = (roles["allied"], roles["german"])
    points = range(1000)
    return Ruleset(
        id="normandy", version=1, title="Normandy", sequence=SEQUENCE,
        conditions={
            "operations_declared": lambda s: all(s.done(f"operations:{x}") for x in sides),
            "supply_set": lambda s: not supply_missing(s),
        },
        checks=(_check,),
        actions={"declare_operation": _declare, "set_supply": _supply,
                 "resolve_combat": _combat},
        on_enter={"mutual/weather": _new_weather, "mutual/operations": _new_operations,
                  "player_turn/regroup": _regroup, "end/victory_points": _victory_points},
        end_of_turn=end_by_points(turns, "Game-Turn", "NO-4"),
        expects=_expects,
        where=WHERE,
        tracks={"weather.now": WEATHER, "weather.next": WEATHER, "sea.now": SEA,
                "sea.next": SEA, "air.received": points, "air.interdiction": points,
                "air.ground_support": points, "support.*": points, "replacements.*": points,
                "control.*": sides},
        turn_order=sides,
    )
