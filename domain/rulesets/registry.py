"""The rulesets written as files that this process knows, by content hash
(`domain.rulefiles.identity`): the seam through which `get_ruleset` learns them.

The domain never reads a file. The application fills this registry (projections.
ruleset_store: the service's stored files, at start and as each is stored or imported) with
rulesets compiled from checked files, and may add a `source`: a function asked for a hash
the registry does not hold yet (another process on the same store stored it), whose answer
is kept. A hash nobody knows is refused by name (core-ruleset)."""

from __future__ import annotations

from collections.abc import Callable
from threading import Lock

from domain.errors import InvalidAction
from domain.rulesets.base import Ruleset

Source = Callable[[str], Ruleset | None]

_known: dict[str, Ruleset] = {}
_sources: list[Source] = []
_lock = Lock()


def register(content_hash: str, ruleset: Ruleset) -> None:
    """Know the ruleset compiled from the file of `content_hash`."""
    with _lock:
        _known[content_hash] = ruleset


def add_source(source: Source) -> None:
    with _lock:
        if source not in _sources:
            _sources.append(source)


def remove_source(source: Source) -> None:
    with _lock:
        if source in _sources:
            _sources.remove(source)


def forget() -> None:
    """Know nothing (as a fresh process does)."""
    with _lock:
        _known.clear()
        _sources.clear()


def registered(content_hash: str) -> Ruleset | None:
    """The ruleset of `content_hash`, from the registry or its sources; None if unknown."""
    found = _known.get(content_hash)
    if found is not None:
        return found
    with _lock:
        asked = tuple(_sources)  # a copy: a source may be added or removed meanwhile
    for source in asked:
        found = source(content_hash)
        if found is not None:
            register(content_hash, found)
            return found
    return None


def data_ruleset(content_hash: str) -> Ruleset:
    found = registered(content_hash)
    if found is None:
        raise InvalidAction(f"the ruleset file {content_hash} is not loaded on this server "
                            "(load it: a file in BATTLELOG_RULESETS_DIR, POST /api/rulesets, "
                            "or an export that carries it)", rule="core-ruleset")
    return found
