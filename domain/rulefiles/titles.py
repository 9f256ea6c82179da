"""A ruleset file's own words for what its game names: the titles of its actions, rolls,
marker kinds and statuses (its tracks' titles are the `Ruleset`'s `track_titles`), kept on
the ruleset a file compiles to (`FileRuleset`), so that every sentence of the log and every
button of the table says them (domain/legal/words.py, projections/sentences*). A Python
ruleset has none: its words are the service's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from domain.rulefiles.model import RulesetFile
from domain.rulesets.base import Ruleset


@dataclass(frozen=True)
class Titles:
    """Each declared name's title, by name (only those the file gives a title), and the
    rule each action is taken under (`rules`, those the file gives one)."""

    actions: Mapping[str, str] = field(default_factory=dict)
    rules: Mapping[str, str] = field(default_factory=dict)
    rolls: Mapping[str, str] = field(default_factory=dict)
    markers: Mapping[str, str] = field(default_factory=dict)
    statuses: Mapping[str, str] = field(default_factory=dict)
    # each unit kind's title (those the file gives one), and the attributes it declares, in
    # the file's order, each by its title (its name in words when it has none)
    kinds: Mapping[str, str] = field(default_factory=dict)
    attributes: Mapping[str, Mapping[str, str]] = field(default_factory=dict)


NONE = Titles()


@dataclass(frozen=True)
class FileRuleset(Ruleset):
    """The ruleset a file compiles to, with the file's titles."""

    titles: Titles = NONE


def titles_of(file: RulesetFile) -> Titles:
    return Titles(
        actions={name: a.title for name, a in file.actions.items() if a.title},
        rules={name: a.rule for name, a in file.actions.items() if a.rule},
        rolls={name: r.title for name, r in file.rolls.items() if r.title},
        markers={name: m.title for name, m in file.marker_kinds.items() if m.title},
        statuses={name: s.title for name, s in file.statuses.items() if s.title},
        kinds={name: k.title for name, k in file.unit_kinds.items() if k.title},
        attributes={name: {attr: a.title or attr.replace("_", " ") for attr, a in k.attributes.items()}
                    for name, k in file.unit_kinds.items() if k.attributes})


def titles(ruleset: Ruleset | None) -> Titles:
    """The titles a ruleset's file gives (none for a Python ruleset)."""
    return ruleset.titles if isinstance(ruleset, FileRuleset) else NONE
