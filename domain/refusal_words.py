"""A refusal in the players' words: unit and side ids said as their names, step paths as the
steps' titles, named hexes with their names ("1405 (Caen)"). Used where a refusal is said to
a player: the legal answer (`domain.legal`), the standing pass's end
(`domain.acting.standing`), and (`for_players`) the sentence a refused action's answer
carries for the table page's notice (`domain.app` sets it, `api.problems` serves it)."""

from __future__ import annotations

import re

from domain.errors import (
    DomainError,
    InvalidAction,
    MatchOver,
    NotSeated,
    NotYourTurn,
    OutOfSequence,
    UndoRefused,
    VersionConflict,
)
from domain.places import with_hex_names
from domain.sequence import SequenceOfPlay
from domain.state import MatchState

__all__ = ["for_players", "in_words"]

RULE_ID = re.compile(r"^[A-Z]{2,3}-\d+[a-z]?(?:\.\d+)*:\s*")  # "NO-2: " before a rule's words


def in_words(text: str, state: MatchState, sequence: SequenceOfPlay | None = None) -> str:
    """A refusal with unit and side ids said as their names (`split sq1` -> `split 1st
    Squad`, "only the allied seat" -> "only Second Army") and, given the sequence, step
    paths in quotes as the steps' titles (`in step 'mutual/weather'` -> `in Weather`); an id
    inside a longer word or a step path stays as it is."""
    for path in sequence.steps() if sequence is not None else ():
        step = sequence.step(path) if sequence is not None else None
        if step is not None and step.title:
            text = text.replace(f"in step '{path}'", f"in {step.title}")
            text = text.replace(f"'{path}'", f"'{step.title}'")
    text = with_hex_names(text, state.options)
    names = {**{u.id: u.name for u in state.units.values()},
             **{s.id: s.name for s in state.sides}}
    if not names:
        return text
    # a side's seat by the side's name alone: "only the allied seat" -> "only Second Army"
    sides = {s.id: s.name for s in state.sides}
    text = re.sub(r"\bthe ([\w-]+) seat\b",
                  lambda m: sides[m[1]] if m[1] in sides else m[0], text)
    pattern = re.compile(r"(?<![A-Za-z0-9_.:/-])(" + "|".join(
        re.escape(i) for i in sorted(names, key=len, reverse=True))
        + r")(?![A-Za-z0-9_/-]|[.:][A-Za-z0-9])")
    return pattern.sub(lambda m: names[m[1]], text)


def _who(allowed: list[str] | None, state: MatchState) -> str:
    sides = {s.id: s.name for s in state.sides}
    named = [sides[a] for a in allowed or () if a in sides]
    return " or ".join(named)


def for_players(error: DomainError, state: MatchState,
                sequence: SequenceOfPlay | None = None) -> str:
    """The refusal as one sentence for the players at the table: what it is about (the
    step's title where the sequence refused it), the refusal in words with the game's rule
    by its reference ("(NO-2)"), and what to do."""
    said = RULE_ID.sub("", in_words(error.detail, state, sequence)).strip().rstrip(".")
    said = said[:1].upper() + said[1:]
    who = _who(error.allowed, state)
    if isinstance(error, NotYourTurn):
        todo = ("Wait for your turn, or ask the referee." if not who
                else "Wait for them, or ask the referee." if who in said
                else f"Wait for {who}, or ask the referee.")
    elif isinstance(error, OutOfSequence):
        todo = "It waits for its step: take what the page offers now."
    elif isinstance(error, VersionConflict):
        todo = "The table has moved on: look again and choose anew."
    elif isinstance(error, MatchOver):
        todo = "The referee can reopen the match."
    elif isinstance(error, UndoRefused | NotSeated):
        todo = "Ask the referee."
    elif isinstance(error, InvalidAction):
        todo = "Choose again from what the page offers."
    else:
        todo = ""
    if "referee" in said and "referee" in todo:  # the refusal says it already
        todo = ""
    # the game's rule by its reference, to look up in the rulebook (not the service's own)
    ref = f" ({error.rule})" if error.rule and not error.rule.startswith("core-") else ""
    return f"{said}{ref}. {todo}".strip()
