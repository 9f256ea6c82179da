"""What evaluating an expression of a ruleset file costs, in steps, bounded before it runs,
and the one budget of steps a request's readings share.

An expression has no loop but its list functions (`all`, `exists`, `exists_one`, `filter`,
`map`), at most MAX_MACROS inside one another, and they go over the lists and maps of the
view: the units in play above all, up to the 400 a match holds. A **step** is one item a
list function visits, its body read for it (a step for every BODY operations of the body:
names, fields, comparisons, `&&` ...), or one item that `filter` or `map` copies into
the list CEL's evaluator builds (it copies what it has built at each item, so a `map` over n
items copies about n * n / 2; the closures in front of it copy nothing); a call of one of our
functions (`hex_distance`, `highest`, `join`, `distinct`) is CALL steps, plus the items of the
list it goes over (each against each for `distinct`). `Cost` is read from the expression's
parse tree at load (each list function, how deep it stands, whether it builds a list, the
operations of its body; how many lists it joins with `+`; each call of ours, how deep it
stands); `steps(largest)` is an
upper bound of the steps over a view whose largest list or map holds `largest` items. (ours)
An evaluation whose bound passes STEPS is not run (`TooCostly`, evaluate.py).

(ours) The readings of one request (a board, a legal answer, an action decided) share one
`Meter` of BUDGET steps, each reading charged its bound before it runs: past it the reading
is not run (`Spent`), and the request says the file's work budget was spent (`WorkSpent`
for an action; a legal answer cut short; a board without the file's extras). Steps are work
counted, never time: the domain reads no clock. bench/hostile.py measures what BUDGET is in
time over the costliest files the load's caps allow."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from domain.errors import InvalidAction

# (ours) the steps one view's expressions may take together: Hold the Towns' costliest
# (a list function inside another, and a filter then a map) stay under it with 400 units
STEPS = 600_000
# (ours) the steps of one request's readings together (a board, a legal answer, an action
# decided: every body a legal answer decides reads the guards again): five readings at the
# bound; Hold the Towns' costliest answer on 400 units takes 160,406, Wing Command's board
# on 400 units about 200,000 (bench/rulefiles_budget.py, bench/hostile.py)
BUDGET = 800_000
ANSWER_STEPS = BUDGET  # a legal answer's: past it the answer is cut short, saying so
# (ours) a call of one of our functions, in steps: hex_distance read by the closures costs
# about ten items visited (bench/hostile.py)
CALL = 10
# (ours) the operations of a list function's body that one item visited costs a step: a body
# of more costs more (bench/hostile.py: a body of 190 operations read 52 us an item)
BODY = 4
EVERY = 20_000  # (ours) the steps between two calls of a meter's `between`


@dataclass(frozen=True)
class Cost:
    """An expression's list functions: for each, how deep it stands (1: outermost) and
    whether it builds a list (`filter`, `map`); and how many lists it joins with `+`."""

    sites: tuple[tuple[int, bool], ...] = ()
    joins: int = 0
    # each call of ours: how deep it stands (0: in no list function), and how it goes over
    # the list it is given (0: hex_distance; 1: once; 2: each item against each, distinct)
    calls: tuple[tuple[int, int], ...] = ()
    # the sites whose body holds more than BODY operations, each with its weight: the steps
    # an item visited costs (one a BODY operations, or part of them)
    weights: tuple[tuple[int, int], ...] = ()

    def steps(self, largest: int, copies: bool = True) -> int:
        """An upper bound of the steps over a view whose largest list or map holds
        `largest` items (a joined list is as long as the lists it joins together);
        `copies`: with the items CEL's evaluator copies as it builds a list."""
        if not self.sites and not self.calls:
            return 0
        n = max(largest, 1) * (1 + self.joins)
        over = (0, n, n * n // 2)
        weight = dict(self.weights)
        return int(sum(n ** depth * weight.get(site, 1)
                       + (n ** (depth + 1) // 2 if builds and copies else 0)
                       for site, (depth, builds) in enumerate(self.sites))
                   + sum(n ** depth * (CALL + over[kind]) for depth, kind in self.calls))


def total(costs: list[Cost], largest: int) -> int:
    """The steps of several expressions read over one view."""
    return sum(cost.steps(largest) for cost in costs)


FREE = Cost()  # an expression with no list function


class Spent(Exception):
    """The steps of a `Meter` would pass what it allows: the reading is not run."""

    def __init__(self, meter: Meter) -> None:
        super().__init__(f"its expressions would pass {meter.most:,} steps")
        self.meter = meter


class WorkSpent(InvalidAction):
    """An action refused because the ruleset file's expressions would pass the work budget
    of one request (or one reading's bound): nothing is recorded."""

    title = "Ruleset file's work budget spent"


def spent_words(meter: Meter) -> str:
    return (f"the ruleset file's expressions would pass the work budget of one request "
            f"({meter.most:,} steps; {meter.spent:,} spent): docs/rulesets/authoring.md, "
            "\"The work budget\"")


class Meter:
    """The steps a file's expressions take over one piece of work (a board, a legal
    answer, an action decided), each reading charged its bound (`Cost.steps`) before it
    runs; past `most` it is not run (`Spent`). Set for the work it measures with `metered`:
    a context variable, so that two requests (threads or tasks) never share one.
    `between`, when given, is called every EVERY steps or so, between two readings (the
    server lets other threads run there: the domain itself waits for nothing)."""

    def __init__(self, most: int = BUDGET, between: Callable[[], None] | None = None) -> None:
        self.most, self.spent, self.readings = most, 0, 0
        self.between, self._next = between, EVERY

    def charge(self, steps: int) -> None:
        if self.spent + steps > self.most:
            raise Spent(self)
        self.spent += steps
        self.readings += 1
        if self.between is not None and self.spent >= self._next:
            self._next = self.spent + EVERY
            self.between()


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


@contextmanager
def budgeted(between: Callable[[], None] | None = None) -> Iterator[Meter | None]:
    """The work inside as one request: a meter of BUDGET steps set for it (the one set
    already, when the work is part of a larger one: a legal answer's bodies), its `Spent`
    said as `WorkSpent` (an action refused, naming the budget)."""
    if _METER.get() is not None:
        yield _METER.get()
        return
    chosen = Meter(BUDGET, between)
    token = _METER.set(chosen)
    try:
        yield chosen
    except Spent as spent:
        raise WorkSpent(spent_words(spent.meter), rule="core-ruleset-work") from None
    finally:
        _METER.reset(token)
