"""`extended-sequence`, the Combat Phase (ES-4), its fire markers (ES-5) and their removal
(ES-6): who fires and who moves in each step, the shots counted against the rate of fire,
and the units each movement step takes.

The service places the fire markers itself: `shots` (the shots a unit has fired this
player-turn, ours: so that its ROF can be counted), `prepared_fire`, `rof_spent` and
`halted`. They are the service's: players neither place nor remove them (ES-5). They come
off when the player-turn ends: as the next one begins, and in the Admin Phase (ES-6).
"""

from __future__ import annotations

from domain import commands as cmd
from domain import events as ev
from domain.context import REFEREE, Emit
from domain.context import unit as unit_in_play
from domain.errors import InvalidAction, NotYourTurn
from domain.rulesets.base import roll
from domain.rulesets.extended_sequence_initial import check_arrival
from domain.rulesets.extended_sequence_steps import role_of, roles_now, step_of
from domain.state import MatchState, Unit

PREPARED_FIRE = "prepared_fire"
ROF_SPENT = "rof_spent"
HALTED = "halted"  # fired on by the defender while moving: cannot move or turn (ES-4)
SHOTS = "shots"  # (ours) shots fired this player-turn, counted against the ROF (ES-5)
FIRE_MARKERS = (PREPARED_FIRE, ROF_SPENT, HALTED, SHOTS)
SUPPRESSION = "suppression"
BREAKDOWN_DR = 12  # ES-2: an original DR of 12 breaks the firing unit's equipment
SHAKEN = ("broken", "routed")  # these flags keep a unit from firing or advancing
PINNED = ("pinned", "cowered")  # these flags keep a unit from advancing

# ES-4: who fires in each step of the Combat Phase (both players record what the fire does
# to their own units in any of them; the step's role moves the marker on).
FIRERS = {"prepared_fire": ("attacker",), "routed_movement": ("defender",),
          "broken_movement": ("defender",), "move_and_fire": ("attacker", "defender"),
          "defensive_fire": ("defender",), "advancing_fire": ("attacker",)}
MOVERS = ("routed_movement", "broken_movement", "move_and_fire", "advance")
# ES-4: the markers that stop a unit moving in the movement steps (not in the advance), and
# why. (ours) `shots` is not one of them: a unit that fired in `move_and_fire` may stay in
# motion and move on, whatever its kind, until the defender halts it.
STOPPED_BY = {
    PREPARED_FIRE: "fired prepared fire and cannot move this player-turn",
    HALTED: "was fired on by the defender and cannot move or turn this player-turn",
}


def rof(unit: Unit) -> int:
    value = unit.extra.get("rof", 1)
    return value if isinstance(value, int) else 1


def routed_eliminated(unit: Unit) -> bool:
    """ES-4: a routed unit whose suppression reaches its Q is eliminated."""
    return ("routed" in unit.status and unit.q is not None
            and unit.markers.get(SUPPRESSION, 0) >= unit.q)


def fire(command: cmd.Fire, state: MatchState, emit: Emit) -> None:
    """ES-4/ES-5: the original 2d6 DR of one shot. The service counts the shots against the
    unit's ROF, marks prepared fire and spent ROF, halts a moving unit the defender fires at,
    and breaks the firer's equipment on a 12; the players read the effect on their table."""
    unit = unit_in_play(state, command.unit_id)
    step = step_of(state)
    role = role_of(state, unit.side)
    if role not in FIRERS[step]:
        roles = roles_now(state)
        raise NotYourTurn(f"ES-4: in this step the {' and the '.join(FIRERS[step])} fire(s)",
                          rule="ES-4", allowed=[s for r in FIRERS[step]
                                                if (s := roles.get(r))])
    if "broken_down" in unit.status:
        raise InvalidAction(f"ES-2: '{unit.id}''s equipment has broken down", rule="ES-2")
    if set(SHAKEN) & set(unit.status):
        raise InvalidAction(f"ES-4: '{unit.id}' is broken or routed and cannot fire",
                            rule="ES-4")
    shots = unit.markers.get(SHOTS, 0)
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
    if not advancing:
        emit(ev.MarkerPlaced, kind=SHOTS, count=1, unit_id=unit.id, rule="ES-5")
    if step == "prepared_fire" and not unit.markers.get(PREPARED_FIRE):
        emit(ev.MarkerPlaced, kind=PREPARED_FIRE, count=1, unit_id=unit.id, rule="ES-5")
    if not advancing and shots + 1 >= rof(unit):
        emit(ev.MarkerPlaced, kind=ROF_SPENT, count=1, unit_id=unit.id, rule="ES-5")
    if (step == "move_and_fire" and role == "defender" and target is not None
            and role_of(state, target.side) == "attacker" and not target.markers.get(HALTED)):
        emit(ev.MarkerPlaced, kind=HALTED, count=1, unit_id=target.id, rule="ES-4")


def check(command: cmd.Command, state: MatchState, actor: str) -> None:
    """ES-4/ES-5: the refusals of the Combat Phase (the referee's hand is free)."""
    if actor == REFEREE:
        return
    if isinstance(command, cmd.PlaceMarker | cmd.RemoveMarker) and command.kind in FIRE_MARKERS:
        raise InvalidAction(f"ES-5: the service places and removes '{command.kind}' markers "
                            "itself", rule="ES-5")
    if isinstance(command, cmd.MoveUnit):
        if step_of(state) in MOVERS and role_of(state, actor) != "attacker":
            raise NotYourTurn("ES-4: only the attacker moves in this step", rule="ES-4",
                              allowed=[s for s in [roles_now(state).get("attacker")] if s])
        check_arrival(state, command.unit_id)
        _check_mover(unit_in_play(state, command.unit_id), step_of(state))


def _check_mover(unit: Unit, step: str) -> None:
    """Which units each movement step takes (ES-4)."""
    flags = set(unit.status)
    refusal = {
        "routed_movement": None if "routed" in flags else "only routed units move now",
        "broken_movement": None if "broken" in flags and "routed" not in flags else
        "only broken (not routed) units move now",
        "move_and_fire": "broken and routed units moved in their own steps"
        if flags & set(SHAKEN) else None,
        "advance": "broken, routed, pinned and cowered units do not advance"
        if flags & {*SHAKEN, *PINNED} else None,
    }.get(step)
    if refusal is not None:
        raise InvalidAction(f"ES-4: '{unit.id}': {refusal}", rule="ES-4")
    if step == "advance":  # whether it moved or fired earlier in the turn or not
        return
    stopped = next((why for marker, why in STOPPED_BY.items() if unit.markers.get(marker)),
                   None)
    if stopped is not None:
        raise InvalidAction(f"ES-4: '{unit.id}' {stopped}", rule="ES-4")


def eliminate_routed(state: MatchState, emit: Emit) -> None:
    """ES-4: a routed unit whose suppression reaches its Q is eliminated."""
    for unit in emit.state.in_play():
        if routed_eliminated(unit):
            emit(ev.UnitRemoved, unit_id=unit.id, reason="eliminated", rule="ES-4")


def clear_fire_markers(state: MatchState, emit: Emit) -> None:
    """ES-6: the fire markers of the player-turn that ended come off."""
    for unit in state.in_play():
        for kind in FIRE_MARKERS:
            if unit.markers.get(kind):
                emit(ev.MarkerRemoved, kind=kind, count=unit.markers[kind], unit_id=unit.id,
                     rule="ES-6")
