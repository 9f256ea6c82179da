"""What a match's annotations hold by default (finding 14 of issue 37), decided by the pure
core: an annotation edited `CAPS.edits` times takes no more edits, a match holding
`CAPS.per_match` annotations takes no more, a stream of `CAPS.events` changes takes no add
and no edit but still a delete; each refusal names the cap (422 `annotations-full`)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import uuid4

import pytest

from domain.annotations import (
    CAPS,
    Annotation,
    AnnotationsFull,
    decide_add,
    decide_delete,
    decide_edit,
    fold,
)
from domain.commands.annotations import AddAnnotation, DeleteAnnotation, EditAnnotation
from domain.events.annotations import AnnotationAdded, AnnotationEdited
from domain.state import MatchState

STREAM = uuid4()


def stamp(version: int) -> dict[str, Any]:
    return {"originator_id": STREAM, "originator_version": version,
            "timestamp": datetime.now(UTC), "actor": "red", "command_id": uuid4().hex,
            "rule": "core-annotations", "turn": 1}


def edited(times: int) -> dict[str, Annotation]:
    """One comment of red's, edited `times` times: the annotations standing."""
    return fold([
        AnnotationAdded(**stamp(1), annotation_id="a" * 32, kind="comment", at_version=1,
                        visibility="private", text="first"),
        *(AnnotationEdited(**stamp(2 + k), annotation_id="a" * 32, text=f"edit {k}",
                           visibility="private") for k in range(times))])


def edit(held: dict[str, Annotation], events: int) -> dict[str, Any]:
    return decide_edit(EditAnnotation(text="again"), actor="red", held=held,
                       annotation_id="a" * 32, head=5,
                       state_at=lambda v: MatchState.model_construct(), events=events)


def add(held: int, events: int) -> dict[str, Any]:
    return decide_add(AddAnnotation(kind="comment", at_version=1, text="new"), actor="red",
                      sides=["red", "blue"], head=5,
                      state_at=lambda v: MatchState.model_construct(), held=held,
                      fork_origin=lambda fork: None, match_id=uuid4(), events=events)


def test_the_defaults_bound_edits_annotations_and_changes() -> None:
    assert edit(edited(CAPS.edits - 1), CAPS.edits)["text"] == "again"
    with pytest.raises(AnnotationsFull, match=f"edited at most {CAPS.edits} times"):
        edit(edited(CAPS.edits), CAPS.edits + 1)
    assert add(CAPS.per_match - 1, CAPS.per_match - 1)["text"] == "new"
    with pytest.raises(AnnotationsFull, match=f"at most {CAPS.per_match} annotations"):
        add(CAPS.per_match, CAPS.per_match)
    with pytest.raises(AnnotationsFull, match=f"{CAPS.events} changes"):
        add(1, CAPS.events)
    with pytest.raises(AnnotationsFull, match=f"{CAPS.events} changes"):
        edit(edited(1), CAPS.events)
    gone = decide_delete(DeleteAnnotation(reason=""), actor="red", held=edited(1),
                         annotation_id="a" * 32)
    assert gone["annotation_id"] == "a" * 32  # a delete is taken, however many changes
    assert AnnotationsFull.status == 422
