"""What the legal answer says of a side's standing pass (`StandingPassOffer`): on or off, the
choice that starts or stops it, and where it stops next (`domain.acting.ahead.next_stop`),
in words. The pass itself (the dones it says) is the command path's: `domain.acting.standing`."""

from __future__ import annotations

from domain.acting.ahead import Stop
from domain.acting.holds import CHOOSES, OWES
from domain.legal.model import Choice, StandingPassOffer
from domain.rulesets import Ruleset
from domain.state import MatchState

PASS = Choice(label="Pass until I must act", body={"type": "standing_pass"})
STOP = Choice(label="Stop passing", body={"type": "standing_pass", "on": False})


def offer(state: MatchState, ruleset: Ruleset, seat: str,
          stop: Stop | None) -> StandingPassOffer | None:
    """What the legal answer says of `seat`'s standing pass: on (and how to stop it) or off
    (and how to start it), and where it stops next (`stop`, None: not told); None for the
    referee, a spectator, or after the end."""
    if seat not in state.side_ids() or state.outcome is not None:
        return None
    where, why = _where(state, ruleset, stop)
    then = f" Next stop: {where}{f' ({why})' if why else ''}." if where else ""
    if seat in state.passing:
        return StandingPassOffer(on=True, choice=STOP, stops=where, why=why, says=(
            "Passing until you must act: your done is said for you in every step where you "
            "owe nothing and have nothing to do but say done, until the turn ends." + then))
    return StandingPassOffer(on=False, choice=PASS, stops=where, why=why, says=(
        "Pass until you must act, for the rest of this turn: your done is said for you in "
        "every step where you owe nothing and have nothing to do but say done; it stops "
        "where you owe something or have a move to choose." + then))


def _where(state: MatchState, ruleset: Ruleset,
           stop: Stop | None) -> tuple[str | None, str | None]:
    """The step where the pass stops next and why, in words."""
    if stop is None:
        return None, None
    if stop.step is None:
        return "the end of the turn", "nothing before it is yours: the pass ends with the turn"
    step = ruleset.sequence.step(stop.step)
    said = f"{step.title or step.id} ({step.rule})" if step.rule else (step.title or step.id)
    if stop.step == state.turn.step:
        said = f"this step, {said}"
    why = stop.why
    if stop.rolls:
        return said, "your done there rolls the dice: yours to tap"
    if why is not None and why.kind == OWES:
        return said, "you owe: " + "; ".join(f"to {o.says} ({o.rule})" for o in why.owes)
    if why is not None and why.kind == CHOOSES:
        return said, "yours to choose"
    return said, "the answer was cut short there: it may hold a move of yours"
