"""The game clock, derived from the events' stored times: at every version of a scripted
match the clocks equal a model worked out by hand (the literals below, derived in the
comments); increments per activation, player-turn and turn; pause and resume; adjust with a
reason; a move limit; the moment a flag falls; only the referee touches the clock."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import T0, Table
from test_waiting import demo

from domain import events as ev
from domain.clock import clock_fold, clocks_at, flags_due
from domain.clock.decide import decide_clock, decide_flags
from domain.commands import clock as cc
from domain.context import Context
from domain.dice import SeededDice
from domain.errors import InvalidAction, NotYourTurn
from domain.events.clock import MAX_ADJUSTED


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


class Timed:
    """A match in memory whose every action happens at a moment the test gives."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def context(self, actor: str, seconds: float) -> Context:
        head = self.table.head
        return Context(match_id=self.table.match_id, version=head.version, actor=actor,
                       command_id=f"c{head.version}", now=at(seconds),
                       dice=SeededDice(b"test-seed"), roll_index=head.server_rolls)

    def act(self, seconds: float, actor: str, **action: Any) -> None:
        table = self.table
        original = table.context
        table.context = lambda who="referee": self.context(who, seconds)  # type: ignore[method-assign]
        try:
            table.act(actor, **action)
        finally:
            table.context = original  # type: ignore[method-assign]

    def clock(self, seconds: float, actor: str, command: Any) -> list[ev.Event]:
        table = self.table
        return table._append(decide_clock(command, clock_fold(table.log), table.state,
                                          self.context(actor, seconds)))

    def left(self, seconds: float | None = None, upto: int | None = None) -> dict[str, Any]:
        """Each side's seconds left and whether its clock runs, at `seconds` (default: the
        moment of the last event folded) over the log up to version `upto`."""
        log = self.table.log[:upto]
        now = log[-1].timestamp if seconds is None else at(seconds)
        return {c.side: (c.remaining.total_seconds(), c.running)
                for c in clocks_at(clock_fold(log), now)}


START = cc.StartClock(controls={
    "red": {"total": 600, "increment": 10, "per": "activation"},  # type: ignore[dict-item]
    "blue": {"total": 300, "increment": 5, "per": "player_turn"},  # type: ignore[dict-item]
})


@pytest.fixture
def atomic() -> Timed:
    return Timed(demo("atomic-africa-demo"))


def script(m: Timed) -> None:
    m.clock(10, "referee", START)                                   # v2
    m.act(70, "red", type="activate_unit", unit_id="sq1")           # v3
    m.act(100, "red", type="advance")                               # v4
    m.clock(160, "referee", cc.PauseClock(reason="a phone call"))   # v5
    m.clock(460, "referee", cc.ResumeClock())                       # v6
    m.clock(500, "referee", cc.AdjustClock(side="red", seconds=30,  # v7
                                           reason="the board was knocked"))
    m.act(520, "blue", type="activate_unit", unit_id="ml1")         # v8
    m.act(530, "blue", type="advance")                              # v9


def test_the_clocks_at_every_version_equal_the_model_worked_out_by_hand(atomic: Timed) -> None:
    script(atomic)
    assert [type(e).__name__ for e in atomic.table.log[1:]] == [
        "ClockStarted", "UnitsActivated", "PhaseAdvanced", "ClockPaused", "ClockResumed",
        "ClockAdjusted", "UnitsActivated", "PhaseAdvanced"]
    model = {
        1: {},  # no clock before it starts
        # t=10: started; red is the active side, waited for: its clock runs
        2: {"red": (600.0, True), "blue": (300.0, False)},
        # t=70: red ran 60 s (540), +10 for its activation
        3: {"red": (550.0, True), "blue": (300.0, False)},
        # t=100: red ran 30 s (520); blue's activation run begins: blue runs
        4: {"red": (520.0, False), "blue": (300.0, True)},
        # t=160: blue ran 60 s (240); the referee pauses
        5: {"red": (520.0, False), "blue": (240.0, False)},
        # t=460: resumed: the 300 s paused count for nobody
        6: {"red": (520.0, False), "blue": (240.0, True)},
        # t=500: blue ran 40 s (200); red is given 30 s (550)
        7: {"red": (550.0, False), "blue": (200.0, True)},
        # t=520: blue ran 20 s (180); its increment is per player-turn, not per activation
        8: {"red": (550.0, False), "blue": (180.0, True)},
        # t=530: blue ran 10 s (170), +5 as its player-turn ends; red's run begins
        9: {"red": (550.0, True), "blue": (175.0, False)},
    }
    for version, expected in model.items():
        assert atomic.left(upto=version) == expected, version
    # the live head at t=600: red ran 70 s more (480)
    assert atomic.left(600) == {"red": (480.0, True), "blue": (175.0, False)}


def test_an_increment_per_turn_goes_to_every_side_when_the_turn_ends() -> None:
    m = Timed(Table())  # freeform: both sides act in every step, so both clocks run
    m.clock(0, "referee", cc.StartClock(controls={
        side: {"total": 100, "increment": 7, "per": "turn"}  # type: ignore[dict-item]
        for side in ("red", "blue")}))
    seconds = 0
    while not any(isinstance(e, ev.TurnAdvanced) for e in m.table.log):
        seconds += 10
        m.act(seconds, "referee", type="advance")
    # both ran `seconds` s, and 7 s came to each as the turn ended
    assert m.left() == {"red": (100 - seconds + 7, True), "blue": (100 - seconds + 7, True)}


def test_a_flag_falls_at_the_exact_second_whenever_it_is_noticed(atomic: Timed) -> None:
    script(atomic)
    clock = clock_fold(atomic.table.log)
    # red has 550 s from t=530: its flag falls at t=1080
    assert flags_due(clock, at(1079)) == []
    assert flags_due(clock, at(5000)) == [("red", at(1080), "total")]
    context = atomic.context("referee", 5000)
    [fell] = atomic.table._append(decide_flags(clock, atomic.table.state, context, at(5000)))
    assert isinstance(fell, ev.FlagFell) and fell.side == "red"
    assert fell.timestamp == at(1080)  # the flag's second, not the moment it was noticed
    assert flags_due(clock_fold(atomic.table.log), at(9000)) == []  # recorded once
    [red] = [c for c in clocks_at(clock_fold(atomic.table.log), at(1080)) if c.side == "red"]
    assert red.flag_fallen and red.remaining == timedelta(0)


def test_a_move_limit_makes_a_flag_fall_within_the_total(atomic: Timed) -> None:
    atomic.clock(10, "referee", cc.StartClock(controls={
        "red": {"total": 600, "move_limit": 45},  # type: ignore[dict-item]
        "blue": {"total": 600, "move_limit": 45}}))  # type: ignore[dict-item]
    atomic.act(40, "red", type="activate_unit", unit_id="sq1")  # still red's move: 30 s used
    assert flags_due(clock_fold(atomic.table.log), at(100)) == [("red", at(55), "move_limit")]
    atomic.act(50, "red", type="advance")  # blue's move begins at t=50: its limit at t=95
    assert flags_due(clock_fold(atomic.table.log), at(100)) == [("blue", at(95), "move_limit")]


def test_a_paused_clock_lets_no_flag_fall(atomic: Timed) -> None:
    atomic.clock(0, "referee", START)
    atomic.clock(100, "referee", cc.PauseClock())
    assert flags_due(clock_fold(atomic.table.log), at(100_000)) == []
    assert atomic.left(100_000)["red"] == (500.0, False)


@pytest.mark.parametrize("command", [
    START, cc.PauseClock(), cc.ResumeClock(),
    cc.AdjustClock(side="red", seconds=60, reason="mine"),
])
def test_a_side_may_not_start_pause_resume_or_adjust_the_clock(
        atomic: Timed, command: Any) -> None:
    if not isinstance(command, cc.StartClock):
        atomic.clock(0, "referee", START)
    before = len(atomic.table.log)
    with pytest.raises(NotYourTurn) as refused:
        atomic.clock(5, "red", command)
    assert refused.value.rule == "core-authority"
    assert len(atomic.table.log) == before  # no event


def test_the_clock_commands_refuse_what_makes_no_sense(atomic: Timed) -> None:
    with pytest.raises(InvalidAction):
        atomic.clock(0, "referee", cc.PauseClock())  # not started
    with pytest.raises(InvalidAction):  # a side without a control
        atomic.clock(0, "referee", cc.StartClock(controls={
            "red": {"total": 60}}))  # type: ignore[dict-item]
    atomic.clock(0, "referee", START)
    with pytest.raises(InvalidAction):
        atomic.clock(1, "referee", START)  # once
    with pytest.raises(InvalidAction):
        atomic.clock(1, "referee", cc.ResumeClock())  # running already
    with pytest.raises(InvalidAction):
        atomic.clock(1, "referee", cc.AdjustClock(side="green", seconds=5, reason="x"))


@pytest.mark.parametrize("control", [
    {"total": 0}, {"total": 30 * 24 * 3600 + 1}, {"total": 60, "increment": 5},
    {"total": 60, "per": "turn"}, {"total": 60, "increment": 86_401, "per": "turn"},
    {"total": "60"}, {"total": 60, "move_limit": 0}, {"total": 60, "colour": "red"},
])
def test_time_controls_out_of_bounds_are_refused(control: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        cc.StartClock.model_validate({"type": "start_clock", "controls": {"red": control}})


def test_the_clock_events_are_no_game_action_for_undo(atomic: Timed) -> None:
    atomic.clock(0, "referee", START)
    atomic.act(5, "red", type="activate_unit", unit_id="sq1")
    atomic.clock(6, "referee", cc.PauseClock())
    atomic.table.undo(actor="referee")  # undoes the activation; the pause stays
    assert atomic.table.state.this_turn == ()
    # red ran 5 s (595), +10 for the activation, ran 1 s (604); the undo takes back the
    # activation, not the time (the log's times stand) nor the pause
    assert atomic.left(7) == {"red": (604.0, False), "blue": (300.0, False)}


def test_a_flag_moment_past_the_last_datetime_is_no_flag_not_an_overflow(atomic: Timed) -> None:
    script(atomic)
    late = replace(clock_fold(atomic.table.log),
                   since=datetime(9999, 12, 31, 23, 59, 59, 500000, tzinfo=UTC))
    assert flags_due(late, at(5000)) == []  # red's 550 s would end after the year 9999
    assert flags_due(late, datetime.max.replace(tzinfo=UTC)) == []
    [red] = [c for c in clocks_at(late, late.since) if c.side == "red"]  # type: ignore[arg-type]
    assert red.remaining == timedelta(seconds=550) and not red.flag_fallen


def test_a_sides_adjustments_add_up_to_at_most_thirty_days_either_way(atomic: Timed) -> None:
    atomic.clock(0, "referee", START)
    month = MAX_ADJUSTED

    def adjust(seconds: int, side: str = "red") -> None:
        atomic.clock(1, "referee", cc.AdjustClock(side=side, seconds=seconds, reason="x"))

    adjust(month)
    before = len(atomic.table.log)
    with pytest.raises(InvalidAction, match="at most 2592000 seconds") as refused:
        adjust(1)
    assert refused.value.rule == "core-clock" and len(atomic.table.log) == before
    adjust(1, "blue")  # each side's own
    adjust(-month)
    adjust(-month)  # given less taken: -30 days, at the limit
    with pytest.raises(InvalidAction, match="-2592000 s"):
        adjust(-1)
    assert atomic.left(10)["red"] == (600.0 - month - 10, True)  # ran 10 s
