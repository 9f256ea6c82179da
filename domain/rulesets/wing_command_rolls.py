"""`wing-command`: what the rules compute, and the rolls the service resolves itself
(`rule_roll`): Unit Morale WC-3, disruption recovery WC-4, disengaging from a corner lock
WC-5, activation WC-6 and the wing commander's special move WC-8.

Every roll here is the phasing player's, may spend an officer's leadership cubes (WC-3 to
WC-6) and is recorded as one `DiceRolled` naming its rule, its unit and its modifier.
"""

from __future__ import annotations

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit
from domain.context import unit as unit_in_play
from domain.errors import InvalidAction, NotYourTurn
from domain.rulesets.base import roll
from domain.state import MatchState, Unit

LEADERSHIP = "leadership"  # the white cubes, a marker count on an officer
OFFICERS = ("fo", "co")
ACTING = "acting"  # status of the unit carrying out its activation now (WC-6, WC-7)
# WC-5: a piece carrying one of these flags when its unit activates is left out of the
# activation: only a piece that broke free of its corner lock is activated with its unit.
HELD_OUT = ("corner_locked",)


# ---- what the rules compute ---------------------------------------------------------------

def pieces(state: MatchState, unit_id: str) -> list[Unit]:
    return [p for p in state.in_play() if p.kind == "piece" and p.extra.get("unit") == unit_id]


def disrupted(state: MatchState, unit_id: str) -> int:
    return sum("disrupted" in p.status for p in pieces(state, unit_id))


def morale_triggered(disrupted_pieces: int, casualty_value: int) -> bool:
    """WC-3: a unit checks morale when its disrupted pieces reach its Casualty Value."""
    return disrupted_pieces >= casualty_value


def morale_modifier(disrupted_pieces: int, casualty_value: int) -> int:
    """WC-3: -1 for each disrupted piece beyond the Casualty Value."""
    return -max(0, disrupted_pieces - casualty_value)


def passes(score: int, qv: int) -> bool:
    """WC-3..WC-6: a roll passes when it is at least the Quality Value."""
    return score >= qv


def special_moves(face: int) -> int:
    """WC-8: an FO's special move, 1-2: one move, 3-4: two, 5-6: three."""
    return (face + 1) // 2


def activation_passes(faces: list[int], qv: int, cubes: int) -> tuple[list[int], int]:
    """WC-6: each die against the QV; each leadership cube adds 1 to one die. (ours) The
    cubes go to the failing dice closest to the QV first. The dice after the cubes, and how
    many pass."""
    scores = list(faces)
    for _ in range(cubes):
        failing = [i for i, s in enumerate(scores) if s < qv]
        if not failing:
            break
        best = max(failing, key=lambda i: scores[i])
        scores[best] += 1
    return scores, sum(passes(s, qv) for s in scores)


def owes_morale(state: MatchState, unit: Unit) -> bool:
    """WC-3: a unit of the phasing side whose disrupted pieces reach its Casualty Value and
    that has not checked morale this turn."""
    return (unit.side == state.turn.active_side and unit.kind == "unit"
            and unit.casualty_value is not None
            and morale_triggered(disrupted(state, unit.id), unit.casualty_value)
            and not state.done(f"WC-3:{unit.id}"))


def owes_recovery(state: MatchState, piece: Unit) -> bool:
    """WC-4: a disrupted piece of the phasing side that has not rolled this turn."""
    return (piece.side == state.turn.active_side and piece.kind == "piece"
            and "disrupted" in piece.status and not state.done(f"WC-4:{piece.id}"))


def morale_owed(state: MatchState) -> list[Unit]:
    """WC-3: the units that owe a morale check (`owes_morale`)."""
    return [u for u in state.in_play() if owes_morale(state, u)]


def recovery_owed(state: MatchState) -> list[Unit]:
    """WC-4: the pieces that owe a recovery roll (`owes_recovery`)."""
    return [p for p in state.in_play() if owes_recovery(state, p)]


def can_activate(state: MatchState, side: str | None) -> list[Unit]:
    """WC-6: the side's units that have not activated this turn."""
    return [u for u in state.in_play(side) if u.kind == "unit" and "activated" not in u.status]


def acting_unit(state: MatchState) -> Unit | None:
    """WC-7: the phasing side's unit carrying out its activation now, if any."""
    return next((u for u in state.in_play(state.turn.active_side) if ACTING in u.status), None)


def of_unit(piece: Unit, unit: Unit) -> bool:
    """The unit itself, or one of its pieces."""
    return piece.id == unit.id or piece.extra.get("unit") == unit.id


def held_out(piece: Unit, unit: Unit) -> bool:
    """WC-5: a piece of `unit` (now activating) that was not activated with it: it was
    still corner-locked when the unit activated (`HELD_OUT`)."""
    return piece.id != unit.id and "activated" not in piece.status


def check_taking_part(piece: Unit, unit: Unit, what: str) -> None:
    """WC-5: a piece left out of its unit's activation neither moves nor fires in it."""
    if held_out(piece, unit):
        raise InvalidAction(f"WC-5: '{piece.id}' did not break free of its corner lock, so it "
                            f"was not activated with {unit.id}: it does not {what} in this "
                            "activation", rule="WC-5")


def wing(unit: Unit) -> str | None:
    found = unit.extra.get("wing")
    return None if found is None else str(found)


def commands_a_wing(officer: Unit) -> bool:
    """WC-8: an FO commands a wing; (ours) a CO does when it has a wing (`extra.wing`)."""
    return officer.kind == "fo" or (officer.kind == "co" and wing(officer) is not None)


def co_lv(state: MatchState, side: str) -> int:
    """WC-1: the side's Commanding Officer's LV (0 without one in play)."""
    return max((u.lv or 0 for u in state.in_play(side) if u.kind == "co"), default=0)


# ---- the rolls ----------------------------------------------------------------------------

def _own(state: MatchState, unit_id: str | None, emit: Emit, rule: str, kinds: tuple[str, ...],
         what: str) -> Unit:
    if unit_id is None:
        raise InvalidAction(f"{rule}: say which {what} rolls ('unit_id')", rule=rule)
    found = unit_in_play(state, unit_id)
    if found.kind not in kinds:
        raise InvalidAction(f"{rule}: '{found.id}' is not a {what}", rule=rule)
    if found.side != state.turn.active_side and emit.context.actor != "referee":
        raise NotYourTurn(f"{rule}: only the phasing player ({state.turn.active_side}) rolls "
                          "this", rule=rule)
    return found


def _leadership(command: cmd.RuleRoll, state: MatchState, emit: Emit, rule: str,
                side: str) -> int:
    """Spend `leadership` cubes from the officer `leader_id` (recorded; the pool goes down).
    (ours) Each cube adds 1, and cubes are committed before the dice are thrown: the text
    says only that leadership may be applied, and committing first keeps a roll of the
    service's dice from being bought up after its result is known."""
    if not command.leadership:
        return 0
    if command.leader_id is None:
        raise InvalidAction(f"{rule}: say whose leadership cubes are spent ('leader_id')",
                            rule=rule)
    officer = unit_in_play(state, command.leader_id)
    if officer.kind not in OFFICERS or officer.side != side:
        raise InvalidAction(f"{rule}: '{officer.id}' is not one of {side}'s officers",
                            rule=rule)
    pool = officer.markers.get(LEADERSHIP, 0)
    if pool < command.leadership:
        raise InvalidAction(f"{rule}: '{officer.id}' has {pool} leadership cube(s), not "
                            f"{command.leadership}", rule=rule)
    emit(ev.MarkerRemoved, kind=LEADERSHIP, count=command.leadership, unit_id=officer.id,
         rule=rule)
    return command.leadership


def casualty(emit: Emit, removed: Unit, rule: str,
             marker: str = "casualty", reason: str = "casualty") -> None:
    """Remove a piece or unit from play and leave a casualty marker where it stood."""
    emit(ev.UnitRemoved, unit_id=removed.id, reason=reason, rule=rule)
    if removed.position is not None and removed.position.box is None:
        emit(ev.MarkerPlaced, kind=marker, count=1, location=removed.position.label(),
             rule=rule)


def unit_morale(command: cmd.RuleRoll, state: MatchState, emit: Emit) -> None:
    unit = _own(state, command.unit_id, emit, "WC-3", ("unit",), "unit")
    if unit not in morale_owed(state):
        raise InvalidAction(f"WC-3: unit '{unit.id}' owes no morale check", rule="WC-3",
                            allowed=[u.id for u in morale_owed(state)])
    cubes = _leadership(command, state, emit, "WC-3", unit.side)
    cv, qv = unit.casualty_value or 0, unit.qv or 0
    modifier = morale_modifier(disrupted(state, unit.id), cv) + cubes
    face, = roll(command, "d6", emit, f"WC-3 unit morale of {unit.id}: d6{modifier:+d} against "
                 f"QV {qv}", "WC-3", (unit.id,), modifier)
    if passes(face + modifier, qv):
        return
    for piece in pieces(state, unit.id):
        emit(ev.UnitRemoved, unit_id=piece.id, reason="casualty", rule="WC-3")
    casualty(emit, unit, "WC-3", marker="unit_casualty")


def recovery(command: cmd.RuleRoll, state: MatchState, emit: Emit) -> None:
    piece = _own(state, command.unit_id, emit, "WC-4", ("piece",), "piece")
    if piece not in recovery_owed(state):
        raise InvalidAction(f"WC-4: piece '{piece.id}' owes no disruption roll", rule="WC-4",
                            allowed=[p.id for p in recovery_owed(state)])
    cubes = _leadership(command, state, emit, "WC-4", piece.side)
    qv = piece.qv or 0
    face, = roll(command, "d6", emit, f"WC-4 disruption recovery of {piece.id}: d6{cubes:+d} "
                 f"against QV {qv}; a natural 1 removes it", "WC-4", (piece.id,), cubes)
    if face == 1:
        casualty(emit, piece, "WC-4")
    elif passes(face + cubes, qv):
        emit(ev.UnitStatusChanged, unit_id=piece.id, cleared=("disrupted",), rule="WC-4")


def disengage(command: cmd.RuleRoll, state: MatchState, emit: Emit) -> None:
    piece = _own(state, command.unit_id, emit, "WC-5", ("piece",), "piece")
    if "corner_locked" not in piece.status or state.done(f"WC-5:{piece.id}"):
        raise InvalidAction(f"WC-5: piece '{piece.id}' is not corner-locked, or has tried "
                            "this turn", rule="WC-5")
    cubes = _leadership(command, state, emit, "WC-5", piece.side)
    qv = piece.qv or 0
    face, = roll(command, "d6", emit, f"WC-5 disengage {piece.id} from corner lock: "
                 f"d6{cubes:+d} against QV {qv}", "WC-5", (piece.id,), cubes)
    if passes(face + cubes, qv):
        emit(ev.UnitStatusChanged, unit_id=piece.id, cleared=("corner_locked",), rule="WC-5")


def activation(command: cmd.RuleRoll, state: MatchState, emit: Emit) -> None:
    unit = _own(state, command.unit_id, emit, "WC-6", ("unit",), "unit")
    side = unit.side
    if state.done(f"failed:WC-6:{side}"):
        raise InvalidAction("WC-9: an activation failed; the phase is over: go on",
                            rule="WC-9")
    if state.activated_this_run():
        raise InvalidAction("WC-6: one unit activates at a time: carry out its actions, then "
                            "go on to the next activation", rule="WC-6")
    if "activated" in unit.status:
        raise InvalidAction(f"WC-6: unit '{unit.id}' has activated this turn", rule="WC-6",
                            allowed=[u.id for u in can_activate(state, side)])
    if command.dice is None:
        raise InvalidAction("WC-6: say how many dice, one per action ('dice': 1 to 3)",
                            rule="WC-6")
    cubes = _leadership(command, state, emit, "WC-6", side)
    its_wing = wing(unit) or "-"
    taking_part = (p.id for p in pieces(state, unit.id) if not set(HELD_OUT) & set(p.status))
    emit(ev.UnitsActivated, side=side, unit_ids=(unit.id, *taking_part),
         group=f"wing:{its_wing}", run=state.turn.run, rule="WC-6")
    emit(ev.UnitStatusChanged, unit_id=unit.id, set=(ACTING,), rule="WC-6")
    qv = unit.qv or 0
    what = f"WC-6 activation of {unit.id} (wing {its_wing})"
    faces = roll(command, f"{command.dice}d6", emit,
                 f"{what}: {command.dice} dice against QV {qv}, {cubes} leadership", "WC-6",
                 (unit.id,))
    # (ours) the service has the faces, so it settles the activation itself: each die that
    # passes is one action; none passing is a failed activation (WC-9)
    scores, passed = activation_passes(faces, qv, cubes)
    emit(ev.ResultRecorded, of=f"{what}: dice against the QV",
         result=f"{passed} of {len(faces)} pass (after leadership: {scores})",
         failed=passed == 0, rule="WC-6")


def special_move(command: cmd.RuleRoll, state: MatchState, emit: Emit) -> None:
    """WC-8: the wing commander of the unit now activating rolls its special move once a
    turn (ours: once a turn, so that a wing activated unit by unit does not roll again)."""
    officer = _own(state, command.unit_id, emit, "WC-8", OFFICERS, "Field or Commanding Officer")
    if not commands_a_wing(officer):
        raise InvalidAction(f"WC-8: '{officer.id}' commands no wing: a CO moves one move with "
                            "each wing's activation (move_unit), without a roll", rule="WC-8")
    active = acting_unit(state)
    if active is None or wing(active) != wing(officer):
        raise InvalidAction(f"WC-8: only the commander of the wing now activating rolls its "
                            f"special move (wing {wing(active) if active else 'none'})",
                            rule="WC-8")
    if state.done(f"WC-8:{officer.id}"):
        raise InvalidAction(f"WC-8: '{officer.id}' has made its special move", rule="WC-8")
    what = f"WC-8 special move of {officer.id}"
    face, = roll(command, "d6", emit, f"{what} (1-2: one move, 3-4: two, 5-6: three)", "WC-8",
                 (officer.id,))
    emit(ev.ResultRecorded, of=what, result=f"{special_moves(face)} move(s)", rule="WC-8")
