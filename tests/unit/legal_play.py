"""A demo match in memory for the legal-actions tests: its state, every body `legal_actions`
offers (each with its required inputs filled in), and acting on one through `decide`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from hashlib import sha256
from typing import Any
from uuid import UUID, uuid4

from pydantic import TypeAdapter

from api import scenarios
from domain import events as ev
from domain.commands import Action, CreateMatch
from domain.decide import Context, decide
from domain.dice import SeededDice, commitment
from domain.errors import DomainError
from domain.evolve import evolve
from domain.history import first_frame
from domain.legal.model import Choice, LegalActions
from domain.legal.probe import put
from domain.rulesets import Ruleset, get_ruleset
from domain.rulesets.registry import register
from domain.state import MatchState, Side

ACTIONS: TypeAdapter[Any] = TypeAdapter(Action)
T0 = datetime(2026, 1, 1, tzinfo=UTC)
DEMOS = scenarios.names()


def filled(choice: Choice, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """The choice's body (or `body`) with its required inputs at their examples."""
    out = choice.body if body is None else body
    for given in choice.inputs:
        if given.required:
            out = put(out, given.name, given.example)
    return out


def offered_bodies(legal: LegalActions) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every body the answer offers: each choice with its examples, with each value an input
    lists, with table dice; the advance and the steps it may skip to."""
    for action in legal.actions:
        for choice in action.choices:
            base = filled(choice)
            yield choice.label, base
            for given in choice.inputs:
                for option in given.values or ():
                    value = [option.value] if given.kind == "choices" else option.value
                    yield f"{choice.label} {given.name}={value}", put(base, given.name, value)
            if choice.table is not None:
                yield f"{choice.label} (table dice)", filled(choice, choice.table.body)
    if legal.advance.legal:
        yield legal.advance.title, legal.advance.body
    for skip in legal.advance.skips:
        yield skip.label, skip.body


def refused_offer(match: Match, seat: str, legal: LegalActions) -> str | None:
    """The first body the answer offers that `decide` refuses, in words (None: none)."""
    for label, body in offered_bodies(legal):
        try:
            match.decide(seat, body)
        except DomainError as exc:
            return (f"{match.name} turn {match.state.turn.turn} {match.state.turn.step} "
                    f"{seat}: offered {label!r} {body} but decide refuses it: {exc.detail}")
    return None


@dataclass
class Match:
    """A demo match kept as a state, acted on through `decide` with seeded dice."""

    name: str  # a demo scenario, or any name with `body`
    body: dict[str, Any] | None = None  # a scenario of one's own (a `CreateMatch` document)
    seed: bytes = b"legal-actions-test"
    rules: Ruleset | None = None  # a ruleset file's game (else the built-in game it names)
    match_id: UUID = field(default_factory=uuid4)
    version: int = 1
    rolls: int = 0
    state: MatchState = field(init=False)

    def __post_init__(self) -> None:
        pinned = None
        if self.rules is not None:  # a file's game: the registry knows it by its hash
            pinned = sha256(f"legal-play {self.name}".encode()).hexdigest()
            register(pinned, self.rules)
        doc = (scenarios.load(self.name) if self.body is None
               else CreateMatch.model_validate(self.body))
        created = ev.MatchCreated(
            originator_id=self.match_id, originator_version=1, timestamp=T0, actor="referee",
            command_id="create", turn=1, ruleset=doc.ruleset, ruleset_version=1,
            scenario=doc.scenario, ruleset_hash=pinned, sides=tuple(Side(id=s.id, name=s.name) for s in doc.sides),
            casual=False, options=doc.options, dice_commitment=commitment(self.seed),
            dice_seed=self.seed.hex(), units=tuple(u.to_unit() for u in doc.units),
            decks={side: tuple(cards) for side, cards in doc.decks.items()})
        self.state = first_frame(created).state

    @property
    def ruleset(self) -> Ruleset:
        if self.rules is not None:
            return self.rules
        return get_ruleset(self.state.ruleset, self.state.options)

    @property
    def seats(self) -> list[str]:
        return [*self.state.side_ids(), "referee"]

    def context(self, seat: str) -> Context:
        return Context(match_id=self.match_id, version=self.version, actor=seat,
                       command_id=f"c{self.version}", now=T0, dice=SeededDice(self.seed),
                       roll_index=self.rolls)

    def decide(self, seat: str, body: dict[str, Any]) -> list[ev.Event]:
        return decide(ACTIONS.validate_python(body), self.state, self.ruleset,
                      self.context(seat))

    def act(self, seat: str, body: dict[str, Any]) -> list[ev.Event]:
        events = self.decide(seat, body)
        for event in events:
            self.state = evolve(self.state, event)
        self.version += len(events)
        self.rolls += sum(getattr(e, "roll_index", None) is not None for e in events)
        return events
