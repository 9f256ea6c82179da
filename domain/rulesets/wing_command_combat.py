"""`wing-command` combat (WC-7): fire combat, close combat and casualties.

Each die is recorded as what it is: one `DiceRolled` per piece that rolls, with that
piece, its purpose and its own modifier (the fire differential on the firing piece's die,
the close-combat differential on the phasing pieces' dice). The last die of a combat makes
the match wait for the result the players read from their own table (`enter_result`).
With table dice, `results` holds one face per die in the order the dice are listed here.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit
from domain.context import unit as unit_in_play
from domain.errors import InvalidAction
from domain.rulesets.base import roll
from domain.rulesets.wing_command_rolls import (
    acting_unit,
    casualty,
    check_taking_part,
    of_unit,
)
from domain.state import MatchState, Unit

ACTIONS = "phase/activations/actions"
FIRE_COMBAT = "phase/activations/fire_combat"
CLOSE_COMBAT = "phase/activations/close_combat"
DIFFERENTIAL = "dC"  # the one modifier of a close combat


@dataclass(frozen=True)
class _Die:
    """One die out of an action's dice: the server's, or one face of the table's."""

    source: str
    results: list[int] | None


def each_die(command: cmd.Fire | cmd.ResolveCombat, count: int, order: str) -> list[_Die]:
    """The action's dice one by one; table dice need one face per die, in `order`."""
    if command.source == "server":
        return [_Die("server", command.results)] * count  # results given are refused by roll
    if command.results is None or len(command.results) != count:
        raise InvalidAction(f"table dice: {count} result(s), one per die: {order}",
                            rule="core-dice")
    return [_Die("table", [face]) for face in command.results]


def _piece(state: MatchState, unit_id: str, what: str) -> Unit:
    found = unit_in_play(state, unit_id)
    if found.kind != "piece":
        raise InvalidAction(f"WC-7: '{found.id}' is not a piece ({what})", rule="WC-7")
    return found


def fire(command: cmd.Fire, state: MatchState, emit: Emit) -> None:
    """WC-7 (b): the firing piece's die plus the fire differential, and the target's die.
    The phasing player fires with the activated unit's pieces in (b) Fire combat; the other
    player fires at any time of the activation's actions (opportunity fire) and in (b)
    (defensive fire). Firing unloads the piece."""
    piece = _piece(state, command.unit_id, "the firer")
    phasing = piece.side == state.turn.active_side
    if phasing and state.turn.step == ACTIONS:
        raise InvalidAction("WC-7: the activated unit's fire is resolved in (b) Fire combat, "
                            "after its actions", rule="WC-7")
    active = acting_unit(state)
    if phasing and (active is None or not of_unit(piece, active)):
        raise InvalidAction(f"WC-7: '{piece.id}' is not a piece of the unit now activating "
                            f"({active.id if active else 'none'})", rule="WC-7")
    if phasing and active is not None:
        check_taking_part(piece, active, "fire")
    if "unloaded" in piece.status:
        raise InvalidAction(f"WC-7: piece '{piece.id}' is unloaded; it must reload first",
                            rule="WC-7")
    if command.target_id is None:
        raise InvalidAction("WC-7: say which piece is fired at ('target_id')", rule="WC-7")
    target = _piece(state, command.target_id, "the target")
    if target.side == piece.side:
        raise InvalidAction("WC-7: fire at an enemy piece", rule="WC-7")
    if command.modifier:
        raise InvalidAction("WC-7: the fire differential ('differential') is the only "
                            "modifier of fire combat", rule="WC-7")
    firing, hit = each_die(command, 2, "the firing piece's, then the target's")
    what = f"WC-7 fire of {piece.id} at {target.id}"
    roll(firing, "d6", emit, f"{what}: the firing piece's die, fire differential "
         f"{command.differential:+d}", "WC-7", (piece.id,), command.differential)
    roll(hit, "d6", emit, f"{what}: the target's die", "WC-7", (target.id,),
         awaits=f"{what}: read the fire result")
    emit(ev.UnitStatusChanged, unit_id=piece.id, set=("unloaded",), rule="WC-7")


def close_combat(command: cmd.ResolveCombat, state: MatchState, emit: Emit) -> None:
    """WC-7 (c): one die for each piece in edge-to-edge contact: `attackers`, the pieces of
    the unit now activating, and `defenders`, the enemy pieces they touch. (ours) `odds`
    states the pieces in contact (attackers:defenders), and the close-combat differential
    (`modifiers: {"dC": n}`) is added to each attacker's die, as the fire differential is
    to the firing piece's."""
    active = acting_unit(state)
    attackers = [_piece(state, a, "an attacker") for a in command.attackers]
    defenders = [_piece(state, d, "a defender") for d in command.defenders]
    for attacker in attackers:
        if active is None or not of_unit(attacker, active):
            raise InvalidAction(f"WC-7: '{attacker.id}' is not a piece of the unit now "
                                f"activating ({active.id if active else 'none'})", rule="WC-7")
    if any(d.side == state.turn.active_side for d in defenders):
        raise InvalidAction("WC-7: the defenders are the enemy pieces in contact",
                            rule="WC-7")
    ids = [*command.attackers, *command.defenders]
    if len(set(ids)) != len(ids):
        raise InvalidAction("WC-7: each piece in contact rolls one die: name it once",
                            rule="WC-7")
    counted = f"{len(attackers)}:{len(defenders)}"
    if command.odds != counted:
        raise InvalidAction(f"WC-7: 'odds' are the pieces in contact, attackers:defenders "
                            f"({counted})", rule="WC-7")
    if set(command.modifiers) - {DIFFERENTIAL}:
        raise InvalidAction(f"WC-7: close combat takes one modifier, the close-combat "
                            f"differential '{DIFFERENTIAL}'", rule="WC-7",
                            allowed=[DIFFERENTIAL])
    dc = command.modifiers.get(DIFFERENTIAL, 0)
    dice = each_die(command, len(ids), "the attackers', then the defenders', as listed")
    what = (f"WC-7 close combat of {', '.join(command.attackers)} against "
            f"{', '.join(command.defenders)}")
    for i, (piece, die) in enumerate(zip([*attackers, *defenders], dice, strict=True)):
        attacking = i < len(attackers)
        last = i == len(ids) - 1
        roll(die, "d6", emit, f"{what}: die of {piece.id}" + (
            f", close-combat differential {dc:+d}" if attacking else ""), "WC-7",
             (piece.id,), dc if attacking else 0,
             awaits=f"{what}: read the close-combat result" if last else None)


def remove(command: cmd.RemoveUnit, state: MatchState, emit: Emit) -> None:
    """A piece destroyed, or removed as a casualty, leaves a casualty marker (WC-2 (e): a
    piece out of command; WC-7: a piece destroyed in combat)."""
    removed = unit_in_play(state, command.unit_id)
    rule = "WC-2" if state.turn.step.endswith("e_line_command") else "WC-7"
    if command.reason in ("casualty", "destroyed"):
        casualty(emit, removed, rule, reason=command.reason)
    else:
        emit(ev.UnitRemoved, unit_id=removed.id, reason=command.reason, to_box=command.to_box,
             rule=rule)
