"""A sample set-up for a game written as a ruleset file (docs/scenarios.md), for the lobby's
"Fill in its sample": a shipped game's own demo, pinned to the shipped file; for any other
stored file, one made from what the file declares: the fewest sides it takes, one unit of
each unit kind for each side, each required attribute given (ours: a middle value of an
integer's bounds, the first of a choice's values), the units on hexes of a small map, a
side's units in a column of their own. It is a body for `POST /api/matches`, named to the
file by its `ruleset_hash`, to start from and change, not a balanced scenario."""

from __future__ import annotations

from typing import Any

from api import scenarios
from domain.commands import CreateMatch
from domain.rulefiles.model import RulesetFile
from domain.rulefiles.model_pieces import (
    Attribute,
    ChoiceAttribute,
    IntegerAttribute,
    TextAttribute,
    UnitKind,
)

# (ours) the sides of a made sample, by colour: a name no game gives a meaning to
COLOURS = ("Blue", "Red", "Green", "Yellow", "Black", "White", "Orange", "Purple")
MOST_EXTRA = 32  # what a unit's `extra` holds at most (domain.commands.units)


def shipped_demo(file_id: str, content_hash: str) -> CreateMatch | None:
    """The demo of the game shipped as the file `file_id`, pinned to `content_hash`."""
    for name in scenarios.file_names():
        doc = scenarios.load(name)
        if doc.ruleset == file_id:
            return doc.model_copy(update={"ruleset_hash": content_hash})
    return None


def made_sample(file: RulesetFile, content_hash: str) -> CreateMatch:
    """A first set-up of the file's game, from what it declares."""
    count = file.sides.bounds()[0]
    sides = [{"id": colour.lower(), "name": colour} for colour in COLOURS[:count]]
    kinds: list[tuple[str, UnitKind | None]] = [*file.unit_kinds.items()] or [("unit", None)]
    units: list[dict[str, Any]] = []
    for s, side in enumerate(sides):
        for k, (kind, declared) in enumerate(kinds):
            title = (declared.title if declared is not None else "") or kind
            units.append({
                "id": f"{side['id']}-{kind}"[:40], "side": side["id"], "kind": kind,
                "name": f"{side['name']} {title}"[:120],
                "extra": _extra(declared.attributes if declared is not None else {}, side),
                "position": {"hex": f"{2 + 3 * s:02d}{2 + k:02d}"}})
    return CreateMatch.model_validate({
        "ruleset": file.id, "ruleset_hash": content_hash,
        "scenario": f"{file.title}: a first set-up"[:200], "sides": sides, "units": units})


def _extra(attributes: dict[str, Attribute], side: dict[str, str]) -> dict[str, Any]:
    """The unit's required attributes, each given a value within its bounds."""
    extra: dict[str, Any] = {}
    for name, attribute in attributes.items():
        if len(extra) == MOST_EXTRA or not getattr(attribute, "required", False):
            continue
        if isinstance(attribute, IntegerAttribute):
            extra[name] = (attribute.minimum + attribute.maximum) // 2
        elif isinstance(attribute, ChoiceAttribute):
            extra[name] = attribute.values[0]
        elif isinstance(attribute, TextAttribute):
            extra[name] = side["name"][:attribute.max_length]
    return extra
