"""`owed(state, ruleset)`: what is owed now, read from the current step's duties
(`domain.duties`), one `Owed` per seat and duty, in the order the step declares them.

The one reading every derived answer uses: whose turn (`domain.waiting`), leaving a step
(`refuse_leaving`), who may act out of turn (`domain.authority.check_acting`), the board's
`owed`, the standing pass and "Your move". Nothing is owed while the match waits for a
result (`state.awaiting`: that comes first) or after its end."""

from __future__ import annotations

from domain.authority import seats
from domain.context import REFEREE
from domain.duties import EACH, OWNER, Duty, Owed
from domain.errors import OutOfSequence
from domain.rulesets import Ruleset
from domain.state import MatchState

__all__ = ["owed", "owed_by", "refuse_leaving"]


def owed(state: MatchState, ruleset: Ruleset) -> tuple[Owed, ...]:
    """Everything owed now at the current step (see the module's text)."""
    if state.outcome is not None or state.awaiting is not None:
        return ()
    step = ruleset.sequence.step(state.turn.step)
    out: list[Owed] = []
    for duty in step.owes:
        out += _one(duty, state, ruleset)
    return tuple(out)


def owed_by(state: MatchState, ruleset: Ruleset, seat: str) -> tuple[Owed, ...]:
    """What `seat` owes now."""
    return tuple(o for o in owed(state, ruleset) if o.seat == seat)


def refuse_leaving(state: MatchState, ruleset: Ruleset, seat: str | None = None) -> None:
    """Refuse to leave the current step while anything is owed in it (or, for `seat`'s done
    in a shared step, while that seat owes anything), with the first duty's rule and every
    duty in words."""
    due = owed(state, ruleset) if seat is None else owed_by(state, ruleset, seat)
    if not due:
        return
    names = {s.id: s.name for s in state.sides}
    said = "; ".join(_said(o, names, state) for o in due[:5])
    more = f" (and {len(due) - 5} more)" if len(due) > 5 else ""
    raise OutOfSequence(f"{due[0].rule}: this step is not over: {said}{more}", rule=due[0].rule,
                        allowed=sorted({k for o in due for k in o.done_by}))


def _said(item: Owed, names: dict[str, str], state: MatchState) -> str:
    who = "the referee" if item.seat == REFEREE else names.get(item.seat, item.seat)
    units = [state.units[u].name or u for u in item.units if u in state.units]
    concerns = f" ({', '.join(units[:6])}{', ...' if len(units) > 6 else ''})" if units else ""
    return f"{who} is to {item.says}{concerns}"


def _one(duty: Duty, state: MatchState, ruleset: Ruleset) -> list[Owed]:
    if duty.units is not None:
        test = ruleset.unit_tests[duty.units]
        concerned = [u for u in state.in_play() if test(state, u)]
        if not concerned:
            return []
        if duty.by == OWNER:
            by_seat: dict[str, list[str]] = {}
            for unit in concerned:
                by_seat.setdefault(unit.side, []).append(unit.id)
        else:
            ids = [u.id for u in concerned]
            by_seat = {seat: ids for seat in _seats(duty, state, ruleset)}
    else:
        by_seat = {seat: [] for seat in _seats(duty, state, ruleset)}
    if duty.owed_while is not None:
        still = ruleset.side_tests[duty.owed_while]
        by_seat = {seat: ids for seat, ids in by_seat.items() if still(state, seat)}
    return [Owed(seat=seat, rule=duty.rule, says=duty.says, done_by=duty.done_by,
                 units=tuple(ids)) for seat, ids in by_seat.items()]


def _seats(duty: Duty, state: MatchState, ruleset: Ruleset) -> list[str]:
    if duty.by == REFEREE:
        return [REFEREE]
    if duty.by == EACH:
        return list(state.side_ids())
    return seats(ruleset.sequence, state, duty.by)
