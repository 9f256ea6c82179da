"""Annotations on the live stream (docs/replay.md, `GET /api/matches/{id}/stream`): when a
seat adds, changes or deletes an annotation, each page following the match is told of it as
an `annotation` message only if its seat may see it (the annotation as it stands, or
`{"gone": id}` for one it saw and sees no more), and never receives one it may not see: not
its words, not its id. On both stores; the feed wakes on the annotation stream's writes."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient
from rulesets_helpers import Played

MATCH = {"scenario": "s", "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}],
         "units": [{"id": "r1", "side": "red", "name": "Rifles", "position": {"x": 1, "y": 1}},
                   {"id": "b1", "side": "blue", "name": "Guards", "position": {"x": 9, "y": 9}}]}
SEATS = ("red", "blue", "spectator", "referee")
LAST = "the last word"  # a public comment added last: every page waits for it


class Follower:
    """One page following the stream: its raw lines and its annotation messages."""

    def __init__(self) -> None:
        self.raw: list[str] = []
        self.notes: list[dict[str, Any]] = []
        self.ready = threading.Event()  # the first (version) message came
        self.done: queue.Queue[bool] = queue.Queue()


@contextmanager
def following(client: TestClient, m: Played) -> Iterator[dict[str, Follower]]:
    """Every seat follows the match's stream in a thread, until the app says it stops."""
    followers = {seat: Follower() for seat in SEATS}

    def read(seat: str, f: Follower) -> None:
        with client.stream("GET", f"/api/matches/{m.match}/stream",
                           headers=m.auth(seat)) as response:
            assert response.status_code == 200
            fields: dict[str, str] = {}
            for line in response.iter_lines():
                f.raw.append(line)
                if line:
                    key, _, value = line.partition(":")
                    fields[key] = value.strip()
                    continue
                if fields.get("event") == "version":
                    f.ready.set()
                elif fields.get("event") == "annotation":
                    f.notes.append(json.loads(fields["data"]))
                    if f.notes[-1].get("annotation", {}).get("text") == LAST:
                        f.done.put(True)
                fields = {}

    threads = [threading.Thread(target=read, args=item, daemon=True)
               for item in followers.items()]
    for t in threads:
        t.start()
    for f in followers.values():
        assert f.ready.wait(10)
    stopping = client.app.state.stopping  # type: ignore[attr-defined]
    try:
        yield followers
    finally:
        client.app.state.stopping = lambda: True  # type: ignore[attr-defined]
        for t in threads:
            t.join(10)
        client.app.state.stopping = stopping  # type: ignore[attr-defined]


def post(client: TestClient, m: Played, seat: str, **body: Any) -> dict[str, Any]:
    r = client.post(f"/api/matches/{m.match}/annotations", json=body, headers=m.auth(seat))
    assert r.status_code == 201, r.text
    return dict(r.json())


def patch(client: TestClient, m: Played, seat: str, note: str, **body: Any) -> None:
    r = client.patch(f"/api/matches/{m.match}/annotations/{note}", json=body,
                     headers=m.auth(seat))
    assert r.status_code == 200, r.text


def said(f: Follower) -> list[tuple[str, str]]:
    """Each message a page got, as (what, the annotation's text or the id gone)."""
    return [("gone", n["gone"]) if "gone" in n else (n["annotation"]["visibility"],
                                                     n["annotation"]["text"]) for n in f.notes]


def test_each_page_is_told_only_of_the_annotations_its_seat_sees(client: TestClient) -> None:
    m = Played(client, MATCH)
    m.act("red", type="move_unit", unit_id="r1", to={"x": 2, "y": 2})
    expected = dict.fromkeys(SEATS, 0)

    def told(*seats: str) -> None:
        """Wait until each of `seats` has one message more (so that no page reads two
        writes at once: each page's messages are then exactly one per write it sees)."""
        for seat in seats:
            expected[seat] += 1
        deadline = time.monotonic() + 15
        while any(len(pages[s].notes) < n for s, n in expected.items()):
            assert time.monotonic() < deadline, ({s: said(p) for s, p in pages.items()})
            time.sleep(0.02)

    with following(client, m) as pages:
        secret = post(client, m, "red", kind="comment", at_version=1, text="red's secret")
        told("red", "referee")
        arrow = post(client, m, "red", kind="arrow", at_version=2, text="flank here",
                     start={"x": 2, "y": 2}, end={"x": 9, "y": 9}, visibility="public")
        told(*SEATS)
        ring = post(client, m, "blue", kind="highlight", at_version=2, units=["r1"],
                    text="blue's side ring", visibility="side")
        told("blue", "referee")
        patch(client, m, "red", arrow["id"], visibility="private")  # hidden again
        told(*SEATS)
        patch(client, m, "red", secret["id"], visibility="public", text="red's open word")
        told(*SEATS)
        r = client.delete(f"/api/matches/{m.match}/annotations/{ring['id']}",
                          headers=m.auth("blue"))
        assert r.status_code == 204, r.text
        told("blue", "referee")
        post(client, m, "referee", kind="comment", at_version=2, text=LAST,
             visibility="public")
        for page in pages.values():
            assert page.done.get(timeout=15)

    assert said(pages["blue"]) == [
        ("public", "flank here"), ("side", "blue's side ring"), ("gone", arrow["id"]),
        ("public", "red's open word"), ("gone", ring["id"]), ("public", LAST)]
    assert said(pages["spectator"]) == [
        ("public", "flank here"), ("gone", arrow["id"]), ("public", "red's open word"),
        ("public", LAST)]
    assert said(pages["red"]) == [
        ("private", "red's secret"), ("public", "flank here"), ("private", "flank here"),
        ("public", "red's open word"), ("public", LAST)]
    assert said(pages["referee"]) == [  # the referee reads every annotation
        ("private", "red's secret"), ("public", "flank here"), ("side", "blue's side ring"),
        ("private", "flank here"), ("public", "red's open word"), ("gone", ring["id"]),
        ("public", LAST)]
    # what a page may not see is nowhere in its bytes: not the words, not the id
    spectator, red = "\n".join(pages["spectator"].raw), "\n".join(pages["red"].raw)
    assert "red's secret" not in spectator and "red's secret" not in "\n".join(
        pages["blue"].raw)
    assert "blue's side ring" not in spectator and ring["id"] not in spectator
    assert "blue's side ring" not in red and ring["id"] not in red
    assert arrow["start"] == {"x": 2, "y": 2} and pages["blue"].notes[0]["annotation"][
        "end"] == {"x": 9, "y": 9}  # an arrow comes whole, to be drawn


def test_an_edit_moves_an_arrows_ends_a_highlights_units_and_a_chapters_range(
        client: TestClient) -> None:
    """What a page is sent after an edit is the annotation as it now stands; an edit that
    does not fit the kind or the match is refused and recorded nowhere."""
    m = Played(client, MATCH)
    m.act("red", type="move_unit", unit_id="r1", to={"x": 2, "y": 2})
    url = f"/api/matches/{m.match}/annotations"
    arrow = post(client, m, "red", kind="arrow", at_version=2, start={"x": 2, "y": 2},
                 end={"x": 9, "y": 9})
    ring = post(client, m, "red", kind="highlight", at_version=2, units=["r1"],
                visibility="public")
    chapter = post(client, m, "red", kind="chapter", at_version=1, text="Opening")
    for note, body in ((arrow, {"start": {"hex": "0101"}, "end": {"x": 3, "y": 4}}),
                       (ring, {"units": ["b1", "r1"]}),
                       (chapter, {"at_version": 1, "upto_version": 2})):
        r = client.patch(f"{url}/{note['id']}", json=body, headers=m.auth("red"))
        assert r.status_code == 200, r.text
        assert {k: r.json()[k] for k in body} == body
    standing = {n["id"]: n for n in m.get("/annotations", "red")["annotations"]}
    assert standing[ring["id"]]["units"] == ["b1", "r1"]
    assert standing[arrow["id"]]["end"] == {"x": 3, "y": 4}
    count = len(m.get("/annotations", "referee")["annotations"])
    for note, body, status in (
            (arrow, {"units": ["r1"]}, 422),  # an arrow has no units
            (ring, {"start": {"x": 1, "y": 1}, "end": {"x": 2, "y": 2}}, 422),
            (ring, {"units": ["nobody"]}, 422),  # not on the table at its version
            (chapter, {"upto_version": 99}, 422),  # the match has no version 99
            (chapter, {"at_version": 2, "upto_version": 1}, 422),
            (arrow, {"start": {"x": 1, "y": 1}}, 422)):  # both ends change together
        r = client.patch(f"{url}/{note['id']}", json=body, headers=m.auth("red"))
        assert r.status_code == status, (body, r.text)
    r = client.patch(f"{url}/{ring['id']}", json={"units": ["b1"]}, headers=m.auth("blue"))
    assert r.status_code == 403, r.text  # another seat's: never
    after = client.get(f"/api/matches/{m.match}/annotations", headers=m.auth("referee"))
    assert len(after.json()["annotations"]) == count
    assert {n["id"]: n for n in after.json()["annotations"]}[ring["id"]]["units"] == [
        "b1", "r1"]
