"""Whether a seat's dice were lucky, judged only where the sample supports a verdict.

The criterion (docs/reports.md, "Luck"): the dice of one type are compared with fair dice by
their sum (so by their mean face), with the exact distribution of the sum of n fair dice (up
to `EXACT_UP_TO` dice; beyond, the normal approximation, which is then as good to 1 part in
1,000).

- **Luckier** (**unluckier**) than expected: fair dice roll a sum this high (low) or further
  from the middle less than one time in twenty (a two-sided test at the 5% level).
- Otherwise, with at least `JUDGED_FROM` dice, **about as expected**: that many dice would
  show a real bias (below) more than nine times in ten.
- Otherwise **too few dice to judge**: fair and biased dice look alike in so few.

`JUDGED_FROM`: 30 dice of a d6 that never rolls 1 or 2 (it averages 4.5, a face above a fair
die) are called luckier 97 times in 100; 20 such dice only 81 times, 10 only 34 (tested)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

LEVEL = 0.05  # two-sided: a verdict when fair dice look like this less than 1 time in 20
JUDGED_FROM = 30  # dice of one type: below that, no verdict unless the dice are far off
EXACT_UP_TO = 200  # dice: the exact sum's tails take a few milliseconds up to here

Verdict = Literal["luckier", "unluckier", "as expected", "too few dice", "no dice"]


def ways_at_most(total: int, n: int, sides: int) -> int:
    """How many of the sides**n equally likely rolls of n dice sum to at most `total`
    (inclusion-exclusion over the dice that would exceed a face of `sides`: exact)."""
    if total < n:
        return 0
    if total >= n * sides:
        return int(sides**n)
    return sum((-1) ** k * math.comb(n, k) * math.comb(total - k * sides, n)
               for k in range(min(n, (total - n) // sides) + 1))


def tails(total: int, n: int, sides: int) -> tuple[float, float]:
    """P(sum <= total) and P(sum >= total) for n fair dice of `sides` faces."""
    if n > EXACT_UP_TO:  # the normal approximation, with the continuity correction
        mean, sd = n * (sides + 1) / 2, math.sqrt(n * (sides * sides - 1) / 12)
        return (0.5 * math.erfc((mean - total - 0.5) / sd / math.sqrt(2)),
                0.5 * math.erfc((total - 0.5 - mean) / sd / math.sqrt(2)))
    every = int(sides**n)
    return (ways_at_most(total, n, sides) / every,
            1 - ways_at_most(total - 1, n, sides) / every)


@dataclass(frozen=True)
class Luck:
    verdict: Verdict
    p_value: float | None  # two-sided, exact; None: no dice
    words: str


def judge(faces: list[int], sides: int) -> Luck:
    """The verdict on `faces` (natural faces of `sides`-sided dice), in words."""
    n = len(faces)
    if n == 0:
        return Luck("no dice", None, "no dice rolled")
    low, high = tails(sum(faces), n, sides)
    p = min(1.0, 2 * min(low, high))
    mean, expected = sum(faces) / n, (sides + 1) / 2
    said = f"mean {mean:.2f} against {expected:.2f}"
    if p < LEVEL:
        lucky = high < low
        odds = high if lucky else low
        how_often = "less than 0.1%" if odds < 0.001 else f"{odds:.1%}"
        return Luck("luckier" if lucky else "unluckier", p,
                    f"{'luckier' if lucky else 'unluckier'} than expected ({said}): fair dice "
                    f"roll {'this well or better' if lucky else 'this badly or worse'} "
                    f"{how_often} of the time")
    if n >= JUDGED_FROM:
        return Luck("as expected", p, f"about as expected ({said})")
    return Luck("too few dice", p, f"too few dice to judge ({said}; it takes {JUDGED_FROM} "
                                   "dice, unless they are far off)")
