"""Asking `decide` itself: `Probe` decides a body for the seat against the state, with a
stand-in dice source (never the match's seed: the faces do not matter, only whether the
action is accepted), and turns a generator's candidates into the choices it accepts."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from functools import cached_property
from typing import Any, TypeVar, get_args
from uuid import UUID

from pydantic import TypeAdapter, ValidationError

from domain import events as ev
from domain.acting.then import after_advance
from domain.authority import check_acting, check_awaited
from domain.commands import Action, Command
from domain.context import Context
from domain.decide import ALWAYS_ALLOWED, ENDINGS, RECORDS, decide
from domain.dice import SeededDice, parse
from domain.duties import Owed
from domain.errors import DomainError, InvalidAction
from domain.legal.domains import View, domain_of, put, values
from domain.legal.model import Candidate, Choice, Die, Input, TableDice
from domain.legal.words import side_name
from domain.owed import owed_by
from domain.procedures.dispatch import handle
from domain.refusal_words import in_words
from domain.rulefiles.cost import Meter, Spent, WorkSpent
from domain.rulesets import Ruleset
from domain.sequence import ANY
from domain.state import MatchState, Unit

ACTIONS: TypeAdapter[Any] = TypeAdapter(Action)
COMMANDS: dict[str, type[Command]] = {  # action type -> its command class
    cls.model_fields["type"].default: cls for cls in get_args(get_args(Action)[0])}
STAND_IN = SeededDice(b"battlelog-legal-actions: not the match's dice")
EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
T = TypeVar("T")
LISTED = ("choices",)  # an input whose value is a list: a value is tried as [value]


class Exhausted(Exception):
    """The answer's work cap is reached: no more bodies are decided for it."""


class Probe:
    """The seat's view of what `decide` accepts now (each body decided once).

    `scope` are the units whose choices the answer holds (all in play unless the answer is
    paged or narrowed to one unit); `whole` whether it holds the choices about no one unit.
    Past `limit` bodies decided, `decide` raises `Exhausted` (None: no cap), as it does
    when a ruleset file's expressions would pass the answer's meter of steps (`spent`:
    domain/rulefiles/cost.py); `between` is called before each (a server lets its other
    requests run there)."""

    def __init__(self, state: MatchState, ruleset: Ruleset, seat: str, version: int) -> None:
        self.state, self.ruleset, self.seat, self.version = state, ruleset, seat, version
        self.context = Context(match_id=UUID(int=0), version=version, actor=seat,
                               command_id="legal-actions", now=EPOCH, dice=STAND_IN,
                               roll_index=state.dice.count)
        self._seen: dict[str, list[ev.Event] | DomainError] = {}
        self._made: dict[object, Any] = {}
        self.scope: list[Unit] = self.units
        self.whole = True
        self.limit: int | None = None
        self.work = 0  # the bodies decided (each once)
        self.between: Callable[[], None] | None = None
        self.spent: Meter | None = None  # the meter of a file's steps that cut it short
        self.costly: str | None = None  # or the reading past its own bound that did

    def decide(self, body: dict[str, Any]) -> list[ev.Event] | DomainError:
        """The events `body` would make now, or the refusal."""
        key = repr(body)  # bodies are built in one order: equal bodies, equal keys
        if key not in self._seen:
            if self.limit is not None and self.work >= self.limit:
                raise Exhausted
            self.work += 1
            if self.between is not None:
                self.between()
            try:
                command = ACTIONS.validate_python(body)
                self._seen[key] = decide(command, self.state, self.ruleset, self.context)
            except Spent as spent:  # the file's expressions would pass the answer's steps
                self.spent = spent.meter
                raise Exhausted from None
            except WorkSpent as costly:  # a reading past its own bound: so would every body's
                self.costly = costly.detail
                raise Exhausted from None
            except ValidationError as exc:
                self._seen[key] = InvalidAction(str(exc), rule="core-requests")
            except DomainError as exc:
                self._seen[key] = exc
        return self._seen[key]

    def accepts(self, body: dict[str, Any]) -> bool:
        return not isinstance(self.decide(body), DomainError)

    def once(self, key: object, make: Callable[[], T]) -> T:
        """`make()`, built once for this answer (a list of units several choices share)."""
        if key not in self._made:
            self._made[key] = make()
        found: T = self._made[key]
        return found

    # ---- what the state offers to choose from ----------------------------------------

    @cached_property
    def units(self) -> list[Unit]:
        """The units in play, the seat's own first."""
        return sorted(self.state.in_play(), key=lambda u: (u.side != self.seat, u.side, u.id))

    @cached_property
    def view(self) -> View:
        """The seat's view of the declared domains (`domain.legal.domains`)."""
        return View(self.state, self.ruleset, self.seat, self.version)

    def domain(self, kind: str, name: str, body: dict[str, Any]) -> list[Any]:
        """The values field `name` of action type `kind` may take now, for `body`."""
        return values(domain_of(kind, name), self.view, body)

    @property
    def side(self) -> str | None:
        """The seat's side (None for the referee)."""
        return self.seat if self.seat in self.state.side_ids() else None

    # ---- candidates into choices -------------------------------------------------------

    def choose(self, alternatives: Iterable[Candidate]) -> Choice | None:
        """The first alternative `decide` accepts (its required inputs at their examples,
        a family's input at each value of its domain in turn), with the inputs' values it
        accepts and, for a roll, the players' own dice. Only acceptance counts: what a
        refusal says never chooses what is tried or offered."""
        for proposed in alternatives:
            for candidate in proposed.alternatives():  # a family's examples, as tried
                full = candidate.body
                for given in candidate.inputs:
                    if given.required:
                        full = put(full, given.name, given.example)
                events = self.decide(full)
                if isinstance(events, DomainError):
                    continue
                inputs = tuple(kept for given in candidate.inputs
                               if (kept := self._checked(full, given)) is not None)
                dice = _dice(events, self.state)
                table = (self._table(full, candidate, events, dice) if candidate.dice
                         else None)
                return Choice(label=candidate.label, body=candidate.body,
                              unit_id=candidate.unit_id, side=candidate.side, inputs=inputs,
                              dice=dice, table=table,
                              then_done=self.held and self.frees(events))
        return None

    @cached_property
    def owes(self) -> tuple[Owed, ...]:
        """What the seat owes now (`domain.owed`), read once an answer."""
        return owed_by(self.state, self.ruleset, self.seat)

    def admits(self, kind: str) -> bool:
        """Whether `decide` may accept an action of type `kind` from this seat at all now,
        whatever its fields: the checks it makes before it reads a body (the match not
        over, no result awaited, the step allowing it, the seat acting) and that the game
        has a procedure for it. No body of a kind it does not admit is tried."""
        state, seq, seat = self.state, self.ruleset.sequence, self.seat
        if kind in ("advance", "standing_pass"):
            return True
        try:
            if state.outcome is not None and kind not in (*RECORDS, "reopen_match"):
                return False
            if state.awaiting is not None and kind not in (
                    "enter_result", "record_roll", *ENDINGS, *RECORDS):
                return False
            step = seq.step(state.turn.step)
            if kind not in ALWAYS_ALLOWED and ANY not in step.allows and kind not in step.allows:
                return False
            if kind in ("record_roll", "enter_result"):
                check_awaited(seq, state, seat)
            elif kind not in (*RECORDS, *ENDINGS):
                check_acting(seq, state, seat, kind, lambda: self.owes)
        except DomainError:
            return False
        # (an action no procedure of this game takes: "a procedure of another ruleset")
        return kind in self.ruleset.actions or handle.dispatch(COMMANDS[kind]) is not \
            handle.dispatch(object)

    @cached_property
    def held(self) -> bool:
        """Whether this side's Next step is refused now (the step waits for its move)."""
        return self.side is not None and isinstance(self.decide({"type": "advance"}),
                                                    DomainError)

    def frees(self, events: list[ev.Event]) -> bool:
        """Whether the seat's Next step is accepted once `events` are made (a choice's, its
        required inputs at their examples, with the stand-in dice: the match's own dice or
        other values may still leave it refused, `domain.acting.then`)."""
        if self.limit is not None and self.work >= self.limit:
            raise Exhausted
        self.work += 1
        try:
            return after_advance(self.state, self.ruleset, self.context, events) is not None
        except Spent as spent:
            self.spent = spent.meter
            raise Exhausted from None

    def _checked(self, full: dict[str, Any], given: Input) -> Input | None:
        """The input with only the values `decide` accepts; an optional input whose example
        is refused is left out (the rules do not take it here)."""
        def tried(value: Any) -> bool:
            return self.accepts(put(full, given.name,
                                    [value] if given.kind in LISTED else value))

        if given.values is not None:
            values = tuple(option for option in given.values if tried(option.value))
            if not values and not given.open:
                return None
            return given.model_copy(update={"values": values})
        if not given.required and given.example is not None and not self.accepts(
                put(full, given.name, given.example)):
            return None
        return given

    def _table(self, full: dict[str, Any], candidate: Candidate, events: list[ev.Event],
               dice: tuple[Die, ...]) -> TableDice | None:
        """The choice with table dice: the faces the stand-in dice showed, as the players
        would enter theirs; offered only when `decide` accepts it."""
        if not dice:
            return None
        kind = full["type"]
        faces = [face for e in events if isinstance(e, ev.DiceRolled) for face in e.dice]
        value: int | list[int] | dict[str, int] = faces[0] if kind == "roll_morale" else faces
        field = "results"
        if kind == "roll_morale":
            field = "result"
        elif kind == "roll_initiative":
            value = dict(next(e.dice for e in events if isinstance(e, ev.InitiativeRolled)))
        if not self.accepts({**full, "source": "table", field: value}):
            return None
        return TableDice(field=field, body={**candidate.body, "source": "table", field: value})


def _dice(events: list[ev.Event], state: MatchState) -> tuple[Die, ...]:
    """What the service rolled for an action: each die, in order, with its purpose."""
    out: list[Die] = []
    for event in events:
        if isinstance(event, ev.DiceRolled) and event.source == "server":
            sides = parse(event.notation).sides
            out += [Die(sides=sides, purpose=in_words(event.purpose, state))
                    for _ in event.dice]
        elif isinstance(event, ev.InitiativeRolled):
            out += [Die(sides=6, purpose=f"initiative of {side_name(state, side)}", key=side)
                    for side in event.dice]
    return tuple(out)
