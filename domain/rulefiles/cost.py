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

from dataclasses import dataclass

# (ours) the steps one view's expressions may take together: Hold the Towns' costliest
# (a list function inside another, and a filter then a map) stay under it with 400 units
STEPS = 200_000



@dataclass(frozen=True)
class Cost:
    """An expression's list functions: for each, how deep it stands (1: outermost) and
    whether it builds a list (`filter`, `map`); and how many lists it joins with `+`."""

    sites: tuple[tuple[int, bool], ...] = ()
    joins: int = 0

    def steps(self, largest: int) -> int:
        """An upper bound of the steps over a view whose largest list or map holds
        `largest` items (a joined list is as long as the lists it joins together)."""
        n = max(largest, 1) * (1 + self.joins)
        return sum(n ** depth + (n ** (depth + 1) // 2 if builds else 0)
                   for depth, builds in self.sites)


def total(costs: list[Cost], largest: int) -> int:
    """The steps of several expressions read over one view."""
    return sum(cost.steps(largest) for cost in costs)


FREE = Cost()  # an expression with no list function
