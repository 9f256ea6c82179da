"""What evaluating an expression of a ruleset file costs, in steps, bounded before it runs.

An expression has no loop but its list functions (`all`, `exists`, `exists_one`, `filter`,
`map`), at most MAX_MACROS inside one another, and they go over the lists and maps of the
view: the units in play above all, up to the 400 a match holds. A **step** is one reading of
a list function's body for one item, or one item that `filter` or `map` copies into the
list it builds (CEL's evaluator copies what it has built at each item, so a `map` over n
items copies about n * n / 2). `Cost` is read from the expression's parse tree at load (each
list function, how deep it stands, whether it builds a list; how many lists it joins with
`+`); `steps(largest)` is an upper bound of the steps over a view whose largest list or map
holds `largest` items. (ours) An evaluation whose bound passes STEPS is not run: the guard,
condition, roll or scoring that reads it refuses as unreadable, naming its rule, as for a
division by zero. bench/rulefiles.py measures why: over 400 units, the worst expression the
load's caps allow took seconds before this bound."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

# (ours) the steps one view's expressions may take together: Hold the Towns' costliest
# (a list function inside another, and a filter then a map) stay under it with 400 units
STEPS = 200_000
# (ours) the steps a file's expressions may take together over one legal answer (every body
# it decides reads the guards again): five readings at the bound; Hold the Towns' costliest
# answer on 400 units takes 160,406 (bench/rulefiles_budget.py). Past it the answer is cut
# short, saying so
ANSWER_STEPS = 5 * STEPS


@dataclass(frozen=True)
class Cost:
    """An expression's list functions: for each, how deep it stands (1: outermost) and
    whether it builds a list (`filter`, `map`); and how many lists it joins with `+`."""

    sites: tuple[tuple[int, bool], ...] = ()
    joins: int = 0

    def steps(self, largest: int) -> int:
        """An upper bound of the steps over a view whose largest list or map holds
        `largest` items (a joined list is as long as the lists it joins together)."""
        if not self.sites:
            return 0
        n = max(largest, 1) * (1 + self.joins)
        return sum(n ** depth + (n ** (depth + 1) // 2 if builds else 0)
                   for depth, builds in self.sites)


def total(costs: list[Cost], largest: int) -> int:
    """The steps of several expressions read over one view."""
    return sum(cost.steps(largest) for cost in costs)


FREE = Cost()  # an expression with no list function


class Spent(Exception):
    """The steps of a `Meter` would pass what it allows: the reading is not run."""

    def __init__(self, meter: Meter) -> None:
        super().__init__(f"its expressions would pass {meter.most:,} steps")
        self.meter = meter


class Meter:
    """The steps a file's expressions take over one piece of work (one legal answer), each
    reading charged its bound (`Cost.steps`) before it runs; past `most` it is not run
    (`Spent`). Set for the work it measures with `metered`: a context variable, so that
    two requests (threads or tasks) never share one."""

    def __init__(self, most: int) -> None:
        self.most, self.spent, self.readings = most, 0, 0

    def charge(self, steps: int) -> None:
        if self.spent + steps > self.most:
            raise Spent(self)
        self.spent += steps
        self.readings += 1


_METER: ContextVar[Meter | None] = ContextVar("rulefile_steps", default=None)


def meter() -> Meter | None:
    """The meter of the work in progress (None: none is measured)."""
    return _METER.get()


@contextmanager
def metered(chosen: Meter | None) -> Iterator[Meter | None]:
    """Charge the readings made inside to `chosen` (None: to no meter)."""
    token = _METER.set(chosen)
    try:
        yield chosen
    finally:
        _METER.reset(token)


def charge(steps: int) -> None:
    """Charge a reading's steps to the meter in use, if any (`Spent` past its most)."""
    found = _METER.get()
    if found is not None:
        found.charge(steps)
