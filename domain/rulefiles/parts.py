"""What every part of the ruleset file format shares: a frozen model that refuses unknown
fields, and the kinds of text a file gives (names, rule ids, words, expressions)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from domain.text import cleaned, one_line


def _line(value: object) -> object:
    return one_line(value) if isinstance(value, str) else value


def _text(value: object) -> object:
    return cleaned(value) if isinstance(value, str) else value


# The words a file gives are cleaned as notes are (domain.text), before their bounds are
# checked: no bidi override, zero-width or other invisible character is kept, and a title
# or any other one-line text is one line (its line breaks are spaces).
Line = BeforeValidator(_line)
Paragraphs = BeforeValidator(_text)

# Names a file gives (ids of steps, roles, kinds): lower case, digits, '_' and '-'.
Name = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]{0,39}$")]
# A track's name may be a pattern over names (`control.*`): one track per hex, say.
TrackName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_.*-]{0,59}$")]
Rule = Annotated[str, Line, Field(min_length=1, max_length=40)]
Words = Annotated[str, Line, Field(max_length=200)]
# A CEL expression over the view of the match (domain/rulefiles/expression.py checks it,
# and its caps)
Expression = Annotated[str, Field(min_length=1)]


class Part(BaseModel):
    # a field's docstring is its description in the served schema and in
    # docs/rulesets/reference.md (projections/rulefiles/reference.py)
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)
