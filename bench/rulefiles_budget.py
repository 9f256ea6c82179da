"""The evaluation budget of ruleset files (docs/rulesets/authoring.md, "The work
budget"), measured beside its anchor in the same run:

    .venv/bin/python bench/rulefiles_budget.py [--rounds 3] [--answers]

(also run by bench/rulefiles.py). `budget`: the worst single expressions; `answers`: legal
answers on the largest board, their views kept or not, and a hostile file's answer cut
short by its steps."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import cel

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rulefiles_states import MATCH, T0, demo_states, paired, timed

from domain import commands as cmd
from domain.decide import Context, decide
from domain.dice import SeededDice
from domain.errors import DomainError
from domain.rulefiles.evaluate import compile_expression
from domain.rulefiles.types import BOOL
from domain.rulefiles.view import Declared, types
from domain.rulesets import get_ruleset
from domain.state import Position


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


CROWD = """\
format_version: 1
id: crowd
title: Crowd
sides: {{count: 2}}
unit_kinds: {{squad: {{}}}}
actions: {{move_unit: {{}}, place_marker: {{}}, remove_marker: {{}}, set_status: {{}}}}
guards:
  - {{actions: [move_unit, place_marker, remove_marker, set_status], rule: CR-1,
     says: squads stand together, when: "{when}"}}
sequence:
  - step: move
    allows: [move_unit, place_marker, remove_marker, set_status]
"""


def answers(rounds: int) -> None:
    """Legal answers on the largest board a match holds (400 units): the extended sequence's
    demo, each unit 25 times, answered by the Python ruleset (the anchor) and by the same
    ruleset with the file's guards and repair roll in place of its check and repair (every
    step of one game turn, both sides); Hold the Towns' demo, each unit 50 times; and a
    hostile file whose one guard is within the bound of one reading (a nested pair,
    160,400 steps on 400 units) on every unit action. With the views kept (each state's
    view built once: domain/rulefiles/evaluate.py) and without (KEPT = 0: a view built for
    each reading, as before); the steps the file's expressions were charged."""
    from dataclasses import replace

    from domain import legal
    from domain.legal import legal_actions
    from domain.rulefiles import cost, evaluate
    from domain.rulefiles.behaviour import behaviour
    from domain.rulefiles.compile import compile_file
    from projections.rulefile_load import BUILT_IN, check_file, check_text

    report = check_file(BUILT_IN / "extended-sequence.yaml")
    assert report.ruleset is not None, report.lines()
    python = get_ruleset("extended-sequence", {})
    built = behaviour(report.ruleset)
    data = replace(python, checks=built["checks"], rolls={**python.rolls, **built["rolls"]})
    extended = demo_states(25, turns=1)
    towns_file = check_file(BUILT_IN / "hold-the-towns.yaml").ruleset
    assert towns_file is not None
    towns = compile_file(towns_file)
    towns_states = demo_states(50, scenario="hold-the-towns-demo.json", ruleset=towns,
                               turns=1)
    hostile_file = check_text(CROWD.format(
        when="units.all(a, units.all(b, a.id != b.id || a.hex == b.hex))"), "f").ruleset
    assert hostile_file is not None
    hostile = compile_file(hostile_file)
    crowd = demo_states(25, turns=1)[0]
    crowd = crowd.model_copy(update={"turn": crowd.turn.model_copy(update={"step": "move"})})
    charged = [0]
    charge = cost.Meter.charge

    def counting(meter: cost.Meter, steps: int) -> None:
        charge(meter, steps)
        charged[0] += steps

    cost.Meter.charge = counting  # type: ignore[method-assign]

    def play(ruleset: Any, states: list[Any]) -> Any:
        def run() -> None:
            for state in states:
                for side in state.side_ids():
                    legal_actions(state, ruleset, side)
        return run

    count = len(extended) * 2
    guarded = "extended sequence, the file's guards"
    print(f"\nlegal answers on {len(extended[0].units)} units (page 1, each seat, every step "
          "of a game turn); anchor: the Python extended sequence's answer")
    print(f"  {'':38} {'views':>6} {'per answer':>11} {'x anchor':>9} {'steps':>11}")
    for kept in (evaluate.KEPT, 0):
        evaluate.KEPT = kept
        label = "kept" if kept else "none"
        charged[0] = 0
        anchor, mine = (t / count for t in paired(play(python, extended),
                                                  play(data, extended), rounds))
        steps = charged[0] // max(rounds, 1) // count
        print(f"  {guarded:38} {label:>6} {mine * 1000:9.1f}ms "
              f"{mine / anchor:8.2f}x {steps:11,}  (anchor {anchor * 1000:.1f} ms)")
        charged[0] = 0
        each = timed(play(towns, towns_states), rounds) / (len(towns_states) * 2)
        steps = charged[0] // max(rounds, 1) // (len(towns_states) * 2)
        print(f"  {'Hold the Towns':38} {label:>6} {each * 1000:9.1f}ms "
              f"{each / anchor:8.2f}x {steps:11,}")
        charged[0] = 0
        answer = None

        def once() -> None:
            nonlocal answer
            answer = legal_actions(crowd, hostile, "germans")
        each = timed(once, 1)
        print(f"  {'hostile guard, 160,400 steps a reading':38} {label:>6} {each * 1000:9.1f}ms "
              f"{each / anchor:8.2f}x {charged[0]:11,}  cut short: "
              f"{answer is not None and 'steps' in (answer.page.says or '')}")
    # as before: no view kept, no meter of the answer's steps (each reading bounded alone)
    legal.ANSWER_STEPS = 10**12
    charged[0] = 0
    each = timed(once, 1)
    print(f"  {'hostile guard, no answer budget':38} {'none':>6} {each * 1000:9.1f}ms "
          f"{each / anchor:8.2f}x {charged[0]:11,}  (as before: every body's guard read)")
    legal.ANSWER_STEPS = cost.ANSWER_STEPS
    evaluate.KEPT = 4
    cost.Meter.charge = charge  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--answers", action="store_true", help="the legal answers' table only")
    args = parser.parse_args()
    if not args.answers:
        budget(args.rounds)
    answers(args.rounds)


if __name__ == "__main__":
    main()
