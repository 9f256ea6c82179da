"""A hypothesis state machine drives random valid and invalid actions, undos (with their
consent requests and answers), redos, disputes and seed reveals from every seat against a
real store: refusals append nothing, the version moves only on success, the state rebuilt
from the stored log always equals the live one, the roll index never goes back, the export
always verifies, and no dice seed shows on any surface before it is revealed."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from pydantic import TypeAdapter, ValidationError

from domain import events as ev
from domain.app import Matches
from domain.commands import Action, CreateMatch
from domain.errors import DomainError
from domain.history import replay
from domain.integrity import verify
from projections.export import export_lines
from projections.store import sqlite_env
from projections.views import board_view

ACTIONS: TypeAdapter[Any] = TypeAdapter(Action)
SEATS = ["referee", "red", "blue"]
UNIT_IDS = ["r1", "r2", "b1", "ghost"]
action = st.one_of(
    st.builds(lambda i, side, n: {"type": "deploy_unit", "unit": {
        "id": i, "side": side, "name": i, "figures": n}},
        st.sampled_from(UNIT_IDS), st.sampled_from(["red", "blue", "green"]),
        st.integers(0, 12)),
    st.builds(lambda u, n: {"type": "place_marker", "kind": "suppression", "count": n,
                            "unit_id": u}, st.sampled_from(UNIT_IDS), st.integers(0, 3)),
    st.builds(lambda u, n: {"type": "remove_marker", "kind": "suppression", "count": n,
                            "unit_id": u}, st.sampled_from(UNIT_IDS), st.integers(1, 3)),
    st.builds(lambda u, x: {"type": "move_unit", "unit_id": u, "to": {"x": x, "y": 1}},
              st.sampled_from(UNIT_IDS), st.integers(-5, 50)),
    st.builds(lambda u, n: {"type": "split_unit", "unit_id": u, "new_unit_id": f"{u}s",
                            "figures": n}, st.sampled_from(UNIT_IDS), st.integers(1, 12)),
    st.builds(lambda nt: {"type": "roll_dice", "notation": nt, "purpose": "p"},
              st.sampled_from(["d6", "2d6+1", "d7", "0d6"])),
    st.just({"type": "advance"}),
    st.builds(lambda s, p: {"type": "score_vp", "side": s, "points": p},
              st.sampled_from(["red", "blue", "nobody"]), st.integers(-3, 3)),
    st.builds(lambda v: {"type": "open_dispute", "about_version": v, "text": "that roll"},
              st.integers(1, 40)),
    st.just({"type": "end_match", "winner": None}),
)


class MatchMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.tmp = tempfile.TemporaryDirectory()
        self.env = sqlite_env(str(Path(self.tmp.name) / "m.db"))
        self.app = Matches(env=self.env)
        setup = CreateMatch(scenario="fuzz", casual=False,
                            sides=[{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}])
        self.match = self.app.create_match(setup).events[0].originator_id
        self.version = 1
        self.rolls = 0

    def _try(self, call: Any) -> None:
        before = self.app.head(self.match).version
        try:
            result = call()
        except (DomainError, ValidationError):
            assert self.app.head(self.match).version == before  # nothing appended
            return
        assert result.frame.version == before + len(result.events) > before
        self.version = result.frame.version

    @rule(seat=st.sampled_from(SEATS), body=action)
    def act(self, seat: str, body: dict[str, Any]) -> None:
        self._try(lambda: self.app.act(self.match, ACTIONS.validate_python(body), actor=seat))

    @rule(seat=st.sampled_from(SEATS), n=st.integers(1, 3))
    def undo(self, seat: str, n: int) -> None:
        self._try(lambda: self.app.undo(self.match, actor=seat, actions=n))

    @rule(seat=st.sampled_from(SEATS))
    def redo(self, seat: str) -> None:
        self._try(lambda: self.app.redo(self.match, actor=seat))

    @rule(seat=st.sampled_from(SEATS), accept=st.booleans())
    def answer_undo(self, seat: str, accept: bool) -> None:
        self._try(lambda: self.app.answer_undo(self.match, actor=seat, accept=accept))

    @rule(seat=st.sampled_from(SEATS))
    def reveal_seed(self, seat: str) -> None:
        self._try(lambda: self.app.reveal_seed(self.match, actor=seat))

    @invariant()
    def the_roll_index_only_grows(self) -> None:
        rolls = self.app.head(self.match).server_rolls
        assert rolls >= self.rolls
        self.rolls = rolls

    @invariant()
    def the_export_verifies(self) -> None:
        report = verify(export_lines(self.app, self.match))
        assert report.ok, report.problems

    @invariant()
    def no_seed_shows_before_it_is_revealed(self) -> None:
        events = list(self.app.events_of(self.match))
        seeds = {e.dice_seed for e in events if isinstance(e, ev.MatchCreated | ev.DiceCommitted)}
        secret = seeds - {e.seed for e in events if isinstance(e, ev.DiceSeedRevealed)}
        state = self.app.head(self.match).state
        shown = json.dumps([[e.public(seat) for e in events] for seat in SEATS]) + "".join(
            board_view(state, seat).model_dump_json() for seat in SEATS)
        assert not any(seed in shown for seed in secret)

    @invariant()
    def stored_log_rebuilds_the_live_state(self) -> None:
        events = list(self.app.events_of(self.match))
        assert [e.version for e in events] == list(range(1, self.version + 1))
        assert replay(events).state == self.app.head(self.match).state

    def teardown(self) -> None:
        self.app.close()
        self.tmp.cleanup()


MatchMachine.TestCase.settings = settings(max_examples=25, stateful_step_count=25,
                                          deadline=None)
TestMatchMachine = MatchMachine.TestCase
