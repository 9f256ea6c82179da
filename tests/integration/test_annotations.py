"""Annotations (docs/replay.md): comments, arrows, highlights, chapters and variations on a
match's versions, as events of their own. Who adds, edits, deletes and reads which
(`domain.authority`); every value checked, nothing recorded on a refusal; the match's log,
chain, dice and undo untouched; carried by the export, an import and the replay file,
each filtered for its seat."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import Played

from api.replay_page import CLOSE, DATA_OPEN
from api.replay_read import export_of
from domain.app import Matches
from domain.integrity import verify
from projections.store import sqlite_env

MATCH = {"scenario": "s", "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}],
         "units": [{"id": "r1", "side": "red", "name": "Rifles", "position": {"x": 1, "y": 1}},
                   {"id": "b1", "side": "blue", "name": "Guards", "position": {"x": 9, "y": 9}}]}


class Notes:
    """One match and its annotations over HTTP, counting the annotation events."""

    def __init__(self, client: TestClient, matches: Matches) -> None:
        self.m = Played(client, MATCH)
        self.m.act("red", type="roll_dice", notation="2d6", purpose="fire")
        self.m.act("red", type="move_unit", unit_id="r1", to={"x": 7, "y": 8})
        self.client, self.matches = client, matches
        self.url = f"/api/matches/{self.m.match}/annotations"
        self.id = UUID(self.m.match)

    @property
    def recorded(self) -> int:
        return len(self.matches.annotation_events(self.id))

    def add(self, seat: str, status: int = 201, **body: Any) -> dict[str, Any]:
        body = {"kind": "comment", "at_version": 2, "text": "a comment", **body}
        before = self.recorded
        r = self.client.post(self.url, json=body, headers=self.m.auth(seat))
        assert r.status_code == status, r.text
        assert self.recorded == before + (1 if status == 201 else 0)
        if status != 201:
            assert r.headers["content-type"] == "application/problem+json"
        return dict(r.json())

    def edit(self, seat: str, note: str, status: int, **body: Any) -> dict[str, Any]:
        before = self.recorded
        r = self.client.patch(f"{self.url}/{note}", json=body, headers=self.m.auth(seat))
        assert r.status_code == status, r.text
        assert self.recorded == before + (1 if status == 200 else 0)
        return dict(r.json())

    def delete(self, seat: str, note: str, status: int, reason: str = "") -> None:
        before = self.recorded
        r = self.client.delete(f"{self.url}/{note}", params={"reason": reason} if reason
                               else {}, headers=self.m.auth(seat))
        assert r.status_code == status, r.text
        assert self.recorded == before + (1 if status == 204 else 0)

    def seen(self, seat: str) -> list[str]:
        return [a["text"] for a in self.m.get("/annotations", seat)["annotations"]]


@pytest.fixture
def notes(planted: tuple[TestClient, Matches]) -> Notes:
    return Notes(*planted)


def test_a_seat_edits_and_deletes_only_its_own_and_the_referee_deletes_any_with_a_reason(
        notes: Notes) -> None:
    red = notes.add("red", text="red's", visibility="public")["id"]
    notes.edit("blue", red, 403, text="blue's words")
    notes.delete("blue", red, 403)
    notes.edit("referee", red, 403, text="the referee's words")  # never another's words
    notes.edit("spectator", red, 403, text="x")
    notes.delete("spectator", red, 403)
    notes.add("spectator", 403, visibility="public")  # the audience's shared token
    assert notes.edit("red", red, 200, text="red's, amended")["text"] == "red's, amended"
    assert notes.seen("blue") == ["red's, amended"]
    notes.delete("referee", red, 422)  # a reason is needed
    notes.delete("referee", red, 204, reason="gives away a hidden card")
    assert notes.seen("red") == [] and notes.seen("referee") == []
    notes.delete("red", red, 404)  # gone; the deletion is an event of its own
    assert [e.type_name() for e in notes.matches.annotation_events(notes.id)] == [
        "AnnotationAdded", "AnnotationEdited", "AnnotationDeleted"]
    own = notes.add("blue", text="blue's")["id"]
    notes.delete("blue", own, 204)
    referee = notes.add("referee", text="the referee's")["id"]
    notes.delete("red", referee, 404)  # private to the referee: not even found by red


def test_each_seat_reads_only_what_its_visibility_lets_it(notes: Notes) -> None:
    notes.add("red", text="red private")
    notes.add("red", text="red side", visibility="side")
    notes.add("red", text="red public", visibility="public")
    notes.add("blue", text="blue private")
    notes.add("referee", text="referee private")
    notes.add("referee", text="referee public", visibility="public", at_version=1)
    assert notes.seen("red") == ["referee public", "red private", "red side", "red public"]
    assert notes.seen("blue") == ["referee public", "red public", "blue private"]
    assert notes.seen("spectator") == ["referee public", "red public"]
    assert sorted(notes.seen("referee")) == sorted([
        "referee public", "red private", "red side", "red public", "blue private",
        "referee private"])
    hidden = notes.add("red", text="made public later")["id"]
    assert "made public later" not in notes.seen("blue")
    notes.edit("red", hidden, 200, visibility="public")
    assert "made public later" in notes.seen("blue")


@pytest.mark.parametrize(("body", "why"), [
    ({"at_version": 99}, "versions 1 to"),
    ({"at_version": 0}, "at_version"),
    ({"at_version": True}, "at_version"),
    ({"text": "x" * 2001}, "text"),
    ({"text": " \u200b\n\t\u0007 "}, "needs a text"),  # nothing left once cleaned
    ({"kind": "chapter", "text": "t" * 121}, "title"),
    ({"kind": "chapter", "upto_version": 1}, "upto_version"),
    ({"kind": "chapter", "upto_version": 50}, "versions 1 to"),
    ({"kind": "highlight", "units": ["nobody"]}, "no unit nobody"),
    ({"kind": "highlight", "units": [f"u{i}" for i in range(33)]}, "units"),
    ({"kind": "highlight", "units": ["r1", "r1"]}, "once"),
    ({"kind": "highlight"}, "names units"),
    ({"kind": "arrow", "start": {"hex": "0101"}}, "start and an end"),
    ({"kind": "arrow", "start": {"x": 1e6, "y": 0}, "end": {"hex": "0101"}}, "x"),
    ({"kind": "arrow", "start": {"x": 1}, "end": {"hex": "0101"}}, "both x and y"),
    ({"kind": "arrow", "start": {"hex": "a b"}, "end": {"hex": "0101"}}, "hex"),
    ({"kind": "variation", "fork": "00000000-0000-0000-0000-000000000000"}, "not a fork"),
    ({"kind": "comment", "units": ["r1"]}, "names units"),
    ({"visibility": "everyone"}, "visibility"),
    ({"colour": "red"}, "colour"),
])
def test_every_value_is_checked_and_a_refusal_records_nothing(
        notes: Notes, body: dict[str, Any], why: str) -> None:
    problem = notes.add("red", 422, **body)
    assert why in str(problem), problem


def test_a_refused_edit_or_path_records_nothing(notes: Notes) -> None:
    note = notes.add("red", kind="chapter", text="Opening", upto_version=3)["id"]
    notes.edit("red", note, 422, text="")  # a chapter keeps a title
    notes.edit("red", note, 422)  # nothing to change
    notes.edit("red", "not-an-id", 422, text="x")
    notes.edit("red", "0" * 32, 404, text="x")
    notes.delete("referee", note, 422, reason="r" * 501)


def test_text_is_cleaned_and_every_kind_is_kept_as_sent(notes: Notes) -> None:
    said = notes.add("red", text="  Flank\u200b here\r\n\n\n\nnow\u0000 ", visibility="public")
    assert said["text"] == "Flank here\n\nnow"
    arrow = notes.add("red", kind="arrow", text="", start={"hex": "0101"},
                      end={"x": 12.5, "y": -3})
    assert (arrow["start"], arrow["end"]) == ({"hex": "0101"}, {"x": 12.5, "y": -3})
    assert notes.add("red", kind="highlight", units=["r1", "b1"], at_version=1)["units"] == [
        "r1", "b1"]
    fork = notes.client.post(f"/api/matches/{notes.m.match}/fork", params={"at": 2},
                             headers=notes.m.auth("referee"))
    assert fork.status_code == 201, fork.text
    variation = notes.add("referee", kind="variation", fork=fork.json()["match_id"],
                          text="what if he had stayed")
    assert variation["fork"] == fork.json()["match_id"]


def test_annotations_change_neither_the_log_nor_its_chain_nor_its_dice_nor_undo(
        planted: tuple[TestClient, Matches]) -> None:
    client, matches = planted
    plain, noted = Played(client, MATCH), Notes(client, matches)
    plain.act("red", type="roll_dice", notation="2d6", purpose="fire")
    plain.act("red", type="move_unit", unit_id="r1", to={"x": 7, "y": 8})
    before = noted.m.get("/verify")
    for kind in ({"text": "one"}, {"kind": "chapter", "text": "All", "upto_version": 3}):
        noted.add("red", **kind, visibility="public")
    noted.add("referee", text="two")
    after = noted.m.get("/verify")  # head hash, event count, rolls checked, verified
    assert (after.pop("annotations"), before.pop("annotations")) == (3, 0)
    assert after == before and after["ok"]
    assert matches.head(noted.id).version == before["events"]
    # the next roll: the same faces as the same match's without annotations (same seed)
    faces = [m.act("red", type="roll_dice", notation="3d6", purpose="fire")[0]["dice"]
             for m in (plain, noted.m)]
    assert faces[0] == faces[1]
    undone = client.post(f"/api/matches/{noted.m.match}/undo", json={"actions": 1},
                         headers=noted.m.auth("red"))
    assert undone.status_code == 201, undone.text
    assert undone.json()["events"][0]["to"] == before["events"]  # the roll, not a note
    assert len(noted.seen("red")) == 2  # and undo took no annotation back


def test_the_export_carries_them_unchained_and_an_import_keeps_them(
        notes: Notes, tmp_path: Path) -> None:
    notes.add("red", text="red's secret plan")
    public = notes.add("red", kind="chapter", text="Opening", upto_version=3,
                       visibility="public")["id"]
    notes.edit("red", public, 200, text="The opening")
    gone = notes.add("blue", text="blue's gone", visibility="public")["id"]
    notes.delete("blue", gone, 204)
    exported = notes.client.get(f"/api/matches/{notes.m.match}/export",
                                headers=notes.m.auth("referee")).text
    report = verify(exported.splitlines(keepends=True))
    assert report.ok, report.problems
    assert (report.events, report.annotations) == (notes.matches.head(notes.id).version, 5)
    assert report.chain_head == notes.m.get("/verify")["chain_head"]
    blue = notes.client.get(f"/api/matches/{notes.m.match}/export",
                            headers=notes.m.auth("blue")).text
    assert "red's secret plan" not in blue and "blue's gone" not in blue
    assert "The opening" in blue and verify(blue.splitlines(keepends=True)).ok
    other = Matches(env=sqlite_env(str(tmp_path / "other.db")))
    try:
        other.import_match(exported.splitlines(keepends=True))
        assert [a.public() for a in other.annotations(notes.id, "referee")] == [
            a.public() for a in notes.matches.annotations(notes.id, "referee")]
        assert other.head(notes.id).chain_head == report.chain_head
    finally:
        other.close()


def test_an_export_whose_annotations_do_not_load_is_refused_whole(
        notes: Notes, tmp_path: Path) -> None:
    notes.add("red", text="fine")
    exported = notes.client.get(f"/api/matches/{notes.m.match}/export",
                                headers=notes.m.auth("referee")).text
    broken = exported.replace('"at_version":2', '"at_version":99')
    other = Matches(env=sqlite_env(str(tmp_path / "other.db")))
    try:
        with pytest.raises(Exception, match="version the match does not have"):
            other.import_match(broken.splitlines(keepends=True))
        assert not other.recorder.select_events(notes.id, limit=1)
    finally:
        other.close()


def test_the_replay_file_shows_each_seat_its_annotations_and_no_other(notes: Notes) -> None:
    notes.add("red", text="red private words")
    notes.add("red", kind="chapter", text="Chapter one", upto_version=3, visibility="public")
    files = {seat: notes.client.get(f"/api/matches/{notes.m.match}/replay",
                                    headers=notes.m.auth(seat)).text
             for seat in ("red", "blue", "spectator", "referee")}
    for seat, page in files.items():
        assert ("red private words" in page) == (seat in ("red", "referee")), seat
        assert verify(export_of(page).splitlines(keepends=True)).ok
        shown = [(n["kind"], n["text"], n["at_version"]) for n in data_of(page)["annotations"]]
        assert ("chapter", "Chapter one", 2) in shown
        assert (("comment", "red private words", 2) in shown) == (seat in ("red", "referee"))


def data_of(page: str) -> Any:
    """The data a replay file carries (its JSON block)."""
    found = re.search(f"{re.escape(DATA_OPEN)}(.*?){re.escape(CLOSE)}", page, re.DOTALL)
    assert found, "no data block"
    return json.loads(found.group(1))
