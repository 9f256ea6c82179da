"""What the ruleset-file benches share (bench/rulefiles.py, bench/rulefiles_budget.py): the
extended sequence's demo states, the commands tried on each, and timing with rounds taken
in turn (a busy machine slows the anchor and the measured alike)."""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import uuid4

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from domain import commands as cmd
from domain import events as ev
from domain.commands import UnitSpec
from domain.dice import commitment
from domain.history import first_frame
from domain.rulesets import get_ruleset
from domain.sequence import following, start
from domain.state import Position, Side

MATCH = uuid4()
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def demo_states(scale: int = 1, *, scenario: str = "extended-sequence-demo.json",
                ruleset: Any = None, turns: int = 2) -> list[Any]:
    """Every step of `turns` game turns of a demo (the extended sequence's unless named),
    each of its units `scale` times (stacked on its hex: a large board)."""
    found = ROOT / "api" / "scenarios" / scenario
    data = json.loads((found if found.exists() else found.parent / "files" / scenario)
                      .read_text())
    # (a file's game is created as freeform here: its own sequence is put in place below)
    named = "freeform" if ruleset is not None else data.get("ruleset", "extended-sequence")
    ruleset = ruleset or get_ruleset(named, {})
    units = [UnitSpec(**{**u, "id": f"{u['id']}-{k}" if k else u["id"]}).to_unit()
             for k in range(scale) for u in data["units"]]
    created = ev.MatchCreated(
        originator_id=MATCH, originator_version=1, timestamp=T0, actor="referee",
        command_id="create", turn=1, ruleset=named,
        ruleset_version=2, scenario="bench",
        sides=tuple(Side(id=s["id"], name=s["name"]) for s in data["sides"]),
        options={}, dice_commitment=commitment(b"bench"), dice_seed=b"bench".hex(),
        units=tuple(units))
    state = first_frame(created).state
    state = state.model_copy(update={"turn": start(ruleset.sequence, state.side_ids())})
    states = []
    while state.turn.turn <= turns:
        states.append(state)
        state = state.model_copy(update={"turn": following(
            ruleset.sequence, state.turn, state, ruleset.conditions)})
    return states


def commands(state: Any) -> list[cmd.Command]:
    out: list[cmd.Command] = []
    for unit in state.units:
        out += [cmd.MoveUnit(unit_id=unit, to=Position(hex="0101")),
                cmd.PlaceMarker(kind="halted", unit_id=unit),
                cmd.PlaceMarker(kind="suppression", unit_id=unit)]
    return out


def timed(run: Callable[[], object], rounds: int,
          clock: Callable[[], float] = time.perf_counter) -> float:
    """The median of `rounds` runs, by `clock` (wall time unless told)."""
    times = []
    for _ in range(rounds):
        start = clock()
        run()
        times.append(clock() - start)
    return statistics.median(times)


def paired(anchor: Callable[[], object], mine: Callable[[], object],
           rounds: int) -> tuple[float, float]:
    """Medians of the two, in CPU time of this process (both run in this thread: what other
    processes of a shared machine take is not counted), their rounds taken in turn (what
    still slows the machine, slows both alike)."""
    first, second = [], []
    for _ in range(rounds):
        first.append(timed(anchor, 1, time.process_time))
        second.append(timed(mine, 1, time.process_time))
    return statistics.median(first), statistics.median(second)


