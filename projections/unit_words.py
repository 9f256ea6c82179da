"""What a board says about its units' own values in the game's words: a ruleset file's unit
kinds (their titles and the attributes they declare), and the names of the ids those
attributes hold (a battlegroup, the unit a unit belongs to). Read by the board view
(`projections.views.board_view`); the page's unit cards and the map's sheet show them."""

from __future__ import annotations

from pydantic import BaseModel, Field

from domain.rulefiles.titles import Titles
from domain.state import MatchState


class UnitKindView(BaseModel):
    """A unit kind a ruleset file declares, in the file's words (docs/board.md, "Units")."""

    title: str = Field(description="the kind's title (its id in words when the file gives none)")
    attributes: dict[str, str] = Field(description=(
        "the attributes it declares, in the file's order: name -> title; a unit's values are "
        "its `extra`"))


def unit_kinds_view(said: Titles) -> dict[str, UnitKindView]:
    """The unit kinds a ruleset file declares with attributes or a title (`said`: the file's
    titles; none for a game of the service's own, whose units' values are the view's own
    fields)."""
    return {kind: UnitKindView(title=said.kinds.get(kind, kind.replace("_", " ")),
                               attributes=dict(said.attributes.get(kind, {})))
            for kind in {*said.kinds, *said.attributes}}


def extra_words(state: MatchState) -> dict[str, dict[str, str]]:
    """The words for the ids the units' attributes hold (`BoardView.extra_words`), by
    attribute then value: a unit named by another's attribute ("The unit it belongs to": its
    name), else a value the scenario names by option `<attribute>_names` (a battlegroup by
    `battlegroup_names`); values neither names are left out (said as they are)."""
    out: dict[str, dict[str, str]] = {}
    for unit in state.units.values():
        for name, value in unit.extra.items():
            if not isinstance(value, str):
                continue
            other = state.units.get(value)
            names = state.options.get(f"{name}_names")
            if other is not None:
                out.setdefault(name, {})[value] = other.name
            elif isinstance(names, dict) and value in names:
                out.setdefault(name, {})[value] = str(names[value])
    return out
