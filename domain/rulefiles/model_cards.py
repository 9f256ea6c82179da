"""Card hands as data (`cards:` in a ruleset file): how many cards a side holds (`hand_size`,
a whole-number expression read for each side: `side`), and the step in which hands are
filled (`step`). There, a side may throw cards away before it draws (not after, with
`discard_before_draw`), draws once (the service draws up to its hand size: no `count`), and
says it is done only with a full hand: it has drawn, holds its hand size, or its deck has
run out (it holds what it has). `filled` names the condition that holds when every side's
hand is full (a step's `leave_when` reads it). `domain/rulefiles/cards.py` makes it the
referee's."""

from __future__ import annotations

from domain.rulefiles.parts import Expression, Name, Rule
from domain.rulefiles.parts import Part as _Part


class Cards(_Part):
    """BG-6: the best CV among the side's Commanders on the table or in a transport, else 1."""

    rule: Rule
    """The rule the hands' refusals name."""
    hand_size: Expression
    """A whole-number expression read for each side (`side`): how many cards it holds."""
    step: Name
    """The id of the step in which hands are filled (`draw_cards`, `discard_cards`)."""
    filled: Name | None = None
    """The name of a condition this makes: every side's hand is full (for `leave_when`)."""
    discard_before_draw: bool = False
    """A side throws cards away before it draws, not after."""
