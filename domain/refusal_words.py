"""A refusal in the players' words: unit and side ids said as their names, step paths as the
steps' titles, named hexes with their names ("1405 (Caen)"). Used where a refusal is said to a player: the legal answer (`domain.legal`) and
the standing pass's end (`domain.acting.standing`)."""

from __future__ import annotations

import re

from domain.places import with_hex_names
from domain.sequence import SequenceOfPlay
from domain.state import MatchState

__all__ = ["in_words"]


def in_words(text: str, state: MatchState, sequence: SequenceOfPlay | None = None) -> str:
    """A refusal with unit and side ids said as their names (`split sq1` -> `split 1st
    Squad`) and, given the sequence, step paths in quotes as the steps' titles; an id inside
    a longer word or a step path stays as it is."""
    for path in sequence.steps() if sequence is not None else ():
        step = sequence.step(path) if sequence is not None else None
        if step is not None and step.title:
            text = text.replace(f"'{path}'", f"'{step.title}'")
    text = with_hex_names(text, state.options)
    names = {**{u.id: u.name for u in state.units.values()},
             **{s.id: s.name for s in state.sides}}
    if not names:
        return text
    pattern = re.compile(r"(?<![A-Za-z0-9_.:/-])(" + "|".join(
        re.escape(i) for i in sorted(names, key=len, reverse=True))
        + r")(?![A-Za-z0-9_/-]|[.:][A-Za-z0-9])")
    return pattern.sub(lambda m: names[m[1]], text)
