"""The one function of ours an expression may call: `hex_distance(a, b)`, the number of
hexes from hex `a` to hex `b` on battlelog's hex map (ids `CCRR`: two digits of column, two
of row; flat-topped hexes in columns, each odd column half a hex lower, as the page draws
them: api/static/board.js). Pure and bounded: two texts of four digits in, a whole number
out; any other text is refused (the expression cannot be read: its guard refuses)."""

from __future__ import annotations

import re

HEX_ID = re.compile(r"^([0-9]{2})([0-9]{2})$")


def _cube(hex_id: object) -> tuple[int, int]:
    matched = HEX_ID.match(hex_id) if isinstance(hex_id, str) else None
    if matched is None:
        raise ValueError(f"hex_distance() takes hex ids of four digits (CCRR), not "
                         f"{str(hex_id)[:10]!r}")
    column, row = int(matched[1]), int(matched[2])
    return column, row - (column - (column & 1)) // 2


def hex_distance(a: object, b: object) -> int:
    """Hexes from `a` to `b` (0 when the same, 1 next to each other)."""
    (x1, z1), (x2, z2) = _cube(a), _cube(b)
    dx, dz = x1 - x2, z1 - z2
    return max(abs(dx), abs(dz), abs(dx + dz))
