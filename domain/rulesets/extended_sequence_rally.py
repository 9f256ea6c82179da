"""`extended-sequence`, the Rally Phase (ES-2, ES-3): Q rolls to repair broken-down
equipment, to self-rally a broken unit, and to rally broken and routed units with a leader.

A Q roll is 2d6 (plus a leader's modifier) and passes at the unit's Q plus the scenario's
`q_roll_margin` (default 2) or less (ours). Each attempt is once a turn for its unit: the
service reads that from the facts its own rolls leave, so a repair roll is tagged `ES-2r`
(ES-2, repair) and counts apart from a self-rally (`ES-2`) and a leader's rally (`ES-3`).
"""

from __future__ import annotations

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit, new_unit_id
from domain.context import unit as unit_in_play
from domain.errors import InvalidAction
from domain.rulesets.base import roll
from domain.state import MatchState, Unit

LEADER_DR = 2  # ES-2: an original DR of 2 in a self-rally creates a leader
Q_ROLL_MARGIN = 2  # (ours) the default of the option `q_roll_margin`
REPAIR = "ES-2r"  # the tag of a repair roll: once a turn, apart from the self-rally


def q_roll_passes(dr: int, q: int, modifier: int = 0, margin: int = Q_ROLL_MARGIN) -> bool:
    """(ours) A Q roll: 2d6 plus any leader's modifier, passing at Q + margin or less."""
    return dr + modifier <= q + margin


def q_margin(state: MatchState) -> int:
    margin = state.options.get("q_roll_margin", Q_ROLL_MARGIN)
    assert isinstance(margin, int)  # checked when the match was created
    return margin


def rally_capacity(modifier: int) -> int:
    """ES-3: a leader rallies two bases, adjusted by the negative of its modifier
    (Q4+1: one, Q6-1: three)."""
    return max(0, 2 - modifier)


def leader_modifier(leader: Unit) -> int:
    value = leader.extra.get("modifier", 0)
    return value if isinstance(value, int) else 0


def repair(command: cmd.RuleRoll, state: MatchState, emit: Emit) -> None:
    """ES-2: a Q roll by the unit carrying broken-down equipment repairs it."""
    unit = _roller(command, state)
    if "broken_down" not in unit.status or state.done(f"{REPAIR}:{unit.id}"):
        raise InvalidAction(f"ES-2: '{unit.id}' has no broken-down equipment to repair, or "
                            "has tried this turn", rule="ES-2")
    q, margin = unit.q or 0, q_margin(state)
    a, b = roll(command, "2d6", emit, f"ES-2 repair by {unit.id}: Q roll, 2d6 <= {q + margin}",
                REPAIR, (unit.id,))
    if q_roll_passes(a + b, q, 0, margin):
        emit(ev.UnitStatusChanged, unit_id=unit.id, cleared=("broken_down",), rule="ES-2")


def self_rally(command: cmd.RuleRoll, state: MatchState, emit: Emit) -> None:
    """ES-2: a broken, not routed unit rallies itself on a Q roll; an original 2 also
    creates a leader where it stands."""
    unit = _roller(command, state)
    if "broken" not in unit.status or "routed" in unit.status or state.done(
            f"ES-2:{unit.id}"):
        raise InvalidAction(f"ES-2: '{unit.id}' is not broken (or is routed, or has tried "
                            "this turn); only broken units self-rally", rule="ES-2")
    base = f"{unit.id}-leader"
    leader_id = new_unit_id(state, command.new_unit_id or (
        None if base in state.units else base), base)
    q, margin = unit.q or 0, q_margin(state)
    a, b = roll(command, "2d6", emit, f"ES-2 self-rally of {unit.id}: Q roll, 2d6 <= "
                f"{q + margin}; an original 2 creates a leader", "ES-2", (unit.id,))
    if q_roll_passes(a + b, q, 0, margin):
        emit(ev.UnitStatusChanged, unit_id=unit.id, cleared=("broken",), rule="ES-2")
    if a + b == LEADER_DR:
        leader = Unit(id=leader_id, side=unit.side, name=f"Leader from {unit.name}",
                      kind="leader", q=q, extra={"modifier": 0}, position=unit.position)
        emit(ev.UnitDeployed, unit=leader, rule="ES-2")


def leader_rally(command: cmd.RuleRoll, state: MatchState, emit: Emit) -> None:
    """ES-3: a leader rallies broken and routed units, up to its capacity a Rally Phase."""
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
    q, margin = unit.q or 0, q_margin(state)
    a, b = roll(command, "2d6", emit, f"ES-3 rally of {unit.id} by {leader.id}: Q roll, "
                f"2d6{modifier:+d} <= {q + margin}", "ES-3", (unit.id, leader.id), modifier)
    if q_roll_passes(a + b, q, modifier, margin):
        emit(ev.UnitStatusChanged, unit_id=unit.id,
             cleared=tuple(sorted({"broken", "routed"} & set(unit.status))), rule="ES-3")


def _roller(command: cmd.RuleRoll, state: MatchState) -> Unit:
    if command.unit_id is None:
        raise InvalidAction("say which unit rolls ('unit_id')", rule="ES-2")
    return unit_in_play(state, command.unit_id)
