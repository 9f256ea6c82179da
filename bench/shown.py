"""How a bench module run alone prints its figures: each beside its anchor, then its checks
(PASS or MISS), then, if asked, the figures as JSON (bench/hostile.py, bench/legal.py)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

Rows = Callable[[dict[str, float]], Sequence[tuple[str, str, str, Any]]]
Checks = Callable[[dict[str, float]], Sequence[tuple[str, bool, str]]]


def show(f: dict[str, float], rows: Rows, checks: Checks, *, as_json: bool) -> None:
    for name, value, anchor, _ in rows(f):
        print(f"{name:44} {value:>12}  {anchor}")
    print()
    for name, ok, shown in checks(f):
        print(f"{'PASS' if ok else 'MISS'}  {name}: {shown}")
    if as_json:
        print(json.dumps(f, indent=2))
