"""`atomic-africa`: Atomic Africa (AA-1 to AA-8).

The arithmetic first (the morale die after wound shifts, who must split, how a unit splits,
what a morale roll needs), then the ruleset: the sequence of play (alternating Activation
Phases, then Clean-Up with its Split, Morale and card sub-phases, in each of which both
sides act and the marker moves on once both have said they are done) and the procedures
the service performs itself (compulsory splits and the destruction of units too small to
split, morale rolls on the shifted die, the card reset).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Literal

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit, SplitPlan, evenly, split_evenly
from domain.context import unit as unit_in_play
from domain.duties import OWNER, Duty
from domain.errors import InvalidAction, NotYourTurn
from domain.rulesets.base import Ruleset, Sides, dice, end_by_points, number_option
from domain.sequence import Phase, SequenceOfPlay, Step
from domain.state import MatchState, MoraleDie, Unit

CHAIN: tuple[MoraleDie, ...] = ("d12", "d10", "d8", "d6", "d4")  # AA-2, best first
WOUND = "wound"
SUPPRESSION = "suppression"
MIN_SPLIT_FIGURES = 6  # AA-4: fewer than six figures cannot split
Half = Literal["first", "second"]


def morale_die(base: MoraleDie, wounds: int) -> MoraleDie | None:
    """AA-2: each wound shifts the base die one type down the chain; None when the wounds
    would shift it below d4 (AA-3: the unit must split)."""
    index = CHAIN.index(base) + wounds
    return CHAIN[index] if index < len(CHAIN) else None


def must_split(base: MoraleDie, wounds: int) -> bool:
    return morale_die(base, wounds) is None


def split_plan(figures: int, markers: dict[str, int],
               odd_to: dict[str, Half] | None = None) -> SplitPlan:
    """AA-3: the service's split as equal as possible (domain.context.evenly): for
    an odd figure (11 -> 6 + 5) or an odd count of a marker kind, `odd_to["figures"]` or
    `odd_to[kind]` says which half takes the extra one (the first if not said)."""
    if figures < MIN_SPLIT_FIGURES:
        raise ValueError(f"AA-4: a unit of {figures} figures cannot split")
    return evenly(figures, markers, odd_to)


def morale_succeeds(score: int, suppression: int) -> bool:
    """AA-7: the roll succeeds when the score is greater than the suppression markers."""
    return score > suppression


def success_chance(die: MoraleDie, suppression: int) -> Fraction:
    """The chance that a morale roll on `die` succeeds against `suppression` markers."""
    sides = int(die[1:])
    return Fraction(max(0, sides - suppression), sides)


# ---- the ruleset --------------------------------------------------------------------------

TABLE_ACTIONS = ("move_unit", "place_marker", "remove_marker", "roll_dice", "remove_unit",
                 "set_status", "set_track", "score_vp", "draw_cards", "play_card")

# (ours) AA-1: each Activation Phase activates one unit, and a side with a unit left must
# activate it (no passing): the phases go on "until no unit is eligible", which a pass would
# never reach. The side listed first in the scenario opens every turn (the text says nothing
# of who starts). The reacting side may record what its units do in answer (the text names
# the role and leaves its reactions to the game's other rules).
# What each step owes (domain.duties): AA-1's activation, AA-3's compulsory splits, AA-7's
# Morale rolls and AA-8's card reset. A voluntary split (AA-5) and what the activated unit
# does are choices, not duties.
ACTIVATE = Duty(rule="AA-1", says="activate one of your units that has not activated this turn",
                by="active", units="may_activate", done_by=("activate_unit",))
SPLIT = Duty(rule="AA-3", says="split each of your units whose wounds take its Morale die "
             "below d4 (under six figures: remove it)", by=OWNER, units="must_split",
             done_by=("split_unit", "remove_unit"))
MORALE = Duty(rule="AA-7", says="roll Morale for each of your units with suppression",
              by=OWNER, units="morale_owed", done_by=("roll_morale",))
SHUFFLE = Duty(rule="AA-8", says="shuffle your deck", by="each", owed_while="deck_unshuffled",
               done_by=("shuffle_deck",))
CUT = Duty(rule="AA-8", says="cut your opponent's shuffled deck", by="each",
           owed_while="deck_to_cut", done_by=("cut_deck",))

# (ours) AA-1: each Activation Phase activates one unit, and a side with a unit left must
# activate it (no passing): the phases go on "until no unit is eligible", which a pass would
# never reach. The side listed first in the scenario opens every turn (the text says nothing
# of who starts). The reacting side may record what its units do in answer (the text names
# the role and leaves its reactions to the game's other rules).
SEQUENCE = SequenceOfPlay(phases=(
    Phase(id="activation", title="Activation", rule="AA-1", repeat_while="units_eligible",
          alternate=True, eligible="side_can_activate", children=(
              Step(id="activate", title="Activation", rule="AA-1",
                   allows=("activate_unit", *TABLE_ACTIONS), advanced_by="active",
                   leave_when="activated_this_phase", owes=(ACTIVATE,)),)),
    Phase(id="cleanup", title="Clean-Up", rule="AA-3", children=(
        Step(id="split", title="Clean-Up Split sub-phase", rule="AA-3", shared=True,
             allows=("split_unit", "remove_unit"), leave_when="no_split_pending",
             owes=(SPLIT,)),
        Step(id="morale", title="Clean-Up Morale sub-phase", rule="AA-7", shared=True,
             allows=("roll_morale",), leave_when="no_morale_owed", owes=(MORALE,)),
        Step(id="cards", title="Clean-Up card reset", rule="AA-8", shared=True,
             allows=("shuffle_deck", "cut_deck"), leave_when="decks_reset",
             owes=(SHUFFLE, CUT)),
    )),
))

DONE = "then each side says it is done"
WHERE = {
    "activate_unit": ("AA-1", "units activate only in an Activation Phase"),
    "split_unit": ("AA-3", "units split only in the Clean-Up Split sub-phase"),
    "roll_morale": ("AA-7", "morale rolls are made only in the Clean-Up Morale sub-phase"),
    "shuffle_deck": ("AA-8", "decks are shuffled only at the end of the Clean-Up Phase"),
    "cut_deck": ("AA-8", "decks are cut only at the end of the Clean-Up Phase"),
    **{kind: ("AA-1", "this is done during an Activation Phase") for kind in TABLE_ACTIONS},
}


def current_die(unit: Unit) -> MoraleDie | None:
    """AA-2: the unit's morale die now (None: it must split); None for a unit without one."""
    if unit.morale_die is None:
        return None
    return morale_die(unit.morale_die, unit.markers.get(WOUND, 0))


def splits(state: MatchState, unit: Unit) -> bool:
    """AA-3: the unit must split (its wounds take its Morale die below d4)."""
    return unit.morale_die is not None and must_split(unit.morale_die, unit.markers.get(WOUND, 0))


def owes_morale(state: MatchState, unit: Unit) -> bool:
    """AA-7: the unit has suppression and has not rolled for morale this turn."""
    return (unit.markers.get(SUPPRESSION, 0) > 0 and unit.morale_die is not None
            and "morale_rolled" not in unit.status)


def split_pending(state: MatchState) -> list[Unit]:
    """AA-3: the units in play that must split."""
    return [u for u in state.in_play() if splits(state, u)]


def morale_owed(state: MatchState) -> list[Unit]:
    """AA-7: the units with suppression that have not rolled for morale this turn."""
    return [u for u in state.in_play() if owes_morale(state, u)]


def _eligible(state: MatchState, side: str | None = None) -> list[Unit]:
    """AA-1: units that can still activate this turn (in play, on the table, not yet)."""
    return [u for u in state.in_play(side) if "activated" not in u.status
            and (u.position is None or u.position.box is None)]



def _may_activate(state: MatchState, unit: Unit) -> bool:
    """AA-1: a unit the activating side may activate now (its phase has activated none):
    the activation is owed, one of these units its choice."""
    return (unit.side == state.turn.active_side and not state.activated_this_run()
            and unit in _eligible(state, unit.side))


def _activated_this_phase(state: MatchState) -> bool:
    side = state.turn.active_side
    return state.activated_this_run() or not _eligible(state, side)


def _deck_unshuffled(state: MatchState, side: str) -> bool:
    """AA-8: the side has cards and has not shuffled them this turn."""
    return side in _card_sides(state) and not state.done(f"shuffled:{side}")


def _deck_to_cut(state: MatchState, side: str) -> bool:
    """AA-8: another side's deck is shuffled and not yet cut (the opponent cuts it)."""
    return any(state.done(f"shuffled:{other}") and not state.done(f"cut:{other}")
               for other in _card_sides(state) if other != side)


def _decks_reset(state: MatchState) -> bool:
    return all(state.done(f"shuffled:{side}") and state.done(f"cut:{side}")
               for side in _card_sides(state))


def _card_sides(state: MatchState) -> list[str]:
    return [s for s in state.side_ids()
            if state.decks.get(s) or state.hands.get(s) or state.discards.get(s)
            or state.discarded.get(s)]


def _still_to_do(state: MatchState, side: str) -> str | None:
    """What `side` must still do in the current Clean-Up sub-phase before it is done."""
    step = state.turn.step
    if step == "cleanup/split":
        units = [u.id for u in split_pending(state) if u.side == side]
        return f"AA-3: split {', '.join(units)}" if units else None
    if step == "cleanup/morale":
        units = [u.id for u in morale_owed(state) if u.side == side]
        return f"AA-7: roll Morale for {', '.join(units)}" if units else None
    if step == "cleanup/cards":
        owed = [f"shuffle {side}'s deck"] if (side in _card_sides(state) and not state.done(
            f"shuffled:{side}")) else []
        owed += [f"cut {other}'s deck" + ("" if state.done(f"shuffled:{other}") else
                                          f" once {other} has shuffled it")
                 for other in _card_sides(state) if other != side
                 and not state.done(f"cut:{other}")]
        return f"AA-8: {'; '.join(owed)}" if owed else None
    return None


def _expects(state: MatchState) -> list[str]:
    step = state.turn.step
    if step == "activation/activate":
        side = state.turn.active_side
        if _activated_this_phase(state):
            return [f"{side} may act with the activated unit, then go on"]
        return [f"{side} to activate one of: {', '.join(u.id for u in _eligible(state, side))}"]
    if step == "cleanup/split":
        pending = split_pending(state)
        return ([f"units that must split: {', '.join(u.id for u in pending)}"] if pending
                else [f"voluntary splits (six figures or more); {DONE}"])
    if step == "cleanup/morale":
        pending = morale_owed(state)
        return ([f"units owing a Morale roll: {', '.join(u.id for u in pending)}"] if pending
                else [f"every Morale roll is made; {DONE}"])
    owed = [said for side in state.side_ids() if (said := _still_to_do(state, side))]
    return owed or [f"decks are reset; {DONE}"]


def _check_done(command: cmd.Command, state: MatchState, actor: str) -> None:
    """A side says it is done with a Clean-Up sub-phase only once its part there is done."""
    if isinstance(command, cmd.Advance) and actor in state.side_ids():
        owed = _still_to_do(state, actor)
        if owed is not None:
            rule = owed.split(":")[0]
            raise InvalidAction(f"{owed} before you say you are done", rule=rule)


def _activate(command: cmd.ActivateUnit, state: MatchState, emit: Emit) -> None:
    unit = unit_in_play(state, command.unit_id)
    side = state.turn.active_side
    if unit.side != side:
        raise NotYourTurn(f"AA-1: only the activating player ({side}) activates a unit",
                          rule="AA-1", allowed=[u.id for u in _eligible(state, side)])
    if state.activated_this_run():
        raise InvalidAction("AA-1: one unit activates per Activation Phase; go on to end it",
                            rule="AA-1")
    if unit not in _eligible(state, side):
        raise InvalidAction(f"AA-1: unit '{unit.id}' cannot activate again this turn",
                            rule="AA-1", allowed=[u.id for u in _eligible(state, side)])
    emit(ev.UnitsActivated, side=side, unit_ids=(unit.id,), run=state.turn.run)


def _split(command: cmd.SplitUnit, state: MatchState, emit: Emit) -> None:
    """AA-3..AA-6: the service divides the unit; the owner only says where an odd marker
    goes. New units that must split again and are under six figures are destroyed."""
    parent = unit_in_play(state, command.unit_id)
    if command.figures is not None or command.markers:
        raise InvalidAction("AA-3: the service divides figures and markers; say only which "
                            "half takes an odd marker ('odd_to')", rule="AA-3")
    if parent.figures is None or parent.morale_die is None:
        raise InvalidAction(f"AA-3: unit '{parent.id}' has no figures or Morale die to split",
                            rule="AA-3")
    compulsory = parent in split_pending(state)
    if parent.figures < MIN_SPLIT_FIGURES:
        raise InvalidAction(f"AA-4: unit '{parent.id}' has {parent.figures} figures; fewer than "
                            f"{MIN_SPLIT_FIGURES} cannot split", rule="AA-4" if compulsory
                            else "AA-5")
    new_unit = split_evenly(state, parent, emit, "AA-3" if compulsory else "AA-5",
                            command.odd_to, command.new_unit_id, command.position)
    _destroy_unsplittable(emit, [parent.id, new_unit.id], rule="AA-6")


def _destroy_unsplittable(emit: Emit, unit_ids: list[str] | None, rule: str) -> None:
    """AA-4: a unit that must split but has fewer than six figures is destroyed."""
    for unit in split_pending(emit.state):
        if (unit_ids is None or unit.id in unit_ids) and (unit.figures or 0) < MIN_SPLIT_FIGURES:
            emit(ev.UnitRemoved, unit_id=unit.id, reason="destroyed", rule=rule)


def _enter_split(state: MatchState, emit: Emit) -> None:
    _destroy_unsplittable(emit, None, rule="AA-4")


def _roll_morale(command: cmd.RollMorale, state: MatchState, emit: Emit) -> None:
    unit = unit_in_play(state, command.unit_id)
    owed = morale_owed(state)
    if unit not in owed:
        raise InvalidAction(f"AA-7: unit '{unit.id}' owes no Morale roll (it has no suppression "
                            "or has rolled this turn)", rule="AA-7", allowed=[u.id for u in owed])
    die = current_die(unit)
    assert die is not None  # the Split sub-phase left no unit that must split
    [score], index = dice(command.source, None if command.result is None else [command.result],
                          die, emit)
    suppression = unit.markers[SUPPRESSION]
    emit(ev.DiceRolled, notation=die, dice=(score,), modifier=0, total=score,
         purpose=f"AA-7 Morale roll for {unit.id} against {suppression} suppression",
         source=command.source, roll_index=index, unit_ids=(unit.id,), rule="AA-7")
    emit(ev.UnitStatusChanged, unit_id=unit.id, set=("morale_rolled",), rule="AA-7")
    if morale_succeeds(score, suppression):
        emit(ev.MarkerRemoved, kind=SUPPRESSION, count=1, unit_id=unit.id, rule="AA-7")


def _shuffle_check(command: cmd.Command, state: MatchState, actor: str) -> None:
    if isinstance(command, cmd.ShuffleDeck) and state.done(f"shuffled:{actor}"):
        raise InvalidAction("AA-8: your deck is already shuffled this turn", rule="AA-8")
    if isinstance(command, cmd.CutDeck):
        if not state.done(f"shuffled:{command.side}"):
            raise InvalidAction(f"AA-8: {command.side} shuffles before the deck is cut",
                                rule="AA-8")
        if state.done(f"cut:{command.side}"):
            raise InvalidAction(f"AA-8: {command.side}'s deck is already cut", rule="AA-8")


def _unit_info(state: MatchState, unit: Unit) -> dict[str, Any]:
    if unit.morale_die is None:
        return {}
    die = current_die(unit)
    info: dict[str, Any] = {"base_die": unit.morale_die, "current_die": die,
                            "must_split": die is None}
    if die is not None and unit.markers.get(SUPPRESSION):
        info["morale_chance"] = str(success_chance(die, unit.markers[SUPPRESSION]))
    return info


def atomic_africa(options: Mapping[str, Any]) -> Ruleset:
    return Ruleset(
        id="atomic-africa", version=1, title="Atomic Africa", sequence=SEQUENCE,
        conditions={
            "units_eligible": lambda s: bool(_eligible(s)),
            "side_can_activate": lambda s: bool(_eligible(s, s.turn.active_side)),
            "activated_this_phase": _activated_this_phase,
            "no_split_pending": lambda s: not split_pending(s),
            "no_morale_owed": lambda s: not morale_owed(s),
            "decks_reset": _decks_reset,
        },
        unit_tests={
            "may_activate": _may_activate,
            "must_split": splits,
            "morale_owed": owes_morale,
        },
        side_tests={
            "deck_unshuffled": _deck_unshuffled,
            "deck_to_cut": _deck_to_cut,
        },
        checks=(_shuffle_check, _check_done),
        actions={"activate_unit": _activate, "split_unit": _split, "roll_morale": _roll_morale},
        on_enter={"cleanup/split": _enter_split},
        end_of_turn=end_by_points(number_option(options, "turns", 1, 100, "a number of turns"), "turn",
                                  "AA-1"),
        expects=_expects,
        where=WHERE,
        unit_info=_unit_info,
        sides=Sides(2, 2, "AA-1"),  # an Activating and a Reacting Player
    )
