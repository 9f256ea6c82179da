"""A game's own titles in the log's sentences: a ruleset file's marker kinds, statuses and
tracks said as the file titles them ("placed 1 marker on 2nd Rifles: Named as the
defender", "set Control of Kell to North"); a name the game gives no title is said in
words, as before (`defender` -> "1 defender marker"). `projections.sentences.Names` asks
these with the match's ruleset."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fnmatch import fnmatchcase
from typing import Any

from domain.errors import InvalidAction
from domain.legal.words import track_title
from domain.rulefiles.titles import titles
from domain.rulesets import get_ruleset
from domain.rulesets.base import Ruleset
from projections.sentences_dice import plural


def _words(text: str) -> str:
    return text.replace("_", " ")


def lower(title: str) -> str:
    """A title inside a sentence: its first letter small, unless the word is an
    abbreviation (`Routed` -> `routed`, `AP spent` stays)."""
    return title if title[1:2].isupper() else title[:1].lower() + title[1:]


def markers(ruleset: Ruleset | None, kind: str, count: int, on: str) -> str:
    """`count` markers of `kind` and where (`on`: "on 2nd Rifles"): "1 marker on 2nd
    Rifles: Named as the defender"; untitled, "1 defender marker on 2nd Rifles"."""
    title = titles(ruleset).markers.get(kind)
    if title is not None:
        return f"{plural(count, 'marker')} {on}: {title}"
    said = _words(kind).removesuffix(" marker").removesuffix("marker")
    return f"{count} {said} marker{'s' if count != 1 else ''} {on}".replace("  ", " ")


def markers_gone(ruleset: Ruleset | None, kind: str, count: int) -> str:
    """Markers a rally took off: "2 suppression markers", or "Suppression ×2"."""
    title = titles(ruleset).markers.get(kind)
    return f"{title} ×{count}" if title is not None else plural(count, f"{_words(kind)} marker")


def status(ruleset: Ruleset | None, name: str) -> str:
    """A status as the file titles it (`broken_down` -> "equipment broken down")."""
    title = titles(ruleset).statuses.get(name)
    return lower(title) if title is not None else _words(name)


def track(ruleset: Ruleset | None, name: str, part: Callable[[str], str],
          untitled: Callable[[str], str]) -> str:
    """A track as the game titles it (`control.0203` -> "Control of Kell", `part` saying
    what its `*` matched); a track it gives no title, as `untitled` says it."""
    patterns: Mapping[str, Any] = ruleset.track_titles if ruleset is not None else {}
    if any(fnmatchcase(name, pattern) for pattern in patterns):
        return track_title(ruleset, name, part=part)
    return untitled(name)


def part(options: Mapping[str, Any], named: Mapping[str, str], matched: str) -> str:
    """What a titled track's `*` matched: a town (the option `city_names`), a unit or a
    side (`named`), else in words."""
    cities = options.get("city_names")
    if isinstance(cities, dict) and matched in cities:
        return str(cities[matched])
    return named.get(matched) or _words(matched)


def ruleset_of(ruleset: str, options: dict[str, Any], content_hash: str | None
               ) -> Ruleset | None:
    """The match's ruleset; None for one this service does not know."""
    try:
        return get_ruleset(ruleset, options, content_hash)
    except InvalidAction:  # an unknown ruleset still has names to say
        return None
