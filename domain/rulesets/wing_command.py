"""`wing-command`: Wing command (rules WC-1 to WC-11), two players.

A turn: Initiative (WC-1), then each player's phase in initiative order: Pre-Activation
(a)-(e) (WC-2..WC-5), then activations, one unit at a time (WC-6): its actions (WC-7 a),
fire combat (WC-7 b), close combat (WC-7 c) and the officers' moves (WC-8), again and
again until the player stops or an activation fails (WC-9); then the victory check (WC-10).

The pieces of the game, as units of the board:
- a *unit* is `kind: unit` with its `qv`, `casualty_value` and `extra.wing`;
- a *piece* is `kind: piece` with its own `qv` and `extra.unit` (the unit it belongs to);
  the flags `disrupted`, `unloaded` (its red cube) and `corner_locked` are its status;
- an *officer* is `kind: fo` or `kind: co` with its `lv` and a pool of leadership cubes
  (the `leadership` marker count); rolls may spend them (`leader_id`, `leadership`). An FO
  commands the wing `extra.wing`; a CO does too when it has one.
The rolls are in `wing_command_rolls`, the combats in `wing_command_combat`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit
from domain.context import unit as unit_in_play
from domain.duties import OWNER, Duty
from domain.errors import InvalidAction
from domain.rulesets.base import (
    INITIATIVE_TESTS,
    Roll,
    Ruleset,
    Sides,
    by_totals,
    end_by_points,
    initiative,
    initiative_duties,
    number_option,
)
from domain.rulesets.wing_command_combat import (
    ACTIONS,
    CLOSE_COMBAT,
    FIRE_COMBAT,
    close_combat,
    fire,
    remove,
)
from domain.rulesets.wing_command_rolls import (
    ACTING,
    OFFICERS,
    acting_unit,
    activation,
    can_activate,
    check_taking_part,
    co_lv,
    commands_a_wing,
    disengage,
    disrupted,
    morale_modifier,
    morale_owed,
    morale_triggered,
    of_unit,
    owes_morale,
    owes_recovery,
    pieces,
    recovery,
    recovery_owed,
    special_move,
    unit_morale,
    wing,
)
from domain.sequence import Phase, SequenceOfPlay, Step, following
from domain.state import MatchState, Unit, group_fact

PRE = "phase/pre_activation"
RUN = "phase/activations"
ACTIVATE = f"{RUN}/activate"
OFFICERS_STEP = f"{RUN}/officers"
RECORD = ("set_status", "place_marker", "remove_marker", "remove_unit", "enter_result")
UNCOVERED = "roll_dice"  # WC-11: a die roll settles what the rules do not cover

# What the steps owe (domain.duties): the initiative roll (WC-1, each side; the tied sides
# re-roll), WC-2 (b) and (c): the morale check of each unit whose disrupted pieces reach its
# Casualty Value (WC-3) and the recovery roll of each disrupted piece (WC-4), by the phasing
# player. (a), (d), (e), the activations (WC-9: "all desired") and WC-8 are choices.
MORALE = Duty(rule="WC-3", says="check the morale of each unit whose disrupted pieces reach "
              "its Casualty Value", by=OWNER, units="morale_owed", done_by=("rule_roll",))
RECOVERY = Duty(rule="WC-4", says="roll to recover each disrupted piece", by=OWNER,
                units="recovery_owed", done_by=("rule_roll",))

SEQUENCE = SequenceOfPlay(phases=(
    Step(id="initiative", title="Initiative", rule="WC-1", shared=True,
         allows=("roll_initiative", UNCOVERED), leave_when="initiative_settled",
         owes=initiative_duties("WC-1", "WC-1")),
    Phase(id="phase", title="Player phase", rule="WC-9", player_turns=True, children=(
        Phase(id="pre_activation", title="Pre-Activation", rule="WC-2", children=(
            Step(id="a_reposition", title="(a) Reposition officers", rule="WC-2",
                 acting="active", optional=True, allows=("move_unit", UNCOVERED)),
            Step(id="b_unit_morale", title="(b) Unit Morale", rule="WC-3", acting="active",
                 allows=("rule_roll", UNCOVERED), leave_when="no_morale_owed",
                 owes=(MORALE,)),
            Step(id="c_disruption", title="(c) Disruption recovery", rule="WC-4",
                 acting="active", allows=("rule_roll", UNCOVERED),
                 leave_when="no_recovery_owed", owes=(RECOVERY,)),
            Step(id="d_corner_lock", title="(d) Disengage corner-locked pieces", rule="WC-5",
                 acting="active", optional=True, allows=("rule_roll", "move_unit", UNCOVERED)),
            Step(id="e_line_command", title="(e) Reposition line command", rule="WC-2",
                 acting="active", optional=True,
                 allows=("move_unit", "remove_unit", UNCOVERED)),
        )),
        Phase(id="activations", title="Activations", rule="WC-9",
              repeat_while="activations_go_on", children=(
                  Step(id="activate", title="Activation", rule="WC-6", acting="active",
                       allows=("rule_roll", "enter_result", UNCOVERED)),
                  # (ours) in (a), (b) and (c) the other player acts only to fire, and to
                  # record what happens to their own pieces; the phasing player moves on.
                  Step(id="actions", title="(a) Actions", rule="WC-7", advanced_by="active",
                       optional=True, allows=("move_unit", "fire", *RECORD, UNCOVERED)),
                  Step(id="fire_combat", title="(b) Fire combat", rule="WC-7",
                       advanced_by="active", optional=True,
                       allows=("fire", *RECORD, UNCOVERED)),
                  Step(id="close_combat", title="(c) Close combat", rule="WC-7",
                       advanced_by="active", optional=True,
                       allows=("resolve_combat", "move_unit", *RECORD, UNCOVERED)),
                  Step(id="officers", title="FO/CO special move", rule="WC-8",
                       acting="active", optional=True,
                       allows=("rule_roll", "move_unit", UNCOVERED)),
              )),
    )),
    Step(id="victory", title="Victory check", rule="WC-10", shared=True,
         allows=("score_vp", "place_marker", "remove_marker", UNCOVERED)),
))
IN_A_RUN = (ACTIONS, FIRE_COMBAT, CLOSE_COMBAT, OFFICERS_STEP)

WHERE = {
    "roll_initiative": ("WC-1", "initiative is rolled at the start of the turn"),
    "fire": ("WC-7", ("pieces fire in an activation's (a) Actions (the other player's "
                      "opportunity fire) and (b) Fire combat")),
    "resolve_combat": ("WC-7", "close combat is resolved in an activation's (c) Close combat"),
    "enter_result": ("WC-6", "results are entered during the activations"),
}


def _activations_go_on(state: MatchState) -> bool:
    """WC-9: another activation follows while this one activated a unit, none failed and
    units are left; (ours) a run with no activation is the player saying they are done."""
    side = state.turn.active_side
    return (state.activated_this_run() and not state.done(f"failed:WC-6:{side}")
            and bool(can_activate(state, side)))


CONDITIONS = {
    "initiative_settled": lambda s: s.done("initiative"),
    "no_morale_owed": lambda s: not morale_owed(s),
    "no_recovery_owed": lambda s: not recovery_owed(s),
    "activations_go_on": _activations_go_on,
}


def _stand_down(state: MatchState, emit: Emit) -> None:
    """Outside an activation's steps no unit is carrying one out."""
    for unit in state.in_play():
        if ACTING in unit.status:
            emit(ev.UnitStatusChanged, unit_id=unit.id, cleared=(ACTING,), rule="WC-9")


def _phase_passes(state: MatchState, emit: Emit) -> None:
    """WC-9: when the marker reaches the actions of a run in which no unit activated (the
    player is done) or the activation failed, the phase passes at once: the service moves
    the marker past the rest of this activation's steps."""
    if state.activated_this_run() and not state.done(f"failed:WC-6:{state.turn.active_side}"):
        return
    marker = state.turn
    while marker.step in IN_A_RUN:
        marker = following(SEQUENCE, marker, state, CONDITIONS)
    emit(ev.PhaseAdvanced, origin=state.turn.step, marker=marker, rule="WC-9")
    _stand_down(emit.state, emit)


# ---- who may do what, step by step --------------------------------------------------------

def _move(command: cmd.MoveUnit, state: MatchState, emit: Emit) -> None:
    """Who moves in each step: officers in (a); a piece that disengaged in (d); in (e) any
    piece but one still corner-locked; the activated unit in its actions (not a piece left out of it, WC-5) and after close
    combat; officers in WC-8's step."""
    moved = unit_in_play(state, command.unit_id)
    step = state.turn.step
    rule = SEQUENCE.step(step).rule
    phasing = moved.side == state.turn.active_side
    active = acting_unit(state)
    if step == f"{PRE}/a_reposition" and moved.kind not in OFFICERS:
        raise InvalidAction("WC-2 (a): only Field and Commanding Officers reposition here",
                            rule="WC-2")
    if step == f"{PRE}/d_corner_lock" and (
            not state.done(f"WC-5:{moved.id}") or "corner_locked" in moved.status):
        raise InvalidAction(f"WC-5: only a piece that has disengaged moves back here "
                            f"('{moved.id}' has not)", rule="WC-5")
    if step == f"{PRE}/e_line_command" and "corner_locked" in moved.status:
        raise InvalidAction(f"WC-5: '{moved.id}' is still corner-locked: it stays where it is "
                            f"until it breaks free", rule="WC-5")  # (ours), docs/rulesets
    if step in (ACTIONS, CLOSE_COMBAT) and phasing and (active is None
                                                        or not of_unit(moved, active)):
        raise InvalidAction(f"WC-7: only the unit now activating and its pieces move "
                            f"({active.id if active else 'none'})", rule="WC-7")
    if step == ACTIONS and not phasing:
        raise InvalidAction("WC-7: during the other player's actions you may fire, not move",
                            rule="WC-7")
    if step == ACTIONS and active is not None:  # (c)'s moves carry out a combat's result
        check_taking_part(moved, active, "move")
    if step == OFFICERS_STEP:
        _officer_moves(moved, active, state, emit)
    emit(ev.UnitMoved, unit_id=moved.id, origin=moved.position, to=command.to, rule=rule)


def _officer_moves(officer: Unit, active: Unit | None, state: MatchState, emit: Emit) -> None:
    """WC-8: the wing commander moves the moves it rolled; a CO commanding no wing moves one
    move with each wing's activation, without a roll (recorded as the CO activated with
    that wing, so that it moves once a wing)."""
    if officer.kind not in OFFICERS:
        raise InvalidAction("WC-8: only officers move in this step", rule="WC-8")
    if active is None:
        raise InvalidAction("WC-8: officers move during a wing's activation; none is under "
                            "way", rule="WC-8")
    if commands_a_wing(officer):
        if wing(officer) != wing(active) or not state.done(f"WC-8:{officer.id}"):
            raise InvalidAction(f"WC-8: '{officer.id}' moves after rolling its special move, "
                                f"while its wing activates", rule="WC-8")
        return  # (ours) the service records the moves; it does not measure them
    group = f"co-move:{officer.id}:{wing(active)}"
    if state.done(group_fact(officer.side, group)):
        raise InvalidAction(f"WC-8: '{officer.id}' has made its one move with wing "
                            f"{wing(active)}", rule="WC-8")
    emit(ev.UnitsActivated, side=officer.side, unit_ids=(officer.id,), group=group,
         run=state.turn.run, rule="WC-8")


# ---- what the match waits for ---------------------------------------------------------------

def _run_expects(state: MatchState, side: str | None) -> str:
    step = state.turn.step
    active = acting_unit(state)
    if state.done(f"failed:WC-6:{side}"):
        return f"an activation failed: {side} goes on, the phase passes (WC-9)"
    if step == ACTIVATE:
        if active is not None:
            return f"{active.id} has activated: on to its actions"
        left = ", ".join(u.id for u in can_activate(state, side))
        return (f"{side} activates a unit ({left or 'none left'}), or goes on without one: "
                "the phase passes")
    if active is None:
        return f"no unit activated: {side} goes on, and the phase passes"
    if step == ACTIONS:
        return (f"{active.id}: movement, formation changes, special actions (the other "
                "player may fire: opportunity fire), then go on to fire combat")
    if step == FIRE_COMBAT:
        return (f"{active.id}'s pieces fire, the other player's defensive fire, then go on "
                "to close combat")
    if step == CLOSE_COMBAT:
        return f"{active.id}'s pieces in edge contact fight, then go on"
    return (f"wing {wing(active)}: its commander may roll its special move and move; a CO "
            "commanding no wing may move one move; then go on")


def _expects(state: MatchState) -> list[str]:
    step = state.turn.step
    side = state.turn.active_side
    if state.awaiting is not None:
        return [f"{state.awaiting.by} to enter the result of {state.awaiting.what}"]
    if step == "initiative":
        if state.initiative_groups:
            return ["tied players re-roll the initiative (WC-1)"]
        return (["the initiative is settled: each side goes on"] if state.done("initiative")
                else ["initiative rolls: d6 + the CO's LV for each side"])
    if step == f"{PRE}/b_unit_morale":
        owed = morale_owed(state)
        return ([f"units owing a morale check: {', '.join(u.id for u in owed)}"] if owed
                else ["no morale check is due: go on"])
    if step == f"{PRE}/c_disruption":
        owed = recovery_owed(state)
        return ([f"disrupted pieces to roll: {', '.join(p.id for p in owed)}"] if owed
                else ["no disrupted piece left to roll: go on"])
    if step.startswith(RUN):
        return [_run_expects(state, side)]
    if step == "victory":
        return ["check the victory conditions; each side goes on"]
    return [f"{side}: {SEQUENCE.step(step).title} (optional), then go on"]


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
        conditions=CONDITIONS,
        unit_tests={"morale_owed": owes_morale, "recovery_owed": owes_recovery},
        side_tests=INITIATIVE_TESTS,
        actions={"roll_initiative": initiative(co_lv, by_totals, "WC-1", "WC-1"),
                 "fire": fire, "resolve_combat": close_combat, "remove_unit": remove,
                 "move_unit": _move},
        on_enter={ACTIONS: _phase_passes,
                  **{step: _stand_down for step in SEQUENCE.steps() if step not in IN_A_RUN}},
        rolls={
            "unit_morale": Roll("WC-3", (f"{PRE}/b_unit_morale",), unit_morale),
            "disruption_recovery": Roll("WC-4", (f"{PRE}/c_disruption",), recovery),
            "disengage": Roll("WC-5", (f"{PRE}/d_corner_lock",), disengage),
            "activation": Roll("WC-6", (ACTIVATE,), activation),
            "special_move": Roll("WC-8", (OFFICERS_STEP,), special_move),
        },
        end_of_turn=end_by_points(number_option(options, "turns", 1, 100, "a number of turns"),
                                  "turn", "WC-10"),
        expects=_expects,
        where=WHERE,
        unit_info=_unit_info,
        sides=Sides(2, 2, "WC-9"),  # the phasing player, then the other player
    )
