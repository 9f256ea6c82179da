"""Large boards for the legal-actions bounds tests and the bench: a freeform match of `n`
units a side, each with a status flag and a marker (the same kinds on every unit, as the
issue's boards had; `distinct` gives every unit its own flag and marker kind instead)."""

from __future__ import annotations

from typing import Any


def board(n: int, *, distinct: bool = False, ruleset: str = "freeform") -> dict[str, Any]:
    """A `CreateMatch` body: two sides of `n` units each."""
    units = [{"id": f"{side}{i}", "side": side, "name": f"{side.title()} {i}",
              "kind": "squad", "figures": 10, "position": {"x": i % 40, "y": i // 40},
              "status": [f"shaken{i}" if distinct else "shaken"],
              "markers": {f"hit{i}" if distinct else "hit": 1}}
             for side in ("red", "blue") for i in range(n)]
    return {"ruleset": ruleset, "scenario": f"{n} a side",
            "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}],
            "units": units}
