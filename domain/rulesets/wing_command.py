"""`wing-command`: Wing command (RULES.md WC-1 to WC-11), two players.

A turn: Initiative (WC-1), then each player's phase in initiative order: Pre-Activation
(a)-(e) (WC-2..WC-5), then activations (WC-6..WC-9), then the victory check (WC-10).

The pieces of the game, as units of the board:
- a *unit* is `kind: unit` with its `qv`, `casualty_value` and `extra.wing`;
- a *piece* is `kind: piece` with its own `qv` and `extra.unit` (the unit it belongs to);
  the flags `disrupted`, `unloaded` (its red cube) and `corner_locked` are its status;
- an *officer* is `kind: fo` or `kind: co` with its `lv` and a pool of leadership cubes
  (the `leadership` marker count); rolls may spend them (`leader_id`, `leadership`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit
from domain.context import unit as unit_in_play
from domain.errors import InvalidAction, NotYourTurn
from domain.rulesets.base import (
    Roll,
    Ruleset,
    by_totals,
    end_by_points,
    initiative,
    number_option,
    roll,
)
from domain.sequence import Phase, SequenceOfPlay, Step
from domain.state import MatchState, Unit

LEADERSHIP = "leadership"  # the white cubes, a marker count on an officer
OFFICERS = ("fo", "co")
PRE = "phase/pre_activation"
ACTIVATION = "phase/activation"

SEQUENCE = SequenceOfPlay(phases=(
    Step(id="initiative", title="Initiative", rule="WC-1", allows=("roll_initiative",),
         leave_when="initiative_settled"),
    Phase(id="phase", title="Player phase", rule="WC-9", player_turns=True, children=(
        Phase(id="pre_activation", title="Pre-Activation", rule="WC-2", children=(
            Step(id="a_reposition", title="(a) Reposition officers", rule="WC-2",
                 acting="active", optional=True, allows=("move_unit",)),
            Step(id="b_unit_morale", title="(b) Unit Morale", rule="WC-3", acting="active",
                 allows=("rule_roll",), leave_when="no_morale_owed"),
            Step(id="c_disruption", title="(c) Disruption recovery", rule="WC-4",
                 acting="active", allows=("rule_roll",), leave_when="no_recovery_owed"),
            Step(id="d_corner_lock", title="(d) Disengage corner-locked pieces", rule="WC-5",
                 acting="active", optional=True, allows=("rule_roll", "move_unit")),
            Step(id="e_line_command", title="(e) Reposition line command", rule="WC-2",
                 acting="active", optional=True, allows=("move_unit", "remove_unit")),
        )),
        Step(id="activation", title="Activations", rule="WC-6", advanced_by="active",
             allows=("rule_roll", "fire", "enter_result", "move_unit", "set_status",
                     "place_marker", "remove_marker", "remove_unit", "roll_dice")),
    )),
    Step(id="victory", title="Victory check", rule="WC-10",
         allows=("score_vp", "roll_dice", "place_marker", "remove_marker")),
))

WHERE = {
    "roll_initiative": ("WC-1", "initiative is rolled at the start of the turn"),
    "fire": ("WC-7", "pieces fire during the activations"),
    "enter_result": ("WC-6", "results are entered during the activations"),
}


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


def morale_owed(state: MatchState) -> list[Unit]:
    """WC-3: the phasing side's units whose disrupted pieces reach their Casualty Value and
    that have not checked morale this turn."""
    return [u for u in state.in_play(state.turn.active_side) if u.kind == "unit"
            and morale_triggered(disrupted(state, u.id), u.casualty_value or 0)
            and u.casualty_value is not None and not state.done(f"WC-3:{u.id}")]


def recovery_owed(state: MatchState) -> list[Unit]:
    """WC-4: the phasing side's disrupted pieces that have not rolled this turn."""
    return [p for p in state.in_play(state.turn.active_side) if p.kind == "piece"
            and "disrupted" in p.status and not state.done(f"WC-4:{p.id}")]


def _co_lv(state: MatchState, side: str) -> int:
    """WC-1: the side's Commanding Officer's LV (0 without one in play)."""
    return max((u.lv or 0 for u in state.in_play(side) if u.kind == "co"), default=0)


# ---- procedures ---------------------------------------------------------------------------

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
    """Spend `leadership` cubes from the officer `leader_id` (recorded; the pool goes down)."""
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


def _casualty(emit: Emit, removed: Unit, rule: str,
              marker: str = "casualty", reason: str = "casualty") -> None:
    """Remove a piece or unit from play and leave a casualty marker where it stood."""
    emit(ev.UnitRemoved, unit_id=removed.id, reason=reason, rule=rule)
    if removed.position is not None and removed.position.box is None:
        emit(ev.MarkerPlaced, kind=marker, count=1, location=removed.position.label(),
             rule=rule)


def _unit_morale(command: cmd.RuleRoll, state: MatchState, emit: Emit) -> None:
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
    _casualty(emit, unit, "WC-3", marker="unit_casualty")


def _recovery(command: cmd.RuleRoll, state: MatchState, emit: Emit) -> None:
    piece = _own(state, command.unit_id, emit, "WC-4", ("piece",), "piece")
    if piece not in recovery_owed(state):
        raise InvalidAction(f"WC-4: piece '{piece.id}' owes no disruption roll", rule="WC-4",
                            allowed=[p.id for p in recovery_owed(state)])
    cubes = _leadership(command, state, emit, "WC-4", piece.side)
    qv = piece.qv or 0
    face, = roll(command, "d6", emit, f"WC-4 disruption recovery of {piece.id}: d6{cubes:+d} "
                 f"against QV {qv}; a natural 1 removes it", "WC-4", (piece.id,), cubes)
    if face == 1:
        _casualty(emit, piece, "WC-4")
    elif passes(face + cubes, qv):
        emit(ev.UnitStatusChanged, unit_id=piece.id, cleared=("disrupted",), rule="WC-4")


def _disengage(command: cmd.RuleRoll, state: MatchState, emit: Emit) -> None:
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


def _activation(command: cmd.RuleRoll, state: MatchState, emit: Emit) -> None:
    unit = _own(state, command.unit_id, emit, "WC-6", ("unit",), "unit")
    side = unit.side
    if state.done(f"failed:WC-6:{side}"):
        raise InvalidAction("WC-9: an activation failed; the phase is over: advance",
                            rule="WC-9")
    if "activated" in unit.status:
        raise InvalidAction(f"WC-6: unit '{unit.id}' has activated this turn", rule="WC-6",
                            allowed=[u.id for u in _can_activate(state, side)])
    if command.dice is None:
        raise InvalidAction("WC-6: say how many dice, one per action ('dice': 1 to 3)",
                            rule="WC-6")
    cubes = _leadership(command, state, emit, "WC-6", side)
    wing = str(unit.extra.get("wing", "-"))
    emit(ev.UnitsActivated, side=side, unit_ids=(unit.id, *(p.id for p in pieces(state, unit.id))),
         group=f"wing:{wing}", run=state.turn.run, rule="WC-6")
    qv = unit.qv or 0
    what = f"WC-6 activation of {unit.id} (wing {wing})"
    faces = roll(command, f"{command.dice}d6", emit,
                 f"{what}: {command.dice} dice against QV {qv}, {cubes} leadership", "WC-6",
                 (unit.id,), awaits=what)
    scores, passed = activation_passes(faces, qv, cubes)
    emit(ev.ResultRecorded, of=f"{what}: dice against the QV",
         result=f"{passed} of {len(faces)} pass (after leadership: {scores})", rule="WC-6")


def _special_move(command: cmd.RuleRoll, state: MatchState, emit: Emit) -> None:
    officer = _own(state, command.unit_id, emit, "WC-8", OFFICERS, "Field or Commanding Officer")
    if state.done(f"WC-8:{officer.id}"):
        raise InvalidAction(f"WC-8: '{officer.id}' has made its special move", rule="WC-8")
    what = f"WC-8 special move of {officer.id}"
    face, = roll(command, "d6", emit, f"{what} (1-2: one move, 3-4: two, 5-6: three)", "WC-8",
                 (officer.id,))
    emit(ev.ResultRecorded, of=what, result=f"{special_moves(face)} move(s)", rule="WC-8")


def _fire(command: cmd.Fire, state: MatchState, emit: Emit) -> None:
    """WC-7: 1d6 for the firing piece and 1d6 for the target, plus the fire differential;
    the players read the result; the firing piece is unloaded."""
    piece = unit_in_play(state, command.unit_id)
    if piece.kind != "piece":
        raise InvalidAction(f"WC-7: '{piece.id}' is not a piece", rule="WC-7")
    if "unloaded" in piece.status:
        raise InvalidAction(f"WC-7: piece '{piece.id}' is unloaded; it must reload first",
                            rule="WC-7")
    if command.target_id is None:
        raise InvalidAction("WC-7: say which piece is fired at ('target_id')", rule="WC-7")
    target = unit_in_play(state, command.target_id)
    if target.side == piece.side:
        raise InvalidAction("WC-7: fire at an enemy piece", rule="WC-7")
    what = f"WC-7 fire of {piece.id} at {target.id}"
    roll(command, "2d6", emit, f"{what}: firing die, target die, fire differential "
         f"{command.differential:+d}", "WC-7", (piece.id, target.id), command.differential,
         awaits=f"{what}: read the fire result")
    emit(ev.UnitStatusChanged, unit_id=piece.id, set=("unloaded",), rule="WC-7")


def _remove(command: cmd.RemoveUnit, state: MatchState, emit: Emit) -> None:
    """A piece destroyed or removed as a casualty leaves a casualty marker (WC-2 (e), WC-7)."""
    removed = unit_in_play(state, command.unit_id)
    if command.reason in ("casualty", "destroyed"):
        _casualty(emit, removed, "WC-7", reason=command.reason)
    else:
        emit(ev.UnitRemoved, unit_id=removed.id, reason=command.reason, to_box=command.to_box)


def _can_activate(state: MatchState, side: str | None) -> list[Unit]:
    return [u for u in state.in_play(side) if u.kind == "unit" and "activated" not in u.status]


def _check(command: cmd.Command, state: MatchState, actor: str) -> None:
    step = state.turn.step
    if step == ACTIVATION and actor not in ("referee", state.turn.active_side) and (
            isinstance(command, cmd.RuleRoll | cmd.MoveUnit)):
        raise NotYourTurn("WC-7: in the other player's phase you may fire (opportunity or "
                          "defensive fire) and record what it does, not activate or move",
                          rule="WC-7")
    if isinstance(command, cmd.MoveUnit) and step == f"{PRE}/a_reposition":
        moved = unit_in_play(state, command.unit_id)
        if moved.kind not in OFFICERS:
            raise InvalidAction("WC-2 (a): only Field and Commanding Officers reposition here",
                                rule="WC-2")


def _expects(state: MatchState) -> list[str]:
    step = state.turn.step
    side = state.turn.active_side
    if state.awaiting is not None:
        return [f"{state.awaiting.by} to enter the result of {state.awaiting.what}"]
    if step == "initiative":
        if state.initiative_groups:
            return ["tied players re-roll the initiative (WC-1, ours)"]
        return (["the initiative is settled: advance"] if state.done("initiative")
                else ["initiative rolls: d6 + the CO's LV for each side"])
    if step == f"{PRE}/b_unit_morale":
        owed = morale_owed(state)
        return ([f"units owing a morale check: {', '.join(u.id for u in owed)}"] if owed
                else ["no morale check owed: advance"])
    if step == f"{PRE}/c_disruption":
        owed = recovery_owed(state)
        return ([f"disrupted pieces to roll: {', '.join(p.id for p in owed)}"] if owed
                else ["no disrupted piece left to roll: advance"])
    if step == ACTIVATION:
        if state.done(f"failed:WC-6:{side}"):
            return [f"an activation failed: {side} advances, the phase passes (WC-9)"]
        left = ", ".join(u.id for u in _can_activate(state, side))
        return [f"{side} activates a unit ({left or 'none left'}) or advances when done"]
    if step == "victory":
        return ["check the victory conditions (score_vp, end_match), then advance"]
    return [f"{side}: {SEQUENCE.step(step).title} (optional), then advance"]


def _unit_info(state: MatchState, unit: Unit) -> dict[str, Any]:
    if unit.kind != "unit" or unit.casualty_value is None:
        return {}
    count = disrupted(state, unit.id)
    return {"pieces": len(pieces(state, unit.id)), "disrupted_pieces": count,
            "morale_check": morale_triggered(count, unit.casualty_value),
            "morale_modifier": morale_modifier(count, unit.casualty_value)}


def wing_command(options: Mapping[str, Any]) -> Ruleset:
    return Ruleset(
        id="wing-command", version=1, title="Wing command", sequence=SEQUENCE,
        conditions={
            "initiative_settled": lambda s: s.done("initiative"),
            "no_morale_owed": lambda s: not morale_owed(s),
            "no_recovery_owed": lambda s: not recovery_owed(s),
        },
        checks=(_check,),
        actions={"roll_initiative": initiative(_co_lv, by_totals, "WC-1", "WC-1"),
                 "fire": _fire, "remove_unit": _remove},
        rolls={
            "unit_morale": Roll("WC-3", (f"{PRE}/b_unit_morale",), _unit_morale),
            "disruption_recovery": Roll("WC-4", (f"{PRE}/c_disruption",), _recovery),
            "disengage": Roll("WC-5", (f"{PRE}/d_corner_lock",), _disengage),
            "activation": Roll("WC-6", (ACTIVATION,), _activation),
            "special_move": Roll("WC-8", (ACTIVATION,), _special_move),
        },
        end_of_turn=end_by_points(number_option(options, "turns", 1, 100, "a number of turns"),
                                  "turn", "WC-10"),
        expects=_expects,
        where=WHERE,
        unit_info=_unit_info,
    )
