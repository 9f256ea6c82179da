"""Each side's colour: the one definition. The match view (`GET /api/matches/{id}`) gives
every side its `colour` from here, the table page draws each side in that colour
(api/static/board.js reads `side.colour`), and the after-action report draws its charts with
these, so a side is the same colour on the table and in the report.

A side whose id names a colour or an army gets that one, any other the palette's colour for
its place in the match's list of sides (no two of the first eight sides alike)."""

from __future__ import annotations

from collections.abc import Iterable

PALETTE = ("#b3261e", "#1f5fbf", "#2e7d32", "#8a5a00", "#6a1b9a", "#00695c", "#ad1457",
           "#37474f")
NAMED = {"red": "#b3261e", "blue": "#1f5fbf", "green": "#2e7d32", "german": "#4e5b31",
         "germans": "#4e5b31", "allied": "#1f5fbf", "soviets": "#b3261e"}
NEUTRAL = "#4a4a55"  # what belongs to no side (the dice histograms)


def side_colours(side_ids: Iterable[str]) -> dict[str, str]:
    """Side id -> colour, for the sides in the match's order. A named colour already taken
    by an earlier side gives way to the first palette colour no side has yet."""
    ids = list(side_ids)
    wanted = {side: NAMED.get(side, PALETTE[i % len(PALETTE)]) for i, side in enumerate(ids)}
    out: dict[str, str] = {}
    for side in ids:
        colour = wanted[side]
        if colour in out.values():
            free = [c for c in PALETTE if c not in out.values() and c not in wanted.values()]
            colour = free[0] if free else colour
        out[side] = colour
    return out
