"""Every die a match rolled, as rows (the CSV export) and as statistics: per seat, per die
type and per purpose, the observed against the expected distribution, the mean against the
expected mean, a chi-square test, and a luck verdict in plain words where the sample
supports one (`projections.luck`)."""

from __future__ import annotations

import csv
import io
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from domain import events as ev
from domain.dice import parse
from projections.luck import judge
from projections.quoting import csv_cell

CSV_COLUMNS = ("version", "turn", "timestamp", "seat", "source", "notation", "sides", "faces",
               "modifier", "total", "purpose", "rule", "roll_index", "unit_ids", "replaces")


@dataclass(frozen=True)
class Roll:
    version: int
    turn: int
    timestamp: str
    seat: str
    source: str
    notation: str
    sides: int
    faces: tuple[int, ...]
    modifier: int
    total: int
    purpose: str
    rule: str | None
    roll_index: int | None
    unit_ids: tuple[str, ...] = field(default=())
    replaces: int | None = None  # the roll a referee's ruling had made again, in its place


def rolls(events: Iterable[ev.Event]) -> Iterator[Roll]:
    """The dice rolls in `events` (public on every surface): `DiceRolled`, and each side's
    die of an `InitiativeRolled` (seat: that side)."""
    for event in events:
        when = event.timestamp.isoformat()
        if isinstance(event, ev.DiceRolled):
            yield Roll(event.version, event.turn, when, event.actor, event.source,
                       event.notation, parse(event.notation).sides, event.dice, event.modifier,
                       event.total, event.purpose, event.rule, event.roll_index, event.unit_ids,
                       event.replaces)
        elif isinstance(event, ev.InitiativeRolled):
            for side, face in event.dice.items():
                yield Roll(event.version, event.turn, when, side, event.source, "d6", 6,
                           (face,), 0, face, "initiative", event.rule, event.roll_index)


def csv_lines(events: Iterable[ev.Event]) -> Iterator[str]:
    """The rolls as CSV (a header row, then one row per roll), line by line. Safe to open in
    a spreadsheet: no text cell starts a formula (`csv_cell`), and rows end in CRLF (RFC
    4180), so a cell holding a line break of either kind is quoted and stays one cell."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    yield buffer.getvalue()
    for roll in rolls(events):
        buffer.seek(0)
        buffer.truncate()
        writer.writerow([csv_cell(cell) for cell in (
            roll.version, roll.turn, roll.timestamp, roll.seat, roll.source, roll.notation,
            roll.sides, " ".join(map(str, roll.faces)), roll.modifier, roll.total,
            roll.purpose, roll.rule or "", "" if roll.roll_index is None else roll.roll_index,
            " ".join(roll.unit_ids), "" if roll.replaces is None else roll.replaces)])
        yield buffer.getvalue()


def standing(events: Iterable[ev.Event]) -> list[Roll]:
    """The rolls that count: every roll but those a referee's ruling had made again (the new
    roll stands in their place)."""
    every = list(rolls(events))
    replaced = {roll.replaces for roll in every if roll.replaces is not None}
    return [roll for roll in every if roll.version not in replaced]


def chi_square_p(statistic: float, df: int) -> float:
    """P(X >= statistic) for a chi-square with `df` degrees of freedom: the regularized
    upper incomplete gamma Q(df/2, statistic/2) (series below a + 1, continued fraction
    above)."""
    a, x = df / 2, statistic / 2
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1 - total * math.exp(log_front))
    b, c, d = x + 1 - a, 1e300, 1 / (x + 1 - a)
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


def summary(faces: list[int], sides: int) -> dict[str, Any]:
    """Count, observed and expected counts per face, mean and expected mean, chi-square,
    and the luck verdict."""
    n = len(faces)
    counts = Counter(faces)
    expected_count = n / sides
    observed = {str(face): counts.get(face, 0) for face in range(1, sides + 1)}
    statistic = sum((counts.get(face, 0) - expected_count) ** 2 / expected_count
                    for face in range(1, sides + 1)) if n else 0.0
    mean = sum(faces) / n if n else 0.0
    expected_mean = (sides + 1) / 2
    luck = judge(faces, sides)
    return {"dice": n, "observed": observed, "expected_per_face": round(expected_count, 3),
            "mean": round(mean, 3), "expected_mean": expected_mean,
            "chi_square": round(statistic, 3), "degrees_of_freedom": sides - 1,
            "p_value": round(chi_square_p(statistic, sides - 1), 4) if n else None,
            "enough_dice": expected_count >= 5,
            "verdict": luck.verdict, "luck_p_value": None if luck.p_value is None else round(
                luck.p_value, 4), "luck": luck.words}


def statistics(events: Iterable[ev.Event]) -> dict[str, Any]:
    """Per seat, per die type (`d6`), and per purpose within each: the summary of every die
    that stands (a roll made again on a ruling counts once, as the new roll)."""
    by: dict[str, dict[str, dict[str, list[int]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list)))
    for roll in standing(events):
        die = f"d{roll.sides}"
        by[roll.seat][die]["*"].extend(roll.faces)
        by[roll.seat][die][roll.purpose].extend(roll.faces)
    out: dict[str, Any] = {}
    for seat, dice in sorted(by.items()):
        out[seat] = {die: {**summary(groups["*"], int(die[1:])),
                           "by_purpose": {purpose: summary(faces, int(die[1:]))
                                          for purpose, faces in sorted(groups.items())
                                          if purpose != "*"}}
                     for die, groups in sorted(dice.items(), key=lambda d: int(d[0][1:]))}
    return {"seats": out, "note": "chi-square tests need about five dice per face to mean "
                                  "much (`enough_dice`)"}
