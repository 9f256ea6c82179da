"""Ruleset files (issue 28, docs/rulesets/authoring.md): how fast and how cheaply a hostile
file is refused, and what the file's expressions cost as the referee plays, each figure
beside its anchor measured in the same run:

    .venv/bin/python bench/rulefiles.py [--rounds 5] [--games]

Expressions: the extended sequence's Combat Phase refusals, as the Python ruleset's
`check` (anchor) and as the shipped file's guards (CEL, `domain/rulefiles/behaviour.py`),
over the states of its demo (every step of two game turns, for both sides): (1) the check
alone, for a move and a marker of every unit; (2) `decide` plus the legal actions of both
sides, the Python ruleset against the file's own ruleset (its guards, fire, announcements,
repair and leader's rally, arrivals and after-action effects; the artillery procedure and
the self-rally it does not say yet lent from Python) (issue 28's target: the data file within 1.5x);
(3) ES-2's repair roll decided, the Python procedure against the file's roll. And one
expression of each shape evaluated alone (a comparison, a macro over every unit) beside
the anchor check. Battlegroup: `decide` plus the legal actions per action on the Python
ruleset (anchor) and on its file, over the states of random walks through its demo; the same for
Wing command. Each pair is timed in CPU time of this process (other processes of a shared
machine are not counted), its rounds taken in turn, so that what still slows the machine slows both.

The evaluation budget's table is bench/rulefiles_budget.py's (run here too, before the games' own).

Anchor: checking the shipped extended-sequence.yaml (a real 11 KiB file that passes). Each
hostile file is checked `--rounds` times through `check_text` (a 50 MiB file through
`check_file`, which reads no more than the cap): the median time, the ratio to the anchor,
the peak Python memory while it is checked (tracemalloc) and the check that refused it.
Issue 28's target: every hostile file refused within 1 s, the server growing by at most
50 MiB.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rulefile_forms import SKIRMISH, billion_laughs
from rulefiles_budget import budget
from rulefiles_states import MATCH, T0, commands, demo_states, paired, timed

from domain import commands as cmd
from domain.decide import Context, decide
from domain.dice import SeededDice
from domain.errors import DomainError
from domain.legal import legal_actions
from domain.rulefiles.behaviour import behaviour
from domain.rulefiles.compile import compile_file
from domain.rulefiles.evaluate import compile_expression
from domain.rulefiles.types import BOOL
from domain.rulefiles.view import Declared, types
from domain.rulesets import get_ruleset
from domain.state import Position
from projections.rulefile_load import (
    BUILT_IN,
    MAX_BYTES,
    MAX_NODES,
    Report,
    check_file,
    check_text,
)


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


def expressions(rounds: int) -> None:
    report = check_file(BUILT_IN / "extended-sequence.yaml")
    assert report.ruleset is not None, report.lines()
    python = get_ruleset("extended-sequence", {})
    built = behaviour(report.ruleset)
    # the Python ruleset with what the file says in its place: its guards for the Python
    # check, its repair roll for the Python repair
    data = replace(python, checks=built["checks"], rolls={**python.rolls, **built["rolls"]})
    # decide + legal actions: the file's own ruleset, with the procedure and the roll it does
    # not say yet lent from Python (the gaps, docs/rulesets/authoring.md)
    compiled = compile_file(report.ruleset, declared_in_play=False)
    played = replace(compiled, actions={**compiled.actions,
                                        "call_artillery": python.actions["call_artillery"]},
                     rolls={**compiled.rolls, "self_rally": python.rolls["self_rally"]})
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
    anchor_play, mine_play = (t / decided for t in paired(play(python), play(played), rounds))
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
    parser.add_argument("--games", action="store_true",
                        help="only the built-in games' figures (Python module against file)")
    arguments = parser.parse_args()
    rounds = arguments.rounds
    if arguments.games:
        games(rounds)
        return
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
    games(rounds)


def games(rounds: int) -> None:
    """Battlegroup's and Wing command's `decide` + legal actions, module against file."""
    from domain.rulesets.battlegroup import battlegroup
    from domain.rulesets.wing_command import wing_command

    game_file("battlegroup", battlegroup({"rounds": 3}), rounds)
    # (its walks neither end nor concede the match: tests/unit/test_differential_wing_command)
    game_file("wing-command", wing_command({"turns": 3}), rounds, endings=False)


if __name__ == "__main__":
    main()
