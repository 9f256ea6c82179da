"""What reading an expression of a ruleset file keeps as it goes (`expression_infer` reads
it): the caps on its macros and texts, the functions and methods it may call, its flaws
(each placed at its token), and the `Checker` that collects them and notes what of the
view the expression reads (`Needs`) and where its list functions stand (its cost)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from lark import Token

from domain.rulefiles.expression_tree import Part, first_token
from domain.rulefiles.types import BOOL, INT, Ty

MAX_MACROS = 2
MAX_TEXT = 100
MACROS = ("all", "exists", "exists_one", "filter", "map")
METHODS = {"size": INT, "contains": BOOL, "startsWith": BOOL, "endsWith": BOOL}
FUNCTIONS = ("has", "size", "string", "hex_distance", "highest", "join", "distinct")



@dataclass(frozen=True)
class Flaw:
    """A problem of one expression: the check, a sentence and where (the offset of `token`
    in the expression)."""

    check: str
    message: str
    offset: int = 0
    token: str = ""


Needs = dict[str, frozenset[str] | None]  # by what a map or record holds: the keys read


@dataclass(frozen=True)
class Typed:
    ty: Ty
    literal: str | None = None  # a text literal, as written between its quotes
    items: tuple[tuple[str, Token | None], ...] = ()  # a list literal's text literals


class Refuse(Exception):
    def __init__(self, flaw: Flaw) -> None:
        self.flaw = flaw


@dataclass
class Checker:
    text: str
    near: Callable[[str, Iterable[str]], str | None]
    flaws: list[Flaw] = field(default_factory=list)
    macros: int = 0
    needs: dict[str, set[str] | None] = field(default_factory=dict)
    # its list functions (how deep, whether it builds a list) and lists joined: its cost
    sites: list[tuple[int, bool]] = field(default_factory=list)
    joins: int = 0
    # its calls of our functions: how deep each stands, and how it goes over its list
    # (0: not at all, hex_distance; 1: once, highest and join; 2: item by item, distinct)
    calls: list[tuple[int, int]] = field(default_factory=list)
    # the operations read in each list function's body now being read (its own, not those
    # of a list function inside it), and, for each site past BODY of them, its weight
    bodies: list[int] = field(default_factory=list)
    weights: list[tuple[int, int]] = field(default_factory=list)

    def use(self, ty: Ty, name: str | None) -> None:
        """The expression reads the field or key `name` of values of `ty` (None: any)."""
        if ty.kind in ("record", "map") and ty.what:
            known = self.needs.setdefault(ty.what, set())
            if name is None:
                self.needs[ty.what] = None
            elif known is not None:
                known.add(name)

    def whole(self, ty: Ty) -> None:
        """The expression reads a value of `ty` whole (compares it, counts it)."""
        if ty.item is not None:
            self.whole(ty.item)
        if ty.kind in ("record", "map"):
            self.use(ty, None)
            for _, inner in ty.fields:
                self.whole(inner)
            for inner in ty.values.values():
                self.whole(inner)

    def offset(self, line: int, column: int) -> int:
        lines = self.text.split("\n")
        return sum(len(part) + 1 for part in lines[:line - 1]) + column - 1

    def at(self, node: Part) -> tuple[int, str]:
        token = node if isinstance(node, Token) else first_token(node)
        if token is None or token.line is None or token.column is None:
            return 0, ""
        return self.offset(token.line, token.column), str(token)

    def flaw(self, check: str, message: str, node: Part) -> None:
        offset, token = self.at(node)
        self.flaws.append(Flaw(check, message, offset, token))

    def undeclared(self, name: str, what: str, names: Iterable[str], node: Part) -> None:
        known = sorted(names)
        meant = self.near(name, known)
        self.flaw("undeclared-name", f"'{name}' is no {what} the file declares"
                  + (f"; did you mean '{meant}'?" if meant else ""), node)
