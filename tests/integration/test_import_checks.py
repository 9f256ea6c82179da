"""An import checks what every reader of a match relies on before anything is stored: each
event's timestamp is a usable moment (an offset, from 1970 to the import's own time plus a
few minutes, never going back), refused naming its line; and the file is read as a stream:
verified line by line and saved in batches, never held whole (docs/interchange.md)."""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario
from test_hostile_input import _import

from api.imports import ImportFile, SpilledFrames
from domain import events as ev
from domain.app import Matches, copies
from domain.commands import UNITS_PER_SIDE
from domain.integrity import canonical, content_hash, revealed_seeds, verify

FAR_FUTURE = "9999-12-31T23:59:59.500000Z"  # as an event writes it (the issue's ...59.5Z)


def exported(m: Played) -> list[str]:
    r = m.client.get(f"/api/matches/{m.match}/export", headers=m.auth("referee"))
    assert r.status_code == 200, r.text
    text: str = r.text
    return text.splitlines(keepends=True)


def rechained(lines: list[str], change: Callable[[int, dict[str, Any]], None],
              match_id: UUID) -> bytes:
    """The export with `change(version, body)` made to every event, under another match id,
    every hash recomputed as a forger would: it still verifies."""
    header = canonical_body(lines[0])
    prev = "0" * 64
    out = []
    for line in lines[1:]:
        body = canonical_body(line)
        change(body["version"], body)
        body["prev_hash"] = prev
        body["hash"] = prev = content_hash(body)
        out.append(canonical(body) + "\n")
    header.update(match_id=str(match_id), chain_head=prev)
    header["hash"] = content_hash(header)
    text = canonical(header) + "\n" + "".join(out)
    assert verify(text.splitlines(keepends=True)).ok  # a forgery that verifies
    return text.encode()


def canonical_body(line: str) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(line)
    return body


def played(client: TestClient) -> Played:
    m = Played(client, scenario("atomic-africa-demo"))
    m.act("red", type="roll_dice", notation="2d6", purpose="fire", unit_ids=["sq1"])
    m.act("blue", type="add_note", text="noted")
    return m


def nothing_of(client: TestClient, match_id: UUID) -> bool:
    matches: Matches = client.app.state.matches  # type: ignore[attr-defined]
    return list(matches.recorder.select_events(match_id, limit=1)) == []


def test_an_import_with_far_future_timestamps_is_422_and_creates_nothing(
        client: TestClient) -> None:
    lines = exported(played(client))
    forged = uuid4()
    body = rechained(lines, lambda _, e: e.update(timestamp=FAR_FUTURE), forged)
    problem = _import(client, body, "10.25.0.1").refused(422)
    assert problem["rule"] == "core-import"
    assert problem["detail"].startswith("line 2: MatchCreated timestamp"), problem
    assert "9999-12-31T23:59:59.500000+00:00" in problem["detail"]
    assert nothing_of(client, forged)  # no match, no event


def test_an_import_stamped_after_its_own_time_is_422_naming_the_first_such_event(
        client: TestClient) -> None:
    """A time any event may carry (before 3000) but after the import's time plus the skew:
    a file from the future, refused at its first such event."""
    lines = exported(played(client))
    forged = uuid4()
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).isoformat().replace("+00:00", "Z")

    def later(version: int, e: dict[str, Any]) -> None:
        if version >= 3:
            e["timestamp"] = tomorrow

    problem = _import(client, rechained(lines, later, forged), "10.25.0.6").refused(422)
    assert problem["detail"].startswith("line 4: event 3 ("), problem
    assert "is after the import's time plus 0:05:00" in problem["detail"]
    assert nothing_of(client, forged)


def test_timestamps_going_back_are_refused_naming_the_first_that_does(
        client: TestClient) -> None:
    lines = exported(played(client))
    forged = uuid4()

    def earlier(version: int, e: dict[str, Any]) -> None:
        if version == 4:
            e["timestamp"] = "2001-01-01T00:00:00Z"

    problem = _import(client, rechained(lines, earlier, forged), "10.25.0.2").refused(422)
    assert problem["detail"].startswith("line 5: event 4 ("), problem
    assert "is before the event before it" in problem["detail"]
    assert nothing_of(client, forged)


@pytest.mark.parametrize(("stamp", "said"), [
    ("2026-13-45T99:00:00Z", "timestamp"),  # no such moment
    ("yesterday", "timestamp"),
    ("2026-11-23T03:45:06.031878", "needs a UTC offset"),  # naive: no one knows when
    ("1969-12-31T23:59:59Z", "must lie from 1970-01-01"),  # before any event may be
])
def test_an_unusable_timestamp_is_refused_naming_its_line(client: TestClient, stamp: str,
                                                          said: str) -> None:
    lines = exported(played(client))
    forged = uuid4()

    def unusable(version: int, e: dict[str, Any]) -> None:
        if version == 3:
            e["timestamp"] = stamp

    problem = _import(client, rechained(lines, unusable, forged), "10.25.0.3").refused(422)
    assert problem["detail"].startswith("line 4:") and said in problem["detail"], problem
    assert nothing_of(client, forged)


def test_a_timestamp_a_moment_ahead_of_this_instance_is_clock_skew_and_imports(
        client: TestClient) -> None:
    lines = exported(played(client))
    last = len(lines) - 1

    def ahead(version: int, e: dict[str, Any]) -> None:
        if version == last:  # a minute ahead of the import's time: another clock's skew
            e["timestamp"] = (datetime.now(UTC) + timedelta(minutes=1)).isoformat().replace(
                "+00:00", "Z")

    made = _import(client, rechained(lines, ahead, uuid4()), "10.25.0.4")
    assert made.status == 201, made.body


def _long_match(client: TestClient, notes: int) -> list[str]:
    m = played(client)
    for i in range(notes):
        m.act("blue", type="add_note", text=f"note {i}")
    m.act("referee", type="end_match", winner="red")  # reveals the seeds
    return exported(m)


def _live_events() -> int:
    gc.collect()  # what is only garbage (a fold's closures are cycles) is not held
    return sum(isinstance(o, ev.Event) for o in gc.get_objects())


def test_an_import_is_saved_in_batches_and_never_holds_the_file(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Structural: the events reach the store a batch at a time, and while each batch is
    saved no more events are alive than about one batch: the file is read as a stream."""
    monkeypatch.setattr(copies, "IMPORT_BATCH", 40)
    lines = _long_match(client, 260)
    forged = uuid4()
    body = rechained(lines, lambda _, e: None, forged)
    matches: Matches = client.app.state.matches  # type: ignore[attr-defined]
    batches: list[int] = []
    alive: list[int] = []
    save = matches.save
    del lines
    before = _live_events()

    def saving(*objs: Any, **kwargs: Any) -> Any:
        batches.append(len(objs))
        alive.append(_live_events() - before)
        return save(*objs, **kwargs)

    monkeypatch.setattr(matches, "save", saving)
    upload = ImportFile.spooled()
    upload.write(body)
    try:
        made = upload.import_into(matches, isolate=False)
    finally:
        upload.close()
    events = body.count(b"\n") - 1
    assert made.match_id == forged and made.version == events > 5 * 40
    assert sum(batches) == events and max(batches) == 40  # every event, 40 at a time
    assert max(alive) <= 2 * 40, alive  # the batch being saved, and few more


def test_verifying_with_the_seeds_known_checks_each_roll_as_it_is_read(
        client: TestClient) -> None:
    """Structural: given the seeds a first pass found, `verify` holds no roll for later: a
    forged roll is refused as soon as its line is read, the rest of the file unread."""
    lines = _long_match(client, 30)
    roll = next(i for i, line in enumerate(lines) if '"purpose":"fire"' in line)
    body = canonical_body(lines[roll])
    body["dice"] = [7 - body["dice"][0], *body["dice"][1:]]  # another face, hash redone
    forged = rechained_tail(lines, roll, body)
    read: list[int] = []

    def reading() -> Iterator[str]:
        for number, line in enumerate(forged, start=1):
            read.append(number)
            yield line

    report = verify(reading(), revealed_seeds(forged))
    assert report.problems[0].startswith(f"line {roll + 1}: event {roll}: server roll 0")
    assert read[-1] == roll + 1 < len(forged)  # stopped there
    read.clear()
    assert not verify(reading()).ok and read[-1] == len(forged)  # read once: held till the end


def rechained_tail(lines: list[str], at: int, body: dict[str, Any]) -> list[str]:
    """`lines` with line `at` replaced by `body`, the chain recomputed from there on."""
    out = lines[:at]
    prev = canonical_body(lines[at - 1])["hash"]
    for line in [canonical(body) + "\n", *lines[at + 1:]]:
        event = canonical_body(line)
        event["prev_hash"] = prev
        event["hash"] = prev = content_hash(event)
        out.append(canonical(event) + "\n")
    header = canonical_body(lines[0])
    header["chain_head"] = prev
    header["hash"] = content_hash(header)
    return [canonical(header) + "\n", *out[1:]]


def test_an_undo_back_past_a_checkpoint_replays_from_the_file(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay keeps no event: an undo to a version before the interval being replayed
    is served by the nearest checkpoint frame and the file read again from there."""
    m = Played(client, scenario("atomic-africa-demo"))
    for i in range(12):
        m.act("referee", type="place_marker", kind="suppression", unit_id="ml1")
        m.act("referee", type="add_note", text=f"note {i}")
    to = m.get("")["version"] - 17
    assert client.post(f"/api/matches/{m.match}/undo", json={"to": to},
                       headers=m.auth("referee")).status_code == 201
    assert client.post(f"/api/matches/{m.match}/redo", json={},
                       headers=m.auth("referee")).status_code == 201
    m.act("referee", type="add_note", text="after")
    m.act("referee", type="end_match", winner="red")  # the seeds revealed: the same decks
    matches: Matches = client.app.state.matches  # type: ignore[attr-defined]
    monkeypatch.setattr(matches, "checkpoint_interval", 5)  # the undo crosses three
    read: list[int] = []
    frame_at = SpilledFrames.__getitem__

    def reading(self: SpilledFrames, version: int) -> Any:
        read.append(version)
        return frame_at(self, version)

    monkeypatch.setattr(SpilledFrames, "__getitem__", reading)
    forged = uuid4()
    made = _import(client, rechained(exported(m), lambda _, e: None, forged), "10.25.0.5")
    assert made.status == 201, made.body
    referee = {"Authorization": f"Bearer {made.json()['tokens']['referee']}"}
    board = client.get(f"/api/matches/{forged}/board", headers=referee)
    assert board.json() == m.get("/board")
    assert read and min(read) <= to  # a checkpoint before the undo's target, read back


def test_an_import_set_up_past_the_size_limits_is_refused_like_a_creation(
        client: TestClient) -> None:
    """A creation past the size limits is a 422; a forged export's `MatchCreated` with the
    same set-up is refused too, naming its line and the limit, and nothing is made."""
    lines = exported(played(client))
    forged = uuid4()

    def crowded(version: int, e: dict[str, Any]) -> None:
        if version == 1:
            [first, *_] = [u for u in e["units"] if u["side"] == "red"]
            e["units"] += [{**first, "id": f"extra{n}", "name": f"Extra {n}"}
                              for n in range(UNITS_PER_SIDE)]

    problem = _import(client, rechained(lines, crowded, forged), "10.25.0.9").refused(422)
    assert problem["detail"].startswith("line 2: event 1 (MatchCreated): units: at most "
                                        f"{UNITS_PER_SIDE} units a side"), problem
    assert nothing_of(client, forged)
