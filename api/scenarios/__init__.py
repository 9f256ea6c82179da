"""The sample scenarios shipped with battlelog: each file is the body of `POST /api/matches`
(a `CreateMatch` document; docs/scenarios.md). Those here are the built-in games' demos, one
per ruleset (`names()`: each plays with no ruleset file stored). Those in `files/` are the
demos of the games shipped as ruleset files (`file_names()`; projections/rulefiles/): each
names its game by id, and plays once the service has stored that file, as it does at every
start."""

from __future__ import annotations

from pathlib import Path

from domain.commands import CreateMatch

HERE = Path(__file__).parent
FILES = HERE / "files"


def names() -> list[str]:
    """The built-in games' demos."""
    return sorted(p.stem for p in HERE.glob("*.json"))


def file_names() -> list[str]:
    """The demos of the games shipped as ruleset files."""
    return sorted(p.stem for p in FILES.glob("*.json"))


def load(name: str) -> CreateMatch:
    """The scenario `name`, of either kind, validated (KeyError if there is none)."""
    if name in names():
        return CreateMatch.model_validate_json((HERE / f"{name}.json").read_text())
    if name in file_names():
        return CreateMatch.model_validate_json((FILES / f"{name}.json").read_text())
    raise KeyError(name)
