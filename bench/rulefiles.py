"""Ruleset files (issue 28, docs/rulesets/authoring.md): how fast and how cheaply a hostile
file is refused, each figure beside its anchor measured in the same run:

    .venv/bin/python bench/rulefiles.py [--rounds 5]

Anchor: checking the shipped extended-sequence.yaml (a real 8 KiB file that passes). Each
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from rulefile_forms import billion_laughs

from projections.rulefile_load import (
    BUILT_IN,
    MAX_BYTES,
    MAX_NODES,
    Report,
    check_file,
    check_text,
)


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


if __name__ == "__main__":
    main()
