"""Annotations are bounded (finding 14 of issue 37): a rate per seat of a match
(`BATTLELOG_ANNOTATION_RATE`, 429 with `Retry-After`), and what a match holds: annotations
standing, edits of one annotation, changes in all (422 `annotations-full`). Each refusal
is a problem detail and records nothing; a delete is always taken. On each store."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_annotations import Notes

from api.app import create_app
from api.settings import Settings
from domain.app import Matches


@pytest.fixture
def notes_with(store_env: dict[str, str]) -> Iterator[Callable[..., Notes]]:
    """Notes on a service with the settings given (the annotations' rate and caps)."""
    opened: list[tuple[TestClient, Matches]] = []

    def make(**settings: Any) -> Notes:
        matches = Matches(env=store_env)
        client = TestClient(create_app(Settings(admin_token="admin", **settings),
                                       matches=matches))
        client.__enter__()
        opened.append((client, matches))
        return Notes(client, matches)

    yield make
    for client, matches in opened:
        client.__exit__(None, None, None)
        matches.close()


def refused(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    body = dict(answer.json())
    assert body["type"] == f"/problems/{code}" and body["rule"] == "core-annotations"
    return body


def test_a_seat_past_its_rate_gets_429_and_records_nothing(
        notes_with: Callable[..., Notes]) -> None:
    notes = notes_with(annotation_rate="4/minute")
    first = notes.add("red")["id"]
    notes.add("red")
    notes.edit("red", first, 200, text="changed")
    notes.delete("red", first, 204)
    before = notes.recorded
    for answer in (notes.client.post(notes.url, json={"kind": "comment", "at_version": 2,
                                                      "text": "fifth"},
                                     headers=notes.m.auth("red")),
                   notes.client.delete(f"{notes.url}/{first}", headers=notes.m.auth("red"))):
        body = refused(answer, 429, "too-many-requests")
        assert "at most 4 annotation changes by one seat of a match per minute" in body["detail"]
        assert 1 <= int(answer.headers["Retry-After"]) <= 60
    assert notes.recorded == before
    notes.add("blue")  # another seat's own rate
    notes.add("referee")


def test_a_match_holds_so_many_annotations_edits_and_changes(
        notes_with: Callable[..., Notes]) -> None:
    notes = notes_with(annotations_per_match=2, annotation_edits=2, annotation_events=7)
    red = notes.add("red")["id"]
    blue = notes.add("blue")["id"]
    body = refused(notes.client.post(notes.url, json={"kind": "comment", "at_version": 2,
                                                      "text": "third"},
                                     headers=notes.m.auth("red")), 422, "annotations-full")
    assert "at most 2 annotations" in body["detail"]
    notes.edit("red", red, 200, text="once")
    notes.edit("red", red, 200, text="twice")
    answer = notes.client.patch(f"{notes.url}/{red}", json={"text": "thrice"},
                                headers=notes.m.auth("red"))
    assert "edited at most 2 times" in refused(answer, 422, "annotations-full")["detail"]
    notes.delete("red", red, 204)  # 5 changes: room for an annotation again
    again = notes.add("red")["id"]  # 6
    notes.delete("blue", blue, 204)  # 7: a delete is always taken
    answer = notes.client.post(notes.url, json={"kind": "comment", "at_version": 2,
                                                "text": "eighth"}, headers=notes.m.auth("red"))
    assert "7 changes" in refused(answer, 422, "annotations-full")["detail"]
    answer = notes.client.patch(f"{notes.url}/{again}", json={"text": "edited"},
                                headers=notes.m.auth("red"))
    refused(answer, 422, "annotations-full")
    notes.delete("red", again, 204)
    assert notes.recorded == 8
    assert notes.seen("referee") == []
