"""Each side's colour, as the table page draws it (`sideColours` in api/static/board.js): a
side whose id names a colour or an army gets that one, any other the palette's colour for
its place in the match's list of sides. The after-action report draws its charts with these,
so a side is the same colour on the table and in the report (a browser test compares them)."""

from __future__ import annotations

from collections.abc import Iterable

PALETTE = ("#b3261e", "#1f5fbf", "#2e7d32", "#8a5a00", "#6a1b9a", "#00695c", "#ad1457",
           "#37474f")
NAMED = {"red": "#b3261e", "blue": "#1f5fbf", "green": "#2e7d32", "german": "#4e5b31",
         "germans": "#4e5b31", "allied": "#1f5fbf", "soviets": "#b3261e"}
NEUTRAL = "#4a4a55"  # what belongs to no side (the dice histograms)


def side_colours(side_ids: Iterable[str]) -> dict[str, str]:
    """Side id -> colour, for the sides in the match's order."""
    return {side: NAMED.get(side, PALETTE[i % len(PALETTE)]) for i, side in enumerate(side_ids)}
