"""A hex said in the players' words: its number and, where the scenario names it (option
`city_names`: {hex: name}), its name, "1405 (Caen)". The one place that says a hex: the log's
sentences (`projections.sentences`), refusals (`domain.refusal_words`) and the legal answer's
labels say hexes through it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["hex_label", "hex_names", "with_hex_names"]


def hex_names(options: Mapping[str, Any]) -> dict[str, str]:
    """The hexes the scenario names: {hex: name}."""
    names = options.get("city_names")
    if not isinstance(names, dict):
        return {}
    return {str(k): str(v) for k, v in names.items() if str(v).strip()}


def hex_label(hex_id: str, options: Mapping[str, Any]) -> str:
    """`1405 (Caen)` for a hex the scenario names, else the hex's number as it is."""
    name = hex_names(options).get(hex_id)
    return f"{hex_id} ({name})" if name else hex_id


def with_hex_names(text: str, options: Mapping[str, Any]) -> str:
    """A text with each named hex's number followed by its name ("combat at 1405" ->
    "combat at 1405 (Caen)"); a number inside a longer word or number, or already followed
    by its name, stays as it is."""
    names = hex_names(options)
    if not names:
        return text
    pattern = re.compile(r"(?<![\w.:/-])(" + "|".join(
        re.escape(h) for h in sorted(names, key=len, reverse=True)) + r")(?![\w/-]|\.\d| \()")
    return pattern.sub(lambda m: f"{m[1]} ({names[m[1]]})", text)
