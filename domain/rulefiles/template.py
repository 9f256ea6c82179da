"""Words with values in them (a roll's `purpose`, `of` and an outcome's `says`): text in which
each `{expression}` is read over the view and said, `{expression:+d}` with its sign
(`d6{modifier:+d}` says `d6-1`, `d6+0`, `d6+2`), `{expression:join}` a list as its items
with commas between (`f-line, f-hussars`).

Each placeholder is an expression of the file (CEL, checked at load with the others, placed
inside the words); a whole number is said in figures, a list as `[3, 4]`, true or false in
lower case. A `{` or `}` that opens no placeholder is a problem (`template-syntax`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.rulefiles.evaluate import Compiled, Roles, Unreadable, compile_expression
from domain.rulefiles.expression import Needs, check_expression, merge
from domain.rulefiles.expression_checks import Budget
from domain.rulefiles.problems import Near, Path, Problem
from domain.rulefiles.types import DYN, INT, Ty, list_of
from domain.rulefiles.view import Declared, values

_PLACE = re.compile(r"\{([^{}]+?)(:\+d|:join)?\}")
# what a roll's words may read besides the view, as it is resolved: before its dice
# (`purpose`, `of`), and once they are thrown (an outcome's `says`)
BEFORE: dict[str, Ty] = {"modifier": INT, "spent": INT, "target": INT, "count": INT}
AFTER: dict[str, Ty] = {**BEFORE, "faces": list_of(INT), "total": INT, "passed": INT,
                        "scores": list_of(INT)}


def _parts(text: str) -> list[tuple[int, str, str]] | None:
    """Each placeholder (its offset, its expression, how it is said); None when a brace
    opens or closes no placeholder."""
    found = [(m.start(1), m[1], m[2] or "") for m in _PLACE.finditer(text)]
    if "{" in _PLACE.sub("", text) or "}" in _PLACE.sub("", text):
        return None
    return found


def check_template(text: Any, path: Path, view: dict[str, Ty], near: Near,
                   budget: Budget) -> list[Problem]:
    """The problems of words with placeholders, each placed inside the words."""
    if not isinstance(text, str):
        return []
    parts = _parts(text)
    if parts is None:
        return [Problem("template-syntax", path, "a '{' or '}' here opens or closes no "
                        "placeholder: a placeholder is {expression}, {expression:+d} or "
                        "{expression:join}")]
    problems: list[Problem] = []
    for start, expression, _ in parts:
        problems += budget.spend(expression, path)
        if budget.spent:
            return problems
        for flaw in check_expression(expression, view, DYN, near):
            at = start + flaw.offset
            problems.append(Problem(flaw.check, path, flaw.message, within=(
                text[:at].count(flaw.token) if flaw.token else 0, flaw.token)))
    return problems


@dataclass(frozen=True)
class Template:
    """Words compiled: their literal pieces and placeholders, in order."""

    pieces: tuple[str | tuple[Compiled, str], ...]

    @property
    def names(self) -> frozenset[str]:
        return frozenset().union(*(p[0].names for p in self.pieces if isinstance(p, tuple)))

    @property
    def needs(self) -> Needs:
        """What of the view's maps and units its placeholders read."""
        return merge(*(p[0].needs for p in self.pieces if isinstance(p, tuple)))

    def say(self, data: Mapping[str, Any]) -> str:
        out = []
        for piece in self.pieces:
            if isinstance(piece, str):
                out.append(piece)
                continue
            expression, how = piece
            out.append(_said(expression.run(dict(data)), how))
        return "".join(out)


def compile_template(text: str, view: dict[str, Ty], declared: Declared,
                     roles: Roles) -> Template:
    parts = _parts(text)
    if parts is None:
        raise ValueError(f"{text[:80]!r}: template-syntax")
    pieces: list[str | tuple[Compiled, str]] = []
    at = 0
    for start, expression, how in parts:
        pieces.append(text[at:start - 1])
        pieces.append((compile_expression(expression, view, DYN, declared, roles), how))
        at = start + len(expression) + len(how) + 1
    pieces.append(text[at:])
    return Template(tuple(p for p in pieces if p != ""))


def _said(value: Any, how: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and how == ":+d":
        return f"{value:+d}"
    if isinstance(value, list | tuple):
        said = ", ".join(_said(v, "") for v in value)
        return said if how == ":join" else f"[{said}]"
    return str(value)


def view_of(templates: list[Template], state: Any, declared: Declared, roles: Roles,
            command: Any, actor: str, extra: Mapping[str, Any]) -> dict[str, Any]:
    """The values the templates read: the view's (of its maps and units only what they
    read) and `extra`."""
    names = frozenset().union(*(t.names for t in templates))
    data = values(state, declared, names, roles, command, actor,
                  merge(*(t.needs for t in templates)))
    return {**data, **{k: v for k, v in extra.items() if k in names}}


__all__ = ["AFTER", "BEFORE", "Template", "Unreadable", "check_template", "compile_template"]
