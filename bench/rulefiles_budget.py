"""The evaluation budget of ruleset files (docs/rulesets/authoring.md, "The evaluation
budget"), measured beside its anchor in the same run:

    .venv/bin/python bench/rulefiles_budget.py [--rounds 3]

(also the last tables of bench/rulefiles.py)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import cel

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rulefiles_states import MATCH, T0, demo_states, timed

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    budget(parser.parse_args().rounds)


if __name__ == "__main__":
    main()
