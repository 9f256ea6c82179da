"""The change from one board to the next as an RFC 6902 JSON Patch (`diff`), for the replay
file (projections/replay_file.py): what differs and nothing else, found in one walk of the
two documents that skips every equal part at once (Python's own `==`, in C).

Objects are compared key by key (`add`, `remove`, `replace`). A list of the same length is
compared item by item; a list that grows or shrinks at its end only adds or removes there;
any other list is replaced whole (ours: a board's lists are short, its units and cards, and
a whole list costs less to find than the shortest edit; the page applies either the same).
No `move` or `copy`: each operation is one the page's patch.js applies without a lookup."""

from __future__ import annotations

from typing import Any

import orjson


def _token(key: str | int) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def diff(before: Any, after: Any) -> list[dict[str, Any]]:
    """The operations that turn `before` into `after` (JSON values: dicts, lists, scalars)."""
    ops: list[dict[str, Any]] = []
    _walk(before, after, "", ops)
    return ops


def _same(a: Any, b: Any) -> bool:
    """Whether `a` and `b` are the same JSON. Python says 1 == 1.0 == True, JSON does not:
    two equal lists or objects are the same only when they are written alike, too."""
    if a is b:
        return True
    if type(a) is not type(b) or a != b:
        return False
    return not isinstance(a, dict | list) or orjson.dumps(a) == orjson.dumps(b)


def _walk(a: Any, b: Any, path: str, ops: list[dict[str, Any]]) -> None:
    if _same(a, b):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key, value in a.items():
            where = f"{path}/{_token(key)}"
            if key not in b:
                ops.append({"op": "remove", "path": where})
            else:
                _walk(value, b[key], where, ops)
        for key, value in b.items():
            if key not in a:
                ops.append({"op": "add", "path": f"{path}/{_token(key)}", "value": value})
        return
    if isinstance(a, list) and isinstance(b, list):
        shared = min(len(a), len(b))
        if a[:shared] == b[:shared] or len(a) == len(b):
            for i in range(shared):
                _walk(a[i], b[i], f"{path}/{i}", ops)
            for i in range(len(a) - 1, shared - 1, -1):  # from the end: each index stands
                ops.append({"op": "remove", "path": f"{path}/{i}"})
            for i in range(shared, len(b)):
                ops.append({"op": "add", "path": f"{path}/{i}", "value": b[i]})
            return
    ops.append({"op": "replace", "path": path, "value": b})
