"""Reading a ruleset file safely, and its check report with a file, line and column for
each problem (docs/rulesets/authoring.md).

A file can come from anyone, so it is read as data and nothing more: at most MAX_BYTES,
UTF-8, one YAML document (JSON is YAML too); aliases and anchors are refused (no billion
laughs), and so is every explicit tag (no `!!python/...`, no other type than YAML's plain
ones); nesting is capped at MAX_DEPTH and the nodes at MAX_NODES, checked as the composer
builds them, before any recursion could run deep. The composer keeps each node's mark, so
every problem `domain.rulefiles.check` finds (all at once) is placed at its line and column.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path as FilePath
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.cyaml import CParser  # type: ignore[attr-defined]
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import Resolver

from domain.rulefiles import Path, Problem, RulesetFile, check

Mark = Any  # where a node starts: PyYAML's or libyaml's mark (`line`, `column` from 0)
MAX_BYTES = 256 * 1024  # a file's size; a game the size of Normandy is a tenth of it
MAX_DEPTH = 24  # mappings and lists inside one another; the format needs about ten
MAX_NODES = 5_000  # keys, values and list items in all; the extended sequence holds 761
LISTED = 100  # problems listed one by one; the rest are counted in one more line
# the plain keys a YAML 1.1 reader (PyYAML's own loaders, many editors) reads as true or false,
# and a YAML 1.2 reader too for true and false: this loader reads every key as text
YAML11_BOOLEANS = frozenset(
    word for w in ("y", "yes", "n", "no", "on", "off", "true", "false")
    for word in (w, w.capitalize(), w.upper()))
BOOLEAN_KEY = "yaml-boolean-key"  # a warning's check (docs/rulesets/authoring.md)


@dataclass(frozen=True)
class Finding:
    """One problem of a file: the check that found it (docs/rulesets/authoring.md lists
    them), where (line and column from 1) and a sentence."""

    check: str
    line: int
    column: int
    message: str

    def said(self, name: str) -> str:
        return f"{name}:{self.line}:{self.column}: {self.check}: {self.message}"


@dataclass(frozen=True)
class Report:
    """The check report of one file: every finding, in the order of the file, and the
    ruleset it declares when it has none; and its warnings (what the file may mean otherwise
    to another reader: never a refusal)."""

    name: str
    findings: tuple[Finding, ...]
    ruleset: RulesetFile | None
    data: Any = None  # the file's plain data, when it passes (what its hash is taken of)
    warnings: tuple[Finding, ...] = ()

    @property
    def ok(self) -> bool:
        return self.ruleset is not None and not self.findings

    def lines(self) -> list[str]:
        """Each problem and each warning (`FILE:LINE:COLUMN: warning: CHECK: ...`) in the
        order of the file, then the outcome, warnings counted."""
        said = [(f.line, f.column, f.said(self.name)) for f in self.findings]
        said += [(w.line, w.column, f"{self.name}:{w.line}:{w.column}: warning: "
                  + f"{w.check}: {w.message}") for w in self.warnings]
        lines = [line for _, _, line in sorted(said, key=lambda s: (s[0], s[1]))]
        warned = len(self.warnings)
        also = f", {warned} warning{'s' if warned != 1 else ''}" if warned else ""
        if self.ok and self.ruleset is not None:
            return [*lines, (f"{self.name}: OK: {self.ruleset.title} ({self.ruleset.id}, "
                             f"version {self.ruleset.version}, format "
                             f"{self.ruleset.format_version}){also}")]
        count = len(self.findings)
        return [*lines, f"{self.name}: {count} problem{'s' if count != 1 else ''}{also}"]


class _Refused(Exception):
    def __init__(self, check: str, message: str, mark: Mark | None) -> None:
        super().__init__(message)
        self.finding = Finding(check, _line(mark), _column(mark), message)


def _line(mark: Mark | None) -> int:
    return mark.line + 1 if mark is not None else 1


def _column(mark: Mark | None) -> int:
    return mark.column + 1 if mark is not None else 1


class _Loader(Composer, CParser, SafeConstructor, Resolver):
    """libyaml's parser (in C: a file is scanned fast), under PyYAML's own composer, which
    refuses aliases, anchors and tags and bounds depth and node count as it goes; the safe
    constructor for plain values."""

    def __init__(self, text: str) -> None:
        CParser.__init__(self, text)
        Composer.__init__(self)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)
        self.depth = 0
        self.nodes = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        event = self.peek_event()
        mark = event.start_mark if event is not None else None
        if isinstance(event, AliasEvent):
            raise _Refused("yaml-alias", f"an alias (*{event.anchor}) is refused: a ruleset "
                           "file repeats what it means instead", mark)
        if getattr(event, "anchor", None) is not None:
            raise _Refused("yaml-anchor", f"an anchor (&{getattr(event, 'anchor', '')}) is "
                           "refused: a ruleset file has no aliases", mark)
        if getattr(event, "tag", None) is not None:
            raise _Refused("yaml-tag", f"a tag ({getattr(event, 'tag', '')}) is refused: a "
                           "ruleset file holds plain values, lists and mappings", mark)
        self.depth += 1
        self.nodes += 1
        if self.depth > MAX_DEPTH:
            raise _Refused("too-deep", f"the file nests deeper than {MAX_DEPTH} levels", mark)
        if self.nodes > MAX_NODES:
            raise _Refused("too-many-nodes", f"the file holds more than {MAX_NODES} keys, "
                           "values and items", mark)
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


# path -> its key's mark, its value's mark and where its value ends
Marks = dict[Path, tuple[Mark, Mark, Mark]]


def _data(loader: _Loader, node: Node, path: Path, marks: Marks,
          found: list[Finding], warned: list[Finding]) -> Any:
    """The plain data of `node` (dicts, lists, str, int, float, bool, None), each path's
    marks kept; a duplicate key is a finding (its first value is kept), a plain key another
    YAML reader takes for true or false a warning."""
    if isinstance(node, MappingNode):
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                found.append(Finding("invalid-key", _line(key_node.start_mark),
                                     _column(key_node.start_mark),
                                     "a key is a plain name, not a list or a mapping"))
                continue
            key = str(key_node.value)
            if not key_node.style and key in YAML11_BOOLEANS:  # plain: libyaml says ""
                warned.append(_boolean_key(key, key_node.start_mark))
            if key in out:
                found.append(Finding("duplicate-key", _line(key_node.start_mark),
                                     _column(key_node.start_mark),
                                     f"'{key}' is given twice in this mapping"))
                continue
            marks[(*path, key)] = (key_node.start_mark, value_node.start_mark,
                                   value_node.end_mark)
            out[key] = _data(loader, value_node, (*path, key), marks, found, warned)
        return out
    if isinstance(node, SequenceNode):
        items = []
        for index, item in enumerate(node.value):
            marks[(*path, index)] = (item.start_mark, item.start_mark, item.end_mark)
            items.append(_data(loader, item, (*path, index), marks, found, warned))
        return items
    try:
        return loader.construct_object(node)
    except (ValueError, yaml.YAMLError) as error:  # a number of 5,000 digits, say
        found.append(Finding("invalid-value", _line(node.start_mark),
                             _column(node.start_mark), f"unreadable value: {error}"))
        return None


def _boolean_key(key: str, mark: Mark) -> Finding:
    """(ours) A warning, not a refusal: battlelog reads the key as the text it is, but a
    YAML 1.1 reader (PyYAML's loaders, many editors and their schema checks) reads it as
    true or false, so the same file would mean another thing there."""
    meaning = "true" if key.lower() in ("y", "yes", "on", "true") else "false"
    return Finding(BOOLEAN_KEY, _line(mark), _column(mark),
                   f"battlelog reads this key as the text '{key}', but a YAML 1.1 reader "
                   f"(PyYAML, many editors) reads it as {meaning}: quote it ('{key}') or "
                   "choose another name")


def _place(problem: Problem, marks: Marks, text: str) -> Finding:
    """A problem at the mark of its path, or of the nearest part of it the file has (a
    missing field is placed at the mapping that lacks it); one inside an expression at the
    text it names, found in the file's own lines (whatever the value's quoting or folding)."""
    path = problem.path
    while path and path not in marks:
        path = path[:-1]
    if not path:
        return Finding(problem.check, 1, 1, problem.message)
    key, value, end = marks[path]
    mark = key if problem.at_key and path == problem.path else value
    if problem.within is not None and path == problem.path:
        return _inside(problem, value, end, text)
    return Finding(problem.check, _line(mark), _column(mark), problem.message)


def _inside(problem: Problem, start: Mark, end: Mark, text: str) -> Finding:
    """The line and column of the text a problem names inside its expression: its
    occurrence in the value's span of the file as it is in the expression (the first
    occurrence of the value's start when it cannot be found, a value of escapes, say)."""
    assert problem.within is not None
    nth, token = problem.within
    here = start.index
    if token:
        span = text[start.index:end.index]
        found = -1
        for _ in range(nth + 1):
            found = span.find(token, found + 1)
            if found < 0:
                break
        if found >= 0:
            here = start.index + found
    line = text.count("\n", 0, here)
    column = here - (text.rfind("\n", 0, here) + 1)
    return Finding(problem.check, line + 1, column + 1, problem.message)


More = Callable[[RulesetFile], list[Problem]]  # further checks of a file that passes


def check_text(text: bytes | str, name: str, more: More | None = None) -> Report:
    """Every problem of the file `text` (named `name` in the report) at once; when it passes,
    `more`'s problems too (placed in the file as the others are)."""
    size = len(text.encode() if isinstance(text, str) else text)
    if size > MAX_BYTES:
        return _refused(name, Finding("too-large", 1, 1, f"the file is {size} bytes; a "
                                      f"ruleset file is at most {MAX_BYTES}"))
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            return _refused(name, Finding("not-utf8", 1, 1, f"the file is not UTF-8 ({error})"))
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
    except _Refused as refused:
        return _refused(name, refused.finding)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        said = " ".join(str(error.problem or error).split())
        if "nesting depth" in said:  # libyaml's own cap (1,000), met as it reads ahead
            return _refused(name, Finding("too-deep", _line(mark), _column(mark),
                                          f"the file nests deeper than {MAX_DEPTH} levels"))
        return _refused(name, Finding("yaml-syntax", _line(mark), _column(mark), said))
    except yaml.YAMLError as error:
        return _refused(name, Finding("yaml-syntax", 1, 1, str(error)))
    if node is None:
        return _refused(name, Finding("empty", 1, 1, "the file is empty"))
    marks: Marks = {}
    found: list[Finding] = []
    warned: list[Finding] = []
    data = _data(loader, node, (), marks, found, warned)
    checked = check(data)
    found += [_place(problem, marks, text) for problem in checked.problems]
    warned += [_place(problem, marks, text) for problem in checked.warnings]
    warned.sort(key=lambda w: (w.line, w.column))
    if more is not None and checked.file is not None and not found:
        found += [_place(problem, marks, text) for problem in more(checked.file)]
    found.sort(key=lambda f: (f.line, f.column))
    if len(found) > LISTED:
        rest = found[LISTED]
        found = [*found[:LISTED], Finding("too-many-problems", rest.line, rest.column,
                                          f"{len(found) - LISTED} more problems from here on "
                                          "are not listed")]
    return Report(name, tuple(found), checked.file if not found else None,
                  data if not found else None, tuple(warned[:LISTED]))


def check_file(path: str | FilePath) -> Report:
    """The report of the file at `path`, read up to one byte past MAX_BYTES (OSError if it
    cannot be read)."""
    with open(path, "rb") as file:
        text = file.read(MAX_BYTES + 1)
    return check_text(text, str(path))


def _refused(name: str, finding: Finding) -> Report:
    return Report(name, (finding,), None)


BUILT_IN = FilePath(__file__).parent / "rulefiles"  # the ruleset files shipped with battlelog
