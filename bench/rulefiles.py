"""Ruleset files (issue 28, docs/rulesets/authoring.md): how fast and how cheaply a hostile
file is refused, and what the file's expressions cost as the referee plays, each figure
beside its anchor measured in the same run:

    .venv/bin/python bench/rulefiles.py [--rounds 5]

Expressions: the extended sequence's Combat Phase refusals, as the Python ruleset's
`check` (anchor) and as the shipped file's guards (CEL, `domain/rulefiles/behaviour.py`),
over the states of its demo (every step of two game turns, for both sides): (1) the check
alone, for a move and a marker of every unit; (2) `decide` plus the legal actions of both
sides, the Python ruleset against the same ruleset with its check replaced by the file's
guards and its repair roll by the file's (issue 28's target: the data file within 1.5x);
(3) ES-2's repair roll decided, the Python procedure against the file's roll. And one
expression of each shape evaluated alone (a comparison, a macro over every unit) beside
the anchor check. Battlegroup: `decide` plus the legal actions per action on the Python
ruleset (anchor) and on its file, over the states of random walks through its demo. Each pair's rounds are taken in turn, so that a busy machine slows both.

Anchor: checking the shipped extended-sequence.yaml (a real 11 KiB file that passes). Each
hostile file is checked `--rounds` times through `check_text` (a 50 MiB file through
`check_file`, which reads no more than the cap): the median time, the ratio to the anchor,
the peak Python memory while it is checked (tracemalloc) and the check that refused it.
Issue 28's target: every hostile file refused within 1 s, the server growing by at most
50 MiB.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import uuid4

import cel
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from rulefile_forms import SKIRMISH, billion_laughs

from domain import commands as cmd
from domain import events as ev
from domain.commands import UnitSpec
from domain.decide import Context, decide
from domain.dice import SeededDice, commitment
from domain.errors import DomainError
from domain.history import first_frame
from domain.legal import legal_actions
from domain.rulefiles.behaviour import behaviour
from domain.rulefiles.evaluate import compile_expression
from domain.rulefiles.types import BOOL
from domain.rulefiles.view import Declared, types
from domain.rulesets import get_ruleset
from domain.sequence import following
from domain.state import Position, Side
from projections.rulefile_load import (
    BUILT_IN,
    MAX_BYTES,
    MAX_NODES,
    Report,
    check_file,
    check_text,
)

MATCH = uuid4()
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def many_guards(count: int, expression: str = "") -> str:
    """The shipped small game with `count` guards of a long expression each."""
    long = expression or " && ".join(
        ["units.exists(u, u.markers.pinned > 0 && 'broken' in u.status)"] * 7)
    guards = "".join(f'  - {{actions: [move_unit], rule: X, says: x, when: "{long}"}}\n'
                     for _ in range(count))
    return SKIRMISH.read_text().replace("sequence:\n", f"guards:\n{guards}sequence:\n")


def measure(run: Callable[[], Report], rounds: int) -> tuple[float, float, str]:
    """Median seconds, peak MiB (one more run under tracemalloc), the first check said."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        report = run()
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    run()
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    said = report.findings[0].check if report.findings else "OK"
    return statistics.median(times), peak, said


def demo_states() -> list[Any]:
    """Every step of two game turns of the extended sequence's demo."""
    scenario = json.loads((ROOT / "api" / "scenarios" / "extended-sequence-demo.json")
                          .read_text())
    created = ev.MatchCreated(
        originator_id=MATCH, originator_version=1, timestamp=T0, actor="referee",
        command_id="create", turn=1, ruleset="extended-sequence", ruleset_version=2,
        scenario="bench", sides=tuple(Side(id=s["id"], name=s["name"])
                                      for s in scenario["sides"]),
        options={}, dice_commitment=commitment(b"bench"), dice_seed=b"bench".hex(),
        units=tuple(UnitSpec(**u).to_unit() for u in scenario["units"]))
    state = first_frame(created).state
    ruleset = get_ruleset("extended-sequence", {})
    states = []
    while state.turn.turn <= 2:
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


def timed(run: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def paired(anchor: Callable[[], object], mine: Callable[[], object],
           rounds: int) -> tuple[float, float]:
    """Medians of the two, their rounds taken in turn (a busy machine slows both alike)."""
    first, second = [], []
    for _ in range(rounds):
        first.append(timed(anchor, 1))
        second.append(timed(mine, 1))
    return statistics.median(first), statistics.median(second)


def expressions(rounds: int) -> None:
    report = check_file(BUILT_IN / "extended-sequence.yaml")
    assert report.ruleset is not None, report.lines()
    python = get_ruleset("extended-sequence", {})
    built = behaviour(report.ruleset)
    # the Python ruleset with what the file says in its place: its guards for the Python
    # check, its repair roll for the Python repair
    data = replace(python, checks=built["checks"], rolls={**python.rolls, **built["rolls"]})
    states = demo_states()
    sides = [side.id for side in states[0].sides]
    work = [(state, command, side) for state in states for command in commands(state)
            for side in sides]

    def checks(ruleset: Any) -> Callable[[], object]:
        def run() -> None:
            for state, command, side in work:
                try:
                    ruleset.checks[0](command, state, side)
                except DomainError:
                    pass
        return run

    def play(ruleset: Any) -> Callable[[], object]:
        def run() -> None:
            for state in states:
                for side in sides:
                    legal_actions(state, ruleset, side)
                    for command in commands(state):
                        context = Context(match_id=MATCH, version=1, actor=side,
                                          command_id="c", now=T0, dice=SeededDice(b"bench"),
                                          roll_index=0)
                        try:
                            decide(command, state, ruleset, context)
                        except DomainError:
                            pass
        return run

    print(f"\nexpressions: the extended sequence's Combat Phase refusals, {len(states)} demo "
          f"states x {len(sides)} sides")
    anchor, mine = (t / len(work) for t in paired(checks(python), checks(data), rounds))
    print(f"  check alone, per action:         Python {anchor * 1e6:7.1f} us   file's guards "
          f"{mine * 1e6:7.1f} us   {mine / anchor:5.2f}x")
    decided = sum(len(commands(s)) for s in states) * len(sides)
    anchor_play, mine_play = (t / decided for t in paired(play(python), play(data), rounds))
    verdict = "PASS" if mine_play <= 1.5 * anchor_play else "MISS"
    print(f"  decide + legal actions, per action: Python {anchor_play * 1e6:7.1f} us   file "
          f"{mine_play * 1e6:7.1f} us   {mine_play / anchor_play:5.2f}x  {verdict} "
          "(target: within 1.5x)")
    repair_state = next(s for s in states if s.turn.step == "rally/repair")
    with_rolls = replace(python, rolls={**python.rolls, **built["rolls"]})

    def repair(ruleset: Any) -> Callable[[], object]:
        def run() -> None:
            for faces in ([1, 2], [3, 4], [6, 6]) * 20:
                context = Context(match_id=MATCH, version=1, actor="germans", command_id="c",
                                  now=T0, dice=SeededDice(b"bench"), roll_index=0)
                decide(cmd.RuleRoll(roll="repair", unit_id="g-pak", source="table",
                                    results=faces), repair_state, ruleset, context)
        return run

    anchor_roll, mine_roll = (t / 60 for t in paired(repair(python), repair(with_rolls),
                                                     rounds))
    print(f"  ES-2 repair roll decided:        Python {anchor_roll * 1e6:7.1f} us   file's roll "
          f"{mine_roll * 1e6:7.1f} us   {mine_roll / anchor_roll:5.2f}x")
    declared = Declared.of(yaml.safe_load((BUILT_IN / "extended-sequence.yaml").read_text()))
    view = types(declared, ("move_unit",))
    state, unit = states[-3], next(iter(states[-3].units))
    move = cmd.MoveUnit(unit_id=unit, to=Position(hex="0101"))
    for text in ("step != 'advance' || unit.markers.halted == 0",
                 "units.exists(u, u.side == actor && 'broken' in u.status)",
                 "units.filter(u, u.markers.suppression >= u.attributes.q).size() == 0"):
        compiled = compile_expression(text, view, BOOL, declared, lambda s: {})
        each = timed(lambda c=compiled: [c(state, move, "germans") for _ in range(100)],
                     rounds) / 100
        print(f"  {text[:62]:62} {each * 1e6:7.1f} us  {each / anchor:5.2f}x the anchor check")


def board(count: int) -> list[dict[str, Any]]:
    """`count` units as the view gives them, on a 20-column map."""
    return [{"id": f"u{i}", "kind": "squad", "side": "ab"[i % 2], "name": f"u{i}",
             "hex": f"{1 + i % 20:02d}{1 + i // 20:02d}", "box": "", "status": [],
             "markers": {"pinned": i % 3}, "attributes": {"q": i % 7}} for i in range(count)]


def budget(rounds: int) -> None:
    """The worst expressions the load's caps allow (500 characters, list functions two deep,
    10,000 characters a file) over the largest board a match holds (400 units), evaluated
    as CEL runs them (no bound) and as the file's referee does (bounded in steps:
    domain/rulefiles/cost.py), against the anchor: one move decided by the Python extended
    sequence (its check among it), and Hold the Towns' costliest expression on 400 units."""
    from domain.commands.match import UNITS_IN_ALL
    from domain.rulefiles.cost import STEPS
    from domain.rulefiles.evaluate import Unreadable
    from domain.rulefiles.expression import read_expression
    from domain.rulefiles.types import DYN

    declared = Declared.of({"unit_kinds": {"squad": {"attributes": {
        "q": {"type": "integer", "minimum": 0, "maximum": 9}}}},
        "marker_kinds": {"pinned": {}}, "sequence": [{"step": "s"}]})
    view = types(declared)
    python = get_ruleset("extended-sequence", {})
    state = demo_states()[-3]
    move = cmd.MoveUnit(unit_id=next(iter(state.units)), to=Position(hex="0101"))

    def decided() -> None:
        context = Context(match_id=MATCH, version=1, actor="germans", command_id="c", now=T0,
                          dice=SeededDice(b"bench"), roll_index=0)
        try:
            decide(move, state, python, context)
        except DomainError:
            pass

    anchor = timed(decided, rounds)
    nested = "units.all(a, units.all(b, a.id != b.id || a.hex == b.hex))"
    held = ("!units.exists(u, u.side == 'a' && u.box == 'reinforcements' && "
            "u.attributes.q <= 3 && !units.exists(o, o.hex == u.hex && o.id != u.id))")
    cases = [("Hold the Towns' nested exists", held, UNITS_IN_ALL),
             ("one nested pair (58 chars)", nested, UNITS_IN_ALL),
             ("eight nested pairs (492 chars)", " && ".join([nested] * 8), UNITS_IN_ALL),
             ("a map inside a map, 200 units", "units.map(a, units.map(b, b.hex)).size() > 0",
              200),
             ("a map inside a map", "units.map(a, units.map(b, b.hex)).size() > 0",
              UNITS_IN_ALL)]
    print(f"\nevaluation budget: the worst expressions over the largest board; anchor: one "
          f"move decided by the Python extended sequence {anchor * 1e6:.0f} us")
    print(f"  {'expression':34} {'units':>5} {'steps bound':>12} {'unbounded':>11} "
          f"{'x anchor':>9} {'bounded':>9}  (at most {STEPS:,} steps)")
    for name, text, count in cases:
        compiled = compile_expression(text, view, BOOL, declared, lambda s: {})
        steps = read_expression(text, view, DYN).cost.steps(count)
        data = {"units": board(count)}
        if steps > 100 * STEPS:  # seconds to minutes: not worth running unbounded
            raw = "(not run)"
            ratio = "-"
        else:
            context = cel.Context()
            context.add_variable("units", data["units"])
            seconds = timed(lambda c=compiled, x=context: c.program.execute(x),
                            1 if steps > STEPS else rounds)
            raw, ratio = f"{seconds * 1000:9.1f}ms", f"{seconds / anchor:8.0f}x"

        def bounded(c: Any = compiled, d: Any = data) -> None:
            try:
                c.run(d)
            except Unreadable:
                pass

        kept = timed(bounded, rounds)
        verdict = "run" if steps <= STEPS else "refused"
        print(f"  {name:34} {count:5} {steps:12,} {raw:>11} {ratio:>9} "
              f"{kept * 1000:7.1f}ms  {verdict}")
    whole = read_expression(nested, view, DYN).cost.steps(UNITS_IN_ALL) * (10_000 // 60)
    print(f"  a file's 10,000 characters of nested pairs on one action: {whole:,} steps "
          "unbounded; read over one view, bounded together by the same budget")


def game_file(name: str, python: Any, rounds: int, endings: bool = True) -> None:
    """A built-in game's `decide` + legal actions per action, on the Python ruleset (the
    anchor) and on its file (projections/rulefiles/<name>.yaml), over the states of random
    walks through its demo (tests/unit/differential.py: every state both agree on)."""
    from random import Random

    from tests.unit.differential import ACTIONS, Twin, play, shipped
    from tests.unit.legal_play import offered_bodies

    file = shipped(f"{name}.yaml")
    states = []
    for walk in range(4):
        twin = Twin.of(f"{name}-demo", python, file, f"bench-{walk}".encode())
        play(twin, Random(walk), 60, endings=endings)
        states += [frame.state for frame in twin.python.frames[::3]
                   if frame.state.outcome is None]
    seats = [*states[0].side_ids(), "referee"]
    work = [(state, seat, [ACTIONS.validate_python(body) for _, body in offered_bodies(
        legal_actions(state, python, seat))]) for state in states for seat in seats]

    def run(ruleset: Any) -> Callable[[], object]:
        def each() -> None:
            for state, seat, offered in work:
                legal_actions(state, ruleset, seat)
                for command in offered:
                    context = Context(match_id=MATCH, version=1, actor=seat, command_id="c",
                                      now=T0, dice=SeededDice(b"bench"), roll_index=0)
                    try:
                        decide(command, state, ruleset, context)
                    except DomainError:
                        pass
        return each

    decided = sum(len(offered) for _, _, offered in work)
    anchor, mine = (t / decided for t in paired(run(python), run(file), rounds))
    verdict = "PASS" if mine <= 1.5 * anchor else "MISS"
    print(f"\n{name}: {len(states)} states of random walks x {len(seats)} seats, "
          f"{decided} offered actions")
    print(f"  decide + legal actions, per action: Python {anchor * 1e6:7.1f} us   file "
          f"{mine * 1e6:7.1f} us   {mine / anchor:5.2f}x  {verdict} (target: within 1.5x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    shipped = (BUILT_IN / "extended-sequence.yaml").read_text()
    with tempfile.TemporaryDirectory() as folder:
        huge = Path(folder) / "huge.yaml"
        with open(huge, "wb") as file:
            file.write(b"# " + b"x" * (50 * 2**20))
        cases: dict[str, Callable[[], Report]] = {
            "billion laughs (9 levels)": lambda: check_text(billion_laughs(), "f"),
            "flow nesting, 100,000 deep": lambda: check_text("[" * 100_000 + "]" * 100_000,
                                                             "f"),
            "block nesting, 200 deep": lambda: check_text(
                "".join(f"{'  ' * n}k{n}:\n" for n in range(200)), "f"),
            "python tag": lambda: check_text("t: !!python/object/apply:os.system [x]\n", "f"),
            f"{MAX_NODES + 1:,} nodes": lambda: check_text(
                "[" + ", ".join("1" for _ in range(MAX_NODES + 1)) + "]", "f"),
            "a value at the size cap": lambda: check_text(
                "title: " + "x" * (MAX_BYTES - 20) + "\n", "f"),
            # just under the node cap: every field checked and reported
            f"{MAX_NODES // 2 - 10:,} misspelt fields": lambda: check_text(
                "".join(f"titel{n}: x\n" for n in range(MAX_NODES // 2 - 10)), "f"),
            "a 50 MiB file": lambda: check_file(huge),
            # each expression is parsed in Python: the file's budget of characters bounds them
            "150 long guards (expressions)": lambda: check_text(many_guards(150), "f"),
            "an expression nested 400 deep": lambda: check_text(many_guards(
                1, "!" * 400 + "true"), "f"),
        }
        anchor, anchor_peak, _ = measure(lambda: check_text(shipped, "f"), rounds)
        print(f"anchor: the shipped extended-sequence.yaml checked: {anchor * 1000:.1f} ms, "
              f"peak {anchor_peak:.1f} MiB")
        print(f"{'hostile file':32} {'median':>10} {'x anchor':>9} {'peak MiB':>9}  refused by")
        for name, run in cases.items():
            seconds, peak, said = measure(run, rounds)
            verdict = "PASS" if seconds < 1 and peak < 50 else "MISS"
            print(f"{name:32} {seconds * 1000:8.1f}ms {seconds / anchor:8.1f}x {peak:9.1f}  "
                  f"{said}  {verdict} (target: < 1 s, < 50 MiB)")
    expressions(rounds)
    budget(rounds)
    from domain.rulesets.battlegroup import battlegroup
    from domain.rulesets.wing_command import wing_command

    game_file("battlegroup", battlegroup({"rounds": 3}), rounds)
    # (its walks neither end nor concede the match: tests/unit/test_differential_wing_command)
    game_file("wing-command", wing_command({"turns": 3}), rounds, endings=False)


if __name__ == "__main__":
    main()
