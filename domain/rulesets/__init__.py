"""Rulesets: each game system is a `Ruleset` (its sequence of play, its conditions and its
extra checks). `get_ruleset(id, options, content_hash)` builds the one a match was created
with: a built-in game by its id (from its file once the application says so:
`play_from_file`), or a ruleset file by the content hash its match pinned (`registry`: the
files this process knows, filled by the application)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from domain.errors import InvalidAction
from domain.rulesets.atomic_africa import atomic_africa
from domain.rulesets.base import Ruleset
from domain.rulesets.battlegroup import battlegroup
from domain.rulesets.extended_sequence import extended_sequence
from domain.rulesets.freeform import freeform
from domain.rulesets.normandy import normandy
from domain.rulesets.registry import data_ruleset
from domain.rulesets.wing_command import wing_command

_FACTORIES: dict[str, Callable[[Mapping[str, Any]], Ruleset]] = {
    "freeform": freeform,
    "atomic-africa": atomic_africa,
    "battlegroup": battlegroup,
    "wing-command": wing_command,
    "extended-sequence": extended_sequence,
    "normandy": normandy,
}


# The built-in games now written as ruleset files (projections/rulefiles/): the application
# compiles each file and gives its factory here (the domain reads no file); until it does,
# the Python module plays the game (and stays the reference the differential tests hold the
# file to: tests/unit/test_differential_*.py).
_FROM_FILES: dict[str, Callable[[Mapping[str, Any]], Ruleset]] = {}


def play_from_file(ruleset_id: str, factory: Callable[[Mapping[str, Any]], Ruleset]) -> None:
    """The built-in game `ruleset_id` is played from its file: `factory` builds it."""
    if ruleset_id not in _FACTORIES:
        raise ValueError(f"'{ruleset_id}' is no built-in game")
    _FROM_FILES[ruleset_id] = factory
    _build.cache_clear()


def ruleset_ids() -> list[str]:
    return sorted(_FACTORIES)


def get_ruleset(ruleset_id: str, options: Mapping[str, Any] | None = None,
                content_hash: str | None = None) -> Ruleset:
    """The ruleset a match plays: the file of `content_hash` when the match was created from
    one (the registry's), else the built-in game `ruleset_id` (built once per distinct id and
    options)."""
    if content_hash is not None:
        return data_ruleset(content_hash)
    return _build(ruleset_id, json.dumps(options, sort_keys=True) if options else "{}")


@lru_cache(maxsize=256)
def _build(ruleset_id: str, options_json: str) -> Ruleset:
    try:
        factory = _FROM_FILES.get(ruleset_id) or _FACTORIES[ruleset_id]
    except KeyError:
        raise InvalidAction(
            f"unknown ruleset '{ruleset_id}'", rule="core-ruleset", allowed=ruleset_ids()
        ) from None
    return factory(json.loads(options_json))


__all__ = ["Ruleset", "get_ruleset", "play_from_file", "ruleset_ids"]
