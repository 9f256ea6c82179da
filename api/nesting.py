"""How deep a JSON text nests, read from its bytes before any parser sees them: Python's
`json` recurses once per `[` or `{`, and a body or import line of 100,000 brackets would
end in a RecursionError (a 500) instead of a refusal. No battlelog document needs more than
a few levels; MAX_DEPTH leaves plenty of room."""

from __future__ import annotations

import re

MAX_DEPTH = 64

# A JSON string (escapes included): brackets inside one do not nest anything.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_OPEN_CLOSE = bytes.maketrans(b"[{]}", b"(())")  # what is left: "(" opens, ")" closes


def too_deep(data: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON text `data` opens more than `limit` arrays and objects inside one
    another. Exact for valid JSON; for anything else it answers as if the text were JSON
    (the parser then refuses it anyway). Linear and mostly in C: the brackets are taken
    `limit` at a time, and only a run that could pass the limit is stepped through."""
    if data.count(b"[") + data.count(b"{") <= limit:
        return False
    brackets = _STRING.sub(b"", data).translate(_OPEN_CLOSE, _NOT_BRACKETS)
    depth = 0
    for start in range(0, len(brackets), limit):
        run = brackets[start:start + limit]
        opens = run.count(b"(")
        if depth + opens <= limit:
            depth += 2 * opens - len(run)
            continue
        for bracket in run:
            depth += 1 if bracket == 40 else -1  # 40: "("
            if depth > limit:
                return True
    return False
