"""The sample scenarios shipped with battlelog, one per ruleset: each file is the body of
`POST /api/matches` (a `CreateMatch` document; docs/scenarios.md)."""

from __future__ import annotations

from pathlib import Path

from domain.commands import CreateMatch

HERE = Path(__file__).parent


def names() -> list[str]:
    return sorted(p.stem for p in HERE.glob("*.json"))


def load(name: str) -> CreateMatch:
    """The scenario `name`, validated (KeyError if there is none)."""
    if name not in names():
        raise KeyError(name)
    return CreateMatch.model_validate_json((HERE / f"{name}.json").read_text())
