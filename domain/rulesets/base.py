"""What a ruleset is: data (its sequence of play) plus the few functions that data names.

The core decides every generic action; a ruleset adds what its game defines:
- `conditions`: named tests the sequence reads (`repeat_while`, `leave_when`, `eligible`);
- `checks`: extra refusals run before any action is decided;
- `actions`: procedures that replace or add to the core's handling of an action type;
- `on_enter`: what the service does itself when the marker arrives at a step (AA-4);
- `end_of_turn`: what happens as a turn ends (BG-8: the round limit ends the match);
- `expects`: what the current step is waiting for, in words, for players and errors;
- `where`: for an action out of its step, the rule and where the action belongs;
- `hand_size`: how many cards a side draws up to (BG-6);
- `unit_info`: what the service computes for a unit and shows on the board (AA-2).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain import events as ev
from domain.commands import Command
from domain.context import Emit
from domain.errors import InvalidAction
from domain.sequence import Conditions, SequenceOfPlay
from domain.state import MatchState, Unit

Check = Callable[[Command, MatchState, str], None]  # raises a DomainError to refuse
Procedure = Callable[[Any, MatchState, Emit], None]
Hook = Callable[[MatchState, Emit], None]


def _no_hand_size(state: MatchState, side: str) -> int:
    raise InvalidAction("say how many cards to draw ('count')", rule="core-cards")


@dataclass(frozen=True)
class Ruleset:
    id: str
    version: int
    title: str
    sequence: SequenceOfPlay
    conditions: Conditions = field(default_factory=dict)
    checks: tuple[Check, ...] = ()
    actions: Mapping[str, Procedure] = field(default_factory=dict)
    on_enter: Mapping[str, Hook] = field(default_factory=dict)
    end_of_turn: Hook | None = None
    expects: Callable[[MatchState], list[str]] | None = None
    where: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    hand_size: Callable[[MatchState, str], int] = _no_hand_size
    unit_info: Callable[[MatchState, Unit], dict[str, Any]] | None = None


def end_by_points(limit: int | None, what: str, rule: str) -> Hook:
    """The match ends when turn `limit` ends: most victory points wins, equal is a tie."""
    def end(state: MatchState, emit: Emit) -> None:
        if limit is None or state.turn.turn < limit:
            return
        points = {side: vp.points for side, vp in state.vp.items()}
        best = max(points.values())
        leaders = [side for side, p in points.items() if p == best]
        winner = leaders[0] if len(leaders) == 1 else None
        emit(ev.MatchEnded, winner=winner, rule=rule,
             reason=f"{what} {limit} of {limit} played; " + (
                 f"{winner} has the most victory points" if winner else "victory points tied"))
    return end
