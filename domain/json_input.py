"""JSON from outside (an import, an export to verify), read strictly: no NaN or Infinity
(JSON has neither; Python's reader would take them), no number too large for a float, and
nesting too deep for the reader is a `ValueError` like any other malformed line."""

from __future__ import annotations

import json
import math
from typing import Any


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large for a number")
    return value


def loads(text: str | bytes) -> Any:
    """Parse one JSON document; every refusal is a `ValueError`."""
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise ValueError("nested too deeply") from None
