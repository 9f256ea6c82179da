"""What a step expects, computed from the match (`expects:` given as a list of cases): the
first case whose `when` holds (a case without one always does) says `says`, an expression
that gives a text or a list of texts (`'initiative rolls for: ' + join(sides, ', ')`). A
step's `expects` given as plain words is said as it is."""

from __future__ import annotations

from domain.rulefiles.parts import Expression
from domain.rulefiles.parts import Part as _Part


class Said(_Part):
    """One case of what a step expects."""

    when: Expression | None = None
    """An expression that must hold for this case to be said (none: always)."""
    says: Expression
    """An expression giving a text or a list of texts: what the step waits for."""
