"""Battlegroup Activation (BG-7): which battlegroups may activate, the activation itself, and
which units act while it lasts.

A unit belongs to the battlegroup named by its `extra.battlegroup` within its side (two sides
may each have a battlegroup "1"; the one a side activates is its own); a unit without one is
an auxiliary squad, declared with a battlegroup's activation. A unit in the `reserve` box cannot
act. The units of the activation in progress carry the flag `acting` (the board shows it)
until the side whose turn it is ends its activation.
"""

from __future__ import annotations

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit
from domain.errors import InvalidAction, NotYourTurn
from domain.state import MatchState, Unit, group_fact, step_fact

STEP = "activation/activate"
ACTING = "acting"  # the units of the activation in progress
KEPT_FLAGS = ("activated", ACTING)  # the service sets and clears these, never a player
ACTS = ("move_unit", "rally_unit", "roll_dice")  # what a unit of the activation does


def battlegroups(state: MatchState, side: str) -> dict[str, list[Unit]]:
    """The side's battlegroups and the units in each that can act (not in reserve)."""
    groups: dict[str, list[Unit]] = {}
    for unit in state.in_play(side):
        group = unit.extra.get("battlegroup")
        if group is not None:
            groups.setdefault(str(group), [])
            if unit.position is None or unit.position.box != "reserve":
                groups[str(group)].append(unit)
    return groups


def available(state: MatchState, side: str | None) -> list[str]:
    """The side's battlegroups not yet activated this round with a unit able to act."""
    if side is None:
        return []
    return [group for group, able in battlegroups(state, side).items()
            if able and not state.done(group_fact(side, group))]


def auxiliaries(state: MatchState, side: str) -> list[str]:
    """The side's auxiliary squads still free to activate this round."""
    return [u.id for u in state.in_play(side) if "battlegroup" not in u.extra
            and "activated" not in u.status
            and (u.position is None or u.position.box != "reserve")]


def acting(state: MatchState) -> list[Unit]:
    """The units of the activation in progress (none before the side activates)."""
    return [u for u in state.in_play() if ACTING in u.status]


def activated_this_run(state: MatchState) -> bool:
    """The side whose turn it is has activated, or has nothing left to activate."""
    return state.activated_this_run() or not available(state, state.turn.active_side)


def activation_unacted(state: MatchState) -> bool:
    """BG-7: the side whose turn it is has activated a battlegroup, and no unit of the
    activation still in play has acted in it yet: moved, rallied, or been named by a roll
    (`MatchState.this_step`). Nothing is owed once every
    unit of the activation has left play."""
    now = acting(state)
    return state.activated_this_run() and bool(now) and not any(
        state.in_step(step_fact(kind, u.id)) for u in now
        for kind in ("moved", "rallied", "rolled"))


def activate(command: cmd.ActivateBattlegroup, state: MatchState, emit: Emit) -> None:
    side = state.turn.active_side
    actor = emit.context.actor
    if actor not in ("referee", side):
        raise NotYourTurn(f"BG-7: it is {side}'s turn to activate a battlegroup", rule="BG-7",
                          allowed=[x for x in (side, "referee") if x])
    assert side is not None
    if state.activated_this_run():
        raise InvalidAction("BG-7: one battlegroup per turn in the order; go on to the next one",
                            rule="BG-7")
    choices = available(state, side)
    if command.battlegroup not in choices:
        raise InvalidAction(
            f"BG-7: battlegroup '{command.battlegroup}' cannot activate (not {side}'s, already "
            "activated this round, or no unit able to act)", rule="BG-7", allowed=choices)
    free = auxiliaries(state, side)
    wrong = [u for u in command.auxiliaries if u not in free]
    if wrong:
        raise InvalidAction(f"BG-7: not an auxiliary squad of {side} free to activate: "
                            f"{', '.join(wrong)}", rule="BG-7", allowed=free)
    units = [*(u.id for u in battlegroups(state, side)[command.battlegroup]),
             *dict.fromkeys(command.auxiliaries)]
    # BG-7's "act with at least one unit" is owed (the step's duty, `activation_unacted`)
    emit(ev.UnitsActivated, side=side, unit_ids=tuple(units), group=command.battlegroup,
         run=state.turn.run, rule="BG-7")
    for unit_id in units:
        emit(ev.UnitStatusChanged, unit_id=unit_id, set=(ACTING,), rule="BG-7")


def end_activation(state: MatchState, emit: Emit) -> None:
    """The activation is over: its units no longer act (when the marker leaves it)."""
    for unit in state.units.values():
        if ACTING in unit.status:
            emit(ev.UnitStatusChanged, unit_id=unit.id, cleared=(ACTING,), rule="BG-7")


def _acts(command: cmd.Command) -> tuple[list[str], bool] | None:
    """The units an action has act, and whether every one of them must be of the activation
    (a move, a rally) or one is enough (a roll that names the units it concerns: the
    firer's and its target's). None: the action is no unit's act. (ours) Markers, statuses
    and removals record what befalls a unit (the effect of fire), not an act of its own."""
    if isinstance(command, cmd.MoveUnit | cmd.RallyUnit):
        return [command.unit_id], True
    if isinstance(command, cmd.RollDice) and command.unit_ids:
        return list(command.unit_ids), False
    return None


def check_units_act(command: cmd.Command, state: MatchState, actor: str) -> None:
    """BG-7: while a battlegroup is activated, only its units and the auxiliary squads
    declared with it act; before the side activates, no unit acts."""
    if isinstance(command, cmd.SetStatus) and set(KEPT_FLAGS) & {*command.set, *command.clear}:
        raise InvalidAction("BG-7: the service keeps the 'activated' and 'acting' flags "
                            "(activate_battlegroup sets them)", rule="BG-7")
    acts = _acts(command) if state.turn.step == STEP else None
    if acts is None:
        return
    ids, every = acts
    named = [state.units[u] for u in ids if u in state.units]  # the procedure refuses others
    now = acting(state)
    inside = [u for u in named if u in now]
    if not named or (len(inside) == len(named) if every else inside):
        return
    side = state.turn.active_side
    if not now:
        said = f"BG-7: {side} activates a battlegroup first; no unit acts before it"
    else:
        group = next((str(u.extra["battlegroup"]) for u in now if "battlegroup" in u.extra), "")
        said = (f"BG-7: in {side}'s activation of battlegroup '{group}' only its units and the "
                f"auxiliary squads declared with it act ({', '.join(u.id for u in now)})"
                + ("" if every else "; a roll names the unit of the activation it is for"))
    outside = [u for u in named if u not in now]
    allowed = [u.id for u in now]
    if actor != side and all(u.side != side for u in outside):
        raise NotYourTurn(said.replace("BG-7: ", f"BG-7: it is {side}'s turn; ", 1),
                          rule="BG-7", allowed=allowed)
    raise InvalidAction(said, rule="BG-7", allowed=allowed)
