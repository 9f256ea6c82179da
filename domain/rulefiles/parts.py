"""What every part of the ruleset file format shares: a frozen model that refuses unknown
fields, and the kinds of text a file gives (names, rule ids, words, expressions)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

# Names a file gives (ids of steps, roles, kinds): lower case, digits, '_' and '-'.
Name = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]{0,39}$")]
# A track's name may be a pattern over names (`control.*`): one track per hex, say.
TrackName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_.*-]{0,59}$")]
Rule = Annotated[str, Field(min_length=1, max_length=40)]
Words = Annotated[str, Field(max_length=200)]
# A CEL expression over the view of the match (domain/rulefiles/expression.py checks it,
# and its caps)
Expression = Annotated[str, Field(min_length=1)]


class Part(BaseModel):
    # a field's docstring is its description in the served schema and in
    # docs/rulesets/reference.md (projections/rulefiles/reference.py)
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)
