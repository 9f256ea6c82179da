"""The sample scenarios: each is a ready body for `POST /api/matches`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from pydantic import BaseModel

from api import scenarios
from api.problems import ScenarioNotFound
from domain.commands import CreateMatch

router = APIRouter(prefix="/api/scenarios", tags=["scenarios"])


class ScenarioSummary(BaseModel):
    name: str
    ruleset: str
    scenario: str
    sides: list[str]
    units: int


@router.get("")
def list_scenarios() -> list[ScenarioSummary]:
    """The sample scenarios shipped with the service, one per ruleset."""
    out = []
    for name in scenarios.names():
        doc = scenarios.load(name)
        out.append(ScenarioSummary(name=name, ruleset=doc.ruleset, scenario=doc.scenario,
                                   sides=[s.id for s in doc.sides], units=len(doc.units)))
    return out


@router.get("/{name}")
def get_scenario(name: Annotated[str, Path(max_length=100)]) -> CreateMatch:
    """A sample scenario: post it as it is to `/api/matches` to start a match from it."""
    try:
        return scenarios.load(name)
    except KeyError:
        raise ScenarioNotFound(f"there is no scenario '{name}'", rule="core-scenarios",
                               allowed=scenarios.names()) from None
