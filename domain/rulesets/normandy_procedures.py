"""`normandy`: the players' procedures the ruleset decides itself (operations, supply,
combat) and the checks it adds to every action (NO-1 to NO-5)."""

from __future__ import annotations

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit
from domain.context import unit as unit_in_play
from domain.errors import InvalidAction, NotYourTurn
from domain.rulesets.base import roll
from domain.rulesets.normandy_duties import hex_of as _hex
from domain.rulesets.normandy_duties import neighbours
from domain.rulesets.normandy_rules import (
    AIR_STEP,
    ALLIED_AIR,
    ARMY_SUPPORT,
    ARTILLERY,
    CARPET,
    CARPET_STEP,
    COMBAT,
    ENGINEERING,
    ENTRENCHMENT,
    HQ_FLIPS,
    MOVED,
    MOVED_IN_RESERVE,
    OPERATION_SIDE,
    OPERATIONS,
    REPLACEMENT,
    REPLACEMENT_COST,
    RESERVE,
    RESERVE_STEP,
    STRATEGIC,
    SUPPLY,
    SUPPLY_STEP,
    SUPPORT_STEP,
    TACTICAL,
    WEATHER_STEP,
    carpet_targets,
    full_steps,
    hq_in_operation,
    roles,
    supply_missing,
)
from domain.state import MatchState

MOVEMENT = (TACTICAL, STRATEGIC, CARPET_STEP, COMBAT, RESERVE_STEP)
# A track's first part: the steps it is set in, its rule, and where it belongs in words.
TRACK_STEPS: dict[str, tuple[tuple[str, ...], str, str]] = {
    "weather": ((WEATHER_STEP,), "NO-1", "the weather is set in the Weather segment"),
    "sea": ((WEATHER_STEP,), "NO-1", "the sea conditions are set in the Weather segment"),
    "air": ((ALLIED_AIR, AIR_STEP), "NO-1", "Air Points are set in Allied Air and Air Interdiction"),
    "support": ((SUPPORT_STEP, ARMY_SUPPORT), "NO-1", "support is set in the two support segments"),
    "replacements": ((REPLACEMENT,), "NO-2", "replacements are set in the Replacement phase"),
    "boundary": ((REPLACEMENT,), "NO-2", "the boundary changes in the Replacement phase"),
    "control": (MOVEMENT, "NO-4", "city control changes as units move and fight"),
}


# ---- procedures ---------------------------------------------------------------------------

def declare(command: cmd.DeclareOperation, state: MatchState, emit: Emit) -> None:
    sides = roles(state)
    actor = emit.context.actor
    if actor not in sides.values():
        raise NotYourTurn("NO-1: each side declares its own operations", rule="NO-1",
                          allowed=list(sides.values()))
    if state.done(f"operations:{actor}"):
        raise InvalidAction("NO-1: your operations are declared for this turn", rule="NO-1")
    if actor == sides["german"] and not state.done(f"operations:{sides['allied']}"):
        raise InvalidAction("NO-1: the Allied player declares first", rule="NO-1",
                            allowed=[sides["allied"]])
    if command.first and actor != sides["german"]:
        raise InvalidAction("NO-5: only a German operation changes the player-turn order",
                            rule="NO-5")
    if command.first and not command.hqs:
        raise InvalidAction("NO-5: the German player-turn comes first only with an operation "
                            "(name its HQs)", rule="NO-5")
    # (ours) one target hex, and only with an Allied operation: its resolution segment is the
    # Allied operation's
    if command.carpet_bombing is not None and (actor != sides["allied"] or not command.hqs):
        raise InvalidAction("NO-1: carpet bombing is announced by the Allied player with an "
                            "operation (name its HQs)", rule="NO-1")
    for hq_id in command.hqs:
        hq = unit_in_play(state, hq_id)
        if hq.side != actor or hq.kind != "hq":
            raise InvalidAction(f"NO-1: '{hq_id}' is not one of your HQs", rule="NO-1")
    order = (sides["german"], sides["allied"]) if command.first else state.turn.initiative
    emit(ev.OperationDeclared, side=actor, hqs=tuple(command.hqs), order=order,
         carpet_bombing=command.carpet_bombing, rule="NO-5" if command.first else "NO-1")
    if actor in (sides[role] for role in HQ_FLIPS):  # turned to its Operation side
        for hq_id in command.hqs:
            emit(ev.UnitStatusChanged, unit_id=hq_id, set=(OPERATION_SIDE,), rule="NO-1")
    if command.carpet_bombing is not None:  # the air units go on the target hex
        emit(ev.MarkerPlaced, kind=CARPET, count=1, location=command.carpet_bombing,
             rule="NO-1")


def set_supply(command: cmd.SetSupply, state: MatchState, emit: Emit) -> None:
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


def resolve_combat(command: cmd.ResolveCombat, state: MatchState, emit: Emit) -> None:
    side = state.turn.active_side
    if emit.context.actor not in ("referee", side):
        raise NotYourTurn(f"NO-2: the phasing player ({side}) attacks", rule="NO-2")
    attackers = [unit_in_play(state, u) for u in dict.fromkeys(command.attackers)]
    defenders = [unit_in_play(state, u) for u in dict.fromkeys(command.defenders)]
    if any(u.side != side for u in attackers) or any(u.side == side for u in defenders):
        raise InvalidAction("NO-2: attackers are the phasing side's units, defenders the "
                            "enemy's", rule="NO-2")
    idle = [u.id for u in attackers
            if not (u.markers.get(RESERVE) and MOVED_IN_RESERVE in u.status)]
    if state.turn.step == RESERVE_STEP and idle:
        raise InvalidAction(f"NO-2: after Reserve Movement only the Reserve units that moved "
                            f"in it attack; not {', '.join(idle)}", rule="NO-2")
    apart = [u.name or u.id for u in defenders if not any(
        _hex(u) is not None and _hex(u) in neighbours(_hex(a) or "") for a in attackers)]
    if apart:
        raise InvalidAction(f"NO-2: an attack is made on enemy units next to the attackers, on "
                            f"the map; not next to any of them: {', '.join(apart)}", rule="NO-2")
    modifier = sum(command.modifiers.values())
    where = ", ".join(sorted({u.position.label() for u in defenders if u.position}))
    what = f"NO-2 combat at {where or '?'}: {command.odds}, modifiers {modifier:+d}"
    emit(ev.CombatDeclared, attackers=tuple(u.id for u in attackers),
         defenders=tuple(u.id for u in defenders), odds=command.odds,
         modifiers=dict(command.modifiers), rule="NO-2")
    roll(command, "2d6", emit, what, "NO-2", tuple(u.id for u in (*attackers, *defenders)),
         modifier, awaits=what)


# ---- checks -------------------------------------------------------------------------------

def check(command: cmd.Command, state: MatchState, actor: str) -> None:
    if isinstance(command, cmd.Advance):
        _check_done(state, actor)
    elif isinstance(command, cmd.SetTrack):
        _check_track(command, state)
    elif isinstance(command, cmd.GainStep):
        _check_gain(command, state)
    elif isinstance(command, cmd.MoveUnit):
        _check_move(command, state)
    elif isinstance(command, cmd.PlaceMarker):
        _check_marker(command, state)
    elif isinstance(command, cmd.DeployUnit) and OPERATION_SIDE in command.unit.status:
        check_operation_side(command.unit.side, command.unit.kind, roles(state))
    elif isinstance(command, cmd.RollDice) and state.turn.step == CARPET_STEP and (
            not carpet_targets(state)):
        raise InvalidAction("NO-2: no carpet bombing is waiting to be resolved (it is announced "
                            "in Operation Determination)", rule="NO-2")


def check_operation_side(side: str, kind: str, sides: dict[str, str]) -> None:
    """NO-1: only an HQ of a role whose HQs flip (the Allied) shows its Operation side
    (`operation`), whether a player deploys a unit with it or a scenario starts one so (no
    step of the game allows set_status)."""
    if kind != "hq" or side not in (sides.get(role) for role in HQ_FLIPS):
        raise InvalidAction("NO-1: only an Allied HQ turns to its Operation side "
                            f"('{OPERATION_SIDE}')", rule="NO-1")


def _check_done(state: MatchState, actor: str) -> None:
    """NO-1: in Operation Determination and Supply a side says it is done only once its own
    part is entered (it could not enter it afterwards)."""
    step = state.turn.step
    if step == OPERATIONS and actor in state.side_ids() and not state.done(
            f"operations:{actor}"):
        raise InvalidAction("NO-1: declare your operations first (an empty declaration says "
                            "none)", rule="NO-1", allowed=["declare_operation"])
    missing = [u.id for u in supply_missing(state) if u.side == actor]
    if step == SUPPLY_STEP and missing:
        raise InvalidAction(f"NO-1: determine the supply of {', '.join(missing)} first",
                            rule="NO-1", allowed=["set_supply"])


def _check_track(command: cmd.SetTrack, state: MatchState) -> None:
    kind = command.name.split(".")[0]
    steps, rule, where = TRACK_STEPS.get(kind, ((state.turn.step,), "", ""))
    if state.turn.step not in steps:
        raise InvalidAction(f"{rule}: {where}", rule=rule)
    if kind == "boundary" and not state.options.get("boundaries"):
        raise InvalidAction("NO-2: the scenario names no inter-army boundary lines (option "
                            "'boundaries')", rule="NO-2")
    if command.name in ("air.interdiction", "air.ground_support") and isinstance(
            command.value, int):  # the track's own check refuses a value that is not a number
        other = "air.ground_support" if command.name == "air.interdiction" else "air.interdiction"
        received = int(state.tracks.get("air.received", 0))
        split = command.value + int(state.tracks.get(other, 0))
        if split > received:
            raise InvalidAction(f"NO-1: the Air Points split ({split}) exceeds those received "
                                f"({received}); set air.received first", rule="NO-1")


def _check_gain(command: cmd.GainStep, state: MatchState) -> None:
    """NO-1: reduced artillery re-supplied in the Corps and Artillery Support segment; NO-2:
    reduced units of the phasing side rebuilt with replacement points. Never above full."""
    unit = unit_in_play(state, command.unit_id)
    step = state.turn.step
    rule = "NO-1" if step == SUPPORT_STEP else "NO-2"
    if unit.steps is not None and unit.steps >= full_steps(unit):
        raise InvalidAction(f"{rule}: '{unit.id}' is at full strength ({full_steps(unit)} "
                            "steps)", rule=rule)
    if step == SUPPORT_STEP and unit.kind != ARTILLERY:
        raise InvalidAction(f"{rule}: only reduced artillery is re-supplied now; '{unit.id}' "
                            f"is a {unit.kind} (replacements come in the Replacement phase)",
                            rule=rule)
    if step == REPLACEMENT:
        side = state.turn.active_side
        if unit.side != side:
            raise InvalidAction(f"{rule}: in {side}'s Replacement phase only {side}'s units "
                                "are rebuilt", rule=rule)
        points = state.tracks.get(f"replacements.{side}", 0)
        if not isinstance(points, int) or points < REPLACEMENT_COST:
            raise InvalidAction(f"{rule}: a step costs {REPLACEMENT_COST} replacement point and "
                                f"{side} has {points}: set replacements.{side} first",
                                rule=rule)


def _check_move(command: cmd.MoveUnit, state: MatchState) -> None:
    unit = unit_in_play(state, command.unit_id)
    step = state.turn.step
    if step == STRATEGIC and unit.markers.get(RESERVE):
        raise InvalidAction(f"NO-2: '{unit.id}' is in Reserve and cannot move strategically",
                            rule="NO-2")
    if step == STRATEGIC and MOVED in unit.status:
        raise InvalidAction(f"NO-2: '{unit.id}' moved tactically; strategic movement is for "
                            "the units that did not", rule="NO-2")
    if step == RESERVE_STEP and not unit.markers.get(RESERVE) and (
            unit.side == state.turn.active_side):
        raise InvalidAction(f"NO-2: only Reserve units move now; '{unit.id}' has no Reserve "
                            "marker", rule="NO-2")


def _check_marker(command: cmd.PlaceMarker, state: MatchState) -> None:
    step = state.turn.step
    if command.kind == RESERVE and command.unit_id:
        unit = unit_in_play(state, command.unit_id)
        if step != TACTICAL:
            raise InvalidAction("NO-2: Reserve markers are placed in Tactical Movement",
                                rule="NO-2")
        if not hq_in_operation(state, unit):
            raise InvalidAction(f"NO-2: Reserve markers go only on units of a corps in an "
                                f"Operation ('{unit.id}''s corps HQ is not)", rule="NO-2")
    if command.kind == ENTRENCHMENT and not (
            step == ENGINEERING and state.turn.active_side == roles(state)["german"]):
        raise InvalidAction("NO-3: entrenchments are built only in the German Engineering "
                            "phase", rule="NO-3")
    if command.kind == CARPET:
        raise InvalidAction("NO-1: a carpet bombing is announced with the Allied operation "
                            "(declare_operation carpet_bombing)", rule="NO-1")
