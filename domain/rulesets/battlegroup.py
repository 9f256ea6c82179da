"""`battlegroup`: Battlegroup skirmish (BG-1 to BG-9), two or more players.

Each round: Initiation (initiative BG-2..BG-5, Command Cards BG-6, then the special rules
that act at this point, BG-1), Battlegroup Activation (BG-7, in
`battlegroup_activation`), Round Up (BG-8); the scenario's round limit ends the match
(BG-9). Every step but the activations is one where every side acts: the marker moves on
when each side has said it is done. In an activation the side whose turn it is ends it.

A Commander is a unit of kind `commander` with a `cv`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit, named, own_side
from domain.duties import EACH, Duty
from domain.errors import InvalidAction, NotYourTurn
from domain.rulesets.base import (
    INITIATIVE_TESTS,
    Hook,
    Ruleset,
    Sides,
    by_totals,
    end_by_points,
    initiative,
    initiative_duties,
)
from domain.rulesets.battlegroup_activation import (
    ACTS,
    activate,
    activated_this_run,
    activation_unacted,
    available,
    check_units_act,
    end_activation,
)
from domain.sequence import Phase, SequenceOfPlay, Step
from domain.state import MatchState, Unit

TABLE_ACTIONS = ("move_unit", "place_marker", "remove_marker", "roll_dice", "remove_unit",
                 "set_status", "set_track", "score_vp", "play_card", "rally_unit")

# What the steps owe (domain.duties): every side's initiative roll (BG-2; the tied sides'
# re-roll, BG-4), each side's draw up to its hand size (BG-6; discarding is a choice), the
# activation of a battlegroup by the side whose turn it is, and (ours: a move, a rally or a
# roll naming one of its units, the acts the service sees) its acting with one unit (BG-7).
DRAW = Duty(rule="BG-6", says="draw Command Cards up to your hand size", by=EACH,
            owed_while="hand_to_fill", done_by=("draw_cards",))
ACTIVATE = Duty(rule="BG-7", says="activate one of your battlegroups not yet activated this "
                "round", by="active", owed_while="battlegroup_to_activate",
                done_by=("activate_battlegroup",))
ACT = Duty(rule="BG-7", says="act with at least one unit of the activated battlegroup (move, "
           "rally or roll for it)", by="active", owed_while="activation_unacted", done_by=ACTS)

# (ours) Every step where all players act (initiative, cards, special rules, Round Up) is
# shared: it ends when each side has said it is done, so no one's part is cut short. The
# special rules that act last in Initiation get a step of their own, under BG-1 (the parts
# of a round), since no numbered rule covers them.
SEQUENCE = SequenceOfPlay(phases=(
    Phase(id="initiation", title="Initiation", rule="BG-2", children=(
        Step(id="initiative", title="Initiative", rule="BG-2", shared=True,
             allows=("roll_initiative", "pass_initiative"), leave_when="initiative_settled",
             owes=initiative_duties("BG-2", "BG-4")),
        Step(id="cards", title="Command Cards", rule="BG-6", shared=True,
             allows=("discard_cards", "draw_cards"), leave_when="hands_filled", owes=(DRAW,)),
        Step(id="special_rules", title="Special rules", rule="BG-1", shared=True,
             allows=TABLE_ACTIONS),
    )),
    Phase(id="activation", title="Battlegroup Activation", rule="BG-7",
          repeat_while="battlegroups_left", alternate=True, eligible="side_can_activate",
          children=(
              Step(id="activate", title="Battlegroup Activation", rule="BG-7",
                   allows=("activate_battlegroup", *TABLE_ACTIONS), advanced_by="active",
                   leave_when="activated_this_run", owes=(ACTIVATE, ACT)),)),
    Step(id="round_up", title="Round Up", rule="BG-8", shared=True, allows=TABLE_ACTIONS),
))

UNITS_ACT = ("units act when their battlegroup activates; special rules act at the end of "
             "Initiation (BG-1) and in Round Up (BG-8)")
DONE = "every side then says it is done"
WHERE = {
    "roll_initiative": ("BG-2", "initiative is rolled only in the Initiation phase"),
    "pass_initiative": ("BG-5", "the initiative is handed over only in the Initiation phase"),
    "discard_cards": ("BG-6", "Command Cards are discarded only in the Initiation phase"),
    "draw_cards": ("BG-6", "Command Cards are drawn only in the Initiation phase"),
    "activate_battlegroup": ("BG-7", ("battlegroups activate only in the Battlegroup "
                             "Activation phase")),
    **{kind: ("BG-7", UNITS_ACT) for kind in TABLE_ACTIONS},
}


# ---- what the rules compute ---------------------------------------------------------------

def _on_table(unit: Unit) -> bool:
    return unit.position is None or unit.position.box is None


def _commanders(state: MatchState, side: str) -> list[Unit]:
    return [u for u in state.in_play(side) if u.kind == "commander" and u.cv is not None]


def command_value(state: MatchState, side: str) -> int:
    """BG-2: the highest CV among the side's Commanders on the table, 0 if none. (ours) A
    Commander embarked in a transport is not on the table for the initiative."""
    return max((u.cv or 0 for u in _commanders(state, side) if _on_table(u)), default=0)


def hand_size(state: MatchState, side: str) -> int:
    """BG-6: the highest CV among the side's Commanders on the table or embarked in a
    transport; 1 if it has none."""
    values = [u.cv or 0 for u in _commanders(state, side)
              if _on_table(u) or (u.position is not None and u.position.box == "transport")]
    return max(values) if values else 1


def rank(dice: Mapping[str, int], cv: Mapping[str, int]) -> tuple[tuple[str, ...], ...]:
    """BG-2..BG-4 for one roll among `dice`'s sides: a lone natural 6 wins whatever the
    totals; otherwise (and for the rest) higher totals go first; sides on the same total
    stay grouped, to be re-rolled among themselves. (ours) A re-roll among tied sides
    applies the lone-6 rule among them too, and orders them only among themselves."""
    sixes = [side for side, die in dice.items() if die == 6]
    if len(sixes) != 1:
        return by_totals(dice, cv)
    return ((sixes[0],), *by_totals({s: d for s, d in dice.items() if s != sixes[0]}, cv))


def _hand_full(state: MatchState, side: str) -> bool:
    """(ours) A side whose deck has run out holds what it has."""
    return (state.done(f"drawn:{side}") or len(state.hands.get(side, ())) >= hand_size(state, side)
            or not state.decks.get(side))


# ---- procedures ---------------------------------------------------------------------------

def _pass_initiative(command: cmd.PassInitiative, state: MatchState, emit: Emit) -> None:
    order = state.turn.initiative
    if not state.done("initiative"):
        raise InvalidAction("BG-5: roll the initiative first", rule="BG-5")
    if state.done("initiative_passed"):
        raise InvalidAction("BG-5: the initiative has already been handed over this round",
                            rule="BG-5")
    if emit.context.actor not in ("referee", order[0]):
        raise NotYourTurn(f"BG-5: only the winner ({order[0]}) may hand over the initiative",
                          rule="BG-5", allowed=[order[0]])
    emit(ev.InitiativePassed, side=order[0], to=order[1],
         order=(order[1], order[0], *order[2:]), rule="BG-5")


def _check(command: cmd.Command, state: MatchState, actor: str) -> None:
    if isinstance(command, cmd.DiscardCards) and state.done(f"drawn:{actor}"):
        raise InvalidAction("BG-6: discard before drawing; you have drawn this round",
                            rule="BG-6")
    if isinstance(command, cmd.DrawCards):
        side = own_side(state, actor, "BG-6")
        if command.count is not None:
            raise InvalidAction(f"BG-6: the service draws up to your hand size "
                                f"({hand_size(state, side)}); leave out 'count'", rule="BG-6")
        if state.done(f"drawn:{side}"):
            raise InvalidAction("BG-6: you have drawn this round", rule="BG-6")
    if (isinstance(command, cmd.Advance) and state.turn.step == "initiation/cards"
            and actor in state.side_ids() and not _hand_full(state, actor)):
        raise InvalidAction(f"BG-6: draw up to your hand size ({hand_size(state, actor)}) "
                            "before you say you are done", rule="BG-6")


def _expects(state: MatchState) -> list[str]:
    step = state.turn.step
    order = state.turn.initiative
    if step == "initiation/initiative":
        if state.initiative_groups:
            tied = [", ".join(g) for g in state.initiative_groups if len(g) > 1]
            return [f"tied players to re-roll: {'; '.join(tied)}"]
        if not state.done("initiative"):
            return [f"initiative rolls for: {', '.join(state.side_ids())}"]
        if not state.done("initiative_passed") and order[0] not in state.turn.done:
            return [f"{order[0]} may hand first place to {order[1]}; {DONE}"]
        return [f"the initiative is settled; {DONE}"]
    if step == "initiation/cards":
        waiting = [f"{side} to discard (optional) and draw up to {hand_size(state, side)}"
                   for side in order if not _hand_full(state, side)]
        return waiting or [f"hands are filled; {DONE}"]
    if step == "initiation/special_rules":
        return [f"special rules that act at the end of Initiation, in initiative order; {DONE}"]
    if step == "activation/activate":
        side = state.turn.active_side
        if activated_this_run(state):
            return [f"{side} acts with the activated battlegroup, then goes on"]
        return [f"{side} to activate one of: " + ", ".join(
            named(state, "battlegroup_names", group) for group in available(state, side))]
    # (ours) the initiative order is shown, not enforced: the text uses it to settle doubts
    return [f"Round Up: its special rules, in initiative order; {DONE}"]


def _rounds(options: Mapping[str, Any]) -> int:
    rounds = options.get("rounds")
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 100:
        raise InvalidAction("BG-1: option 'rounds' (the scenario's number of rounds, 1 to 100) "
                            "is required", rule="BG-1")
    return rounds


def _end_of_round(rounds: int) -> Hook:
    """BG-8/BG-9: the round ends (no unit is left acting); at the round limit, the match."""
    end = end_by_points(rounds, "round", "BG-8")

    def hook(state: MatchState, emit: Emit) -> None:
        end_activation(state, emit)
        end(emit.state, emit)
    return hook


def battlegroup(options: Mapping[str, Any]) -> Ruleset:
    return Ruleset(
        id="battlegroup", version=1, title="Battlegroup", sequence=SEQUENCE,
        conditions={
            "initiative_settled": lambda s: s.done("initiative"),
            "hands_filled": lambda s: all(_hand_full(s, side) for side in s.side_ids()),
            "battlegroups_left": lambda s: any(available(s, side) for side in s.side_ids()),
            "side_can_activate": lambda s: bool(available(s, s.turn.active_side)),
            "activated_this_run": activated_this_run,
        },
        side_tests={
            **INITIATIVE_TESTS,
            "hand_to_fill": lambda s, side: not _hand_full(s, side),
            "battlegroup_to_activate": lambda s, side: not activated_this_run(s),
            "activation_unacted": lambda s, side: activation_unacted(s),
        },
        checks=(_check, check_units_act),
        actions={"roll_initiative": initiative(command_value, rank, "BG-2", "BG-4"),
                 "pass_initiative": _pass_initiative, "activate_battlegroup": activate},
        # BG-7: an activation ends when the marker moves, wherever it goes
        on_enter={step: end_activation for step in SEQUENCE.steps()},
        end_of_turn=_end_of_round(_rounds(options)),
        expects=_expects,
        where=WHERE,
        hand_size=hand_size,
        sides=Sides(rule="BG-2"),  # two or more players, each rolling for the initiative
    )
