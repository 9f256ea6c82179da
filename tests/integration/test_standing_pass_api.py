"""A side's standing pass through the API (issue 26, fewer taps): `POST .../actions` with
`{"type": "standing_pass"}` starts it, `{"type": "standing_pass", "on": false}` stops it.
While it is on, the side's done is recorded for it (marked `by: "standing_pass"`) in the
action that made it due; `GET .../legal` says it is on and offers stopping it; whose turn
never waits for a done the pass says; a seat that is not the side (another side, a
spectator) may not start or stop it, with a 4xx and no event; the export verifies."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario

PASS = {"type": "standing_pass"}
STOP = {"type": "standing_pass", "on": False}


def events_after(m: Played, version: int) -> list[dict[str, Any]]:
    return list(m.get("/events", after=version, limit=500)["events"])


def test_a_sides_pass_says_its_dones_and_the_legal_answer_offers_stopping_it(
        client: TestClient) -> None:
    m = Played(client, scenario("extended-sequence-demo"))
    m.act("germans", type="roll_dice", notation="2d6", purpose="weather change",
          source="table", results=[3, 4])  # ES-1: owed before a side may say it is done
    offer = m.get("/legal", "soviets")["standing_pass"]
    assert offer["on"] is False
    assert offer["choice"] == {**offer["choice"], "label": "Pass until I must act", "body": PASS}
    before = m.version
    m.act("soviets", **PASS)
    said = [(e["type"], e["actor"], e.get("by")) for e in events_after(m, before)]
    assert said == [("StandingPassStarted", "soviets", None),
                    ("SideDone", "soviets", "standing_pass")]
    assert m.get("")["waiting"]["seats"] == ["germans"]  # never waits for the pass's done
    offer = m.get("/legal", "soviets")["standing_pass"]
    assert offer["on"] is True
    assert offer["choice"]["label"] == "Stop passing" and offer["choice"]["body"] == STOP
    # the log says it in words, marked as the pass's
    lines = [e["said"] for e in m.get("/events", after=before)["events"]]
    assert lines[-1].endswith("(by its standing pass).")
    # the Germans' move: the Soviets' pass says their done at the next shared step too
    before = m.version
    m.act("germans", type="advance")
    events = events_after(m, before)
    assert [(e["type"], e["actor"], e.get("by")) for e in events] == [
        ("PhaseAdvanced", "germans", None), ("SideDone", "soviets", "standing_pass")]
    assert len({e["command_id"] for e in events}) == 1
    assert m.get("")["waiting"]["seats"] == ["germans"]
    m.act("soviets", **STOP)
    assert m.get("/legal", "soviets")["standing_pass"]["on"] is False
    # the log of it all verifies as an export does (its chain, the marked events' lines)
    checked = m.get("/verify")
    assert checked["ok"] is True, checked


def test_no_other_seat_starts_or_stops_a_sides_pass_and_nothing_is_recorded(
        client: TestClient) -> None:
    m = Played(client, scenario("extended-sequence-demo"))
    m.refused("germans", 403, "core-authority", PASS, side="soviets")
    m.refused("referee", 403, "core-authority", PASS, side="soviets")
    m.refused("germans", 422, "core-sides", PASS, side="nobody")
    before = m.version
    r = m.client.post(f"/api/matches/{m.match}/actions", json=PASS,
                      headers=m.auth("spectator"))
    assert r.status_code == 403, r.text
    r = m.client.post(f"/api/matches/{m.match}/actions", json={**PASS, "on": "yes"},
                      headers=m.auth("soviets"))
    assert r.status_code == 422, r.text
    assert m.version == before
    m.act("soviets", **PASS)
    m.refused("soviets", 422, "core-standing-pass", PASS)  # already on: no second event
    m.refused("germans", 403, "core-authority", STOP, side="soviets")
    r = m.client.post(f"/api/matches/{m.match}/actions?then=done", json=STOP,
                      headers=m.auth("soviets"))
    assert r.status_code == 422, r.text
    assert m.get("/legal", "soviets")["standing_pass"]["on"] is True
    # the referee may stop it (the table is the referee's to run)
    m.act("referee", **STOP, side="soviets")
    assert m.get("/legal", "soviets")["standing_pass"]["on"] is False


def test_one_undo_takes_back_a_move_and_the_dones_it_brought_about(client: TestClient) -> None:
    m = Played(client, scenario("extended-sequence-demo"))
    m.act("germans", type="roll_dice", notation="2d6", purpose="weather change",
          source="table", results=[3, 4])  # ES-1: owed before a side may say it is done
    m.act("soviets", **PASS)
    before = m.version
    m.act("germans", type="advance")
    r = m.client.post(f"/api/matches/{m.match}/undo", json={}, headers=m.auth("germans"))
    assert r.status_code == 201, r.text
    assert [e["type"] for e in r.json()["events"]] == ["ActionsUndone"]  # no consent asked
    assert m.turn["step"] == "initial/weather"
    assert m.get("")["waiting"]["seats"] == ["germans"]
    assert m.get("/legal", "soviets")["standing_pass"]["on"] is True
    assert m.version == before + 3  # the move, the pass's done, the undo


def test_a_reissue_of_its_side_ends_the_pass_and_it_says_no_done_for_the_new_holder(
        client: TestClient) -> None:
    """Finding 13: the referee reissues the Soviets' seat while their pass is on: the pass
    ends in the reissue, and the Germans' next move waits for the new holder's own done
    (before: the old holder's pass went on saying the new holder's dones)."""
    m = Played(client, scenario("extended-sequence-demo"))
    m.act("germans", type="roll_dice", notation="2d6", purpose="weather change",
          source="table", results=[3, 4])  # ES-1: owed before a side may say it is done
    m.act("soviets", **PASS)
    before = m.version
    r = m.client.post(f"/api/matches/{m.match}/tokens", json={"seat": "soviets"},
                      headers=m.auth("referee"))
    assert r.status_code == 201, r.text
    m.tokens["soviets"] = r.json()["token"]
    said = [(e["type"], e["actor"], e.get("side")) for e in events_after(m, before)]
    assert ("StandingPassEnded", "referee", "soviets") in said
    assert m.get("/legal", "soviets")["standing_pass"]["on"] is False
    before = m.version
    m.act("germans", type="advance")
    assert [(e["type"], e.get("by")) for e in events_after(m, before)] == [
        ("PhaseAdvanced", None)]
    assert "soviets" in m.get("")["waiting"]["seats"]
    checked = m.get("/verify")
    assert checked["ok"] is True, checked
