"""What a ruleset is: data (its sequence of play) plus the few functions that data names."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from domain.commands import Command
from domain.sequence import Conditions, SequenceOfPlay
from domain.state import MatchState

Check = Callable[[Command, MatchState, str], None]  # raises a DomainError to refuse


@dataclass(frozen=True)
class Ruleset:
    id: str
    version: int
    title: str
    sequence: SequenceOfPlay
    conditions: Conditions = field(default_factory=dict)
    checks: tuple[Check, ...] = ()  # extra validation beyond the core's, run by decide
