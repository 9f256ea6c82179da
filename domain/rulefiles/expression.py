"""The expressions of a ruleset file (guards, conditions, a roll's modifiers): CEL, the
Common Expression Language, checked at load over the view's types (`view.types`).

(ours) CEL is a standard a club can look up, made for exactly this: it has no loops but
its macros over finite lists, no definitions, no way out of the values it is given. It is
parsed here by cel-python's grammar (lark, every token with its line and column) for the
checks, and evaluated by `common-expression-language` (Rust: a small expression costs
microseconds) once every check has passed. A check refuses, each with where it is:

- `expression-too-large`: past MAX_CHARS characters, MAX_NESTING brackets deep,
  MAX_MACROS macros (`exists`, `all`, `map`, ...) inside one another, an integer past
  SAFE_INT or a text literal past MAX_TEXT: the evaluation's cost is bounded by these and
  the size of the match (no expression loops more than units ^ MAX_MACROS times);
- `expression-syntax`: it is not CEL;
- `expression-unsupported`: CEL the view has no use for (floats, bytes, unsigned,
  messages, map literals, a leading dot);
- `undeclared-name`: a variable, field, attribute, marker kind, status, track, step, role
  or action type the file does not declare (the near name suggested);
- `unknown-function`: a function outside FUNCTIONS and MACROS;
- `expression-type`: operands of the wrong types, or a result of the wrong type (a guard's
  or a condition's is true or false; a modifier's a whole number).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import TypeAlias

import cel
from celpy.celparser import CELParseError, CELParser
from lark import Token, Tree

from domain.rulefiles.cost import FREE, Cost
from domain.rulefiles.expression_checker import (
    FUNCTIONS,
    MACROS,
    MAX_MACROS,
    MAX_TEXT,
    METHODS,
    Checker,
    Flaw,
    Needs,
    Refuse,
)
from domain.rulefiles.expression_infer import infer
from domain.rulefiles.types import Ty, same

MAX_CHARS = 500
MAX_NESTING = 12
# the parse tree's depth (about 10 levels a bracket, 2 a '!'): refused past it, so that
# the checks' walk of the tree (a few Python frames a level) stays far from the stack's end
_MAX_TREE = 200


@cache
def _parser() -> CELParser:
    """cel-python's parser (its grammar built once, when the first expression is read)."""
    return CELParser()


_Tree: TypeAlias = Tree[Token]


@dataclass(frozen=True)
class Checked:
    """An expression's flaws, and what of the view it reads (`Needs`: the fields of a unit,
    the marker kinds, the attributes, the tracks, ...; None: all of them)."""

    flaws: list[Flaw]
    needs: Needs
    cost: Cost = FREE  # its list functions, for the bound of its steps (cost.py)
    tree: _Tree | None = None  # its parse tree, when it has no flaw (closures.py reads it)


def check_expression(text: str, view: dict[str, Ty], wanted: Ty,
                     near: Callable[[str, Iterable[str]], str | None] | None = None,
                     ) -> list[Flaw]:
    """Every flaw of the expression `text` over the `view`, whose result must be `wanted`."""
    return read_expression(text, view, wanted, near).flaws


def read_expression(text: str, view: dict[str, Ty], wanted: Ty,
                    near: Callable[[str, Iterable[str]], str | None] | None = None,
                    ) -> Checked:
    """The flaws of `text` and what of the view it reads."""
    checker = Checker(text, near or _near)
    trees: list[_Tree] = []
    flaws = _check(checker, text, view, wanted, trees)
    return Checked(flaws, {what: None if keys is None else frozenset(keys)
                           for what, keys in checker.needs.items()},
                   Cost(tuple(checker.sites), checker.joins, tuple(checker.calls),
                        tuple(checker.weights)),
                   trees[0] if trees and not flaws else None)


def merge(*needs: Needs) -> Needs:
    """What several expressions read together."""
    out: dict[str, frozenset[str] | None] = {}
    for one in needs:
        for what, keys in one.items():
            known = out.get(what, frozenset())
            out[what] = None if keys is None or known is None else known | keys
    return out


def _check(checker: Checker, text: str, view: dict[str, Ty], wanted: Ty,
           trees: list[_Tree]) -> list[Flaw]:
    if len(text) > MAX_CHARS:
        return [Flaw("expression-too-large", f"the expression is {len(text)} characters; at "
                     f"most {MAX_CHARS}")]
    deep = _too_deep(text)
    if deep is not None:
        return [Flaw("expression-too-large", f"brackets nest more than {MAX_NESTING} deep",
                     deep, text[deep])]
    try:
        tree = _parser().parse(text)
    except CELParseError as error:
        line, column = getattr(error, "line", None), getattr(error, "column", None)
        offset = checker.offset(line, column) if line and column else 0
        return [Flaw("expression-syntax", "this is not CEL: it cannot be read from here on",
                     min(offset, max(len(text) - 1, 0)), text[offset:offset + 1])]
    if _depth(tree) > _MAX_TREE:
        return [Flaw("expression-too-large", "the expression nests too deep")]
    trees.append(tree)
    try:
        typed = infer(checker, tree, view)
    except Refuse as refused:
        return [*checker.flaws, refused.flaw]
    if not checker.flaws and (not same(typed.ty, wanted) or typed.ty.kind == "null"):
        checker.flaw("expression-type", f"the expression gives {typed.ty.said()}; it must "
                     f"give {wanted.said()}", tree)
    return checker.flaws or _evaluator_reads(text)


def _evaluator_reads(text: str) -> list[Flaw]:
    """Nothing when the evaluator reads the expression as the checks did; else where it
    stops (the two parsers differ on a few escapes in text: `'\\q'`). Only an expression
    that passed every cap reaches it."""
    try:
        cel.compile(text)
    except ValueError as error:
        place = re.search(r"<input>:(\d+):(\d+)", str(error))
        offset = 0
        if place is not None:
            lines = text.split("\n")
            line = min(int(place[1]), len(lines))
            offset = sum(len(part) + 1 for part in lines[:line - 1]) + int(place[2]) - 1
        offset = max(0, min(offset, len(text) - 1))
        return [Flaw("expression-syntax", "this is not CEL: it cannot be read from here on",
                     offset, text[offset:offset + 1])]
    return []


def _near(name: str, names: Iterable[str]) -> str | None:
    found = difflib.get_close_matches(name, list(names), n=1, cutoff=0.6)
    return found[0] if found else None


def _too_deep(text: str) -> int | None:
    """The offset of the first bracket past MAX_NESTING, outside text literals (a quote
    escaped inside one does not end it)."""
    depth, quote, escaped = 0, "", False
    for index, char in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
            if depth > MAX_NESTING:
                return index
        elif char in ")]}":
            depth -= 1
    return None


def _depth(tree: _Tree) -> int:
    deepest, stack = 0, [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > _MAX_TREE:
            break
        stack += [(c, depth + 1) for c in node.children if isinstance(c, Tree)]
    return deepest



__all__ = ["FUNCTIONS", "MACROS", "MAX_CHARS", "MAX_MACROS", "MAX_NESTING", "MAX_TEXT", "METHODS",
           "Checked", "Flaw", "Needs", "check_expression", "merge", "read_expression"]
