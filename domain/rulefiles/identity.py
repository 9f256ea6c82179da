"""A ruleset file's identity: the SHA-256 of its canonical JSON form, said `sha256:<hex>`.

The canonical form is the file's data as it was written (its mappings, lists and values;
not its comments, layout, key order, nor YAML or JSON), in JSON with keys sorted, no spaces,
UTF-8. (ours) The hash is taken over what the file says, not over the model's reading of it
with defaults filled in: a later battlelog whose format gains a field with a default still
gives an old file the hash its matches pinned."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

PREFIX = "sha256:"
PATTERN = r"^sha256:[0-9a-f]{64}$"
_HASH = re.compile(PATTERN)


def canonical_json(data: Any) -> str:
    """The canonical JSON of a file's data."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def file_hash(data: Any) -> str:
    """`sha256:<hex>` of the file's canonical JSON form."""
    return PREFIX + hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()


def is_file_hash(value: object) -> bool:
    return isinstance(value, str) and _HASH.match(value) is not None
