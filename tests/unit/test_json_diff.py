"""The change between two boards in a replay file (projections/json_diff.py) is an RFC 6902
patch that turns the first into the second, checked with an independent implementation
(the `jsonpatch` package) on any two JSON documents, and only says what changed."""

from __future__ import annotations

from typing import Any

import jsonpatch  # type: ignore[import-untyped]  # it ships no type hints
from hypothesis import given, settings
from hypothesis import strategies as st

from projections.json_diff import diff

KEYS = st.sampled_from(["a", "b", "units", "x/y", "~0", "turn", ""])
SCALARS = st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-2, 2, allow_nan=False) | st.text(max_size=3)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(KEYS, inner, max_size=4), max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(JSON, JSON)
def test_the_patch_turns_the_first_document_into_the_second(a: Any, b: Any) -> None:
    patched = jsonpatch.apply_patch(a, diff(a, b))
    assert patched == b
    assert type(patched) is type(b)


def test_only_what_changed_is_said() -> None:
    before = {"units": [{"id": "u1", "at": 1}, {"id": "u2", "at": 2}], "turn": {"n": 1}}
    after = {"units": [{"id": "u1", "at": 1}, {"id": "u2", "at": 3}], "turn": {"n": 1}}
    assert diff(before, after) == [{"op": "replace", "path": "/units/1/at", "value": 3}]
    assert diff(before, before) == []
    # a unit gone from the end, a key added: said as such, not the whole board again
    assert diff(before, {**before, "units": before["units"][:1], "vp": 2}) == [
        {"op": "remove", "path": "/units/1"}, {"op": "add", "path": "/vp", "value": 2}]
    # a value that changes type is a change, though Python says 1 == 1.0 == True
    assert diff({"a": 1}, {"a": 1.0}) == [{"op": "replace", "path": "/a", "value": 1.0}]
    assert diff({"a": 1}, {"a": True}) == [{"op": "replace", "path": "/a", "value": True}]
