"""Commitments to hidden fields (docs/integrity.md): what an event's hash covers in place of
a field some seat may not see (a hand, a face-down discard, a deck's order, a private note).

A commitment is SHA-256 (hex) of the canonical JSON of `[salt, value]`: `salt` a fresh random
secret (hex) the application draws for that field alone and stores with the event, `value`
the field as JSON. The event's hash covers its public fields and `commitments` (field ->
commitment), never the value: a seat that may not see the value gets the commitment and no
salt, and no guess of the value can be checked against either. A seat that sees the value
gets its salt (`salts`) and checks the value against the commitment. Pure: the salts come
from outside (`domain.integrity.salted`, with the application's randomness)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import orjson

SALT_BYTES = 32
# The keys of an event's line that its hash does not cover: the hash itself, and what
# differs between seats (the fields hidden from this one, the salts it is shown).
LINE_ONLY = frozenset({"hash", "hidden", "salts"})


def commitment_to(salt: str, value: Any) -> str:
    """SHA-256 (hex) of the canonical JSON of `[salt, value]` (keys sorted, no spaces,
    UTF-8): the commitment to a hidden field's `value` (as JSON) under `salt` (hex)."""
    try:  # orjson: the same bytes, several times faster, but for small floats (below)
        out = orjson.dumps([salt, value], option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:  # an integer beyond 64 bits
        out = b""
    if not out or small_float(out):
        out = json.dumps([salt, value], sort_keys=True, separators=(",", ":"),
                         ensure_ascii=False).encode()
    return hashlib.sha256(out).hexdigest()


def small_float(out: bytes) -> bool:
    """Whether orjson's `out` may hold a float below 1e-4 in magnitude (or only a string that
    looks like one: then the slow path is taken for nothing, still right)."""
    if b"0.0000" in out:
        return True
    at = out.find(b"e-")
    while at > 0:
        if 48 <= out[at - 1] <= 57:  # a digit before the exponent
            return True
        at = out.find(b"e-", at + 2)
    return False


def hashed_content(line: dict[str, Any]) -> dict[str, Any]:
    """What an event's hash covers, from its line as any seat has it: the line without
    `hash`, `hidden` and `salts`, and without each committed field's value (its commitment,
    in `commitments`, stands for it). The same for every seat, whatever it is shown. An event
    recorded before commitments has none: its hash covers its hidden fields' values."""
    committed = line.get("commitments")
    drop = LINE_ONLY | (set(committed) if isinstance(committed, dict) else set())
    return {k: v for k, v in line.items() if k not in drop}
