"""What is wrong with a ruleset file, each problem with where it is (a path into the file)
and the check that found it; and pydantic's validation errors said as such problems, a
misspelt field with the name it was likely meant to be."""

from __future__ import annotations

import difflib
import types
import typing
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Union

from pydantic import BaseModel, ValidationError

from domain.rulefiles.model import TAGS, RulesetFile

Path = tuple[str | int, ...]
SUGGESTED = 50  # misspelt names given their near name; past them, named only (a hostile
# file of thousands would cost seconds)


@dataclass(frozen=True)
class Problem:
    """One problem: the `check` that found it (its id, as docs/rulesets/authoring.md lists
    them), where (`path` into the file; `at_key`: the key itself, not its value; `within`:
    in an expression, the text found there and which of its occurrences in the expression
    it is, from 0) and a sentence."""

    check: str
    path: Path
    message: str
    at_key: bool = False
    within: tuple[int, str] | None = None


class Near:
    """The near name of a misspelt one (difflib's), for the first SUGGESTED asked of one
    file; None past them, or when no name is near."""

    def __init__(self) -> None:
        self.asked = 0

    @property
    def open(self) -> bool:
        """Whether a near name is still given (so that it is worth listing the names)."""
        return self.asked < SUGGESTED

    def __call__(self, name: str, names: Iterable[str]) -> str | None:
        self.asked += 1
        if self.asked > SUGGESTED:
            return None
        found = difflib.get_close_matches(name, list(names), n=1, cutoff=0.6)
        return found[0] if found else None


def from_validation(error: ValidationError, data: Any, near: Near) -> list[Problem]:
    """Each of pydantic's errors as a problem, in the file's terms."""
    out = []
    items = [(tuple(p for p in item["loc"] if p not in TAGS), item)
             for item in error.errors(include_url=False)]
    for path, item in items:
        kind = item["type"]
        if kind == "too_short" and any(len(other) > len(path) and other[:len(path)] == path
                                       for other, _ in items):
            continue  # a list left short by its own entries' errors, said already
        if kind == "extra_forbidden":
            name = str(path[-1])
            meant = near(name, fields_at(path[:-1], data)) if near.open else None
            hint = f"; did you mean '{meant}'?" if meant else ""
            out.append(Problem("unknown-field", path, f"unknown field '{name}'{hint}", True))
        elif kind == "missing":
            out.append(Problem("missing-field", path, f"'{path[-1]}' is required"))
        elif kind in MAPPING_EXPECTED:
            out.append(Problem("invalid-value", path, _not_a_mapping(path, item.get("input"))))
        elif kind == "literal_error" and path == ("format_version",):
            out.append(Problem("format-version", path, "format_version "
                               f"{item.get('input')!r} is not one this battlelog reads "
                               f"({item['ctx']['expected']})"))
        else:
            message = str(item["msg"]).removeprefix("Value error, ")
            out.append(Problem("invalid-value", path, message))
    return out


MAPPING_EXPECTED = ("model_type", "model_attributes_type", "dict_type")


def _not_a_mapping(path: Path, given: Any) -> str:
    """pydantic says "a valid dictionary or instance of Sides": the file's words instead."""
    what = ("a ruleset file" if not path else
            f"'{path[-1]}'" if isinstance(path[-1], str) else f"entry {path[-1] + 1}")
    fields = fields_at(path, {})
    listed = f" ({', '.join(fields[:6])}{', ...' if len(fields) > 6 else ''})" if fields else ""
    return f"{what} is a mapping of fields{listed}, not {_said(given)}"


def _said(value: Any) -> str:
    if isinstance(value, bool):
        return f"the value {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return "text" if len(value) > 30 else f"the text '{value}'"
    if isinstance(value, list):
        return "a list"
    return "nothing" if value is None else "a value"


def fields_at(path: Path, data: Any) -> list[str]:
    """The field names the mapping at `path` of the file's `data` may hold (none when it is
    not a model's). Where the format offers a choice (a phase or a step, the types of an
    attribute), the model whose fields the mapping's keys fit best."""
    kind: Any = RulesetFile
    for part in path:
        model = _model(kind, data)
        if model is not None:
            field = model.model_fields.get(str(part))
            kind = None if field is None else field.annotation
        else:
            kind = _item(kind)
        data = data.get(part) if isinstance(data, dict) else (
            data[part] if isinstance(data, list) and isinstance(part, int)
            and 0 <= part < len(data) else None)
        if kind is None:
            return []
    model = _model(kind, data)
    # (each by the name a file gives it: a duty's `while`, not the model's `while_`)
    return [field.alias or name for name, field in model.model_fields.items()
            ] if model is not None else []


def _item(kind: Any) -> Any:
    kind = _strip(kind)
    args = typing.get_args(kind)
    origin = typing.get_origin(kind)
    if origin is dict:
        return args[1]
    if origin in (tuple, list) and args:
        return args[0]
    return None


def _model(kind: Any, data: Any) -> type[BaseModel] | None:
    """The model `kind` is; of a union of models, the one `data`'s keys fit best."""
    kind = _strip(kind)
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return kind
    if typing.get_origin(kind) not in (Union, types.UnionType):
        return None
    models = [m for m in (_strip(a) for a in typing.get_args(kind))
              if isinstance(m, type) and issubclass(m, BaseModel)]
    keys = set(data) if isinstance(data, dict) else set()
    return max(models, key=lambda m: len(keys & set(m.model_fields)), default=None)


def _strip(kind: Any) -> Any:
    while typing.get_origin(kind) is typing.Annotated:
        kind = typing.get_args(kind)[0]
    args = [a for a in typing.get_args(kind) if a is not type(None)]
    if typing.get_origin(kind) in (Union, types.UnionType) and len(args) == 1:
        return _strip(args[0])
    return kind
