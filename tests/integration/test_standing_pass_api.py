"""A side's standing pass through the API (issue 26, fewer taps; issue 38, where it stops):
`POST .../actions` with `{"type": "standing_pass"}` starts it, `{"type": "standing_pass",
"on": false}` stops it. While it is on, the side's done is recorded for it (marked `by:
"standing_pass"`) in the action that made it due, only in a step where the side owes
nothing and has nothing to do but say done; `GET .../legal` says it is on, offers stopping
it and says where it stops next; whose turn never waits for a done the pass says; a seat
that is not the side (another side, a spectator) may not start or stop it, with a 4xx and no
event; the export verifies. Played on a small ruleset file (tests/fixtures/rulefiles/
passing.yaml): a muster and a review with nothing but done, orders between them where each
side may give its company orders (a real choice)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario

PASS = {"type": "standing_pass"}
STOP = {"type": "standing_pass", "on": False}
FILE = Path(__file__).parents[1] / "fixtures" / "rulefiles" / "passing.yaml"


def passing(client: TestClient) -> Played:
    """A match of the small game: Red's and Blue's companies, in the muster."""
    r = client.post("/api/rulesets", content=FILE.read_bytes(),
                    headers={"Content-Type": "application/yaml"})
    assert r.status_code == 201, r.text
    return Played(client, {
        "ruleset": "passing", "scenario": "The green",
        "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}],
        "units": [{"id": "r1", "side": "red", "name": "Red Company", "kind": "company"},
                  {"id": "b1", "side": "blue", "name": "Blue Company", "kind": "company"}]})


def events_after(m: Played, version: int) -> list[dict[str, Any]]:
    return list(m.get("/events", after=version, limit=500)["events"])


def test_a_sides_pass_says_its_dones_and_the_legal_answer_offers_stopping_it(
        client: TestClient) -> None:
    m = passing(client)
    offer = m.get("/legal", "blue")["standing_pass"]
    assert offer["on"] is False
    assert offer["choice"] == {**offer["choice"], "label": "Pass until I must act", "body": PASS}
    assert (offer["stops"], offer["why"]) == ("Orders (PA-2)", "yours to choose")
    before = m.version
    m.act("blue", **PASS)
    said = [(e["type"], e["actor"], e.get("by")) for e in events_after(m, before)]
    assert said == [("StandingPassStarted", "blue", None),
                    ("SideDone", "blue", "standing_pass")]
    assert m.get("")["waiting"]["seats"] == ["red"]  # never waits for the pass's done
    offer = m.get("/legal", "blue")["standing_pass"]
    assert offer["on"] is True
    assert offer["choice"]["label"] == "Stop passing" and offer["choice"]["body"] == STOP
    assert "Next stop: Orders (PA-2) (yours to choose)" in offer["says"]
    # the log says it in words, marked as the pass's
    lines = [e["said"] for e in m.get("/events", after=before)["events"]]
    assert lines[-1].endswith("(by its standing pass).")
    # Red's done: the marker moves on to the orders, where Blue may give orders: its pass
    # waits there, still on (issue 38: it said Blue's done there, declining the orders)
    before = m.version
    m.act("red", type="advance")
    events = events_after(m, before)
    assert [(e["type"], e["actor"], e.get("by")) for e in events] == [
        ("PhaseAdvanced", "red", None)]
    assert m.turn["step"] == "orders"
    assert set(m.get("")["waiting"]["seats"]) == {"red", "blue"}
    offer = m.get("/legal", "blue")["standing_pass"]
    assert offer["on"] is True and offer["stops"] == "this step, Orders (PA-2)"
    # Blue gives its orders: more are still its to give (to any company): the pass waits
    body = next(c["body"] for a in m.get("/legal", "blue")["actions"] if a["own"]
                for c in a["choices"] if c.get("unit_id") == "b1")
    before = m.version
    m.act("blue", **body, kind="orders")
    assert [e["type"] for e in events_after(m, before)] == ["MarkerPlaced"]
    assert "blue" in m.get("")["waiting"]["seats"]
    # Blue's own done (red declines by its tap): the review holds nothing for Blue, whose
    # pass says its done there in the same action as Red's move
    m.act("blue", type="advance")
    before = m.version
    m.act("red", type="advance")
    events = events_after(m, before)
    assert [(e["type"], e.get("by")) for e in events] == [
        ("PhaseAdvanced", None), ("SideDone", "standing_pass")]
    assert len({e["command_id"] for e in events}) == 1
    m.act("blue", **STOP)
    assert m.get("/legal", "blue")["standing_pass"]["on"] is False
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
    m = passing(client)
    m.act("red", **PASS)  # done with the muster, by the pass
    m.act("blue", type="advance")  # on to the orders
    m.act("red", type="advance")  # red declines its orders by its own tap
    before = m.version
    m.act("blue", type="advance")  # on to the review: red's pass says its done there
    assert [(e["type"], e.get("by")) for e in events_after(m, before)] == [
        ("PhaseAdvanced", None), ("SideDone", "standing_pass")]
    r = m.client.post(f"/api/matches/{m.match}/undo", json={}, headers=m.auth("blue"))
    assert r.status_code == 201, r.text
    assert [e["type"] for e in r.json()["events"]] == ["ActionsUndone"]  # no consent asked
    assert m.turn["step"] == "orders"
    assert m.get("")["waiting"]["seats"] == ["blue"]
    assert m.get("/legal", "red")["standing_pass"]["on"] is True
    assert m.version == before + 3  # the move, the pass's done, the undo


def test_a_reissue_of_its_side_ends_the_pass_and_it_says_no_done_for_the_new_holder(
        client: TestClient) -> None:
    """Finding 13 (issue 26): the referee reissues Red's seat while its pass is on: the
    pass ends in the reissue, and Blue's next move waits for the new holder's own done
    (before: the old holder's pass went on saying the new holder's dones)."""
    m = passing(client)
    m.act("blue", type="advance")  # Blue done with the muster
    m.act("red", **PASS)  # the marker on to the orders, by Red's pass
    m.act("red", type="advance")
    before = m.version
    r = m.client.post(f"/api/matches/{m.match}/tokens", json={"seat": "red"},
                      headers=m.auth("referee"))
    assert r.status_code == 201, r.text
    m.tokens["red"] = r.json()["token"]
    said = [(e["type"], e["actor"], e.get("side")) for e in events_after(m, before)]
    assert ("StandingPassEnded", "referee", "red") in said
    assert m.get("/legal", "red")["standing_pass"]["on"] is False
    before = m.version
    m.act("blue", type="advance")
    assert [(e["type"], e.get("by")) for e in events_after(m, before)] == [
        ("PhaseAdvanced", None)]
    assert "red" in m.get("")["waiting"]["seats"]
    checked = m.get("/verify")
    assert checked["ok"] is True, checked


def test_a_pass_stops_where_its_side_owes_and_leaving_with_the_duty_owed_is_refused(
        client: TestClient) -> None:
    """Issue 38: the extended sequence's weather change roll is owed (ES-1): the Soviets'
    pass says no done there, the legal answer says why it stops, and their own done is
    refused with the duty's rule and nothing recorded."""
    m = Played(client, scenario("extended-sequence-demo"))
    before = m.version
    m.act("soviets", **PASS)
    assert [e["type"] for e in events_after(m, before)] == ["StandingPassStarted"]
    offer = m.get("/legal", "soviets")["standing_pass"]
    assert offer["stops"] == "this step, Weather change (ES-1)"
    assert offer["why"].startswith("you owe: to roll"), offer["why"]
    assert "soviets" in m.get("")["waiting"]["seats"]
    before = m.version
    m.refused("soviets", 422, "ES-1", {"type": "advance"})
    assert m.version == before
