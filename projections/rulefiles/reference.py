"""The ruleset file format's reference (docs/rulesets/reference.md), generated from the
JSON Schema of its models (`RulesetFile.model_json_schema()`, the schema GET
/api/rulesets/schema serves): every block and every field, its type and bounds, its
default, and the description the models give it (a class's docstring, a field's docstring
or `Field(description=...)`). The page is never edited by hand: after a change to
domain/rulefiles/model*.py, `make docs` (or `battlelog ruleset-reference --out
docs/rulesets/reference.md`) writes it again, and tests/unit/test_ruleset_reference.py
fails until it is.

    python -m projections.rulefiles.reference [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from domain.rulefiles import schema
from domain.rulefiles.parts import Name

PAGE = Path(__file__).parents[2] / "docs" / "rulesets" / "reference.md"
COMMAND = "make docs"  # or: battlelog ruleset-reference --out docs/rulesets/reference.md
NAME = str(TypeAdapter(Name).json_schema()["pattern"])  # said as "a name"
ROOT = "RulesetFile"

HEAD = f"""# Ruleset file format: the reference

<!-- Generated from the format's models by `{COMMAND}`
     (projections/rulefiles/reference.py): do not edit by hand. -->

Every block of a ruleset file (format version 1) and every field it may hold, generated from
the JSON Schema battlelog serves (`GET /api/rulesets/schema`), itself generated from the
models in `domain/rulefiles/`. [authoring.md](authoring.md) explains the format with
examples, and [tutorial.md](tutorial.md) builds a game in it from nothing.

How to read it: a **name** is one you give (an id of a step, a role, a kind): a lower case
letter, then lower case letters, digits, `_` and `-`, at most 40 characters in all
(`{NAME}`). A **map** is a YAML mapping from names to blocks
(`unit_kinds: {{squad: ...}}`). Text is at most the characters said; a whole number is within
the bounds said. A field neither required nor with a default may be left out. A file
holding a field a block does not list is refused (`unknown-field`). An expression is text
([authoring.md](authoring.md#expressions) says what it may say).
"""


def reference() -> str:
    """The reference page, from the format's JSON Schema."""
    root = schema()
    defs: dict[str, Any] = root.get("$defs", {})
    lines = [HEAD]
    for name in _order(root, defs):
        block = root if name == ROOT else defs[name]
        lines += _block(name, block)
    return "\n".join(lines).rstrip("\n") + "\n"


def _order(root: dict[str, Any], defs: dict[str, Any]) -> list[str]:
    """The blocks, the file first, then each block where a field first names it."""
    seen = [ROOT]
    queue = [root]
    while queue:
        for ref in _refs(queue.pop(0)):
            if ref not in seen:
                seen.append(ref)
                queue.append(defs[ref])
    return seen + sorted(set(defs) - set(seen))


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"].rsplit("/", 1)[-1]] if "$ref" in node else []
        for key, value in node.items():
            if key != "$defs":
                found += _refs(value)
        return found
    if isinstance(node, list):
        return [ref for item in node for ref in _refs(item)]
    return []


def _block(name: str, block: dict[str, Any]) -> list[str]:
    title = "The file" if name == ROOT else name
    out = [f"## {title}", ""]
    if block.get("description"):
        out += [_words(block["description"]), ""]
    required = set(block.get("required", ()))
    properties: dict[str, Any] = block.get("properties", {})
    out += ["| field | type | required or default | what it says |", "|---|---|---|---|"]
    for field, node in properties.items():
        said = "required" if field in required else _default(node)
        out.append(f"| `{field}` | {_cell(_kind(node))} | {_cell(said)} | "
                   f"{_cell(_words(node.get('description', '')))} |")
    return [*out, ""]


def _kind(node: dict[str, Any]) -> str:
    """A schema node's type and bounds, in words."""
    if "$ref" in node:
        ref = node["$ref"].rsplit("/", 1)[-1]
        return f"[{ref}](#{ref.lower()})"
    if "const" in node:
        return f"`{json.dumps(node['const'])}`"
    if "enum" in node:
        return "one of " + ", ".join(f"`{v}`" for v in node["enum"])
    for key in ("anyOf", "oneOf"):
        if key in node:
            parts = [_kind(part) for part in node[key] if part.get("type") != "null"]
            return " or ".join(parts)
    kind = node.get("type")
    if kind == "string":
        return _bounded("text" if node.get("pattern") != NAME else "a name", node,
                        "minLength", "maxLength", " characters")
    if kind == "integer":
        return _bounded("whole number", node, "minimum", "maximum", "")
    if kind == "boolean":
        return "true or false"
    if kind == "array":
        items = node.get("items", {})
        if "prefixItems" in node:
            items = {"anyOf": node["prefixItems"]}
            return _bounded(f"list of {_kind(items)}", node, "minItems", "maxItems", "")
        each = _kind(items)
        each = "names" if each == "a name" else each
        return _bounded(f"list of {each}", node, "minItems", "maxItems", " items")
    if kind == "object":
        [(key, value)] = node.get("patternProperties", {"": {}}).items() or [("", {})]
        keys = "name" if key == NAME else (f"key (`{key}`)" if key else "key")
        return _bounded(f"map of {keys} to {_kind(value)}", node, "minProperties",
                        "maxProperties", " entries")
    return "any value"


def _bounded(kind: str, node: dict[str, Any], low: str, high: str, unit: str) -> str:
    pattern = node.get("pattern")
    said = kind + (f" (`{pattern}`)" if pattern and pattern != NAME else "")
    if low in node and high in node:
        return f"{said}, {node[low]} to {node[high]}{unit}"
    if high in node:
        return f"{said}, at most {node[high]}{unit}"
    if low in node and node[low] == 1 and unit == " characters":
        return f"{said}, not empty"
    if low in node and node[low] > 0:
        return f"{said}, at least {node[low]}{unit}"
    return said


def _default(node: dict[str, Any]) -> str:
    if "default" not in node:
        return "none: may be left out"
    value = node["default"]
    if value is None:
        return "none: may be left out"
    if value in ([], {}):
        return "empty"
    if isinstance(value, dict):
        return "each of its fields' defaults"
    return f"`{json.dumps(value)}`"


def _words(text: str) -> str:
    return " ".join(str(text).split())


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def write(out: str) -> None:
    """Write the reference to `out` (`-`: standard output)."""
    text = reference()
    if out == "-":
        sys.stdout.write(text)
    else:
        Path(out).write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m projections.rulefiles.reference",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", "-o", default="-", help="file to write (default: standard "
                        f"output; the page: {PAGE.relative_to(PAGE.parents[2])})")
    write(parser.parse_args(argv).out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
