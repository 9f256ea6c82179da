"""Dice statistics: the chi-square p-value against tabulated values, the summaries, the
luck in words, and the CSV rows."""

from __future__ import annotations

import csv
import io

import pytest
from conftest import Table

from projections.dice_stats import chi_square_p, csv_lines, statistics, summary


@pytest.mark.parametrize(("statistic", "df", "p"), [
    (3.841, 1, 0.05), (7.815, 3, 0.05), (16.266, 3, 0.001), (11.070, 5, 0.05),
    (20.515, 5, 0.001), (27.877, 9, 0.001), (43.820, 19, 0.001), (30.144, 19, 0.05)])
def test_the_p_value_matches_the_chi_square_tables(statistic: float, df: int, p: float) -> None:
    assert chi_square_p(statistic, df) == pytest.approx(p, rel=2e-3)


def test_a_fair_sample_passes_and_a_loaded_die_is_caught() -> None:
    fair = summary([1, 2, 3, 4, 5, 6] * 20, 6)
    assert fair["chi_square"] == 0 and fair["p_value"] == 1.0 and fair["mean"] == 3.5
    assert fair["luck"].startswith("about as expected")
    loaded = summary([6] * 60 + [1, 2, 3, 4, 5] * 6, 6)
    assert loaded["p_value"] < 0.001 and loaded["observed"]["6"] == 60
    assert loaded["luck"].startswith("luckier than expected")
    cursed = summary([1] * 12, 6)
    assert cursed["luck"].startswith("unluckier than expected") and not cursed["enough_dice"]
    assert cursed["luck"].endswith("less than 0.1% of the time")


def test_statistics_per_seat_die_and_purpose_and_the_csv(table: Table) -> None:
    table.act("red", type="roll_dice", notation="2d6", purpose="fire", source="table",
              results=[6, 5])
    table.act("red", type="roll_dice", notation="d6+1", purpose="morale", source="table",
              results=[2])
    table.act("blue", type="roll_dice", notation="d20", purpose="fire", source="table",
              results=[20])
    stats = statistics(table.log)["seats"]
    assert stats["red"]["d6"]["dice"] == 3 and stats["red"]["d6"]["mean"] == pytest.approx(13 / 3, abs=1e-3)
    assert stats["red"]["d6"]["by_purpose"]["fire"]["dice"] == 2
    assert stats["red"]["d6"]["by_purpose"]["morale"]["observed"]["2"] == 1
    assert stats["blue"]["d20"]["observed"]["20"] == 1
    rows = list(csv.DictReader(io.StringIO("".join(csv_lines(table.log)))))
    assert [(r["seat"], r["notation"], r["faces"], r["total"]) for r in rows] == [
        ("red", "2d6", "6 5", "11"), ("red", "d6+1", "2", "3"), ("blue", "d20", "20", "20")]
