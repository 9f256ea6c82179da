"""`extended-sequence`: the WW2 extended sequence of play (RULES.md ES-1 to ES-6), attacker
against defender (option `roles`: {"attacker": side, "defender": side}).

A turn: Initial Phase (ES-1), Rally Phase (ES-2, ES-3), Combat Phase (ES-4, ES-5), Admin
Phase (ES-6). The service keeps the weather tracks, the reinforcements announced, the
off-board artillery missions, and the fire markers (ES-5): it places prepared-fire and
ROF-spent markers itself, refuses what they forbid, and clears them in the Admin Phase.

Units are bases with a quality `q` and `extra.rof` (shots per turn, 1 if not given); a
leader is `kind: leader` with `q` and `extra.modifier` (Q4+1 is q 4, modifier +1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit
from domain.context import unit as unit_in_play
from domain.errors import InvalidAction, NotYourTurn, OutOfSequence
from domain.rulesets.base import Roll, Ruleset, end_by_points, number_option, roles_option, roll
from domain.sequence import Phase, SequenceOfPlay, Step
from domain.state import MatchState, Unit

PREPARED_FIRE = "prepared_fire"
ROF_SPENT = "rof_spent"
HALTED = "halted"  # fired on by the defender while moving: cannot move or turn (ES-4)
SUPPRESSION = "suppression"
BREAKDOWN_DR = 12  # ES-2: an original DR of 12 breaks the firing unit's equipment
LEADER_DR = 2  # ES-2: an original DR of 2 in a self-rally creates a leader
Q_ROLL_MARGIN = 2  # (ours) a Q roll passes when the modified 2d6 is at most Q + 2
FFE_MISSIONS = 4

MOVE = ("move_unit", "remove_unit", "set_status", "place_marker", "remove_marker", "roll_dice")
FIRE = ("fire", "enter_result", "place_marker", "remove_marker", "set_status", "roll_dice")

SEQUENCE = SequenceOfPlay(phases=(
    Phase(id="initial", title="Initial Phase", rule="ES-1", children=(
        Step(id="weather", title="Weather change", rule="ES-1", allows=("set_track", "roll_dice")),
        Step(id="smoke_and_fire", title="Smoke and fire evolution", rule="ES-1",
             allows=("place_marker", "remove_marker", "roll_dice")),
        Step(id="reinforcements", title="Reinforcements announced", rule="ES-1",
             acting="attacker", allows=("announce_reinforcements",)),
        Step(id="air_strikes", title="Air strikes", rule="ES-1",
             allows=("roll_dice", "place_marker", "remove_marker", "remove_unit")),
        Step(id="artillery", title="Off-board artillery", rule="ES-1",
             allows=("call_artillery", "roll_dice", "place_marker", "remove_marker")),
    )),
    Phase(id="rally", title="Rally Phase", rule="ES-2", children=(
        Step(id="repair", title="Repair equipment", rule="ES-2", allows=("rule_roll",)),
        Step(id="ammunition", title="Replenish ammunition", rule="ES-2",
             allows=("roll_dice", "set_status")),
        Step(id="self_rally", title="Self-rally", rule="ES-2", allows=("rule_roll",)),
        Step(id="leader_rally", title="Rally with a leader", rule="ES-3", allows=("rule_roll",)),
    )),
    Phase(id="combat", title="Combat Phase", rule="ES-4", children=(
        Step(id="prepared_fire", title="Attacker's prepared fire", rule="ES-4",
             advanced_by="attacker", allows=FIRE),
        Step(id="routed_movement", title="Attacker moves routed units", rule="ES-4",
             advanced_by="attacker", allows=(*MOVE, *FIRE)),
        Step(id="broken_movement", title="Attacker moves broken units", rule="ES-4",
             advanced_by="attacker", allows=(*MOVE, *FIRE)),
        Step(id="move_and_fire", title="Attacker moves and fires", rule="ES-4",
             advanced_by="attacker", allows=(*MOVE, *FIRE)),
        Step(id="defensive_fire", title="Defender's fire", rule="ES-4", advanced_by="defender",
             allows=FIRE),
        Step(id="advancing_fire", title="Attacker's advancing fire", rule="ES-4",
             advanced_by="attacker", allows=FIRE),
        Step(id="advance", title="Attacker advances", rule="ES-4", advanced_by="attacker",
             allows=MOVE),
    )),
    Phase(id="admin", title="Admin Phase", rule="ES-6", children=(
        Step(id="victory", title="Markers removed, victory check", rule="ES-6",
             allows=("score_vp", "roll_dice")),
    )),
))

WHERE = {
    "announce_reinforcements": ("ES-1", "reinforcements are announced in the Initial Phase"),
    "call_artillery": ("ES-1", "off-board artillery is called in the Initial Phase"),
    "fire": ("ES-4", "units fire in the Combat Phase"),
    "set_track": ("ES-1", "the weather changes at the start of the Initial Phase"),
}

# ES-4: who fires and who moves in each step of the Combat Phase (both players record what
# the fire does to their own units in any of them; the step's role moves the marker on).
FIRERS = {"prepared_fire": ("attacker",), "routed_movement": ("defender",),
          "broken_movement": ("defender",), "move_and_fire": ("attacker", "defender"),
          "defensive_fire": ("defender",), "advancing_fire": ("attacker",)}
MOVERS = {"routed_movement", "broken_movement", "move_and_fire", "advance"}

TRACKS: dict[str, tuple[str, ...] | range] = {
    "weather.precipitation": ("none", "light", "heavy", "snow"),
    "weather.wind_speed": ("calm", "light", "moderate", "strong", "gale"),
    "weather.wind_direction": ("N", "NE", "E", "SE", "S", "SW", "W", "NW"),
    "weather.visibility": range(100),  # hexes
}


# ---- what the rules compute ---------------------------------------------------------------

def q_roll_passes(dr: int, q: int, modifier: int = 0) -> bool:
    """(ours) A Q roll: 2d6 plus any leader's modifier, passing at Q + 2 or less."""
    return dr + modifier <= q + Q_ROLL_MARGIN


def rally_capacity(modifier: int) -> int:
    """ES-3: a leader rallies two bases, adjusted by the negative of its modifier
    (Q4+1: one, Q6-1: three)."""
    return max(0, 2 - modifier)


def rof(unit: Unit) -> int:
    return _number(unit, "rof", 1)


def leader_modifier(leader: Unit) -> int:
    return _number(leader, "modifier", 0)


def _number(unit: Unit, key: str, default: int) -> int:
    value = unit.extra.get(key, default)
    return value if isinstance(value, int) else default


def routed_eliminated(unit: Unit) -> bool:
    """ES-4: a routed unit whose suppression reaches its Q is eliminated."""
    return ("routed" in unit.status and unit.q is not None
            and unit.markers.get(SUPPRESSION, 0) >= unit.q)


def _role(state: MatchState, side: str) -> str | None:
    roles = state.options.get("roles")
    if isinstance(roles, dict):
        return next((role for role, s in roles.items() if s == side), None)
    return None


def _side_of(state: MatchState, role: str) -> str | None:
    roles = state.options.get("roles")
    return roles.get(role) if isinstance(roles, dict) else None


# ---- procedures ---------------------------------------------------------------------------

def _fire(command: cmd.Fire, state: MatchState, emit: Emit) -> None:
    """ES-4/ES-5: the original 2d6 DR of one shot. The service counts the shots against the
    unit's ROF, marks prepared fire and spent ROF, halts a moving unit the defender fires at,
    and breaks the firer's equipment on a 12; the players read the effect on their table."""
    unit = unit_in_play(state, command.unit_id)
    step = state.turn.step.split("/")[-1]
    role = _role(state, unit.side)
    if role not in FIRERS[step]:
        raise NotYourTurn(f"ES-4: in this step the {' and the '.join(FIRERS[step])} fire(s)",
                          rule="ES-4", allowed=[s for r in FIRERS[step]
                                                if (s := _side_of(state, r))])
    if "broken_down" in unit.status:
        raise InvalidAction(f"ES-2: '{unit.id}''s equipment has broken down", rule="ES-2")
    if {"broken", "routed"} & set(unit.status):
        raise InvalidAction(f"ES-4: '{unit.id}' is broken or routed and cannot fire",
                            rule="ES-4")
    shots = state.times(f"ES-4:{unit.id}")
    advancing = step == "advancing_fire"
    if advancing:
        if unit.markers.get(PREPARED_FIRE) or state.done(f"ES-4a:{unit.id}"):
            raise InvalidAction(f"ES-4: '{unit.id}' fired prepared fire or has fired its one "
                                "advancing shot", rule="ES-4")
    elif unit.markers.get(ROF_SPENT) or shots >= rof(unit):
        raise InvalidAction(f"ES-5: '{unit.id}' has spent its rate of fire ({rof(unit)})",
                            rule="ES-5")
    target = unit_in_play(state, command.target_id) if command.target_id else None
    what = f"ES-4 {step.replace('_', ' ')} of {unit.id}" + (
        f" at {target.id}" if target else "")
    face_a, face_b = roll(command, "2d6", emit, f"{what}, modifier {command.modifier:+d}",
                          "ES-4a" if advancing else "ES-4", (unit.id,), command.modifier,
                          awaits=what)
    if face_a + face_b == BREAKDOWN_DR:
        emit(ev.UnitStatusChanged, unit_id=unit.id, set=("broken_down",), rule="ES-2")
    if step == "prepared_fire" and not unit.markers.get(PREPARED_FIRE):
        emit(ev.MarkerPlaced, kind=PREPARED_FIRE, count=1, unit_id=unit.id, rule="ES-5")
    if not advancing and shots + 1 >= rof(unit):
        emit(ev.MarkerPlaced, kind=ROF_SPENT, count=1, unit_id=unit.id, rule="ES-5")
    if (step == "move_and_fire" and role == "defender" and target is not None
            and _role(state, target.side) == "attacker" and not target.markers.get(HALTED)):
        emit(ev.MarkerPlaced, kind=HALTED, count=1, unit_id=target.id, rule="ES-4")


def _repair(command: cmd.RuleRoll, state: MatchState, emit: Emit) -> None:
    unit = _roller(command, state)
    if "broken_down" not in unit.status or state.done(f"ES-2:{unit.id}"):
        raise InvalidAction(f"ES-2: '{unit.id}' has no broken-down equipment to repair, or "
                            "has tried this turn", rule="ES-2")
    q = unit.q or 0
    a, b = roll(command, "2d6", emit, f"ES-2 repair by {unit.id}: Q roll, 2d6 <= {q + 2}",
                "ES-2", (unit.id,))
    if q_roll_passes(a + b, q):
        emit(ev.UnitStatusChanged, unit_id=unit.id, cleared=("broken_down",), rule="ES-2")


def _self_rally(command: cmd.RuleRoll, state: MatchState, emit: Emit) -> None:
    unit = _roller(command, state)
    if "broken" not in unit.status or "routed" in unit.status or state.done(
            f"ES-2:{unit.id}"):
        raise InvalidAction(f"ES-2: '{unit.id}' is not broken (or is routed, or has tried "
                            "this turn); only broken units self-rally", rule="ES-2")
    leader_id = command.new_unit_id or f"{unit.id}-leader"
    if leader_id in state.units:
        raise InvalidAction(f"unit id '{leader_id}' is taken; give 'new_unit_id'",
                            rule="core-units")
    q = unit.q or 0
    a, b = roll(command, "2d6", emit, f"ES-2 self-rally of {unit.id}: Q roll, 2d6 <= {q + 2}; "
                "an original 2 creates a leader", "ES-2", (unit.id,))
    if q_roll_passes(a + b, q):
        emit(ev.UnitStatusChanged, unit_id=unit.id, cleared=("broken",), rule="ES-2")
    if a + b == LEADER_DR:
        leader = Unit(id=leader_id, side=unit.side, name=f"Leader from {unit.name}",
                      kind="leader", q=q, extra={"modifier": 0}, position=unit.position)
        emit(ev.UnitDeployed, unit=leader, rule="ES-2")


def _leader_rally(command: cmd.RuleRoll, state: MatchState, emit: Emit) -> None:
    unit = _roller(command, state)
    if not {"broken", "routed"} & set(unit.status) or state.done(f"ES-3:{unit.id}"):
        raise InvalidAction(f"ES-3: '{unit.id}' is neither broken nor routed, or has been "
                            "rallied this turn", rule="ES-3")
    if command.leader_id is None:
        raise InvalidAction("ES-3: say which leader rallies ('leader_id')", rule="ES-3")
    leader = unit_in_play(state, command.leader_id)
    if leader.kind != "leader" or leader.side != unit.side:
        raise InvalidAction(f"ES-3: '{leader.id}' is not a leader of {unit.side}", rule="ES-3")
    modifier = leader_modifier(leader)
    capacity = rally_capacity(modifier)
    used = state.times(f"ES-3:{leader.id}")
    if used >= capacity:
        raise InvalidAction(f"ES-3: leader '{leader.id}' (modifier {modifier:+d}) rallies "
                            f"{capacity} base(s) per Rally Phase and has rallied {used}",
                            rule="ES-3")
    q = unit.q or 0
    a, b = roll(command, "2d6", emit, f"ES-3 rally of {unit.id} by {leader.id}: Q roll, "
                f"2d6{modifier:+d} <= {q + 2}", "ES-3", (unit.id, leader.id), modifier)
    if q_roll_passes(a + b, q, modifier):
        emit(ev.UnitStatusChanged, unit_id=unit.id,
             cleared=tuple(sorted({"broken", "routed"} & set(unit.status))), rule="ES-3")


def _roller(command: cmd.RuleRoll, state: MatchState) -> Unit:
    if command.unit_id is None:
        raise InvalidAction("say which unit rolls ('unit_id')", rule="ES-2")
    return unit_in_play(state, command.unit_id)


def _announce(command: cmd.AnnounceReinforcements, state: MatchState, emit: Emit) -> None:
    side = _side_of(state, "attacker")
    for unit_id in command.unit_ids:
        unit = unit_in_play(state, unit_id)
        if unit.side != side or unit.position is None or unit.position.box != "reinforcements":
            raise InvalidAction(f"ES-1: '{unit_id}' is not one of the attacker's units waiting "
                                "in the reinforcements box", rule="ES-1")
    emit(ev.ReinforcementsAnnounced, side=side or "", unit_ids=tuple(command.unit_ids),
         entry=command.entry, rule="ES-1")


def _artillery(command: cmd.CallArtillery, state: MatchState, emit: Emit) -> None:
    """ES-1: radio contact (rolled) -> spotting round -> corrections -> fire for effect 1..4,
    one fire for effect per turn; the mission's state is the track `artillery.<mission>`."""
    key = f"artillery.{command.mission}"
    stage = str(state.tracks.get(key, "none"))
    owner = state.tracks.get(f"{key}.side")
    actor = emit.context.actor
    if owner is not None and actor not in ("referee", owner):
        raise NotYourTurn(f"ES-1: mission '{command.mission}' is {owner}'s", rule="ES-1")
    allowed = {
        "radio_contact": ("none", "no contact"),
        "spotting_round": ("contact",),
        "correction": ("spotting round", "corrected"),
        "fire_for_effect": ("spotting round", "corrected", *(f"fire for effect {n}"
                                                               for n in range(1, FFE_MISSIONS))),
    }[command.stage]
    if stage not in allowed:
        raise OutOfSequence(f"ES-1: mission '{command.mission}' is at '{stage}'; "
                            f"{command.stage.replace('_', ' ')} follows only "
                            f"{' or '.join(allowed)}", rule="ES-1")
    if command.stage == "radio_contact":
        if state.tracks.get(f"{key}.contact_turn") == state.turn.turn:
            raise InvalidAction("ES-1: one radio contact roll per mission per turn", rule="ES-1")
        target = state.options.get("radio_contact", 4)
        assert isinstance(target, int)  # checked when the match was created
        face, = roll(command, "d6", emit, f"ES-1 radio contact for mission {command.mission}: "
                     f"{target} or more", "ES-1")
        if owner is None:
            emit(ev.TrackSet, name=f"{key}.side", value=actor, rule="ES-1")
        emit(ev.TrackSet, name=f"{key}.contact_turn", value=state.turn.turn, rule="ES-1")
        emit(ev.TrackSet, name=key, value="contact" if face >= target else "no contact",
             rule="ES-1")
        return
    if command.location is None:
        raise InvalidAction("ES-1: say where the rounds fall ('location')", rule="ES-1")
    if command.stage == "fire_for_effect":
        if state.tracks.get(f"{key}.turn") == state.turn.turn:
            raise InvalidAction("ES-1: one fire for effect per mission per turn", rule="ES-1")
        done = int(stage.rsplit(" ", 1)[-1]) if stage.startswith("fire for effect") else 0
        value = f"fire for effect {done + 1}"
        emit(ev.TrackSet, name=f"{key}.turn", value=state.turn.turn, rule="ES-1")
    else:
        value = "spotting round" if command.stage == "spotting_round" else "corrected"
    emit(ev.TrackSet, name=key, value=value, rule="ES-1")
    emit(ev.TrackSet, name=f"{key}.at", value=command.location, rule="ES-1")


def _check(command: cmd.Command, state: MatchState, actor: str) -> None:
    step = state.turn.step.split("/")[-1]
    if actor == "referee":
        return
    if isinstance(command, cmd.MoveUnit):
        unit = unit_in_play(state, command.unit_id)
        if step in MOVERS and _role(state, actor) != "attacker":
            raise NotYourTurn("ES-4: only the attacker moves in this step", rule="ES-4")
        if unit.markers.get(PREPARED_FIRE):
            raise InvalidAction(f"ES-4: '{unit.id}' fired prepared fire and cannot move this "
                                "turn", rule="ES-4")
        if unit.markers.get(HALTED):
            raise InvalidAction(f"ES-4: '{unit.id}' was fired on by the defender and cannot "
                                "move or turn this turn", rule="ES-4")
        if unit.position is not None and unit.position.box == "reinforcements" and (
                "entry" not in unit.extra):
            raise InvalidAction(f"ES-1: '{unit.id}' was not announced; reinforcements enter "
                                "only after the attacker announces them", rule="ES-1")


def _react(state: MatchState, emit: Emit) -> None:
    """ES-4: a routed unit whose suppression reaches its Q is eliminated."""
    for unit in emit.state.in_play():
        if routed_eliminated(unit):
            emit(ev.UnitRemoved, unit_id=unit.id, reason="eliminated", rule="ES-4")


def _admin(state: MatchState, emit: Emit) -> None:
    """ES-6: prepared-fire, ROF and halted markers come off."""
    for unit in state.in_play():
        for kind in (PREPARED_FIRE, ROF_SPENT, HALTED):
            if unit.markers.get(kind):
                emit(ev.MarkerRemoved, kind=kind, count=unit.markers[kind], unit_id=unit.id,
                     rule="ES-6")


def _expects(state: MatchState) -> list[str]:
    step = state.turn.step
    attacker = _side_of(state, "attacker")
    defender = _side_of(state, "defender")
    if state.awaiting is not None:
        return [f"{state.awaiting.by} to enter the result of {state.awaiting.what}"]
    hints = {
        "initial/weather": "roll for a weather change and set the weather tracks",
        "initial/smoke_and_fire": "smoke and fire spread or dissolve (location markers)",
        "initial/reinforcements": f"{attacker} announces reinforcements and their entry point",
        "initial/air_strikes": "check for air strikes and resolve them",
        "initial/artillery": "off-board artillery: radio contact, spotting, corrections, FFE",
        "rally/repair": "broken-down equipment: a Q roll repairs it (rule_roll repair)",
        "rally/ammunition": "ammunition replenishment rolls at the HQ",
        "rally/self_rally": "broken (not routed) units may self-rally (rule_roll self_rally)",
        "rally/leader_rally": "leaders rally broken and routed units (rule_roll leader_rally)",
        "combat/prepared_fire": f"{attacker}'s prepared fire, while ROF lasts",
        "combat/routed_movement": f"{attacker} moves routed units; {defender} may fire",
        "combat/broken_movement": f"{attacker} moves broken units to cover; {defender} may fire",
        "combat/move_and_fire": f"{attacker} moves and fires; {defender} may interrupt",
        "combat/defensive_fire": f"{defender} fires with every unit still able",
        "combat/advancing_fire": f"{attacker}'s advancing fire (one shot each, no ROF)",
        "combat/advance": f"{attacker} advances one base, possibly into close combat",
        "admin/victory": "markers are removed; check victory, then advance",
    }
    return [hints.get(step, "advance")]


def extended_sequence(options: Mapping[str, Any]) -> Ruleset:
    roles_option(options, ("attacker", "defender"), "ES-1")
    turns = number_option(options, "turns", 1, 100, "a number of turns")
    number_option(options, "radio_contact", 1, 6, "the d6 score for radio contact", "ES-1")
    return Ruleset(
        id="extended-sequence", version=1, title="WW2 extended sequence", sequence=SEQUENCE,
        checks=(_check,),
        actions={"fire": _fire, "announce_reinforcements": _announce,
                 "call_artillery": _artillery},
        rolls={
            "repair": Roll("ES-2", ("rally/repair",), _repair),
            "self_rally": Roll("ES-2", ("rally/self_rally",), _self_rally),
            "leader_rally": Roll("ES-3", ("rally/leader_rally",), _leader_rally),
        },
        react=_react,
        on_enter={"admin/victory": _admin},
        end_of_turn=end_by_points(turns, "turn", "ES-6"),
        expects=_expects,
        where=WHERE,
        rolled_by_service=("ES-4", "ES-4a"),  # shots count against the ROF (ES-5)
        tracks=TRACKS,
    )
