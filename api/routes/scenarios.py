"""The sample scenarios: each is a ready body for `POST /api/matches`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel

from api import scenarios
from api.problems import ScenarioNotFound
from domain.commands import CreateMatch
from domain.rulesets import get_ruleset
from projections.ruleset_store import StoredRuleset

router = APIRouter(prefix="/api/scenarios", tags=["scenarios"])


class ScenarioSummary(BaseModel):
    name: str
    ruleset: str
    title: str  # the game's title, in the players' words
    ruleset_hash: str | None  # a game shipped as a ruleset file: the hash of that file
    scenario: str
    sides: list[str]
    units: int


def _shipped(request: Request) -> dict[str, StoredRuleset]:
    """The games shipped as ruleset files, stored at start (api/app.py), by id."""
    return getattr(request.app.state, "shipped", {})


def _pinned(request: Request, name: str) -> CreateMatch | None:
    """The demo `name` of a game shipped as a ruleset file, pinned to the shipped file's hash
    (so an upload of another file of the same id changes nothing of it); None if `name` is
    no such demo, or its game is not stored."""
    if name not in scenarios.file_names():
        return None
    doc = scenarios.load(name)
    stored = _shipped(request).get(doc.ruleset)
    return None if stored is None else doc.model_copy(update={"ruleset_hash": stored.hash})


def _names(request: Request) -> list[str]:
    return [*scenarios.names(),
            *(n for n in scenarios.file_names() if _pinned(request, n) is not None)]


@router.get("")
def list_scenarios(request: Request) -> list[ScenarioSummary]:
    """The sample scenarios shipped with the service: one per built-in game, then the demos
    of the games shipped as ruleset files (each with its file's `ruleset_hash`)."""
    out = []
    for name in _names(request):
        doc = _pinned(request, name) or scenarios.load(name)
        title = (_shipped(request)[doc.ruleset].title if doc.ruleset_hash
                 else get_ruleset(doc.ruleset, doc.options).title)
        out.append(ScenarioSummary(name=name, ruleset=doc.ruleset, title=title,
                                   ruleset_hash=doc.ruleset_hash, scenario=doc.scenario,
                                   sides=[s.id for s in doc.sides], units=len(doc.units)))
    return out


@router.get("/{name}")
def get_scenario(name: Annotated[str, Path(max_length=100)], request: Request) -> CreateMatch:
    """A sample scenario: post it as it is to `/api/matches` to start a match from it (a
    shipped ruleset file's demo names that file by its `ruleset_hash`)."""
    if name in scenarios.names():
        return scenarios.load(name)
    pinned = _pinned(request, name)
    if pinned is None:
        raise ScenarioNotFound(f"there is no scenario '{name}'", rule="core-scenarios",
                               allowed=_names(request))
    return pinned
