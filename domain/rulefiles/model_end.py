"""How a file's match is scored and how it ends, as data (`scoring:` and `end:`): each
scoring at its declared moment (the end of a game turn, or the marker entering a step)
from a whole-number expression read once for each side (`side`), and the end conditions
(a turn limit; an expression read as each turn ends), the winner the side with the most
victory points, equal points a tie. `domain/rulefiles/ending.py` makes them the
`Ruleset`'s hooks; `end_checks.py` checks them at load."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from domain.rulefiles.parts import Expression, Line, Name, Rule, Words
from domain.rulefiles.parts import Part as _Part

OPTION_TURNS_MOST = 100  # (ours, as the Python rulesets' `rounds`) a turn limit given as an option


class Scoring(_Part):
    """Victory points scored by each side: `points` (a whole number for `side`) at the end
    of every game turn (`at: end_of_turn`) or as the marker enters the step `enter`."""

    rule: Rule
    """The rule the points are scored under."""
    title: Words = ""  # the reason the points are said with
    """The reason the points are said with."""
    at: Literal["end_of_turn"] | None = None
    """When: at the end of every game turn; or give `enter`."""
    enter: Name | None = None
    """When: as the marker enters this step, every time it does."""
    points: Expression
    """A whole-number expression read for each side (`side`): the points it scores (0: none)."""

    @model_validator(mode="after")
    def _one_moment(self) -> Scoring:
        if (self.at is None) == (self.enter is None):
            raise ValueError("a scoring happens at: end_of_turn, or on entering a step "
                             "(enter: <step>): one of them")
        return self


class End(_Part):
    """The match ends as turn `turns` ends, or as a turn ends with `when` holding; the side
    with the most victory points wins, equal points are a tie."""

    rule: Rule = "core-end"
    """The rule the end names."""
    turns: Annotated[int, Field(ge=1, le=999)] | None = None
    """The turn limit: the match ends as this turn ends."""
    turns_option: Name | None = None
    """The match option that gives the turn limit instead (`rounds`), 1 to 100."""
    option_required: bool = True
    """Whether a match must give `turns_option` (BG-1's `rounds`); (ours) when not, a match
    without it has no turn limit (WC-10's `turns`), as the Python ruleset plays it."""
    option_rule: Rule | None = None
    """The rule that asks a match for `turns_option` (default: `rule`)."""
    turn_word: Annotated[str, Line, Field(min_length=1, max_length=40)] = "turn"  # how it is said
    """How the reason names a turn (`game turn`)."""
    when: Expression | None = None
    """An expression read as each turn ends: the match ends the first time it holds."""
    says: Words = ""  # the reason said when `when` ends the match
    """The reason said when `when` ends the match."""

    @model_validator(mode="after")
    def _some(self) -> End:
        if self.turns is None and self.turns_option is None and self.when is None:
            raise ValueError("an end gives turns (a turn limit) or turns_option (the match "
                             "option that gives it), when (an expression), or both")
        if self.turns is not None and self.turns_option is not None:
            raise ValueError("give either turns or turns_option, not both")
        return self
