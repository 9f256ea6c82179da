"""`normandy`: Normandy operational (rules NO-1 to NO-5), Allied against German on a hex
map (option `roles`: {"allied": side, "german": side}).

A Game-Turn: the mutual segments (NO-1), then the two player-turns (NO-2 Allied, NO-3
German; a German operation puts the German one first for that turn, NO-5), then the end of
the turn (NO-4). Units stand on hexes (`1405`) or in off-board boxes and have `steps`
(2 full, 1 reduced, unless `extra.full_steps` says otherwise). A unit's corps HQ is the unit
named by its `extra.corps`; its printed movement allowance is `extra.movement`.

Scenario options: `turns` (the last Game-Turn), `cities` ({hex: side controlling it at the
start}; control changes with the track `control.<hex>`) and `boundaries` (the inter-army
boundary lines the map allows, the values of the tracks `boundary.<side>`).

Every step names who moves the marker on: the steps both sides act in are `shared` (each side
says it is done), the others have their side. What the rules compute, and what the service
does itself, is in `normandy_rules`; the procedures and checks in `normandy_procedures`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import InvalidAction
from domain.rulesets import normandy_duties as duties
from domain.rulesets import normandy_procedures as procedures
from domain.rulesets import normandy_rules as rules
from domain.rulesets.base import (
    Ruleset,
    Sides,
    TrackValues,
    end_by_points,
    number_option,
    roles_option,
)
from domain.sequence import Phase, SequenceOfPlay, Step
from domain.state import MatchState, Unit

# (ours) The values of the Weather and Sea Condition display, which the text names but does
# not list: four of each, from best to worst, for the players to read off their own table.
WEATHER = ("clear", "overcast", "rain", "storm")
SEA = ("calm", "moderate", "rough", "storm")
MARKERS = ("place_marker", "remove_marker")
RESULTS = ("resolve_combat", "enter_result", "lose_step", "move_unit", *MARKERS)

PLAYER_TURN = (
    # (ours) deploy_unit here for a unit brought back from nothing; the text has no
    # reinforcement segment (units in a box come on with move_unit during movement)
    Step(id="replacement", title="Replacement", rule="NO-2", acting="active",
         allows=("set_track", "gain_step", "roll_dice", "deploy_unit")),
    # (ours) the Allied player records the effects as rolls and markers; applying them to
    # German movement is the players' part
    Step(id="interdiction_effects", title="Air Interdiction Determination", rule="NO-3",
         acting="allied", only="german", allows=("roll_dice", *MARKERS)),
    Step(id="tactical_movement", title="Tactical Movement", rule="NO-2", acting="active",
         allows=("move_unit", "set_track", *MARKERS)),
    Step(id="strategic_movement", title="Strategic Movement", rule="NO-2", acting="active",
         optional=True, allows=("move_unit", "set_track")),
    # Both sides act (the German player takes the losses); the Allied player moves on, and
    # only once an announced bombing is resolved.
    Step(id="carpet_bombing", title="Carpet Bombing Resolution", rule="NO-2",
         advanced_by="allied", only="allied", optional=True, leave_when="carpet_resolved",
         allows=("roll_dice", "lose_step", "set_track", *MARKERS), owes=(duties.CARPET,)),
    Step(id="combat", title="Combat", rule="NO-2", advanced_by="active",
         allows=(*RESULTS, "set_track"), owes=(duties.ATTACK,)),
    Step(id="reserve_movement", title="Reserve Movement and combat", rule="NO-2",
         advanced_by="active", optional=True, allows=(*RESULTS, "set_track"),
         owes=(duties.RESERVE_ATTACK,)),
    Step(id="engineering", title="Engineering", rule="NO-2", acting="active", optional=True,
         allows=("roll_dice", *MARKERS)),
    Step(id="air_interdiction", title="Air Interdiction", rule="NO-2", acting="active",
         only="allied", optional=True, allows=("set_track", *MARKERS)),
    # The service flips the markers as the phase begins; (ours) the phase is shared so that
    # both sides see the flips before the marker moves on.
    Step(id="regroup", title="Disorganization/Regroup", rule="NO-2", shared=True, allows=()),
)

SEQUENCE = SequenceOfPlay(phases=(
    Phase(id="mutual", title="Mutual segments", rule="NO-1", children=(
        Step(id="weather", title="Weather", rule="NO-1", acting="allied",
             allows=("set_track", "roll_dice"), owes=(duties.WEATHER, duties.SEA)),
        Step(id="allied_air", title="Allied Air", rule="NO-1", acting="allied",
             allows=("set_track", "roll_dice")),
        Step(id="support", title="Corps and Artillery Support", rule="NO-1", shared=True,
             allows=("set_track", "roll_dice", "gain_step", *MARKERS)),
        Step(id="operations", title="Operation Determination", rule="NO-1", shared=True,
             allows=("declare_operation",), leave_when="operations_declared",
             owes=(duties.OPERATIONS,)),
        Step(id="army_support", title="Army Support", rule="NO-1", shared=True,
             allows=("set_track", "roll_dice")),
        Step(id="supply", title="Supply", rule="NO-1", shared=True, allows=("set_supply",),
             leave_when="supply_set", owes=(duties.SUPPLY_DUTY,)),
    )),
    Phase(id="player_turn", title="Player-Turn", rule="NO-2", player_turns=True,
          children=PLAYER_TURN),
    # (ours) the Game-Turn marker moves on with the last advance of the Victory Point segment:
    # nothing is entered in a segment of its own
    Phase(id="end", title="End of turn", rule="NO-4", children=(
        Step(id="victory_points", title="Victory Points", rule="NO-4", shared=True,
             allows=("score_vp", "roll_dice")),
    )),
))

WHERE = {
    "set_supply": ("NO-1", "supply is determined in the Supply segment of every Game-Turn"),
    "declare_operation": ("NO-1", "operations are declared in Operation Determination"),
    "resolve_combat": ("NO-2", "attacks are resolved in the Combat segment"),
    "gain_step": ("NO-2", "steps come back in the Replacement phase (reduced artillery in "
                          + "Corps and Artillery Support)"),
}


def _expects(state: MatchState) -> list[str]:
    step = state.turn.step
    sides = rules.roles(state)
    side = state.turn.active_side
    if state.awaiting is not None:
        return [f"{state.awaiting.by} to enter the result of {state.awaiting.what}"]
    if step == rules.OPERATIONS:
        waiting = [s for s in (sides["allied"], sides["german"])
                   if not state.done(f"operations:{s}")]
        return ([f"operations to declare (Allied first): {', '.join(waiting)}"] if waiting
                else ["operations declared: each side goes on"])
    if step == rules.SUPPLY_STEP:
        missing = rules.supply_missing(state)
        return (["units whose supply is not determined this turn: "
                 + ", ".join(u.id for u in missing)] if missing
                else ["every unit's supply is determined: each side goes on"])
    if step == rules.CARPET_STEP:
        targets = rules.carpet_targets(state)
        return ([f"{sides['allied']} resolves the carpet bombing at {', '.join(targets)} "
                 + "; it cannot be skipped"] if targets
                else [f"no carpet bombing to resolve: {sides['allied']} goes on"])
    if step == rules.RESERVE_STEP:
        allowances = [f"{u.id} {rules.unit_info(state, u).get('reserve_allowance', '?')}"
                      for u in rules.on_map(state, side) if u.markers.get(rules.RESERVE)]
        return [f"{side}: Reserve units move up to 2/3 of their allowance "
                + f"({', '.join(allowances) or 'none in reserve'}) and attack, then go on"]
    german = sides["german"]
    hints = {
        rules.WEATHER_STEP: f"{sides['allied']} reveals this turn's weather, rolls next turn's "
                            "and this turn's sea conditions",
        rules.ALLIED_AIR: "Air Points received, split between interdiction and ground "
                             "support",
        rules.SUPPORT_STEP: "support levels and points for each corps; reduced "
                            "artillery re-supplied; each side goes on when done",
        rules.ARMY_SUPPORT: "support points into each army's reserve "
                               "(a support track for each army); each side goes on when done",
        rules.REPLACEMENT: f"{side}: replacement points, reduced units "
                           f"rebuilt ({rules.REPLACEMENT_COST} point a step), the "
                           f"inter-army boundary, then go on",
        "player_turn/interdiction_effects": f"{sides['allied']} determines the effects of air "
                                            "interdiction on German movement, then goes on",
        rules.STRATEGIC: f"{side}: the units that did not move tactically and carry no Reserve "
                         "marker move strategically, then go on",
        rules.COMBAT: f"{side} resolves its attacks, then goes on",
        rules.ENGINEERING: f"{side}: construction, improved positions and bridges"
                           + (", entrenchments" if side == german else "") + ", then go on",
        rules.REGROUP_STEP: "Regroup markers flipped by the service: each side goes on",
        "end/victory_points": "both sides record victory points; the German player declares "
                              "any Withdrawal; each side goes on",
    }
    return [hints.get(step, f"{side}: {step.split('/')[-1].replace('_', ' ')}, then go on")]


def _fits(options: Mapping[str, Any], units: tuple[Unit, ...]) -> None:
    """A scenario starts no unit on an Operation side but an Allied HQ's (NO-1)."""
    for unit in units:
        if rules.OPERATION_SIDE in unit.status:
            procedures.check_operation_side(unit.side, unit.kind, dict(options["roles"]))


def _options(options: Mapping[str, Any]) -> tuple[dict[str, str], int | None, tuple[str, ...]]:
    roles = roles_option(options, ("allied", "german"), "NO-1")
    turns = number_option(options, "turns", 1, 200, "a number of Game-Turns")
    cities = options.get("cities", {})
    if not isinstance(cities, dict) or not set(cities.values()) <= set(roles.values()):
        raise InvalidAction("option 'cities' maps city hexes to the side controlling them",
                            rule="NO-4")
    boundaries = options.get("boundaries", [])
    if not isinstance(boundaries, list):
        raise InvalidAction("option 'boundaries' lists the inter-army boundary lines",
                            rule="NO-2")
    return dict(roles), turns, tuple(str(b) for b in boundaries)


def normandy(options: Mapping[str, Any]) -> Ruleset:
    roles, turns, boundaries = _options(options)
    sides = (roles["allied"], roles["german"])
    points = range(1000)
    tracks: dict[str, TrackValues] = {
        "weather.now": WEATHER, "weather.next": WEATHER, "sea.now": SEA,
        "air.received": points, "air.interdiction": points, "air.ground_support": points,
        "control.*": sides}
    # (ours) support tracks carry their side, so that each side sets only its own; both sides
    # may move their inter-army boundary, each in its own Replacement phase
    for side in sides:
        tracks |= {f"support.{side}.*": points, f"replacements.{side}": points,
                   f"boundary.{side}": boundaries}
    titles = {"weather.now": "Weather", "weather.next": "Next turn's weather",
              "sea.now": "Sea state", "air.received": "Air points received",
              "air.interdiction": "Air points for interdiction",
              "air.ground_support": "Air points for ground support",
              "control.*": "Control of {}"}
    for role, side in roles.items():  # (the side ids are the scenario's: said by role)
        said = role.capitalize()
        titles |= {f"support.{side}.*": f"{said} support: {{}}",
                   f"replacements.{side}": f"{said} replacements",
                   f"boundary.{side}": f"{said} inter-army boundary"}
    return Ruleset(
        id="normandy", version=1, title="Normandy", sequence=SEQUENCE,
        conditions={
            "operations_declared": lambda s: all(s.done(f"operations:{x}") for x in sides),
            "supply_set": lambda s: not rules.supply_missing(s),
            "carpet_resolved": lambda s: not rules.carpet_targets(s),
        },
        unit_tests=duties.UNIT_TESTS,
        side_tests=duties.SIDE_TESTS,
        checks=(procedures.check,),
        fits=_fits,
        actions={"declare_operation": procedures.declare, "set_supply": procedures.set_supply,
                 "resolve_combat": procedures.resolve_combat},
        on_enter={rules.WEATHER_STEP: rules.new_weather, rules.OPERATIONS: rules.new_operations,
                  rules.SUPPLY_STEP: rules.new_supply, rules.REGROUP_STEP: rules.regroup,
                  "end/victory_points": rules.victory_points},
        end_of_turn=end_by_points(turns, "Game-Turn", "NO-4"),
        expects=_expects,
        where=WHERE,
        unit_info=rules.unit_info,
        react=rules.react,
        tracks=tracks,
        track_titles=titles,
        turn_order=sides,
        sides=Sides(2, 2, "NO-1"),  # the Allied and the German player
    )
