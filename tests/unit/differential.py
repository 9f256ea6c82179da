"""Two rulesets of one game played side by side (issue 28's differential test): the Python
ruleset and the same game written as a ruleset file.

`Twin` holds one match twice, created from the same `MatchCreated`, each copy kept as the
application keeps a log (frames, undo and redo by `domain.history`); every command is
decided on both, and at every version the two must agree: the same events (types and
payloads), or the same refusal (its kind and its rule); the same state; the same turn
marker's words derived from each ruleset (whose turn, who moves the marker on, the step's
title, rule and allowed actions, what the step expects); and, for the seat that acts next, the same legal actions.

`play(twin, rnd, moves)` walks a match at random through the legal actions of the
Python ruleset (the seats the step waits for first), with server dice from the match's
fixed seed and table dice among the offers, undo and redo among the moves, and now and then
an action the seat may not take (a refusal both must give alike); `Twin.branch` takes the
match back to where an earlier walk stood, so that another walk can start deep in a match
at no cost (the part before it was checked by the earlier walk)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from random import Random
from typing import Any
from uuid import UUID

from pydantic import TypeAdapter

from api import scenarios
from domain import events as ev
from domain.authority import movers, seats, waiting_for
from domain.commands import Action
from domain.context import REFEREE
from domain.decide import Context, decide, decide_redo, decide_undo
from domain.dice import SeededDice, commitment
from domain.errors import DomainError
from domain.history import Frame, first_frame, fold, undo_reach
from domain.legal import legal_actions
from domain.legal.model import LegalActions
from domain.rulefiles.compile import compile_file
from domain.rulefiles.cost import Meter
from domain.rulesets import Ruleset
from domain.sequence import current_roles
from domain.state import MatchState, Side
from projections.rulefile_load import BUILT_IN, check_file
from tests.unit.legal_play import offered_bodies

ACTIONS: TypeAdapter[Any] = TypeAdapter(Action)
T0 = datetime(2026, 1, 1, tzinfo=UTC)
MATCH = UUID(int=28)

Outcome = tuple[str, Any]  # ("events", [(type, payload), ...]) or ("refused", (kind, rule))


class Diverged(AssertionError):
    """The two rulesets disagreed: what each said, and the moves that led there."""


def created(scenario: str, seed: bytes, options: dict[str, Any] | None = None
            ) -> ev.MatchCreated:
    """The demo `scenario`'s first event, its dice committed to `seed` (its `options`
    changed by those given)."""
    doc = scenarios.load(scenario)
    doc = doc.model_copy(update={"options": {**doc.options, **(options or {})}})
    return ev.MatchCreated(
        originator_id=MATCH, originator_version=1, timestamp=T0, actor=REFEREE,
        command_id="create", turn=1, ruleset=doc.ruleset, ruleset_version=1,
        scenario=doc.scenario, sides=tuple(Side(id=s.id, name=s.name) for s in doc.sides),
        casual=False, options=doc.options, dice_commitment=commitment(seed),
        dice_seed=seed.hex(), units=tuple(u.to_unit() for u in doc.units),
        decks={side: tuple(cards) for side, cards in doc.decks.items()})


@dataclass
class Copy:
    """One ruleset's copy of the match: its log as frames."""

    ruleset: Ruleset
    seed: bytes
    frames: list[Frame] = field(default_factory=list)  # by version: frames[0] is version 1
    log: list[ev.Event] = field(default_factory=list)

    @property
    def head(self) -> Frame:
        return self.frames[-1]

    @property
    def state(self) -> MatchState:
        return self.head.state

    def state_at(self, version: int) -> MatchState:
        return self.frames[version - 1].state

    def context(self, seat: str) -> Context:
        head = self.head
        return Context(match_id=MATCH, version=head.version, actor=seat,
                       command_id=f"c{head.version}", now=T0 + timedelta(seconds=head.version),
                       dice=SeededDice(self.seed), roll_index=head.server_rolls)

    def append(self, events: list[ev.Event]) -> None:
        for event in events:
            self.frames.append(fold(self.head, [event], self.state_at))
            self.log.append(event)

    def outcome(self, make: Callable[[Copy], list[ev.Event]]) -> Outcome:
        try:
            events = make(self)
        except DomainError as error:
            return "refused", (type(error).__name__, error.rule)
        return "events", [(type(e).__name__, e.model_dump(mode="json")) for e in events]

    def board(self) -> dict[str, Any]:
        """The state, and what each ruleset derives from it for the page's turn marker."""
        state, sequence = self.state, self.ruleset.sequence
        step = sequence.step(state.turn.step)
        return {
            "state": state.model_dump(mode="json"), "version": self.head.version,
            "waiting_for": waiting_for(sequence, state), "movers": movers(sequence, state),
            "acting": seats(sequence, state, step.acting), "roles": current_roles(sequence,
                                                                                  state),
            "step": (step.title, step.rule, step.allows, step.shared, step.optional),
            "expects": (self.ruleset.expects(state) if self.ruleset.expects
                        and state.outcome is None else []),
        }


@dataclass
class Twin:
    """The match on the Python ruleset (`python`) and on its file (`file`)."""

    python: Copy
    file: Copy
    moves: list[str] = field(default_factory=list)  # what was done, said for a failure

    @staticmethod
    def of(scenario: str, python: Ruleset, file: Ruleset, seed: bytes,
           options: dict[str, Any] | None = None) -> Twin:
        first = created(scenario, seed, options)
        twin = Twin(Copy(python, seed), Copy(file, seed))
        for copy in (twin.python, twin.file):
            copy.frames.append(first_frame(first))
            copy.log.append(first)
        return twin

    @property
    def state(self) -> MatchState:
        return self.python.state

    def branch(self, length: int) -> Twin:
        """The match as it stood when its log held `length` events (checked then), to walk
        on from there apart from this one."""
        return Twin(*(Copy(c.ruleset, c.seed, c.frames[:length], c.log[:length])
                      for c in (self.python, self.file)), moves=self.moves[:])

    def _both(self, what: str, make: Callable[[Copy], list[ev.Event]]) -> Outcome:
        self.moves.append(what)
        said = self.python.outcome(make)
        heard = self.file.outcome(make)
        if said != heard:
            raise Diverged(self._said(f"{what}\n python: {said}\n file:   {heard}"))
        if said[0] == "events":
            self.python.append(make(self.python))
            self.file.append(make(self.file))
        return said

    def _said(self, text: str) -> str:
        return text + "\n after: " + "\n        ".join(self.moves[-25:])

    def act(self, seat: str, body: dict[str, Any]) -> Outcome:
        command = ACTIONS.validate_python(body)
        return self._both(f"{seat}: {body}", lambda c: decide(
            command, c.state, c.ruleset, c.context(seat)))

    def undo(self, seat: str) -> Outcome:
        return self._both(f"{seat}: undo", lambda c: decide_undo(
            c.state, c.state_at, c.context(seat), actions=1,
            reach=undo_reach(reversed(c.log), seat), pending=c.head.undo_request))

    def redo(self, seat: str) -> Outcome:
        return self._both(f"{seat}: redo", lambda c: decide_redo(
            c.state, c.head.redo, c.state_at, c.context(seat), undone_by=seat))

    def check_boards(self) -> None:
        said, heard = self.python.board(), self.file.board()
        if said != heard:
            differ = {k: (said[k], heard[k]) for k in said if said[k] != heard[k]}
            if "state" in differ:
                a, b = differ.pop("state")
                differ["state"] = {k: (a[k], b[k]) for k in a if a[k] != b[k]}
            raise Diverged(self._said(f"the boards differ: {differ}"))

    def legal(self, seat: str, compare: bool = True) -> LegalActions:
        """The seat's legal actions on the Python ruleset; with `compare`, the same on the
        file's."""
        said = legal_actions(self.python.state, self.python.ruleset, seat,
                             version=self.python.head.version, ahead=False)
        if not compare:
            return said
        # (the file's answer read whole: its work budget is a bound, tested on its own
        # (test_rulefile_answer_cost); here what it offers is held to the module's)
        heard = legal_actions(self.file.state, self.file.ruleset, seat,
                              version=self.file.head.version, ahead=False,
                              steps=Meter(WHOLE))
        if _bodies(said) != _bodies(heard):
            raise Diverged(self._said(f"legal actions of {seat} differ:\n python: "
                                      f"{_bodies(said)}\n file:   {_bodies(heard)}"))
        return said


def _bodies(legal: LegalActions) -> list[tuple[str, Any]]:
    """What the answer offers (each body with its label), and whether the marker can move
    on, and if not, why (the step's words)."""
    return [(label, body) for label, body in offered_bodies(legal)] + [
        ("advance", (legal.advance.legal, legal.advance.reason))]


WHOLE = 10**9  # steps: the file's answers read whole
UNDO = 0.06  # the chance that a move is an undo (by the seat that acted last, or the referee)
REDO = 0.4  # the chance, when an undo can be redone, that the move is the redo
WRONG = 0.15  # the chance that a move is an earlier offer tried now by any seat (mostly refused)
ASIDE = 0.03  # the chance that notes, disputes and the match's end are among the offers
ASIDE_TYPES = ("add_note", "open_dispute", "end_match", "concede", "reopen_match")
ENDING_TYPES = ("end_match", "concede")  # left out of a walk without `endings`
ONWARD = 0.25  # the chance that the advance is taken when it is offered (the match goes on)
COMPARE_LEGAL = 3  # the file's legal actions are compared at one move in this many

Move = tuple[str, str, Any]  # ("act", seat, body) | ("undo", seat, None) | ("redo", seat, None)


@dataclass
class Walk:
    """One random walk: its moves (replayable), and how many actions were taken."""

    moves: list[Move] = field(default_factory=list)
    taken: int = 0
    lengths: list[int] = field(default_factory=list)  # the log's length after each move


def play(twin: Twin, rnd: Random, moves: int, walk: Walk | None = None,
         endings: bool = True) -> Walk:
    """`moves` random moves from where the match stands, both rulesets checked at every
    version. A move is, by chance: an undo, a redo of the last undo, an earlier offer tried
    now by any seat, or one of the acting seat's legal actions (a choice, its listed
    values, table dice, the advance), the seat being one the step waits for, else any; the
    action types are drawn evenly (then a body of the type), so that frequent offers do not
    crowd out the rest. Without `endings`, the walk never ends nor concedes the match (a
    game whose seats often have nothing but the asides to offer would else end early)."""
    walk = walk or Walk()
    last, earlier = REFEREE, list[tuple[str, dict[str, Any]]]()
    twin.check_boards()
    for count in range(moves):
        state = twin.state
        if state.outcome is not None:
            break
        head = twin.python.head
        if head.redo and rnd.random() < REDO:
            seat = twin.python.log[head.redo[-1] - 1].actor
            twin.redo(seat)
            walk.moves.append(("redo", seat, None))
        elif len(twin.python.log) > 1 and rnd.random() < UNDO:
            seat = rnd.choice([last, REFEREE])
            outcome = twin.undo(seat)
            walk.moves.append(("undo", seat, None))
            if outcome[0] == "events" and twin.python.head.undo_request is not None:
                twin.undo(REFEREE)  # a side's undo past a roll waits: the referee's does not
                walk.moves.append(("undo", REFEREE, None))
        else:
            sides = list(state.side_ids())
            waited = [s for s in waiting_for(twin.python.ruleset.sequence, state) if s in sides]
            seat = rnd.choice(waited or [*sides, REFEREE])
            if earlier and rnd.random() < WRONG:
                offers, seat = earlier, rnd.choice([*sides, REFEREE])
            else:
                offers = list(offered_bodies(twin.legal(seat, count % COMPARE_LEGAL == 0)))
                earlier = offers
            if rnd.random() > ASIDE:  # mostly the game's own actions
                offers = [o for o in offers if o[1].get("type") not in ASIDE_TYPES] or offers
            if not endings:
                offers = [o for o in offers if o[1].get("type") not in ENDING_TYPES]
            if not offers:
                continue
            kinds = sorted({body.get("type", "") for _, body in offers})
            kind = ("advance" if "advance" in kinds and rnd.random() < ONWARD
                    else rnd.choice(kinds))
            body = rnd.choice([b for _, b in offers if b.get("type", "") == kind])
            walk.moves.append(("act", seat, body))
            if twin.act(seat, body)[0] == "events":
                walk.taken += 1
                last = seat
        twin.check_boards()
        walk.lengths.append(len(twin.python.log))
    return walk


def shipped(name: str) -> Ruleset:
    """The ruleset a file of projections/rulefiles/ compiles to, its checks passed, as a
    built-in game is played from its file (projections/built_in_games.py): its set-up fits
    the file, its markers and statuses in play are as free as the Python module's."""
    report = check_file(BUILT_IN / name)
    assert report.ok and report.ruleset is not None, report.lines()
    return compile_file(report.ruleset, declared_in_play=False)


def sequences(count: int, start: Callable[[int], Twin], trunk_every: int, trunk_moves: int,
              branch_moves: int, endings: bool = True) -> Iterator[tuple[Twin, Walk]]:
    """`count` random walks, each with its twin: every `trunk_every`th from the start (the
    twin `start(index)` makes) for `trunk_moves`; each of the others from where an earlier
    trunk stood after a random number of its moves (that part checked by the trunk), for
    `branch_moves`, so that deep parts of a match are reached often at a cost CI can pay."""
    trunks: list[tuple[Twin, Walk]] = []
    for index in range(count):
        rnd = Random(index)
        if index % trunk_every == 0:
            twin = start(index)
            walk = play(twin, rnd, trunk_moves, endings=endings)
            trunks.append((twin, walk))
        else:
            trunk, made = rnd.choice(trunks)
            twin = trunk.branch(rnd.choice([1, *made.lengths]))
            walk = play(twin, rnd, branch_moves, endings=endings)
        yield twin, walk


@dataclass
class Tally:
    """What random walks went through: the actions taken, the furthest turn reached, and
    the events made in every sequence, counted as `<event type>:<rule>`."""

    taken: int = 0
    reached: int = 0
    made: Counter[str] = field(default_factory=Counter)


def tally(walks: Iterable[tuple[Twin, Walk]]) -> Tally:
    """The tally of `walks` (each checked as `sequences` yields it)."""
    out = Tally()
    for twin, walk in walks:
        out.taken += walk.taken
        out.reached = max(out.reached, twin.state.turn.turn)
        out.made.update(f"{type(e).__name__}:{getattr(e, 'rule', None)}"
                        for e in twin.python.log)
    return out
