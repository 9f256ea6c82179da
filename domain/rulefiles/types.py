"""The types an expression of a ruleset file is checked against at load: the view of the
match (docs/rulesets/authoring.md, "The view") said as types, with the names a file
declares. A string may have a set of names (a status, a marker kind, a step): a literal
compared with it must be one of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatchcase


@dataclass(frozen=True)
class Ty:
    """A type: `int`, `bool`, `string`, `null`, `dyn` (anything: checked when evaluated),
    `list` (of `item`), `map` (string keys, each value `item`; `keys` the names it holds,
    any when None) or `record` (`fields`, fixed: a unit, an action)."""

    kind: str
    item: Ty | None = None
    keys: frozenset[str] | None = None  # map: the keys it holds; string: the names it takes
    fields: tuple[tuple[str, Ty], ...] = ()
    what: str = ""  # how a problem names what the keys are ("marker kind", "status")
    values: dict[str, Ty] = field(default_factory=dict, compare=False)  # map: a key's type

    def said(self) -> str:
        if self.kind == "list" and self.item is not None:
            return f"list of {self.item.said()}"
        if self.kind in ("map", "record"):
            return self.what or "map"
        return {"int": "whole number", "bool": "true or false", "string": "text"}.get(
            self.kind, self.kind)

    def field(self, name: str) -> Ty | None:
        if self.kind == "record":
            return dict(self.fields).get(name)
        if self.kind != "map":
            return None
        if self.keys is None:
            return self.item
        key = name if name in self.keys else next(
            (k for k in self.keys if "*" in k and fnmatchcase(name, k)), None)
        return None if key is None else self.values.get(key, self.item)


INT = Ty("int")
BOOL = Ty("bool")
STRING = Ty("string")
NULL = Ty("null")
DYN = Ty("dyn")


def names(what: str, taken: frozenset[str]) -> Ty:
    """A string that is one of `taken` (a step id, a status, a side role)."""
    return Ty("string", keys=taken, what=what)


def list_of(item: Ty) -> Ty:
    return Ty("list", item=item)


def map_of(item: Ty, keys: frozenset[str] | None, what: str,
           values: dict[str, Ty] | None = None) -> Ty:
    return Ty("map", item=item, keys=keys, what=what, values=values or {})


def record(what: str, **fields: Ty) -> Ty:
    return Ty("record", fields=tuple(fields.items()), what=what)


def same(a: Ty, b: Ty) -> bool:
    """Whether values of `a` and `b` may be compared (a `dyn` compares with anything)."""
    if DYN in (a, b) or a.kind == "dyn" or b.kind == "dyn":
        return True
    if a.kind != b.kind:
        return a.kind == "null" or b.kind == "null"
    if a.kind == "list" and a.item is not None and b.item is not None:
        return same(a.item, b.item)
    return True
