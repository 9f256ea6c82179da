"""Pure helpers for domain tests: a match in memory, driven through decide and fold."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

import pytest
from pydantic import TypeAdapter

import projections  # noqa: F401  (as on the server: the built-in games written as files play from them)
from domain import events as ev
from domain.commands import Action, Command, UnitSpec
from domain.decide import Context, decide, decide_redo, decide_undo, decide_undo_answer
from domain.dice import SeededDice, commitment
from domain.history import Frame, first_frame, fold, replay, undo_reach
from domain.rulesets import get_ruleset
from domain.state import MatchState, Side

ACTIONS: TypeAdapter[Any] = TypeAdapter(Action)
T0 = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass
class Table:
    """A match kept as a list of events, the way the application keeps it, minus the store."""

    casual: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    ruleset: str = "freeform"
    sides: tuple[str, ...] = ("red", "blue")
    units: list[dict[str, Any]] = field(default_factory=list)  # the scenario's set-up
    decks: dict[str, list[str]] = field(default_factory=dict)
    match_id: UUID = field(default_factory=uuid4)
    log: list[ev.Event] = field(default_factory=list)
    frames: dict[int, Frame] = field(default_factory=dict)

    def __post_init__(self) -> None:
        seed = b"test-seed"
        created = ev.MatchCreated(
            originator_id=self.match_id, originator_version=1, timestamp=T0, actor="referee",
            command_id="create", turn=1, ruleset=self.ruleset, ruleset_version=1,
            scenario="test", sides=tuple(Side(id=s, name=s.title()) for s in self.sides),
            casual=self.casual, options=self.options, dice_commitment=commitment(seed),
            dice_seed=seed.hex(), units=tuple(UnitSpec(**u).to_unit() for u in self.units),
            decks={side: tuple(cards) for side, cards in self.decks.items()})
        self.log.append(created)
        self.frames[1] = first_frame(created)

    @property
    def head(self) -> Frame:
        return self.frames[len(self.log)]

    @property
    def state(self) -> MatchState:
        return self.head.state

    def state_at(self, version: int) -> MatchState:
        return self.frames[version].state

    def context(self, actor: str = "referee") -> Context:
        head = self.head
        return Context(match_id=self.match_id, version=head.version, actor=actor,
                       command_id=f"c{head.version}", now=T0 + timedelta(seconds=head.version),
                       dice=SeededDice(b"test-seed"), roll_index=head.server_rolls)

    def _append(self, events: list[ev.Event]) -> list[ev.Event]:
        for event in events:
            frame = fold(self.head, [event], self.state_at)
            self.log.append(event)
            self.frames[frame.version] = frame
        return events

    def act(self, actor: str = "referee", command: Command | None = None,
            **action: Any) -> list[ev.Event]:
        command = command or ACTIONS.validate_python(action)
        state = self.state
        return self._append(decide(command, state, get_ruleset(state.ruleset, state.options),
                                   self.context(actor)))

    def act_as_one(self, actor: str, *actions: dict[str, Any]) -> list[ev.Event]:
        """Several commands decided in turn as one action (one command id, saved together,
        or not at all): how a ruleset's procedure makes a multi-event action."""
        command_id = f"a{len(self.log) + 1}"
        frame, events = self.head, []
        for action in actions:
            context = Context(match_id=self.match_id, version=frame.version, actor=actor,
                              command_id=command_id, now=T0 + timedelta(seconds=frame.version),
                              dice=SeededDice(b"test-seed"), roll_index=frame.server_rolls)
            state = frame.state
            made = decide(ACTIONS.validate_python(action), state,
                          get_ruleset(state.ruleset, state.options), context)
            frame = fold(frame, made, self.state_at)
            events += made
        return self._append(events)

    def seat(self, side: str | None, player: str) -> list[ev.Event]:
        """A player takes a seat (a fact about the log, not the game)."""
        head = self.head
        return self._append([ev.SeatJoined(
            originator_id=self.match_id, originator_version=head.version + 1,
            timestamp=T0 + timedelta(seconds=head.version), actor=side or "referee",
            command_id=f"j{head.version}", side=side, player=player)])

    def undo(self, to: int | None = None, actions: int = 1,
             actor: str = "referee") -> list[ev.Event]:
        return self._append(decide_undo(
            self.state, self.state_at, self.context(actor), to=to, actions=actions,
            reach=undo_reach(reversed(self.log), actor), pending=self.head.undo_request))

    def answer(self, actor: str, accept: bool) -> list[ev.Event]:
        return self._append(decide_undo_answer(self.state, self.head.undo_request,
                                               self.context(actor), accept=accept))

    def redo(self) -> list[ev.Event]:
        return self._append(decide_redo(self.state, self.head.redo, self.state_at,
                                        self.context()))

    def replayed(self) -> Frame:
        return replay(self.log)


SQUAD = {"id": "sq1", "side": "red", "name": "1st Squad", "figures": 11, "morale_die": "d10",
         "position": {"x": 10, "y": 12}}


OTHER = {**SQUAD, "id": "bl1", "side": "blue", "name": "Blue squad", "figures": 8,
         "position": {"hex": "0101"}}


@pytest.fixture
def table() -> Table:
    return Table()


@pytest.fixture
def deployed(table: Table) -> Table:
    """A table with red's SQUAD and blue's OTHER deployed."""
    table.act("red", type="deploy_unit", unit=SQUAD)
    table.act("blue", type="deploy_unit", unit=OTHER)
    return table
