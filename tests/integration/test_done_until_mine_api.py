""""Done until something is mine" (issue 26, fewer taps): `POST .../actions` with
`{"type": "advance", "until": "mine"}` moves a side on through the steps that hold nothing
for it in one request, recorded as the very advances it would have tapped one by one (each
decided as that side, authority checked for each); it stops at the first step that holds
something for the side (a duty it owes, a move of the step's own: issue 38, as the standing
pass does) or where another seat must act. The legal answer offers it
(`advance.until`) with the steps it passes (`advance.ahead`). A refusal is a 4xx with no
event. And Normandy's supply: all of a side's units in one choice, the units already done
no longer offered."""

from __future__ import annotations

from typing import Any

from duty_pay import pay_owed
from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario
from test_standing_pass_api import passing

UNTIL = {"type": "advance", "until": "mine"}
SAID = ("type", "actor", "side", "step", "origin", "marker", "rule")


def legal(m: Played, seat: str) -> dict[str, Any]:
    return dict(m.get("/legal", seat))


def events_after(m: Played, version: int) -> list[dict[str, Any]]:
    return list(m.get("/events", after=version, limit=500)["events"])


def kept(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What an advance records, without its envelope (ids, times, versions, hashes)."""
    return [{k: v for k, v in e.items() if k in SAID} for e in events]


def at_combat(client: TestClient) -> Played:
    """The extended sequence's demo, the referee having moved the marker to the Germans'
    Attacker's prepared fire."""
    m = Played(client, scenario("extended-sequence-demo"))
    while m.turn["step"] != "combat/prepared_fire":
        pay_owed(m)  # the ES-1 weather roll
        m.act("referee", type="advance")
    return m


def at_orders(client: TestClient) -> Played:
    """The small game of tests/fixtures/rulefiles/passing.yaml, in its orders (where each side
    may give orders: a move of its own), Red done with them."""
    m = passing(client)
    for side in ("red", "blue", "red"):
        m.act(side, type="advance")
    return m


def test_a_side_says_once_it_is_done_until_something_is_its_own(client: TestClient) -> None:
    m = at_orders(client)
    offered = legal(m, "blue")["advance"]
    assert offered["until"]["body"] == UNTIL
    assert offered["until"]["label"] == "Done until something is mine"
    assert offered["ahead"] == ["Review (PA-3)"]
    assert offered["stops"] is None  # done there too, Red still to say so
    before = m.version
    m.act("blue", **UNTIL)
    events = events_after(m, before)
    # the last to say it is done with the orders moves the marker on, then is done with
    # the review (Red still to say so)
    assert [(e["type"], e["actor"]) for e in events] == [
        ("PhaseAdvanced", "blue"), ("SideDone", "blue")]
    assert len({e["command_id"] for e in events}) == 1  # one action: one undo takes it back
    assert m.turn["step"] == "review"
    assert m.get("")["waiting"]["seats"] == ["red"]
    # one action: Blue's one undo takes back both steps at once
    r = m.client.post(f"/api/matches/{m.match}/undo", json={}, headers=m.auth("blue"))
    assert r.status_code == 201, r.text
    assert m.turn["step"] == "orders"
    assert m.get("")["waiting"]["seats"] == ["blue"]


def test_the_events_are_those_of_the_advances_tapped_one_by_one(client: TestClient) -> None:
    tapped, once = at_orders(client), at_orders(client)
    before = tapped.version
    tapped.act("blue", type="advance")
    tapped.act("blue", type="advance")
    once.act("blue", **UNTIL)
    assert kept(events_after(once, before)) == kept(events_after(tapped, before))
    assert once.turn == tapped.turn


def test_it_stops_at_a_step_where_the_side_has_a_choice(client: TestClient) -> None:
    """Issue 38: a move of the side's own holds it (before, only a move that was not
    bookkeeping did, and the pass went through the orders)."""
    m = passing(client)
    m.act("red", type="advance")
    assert legal(m, "blue")["advance"]["until"] is None  # the orders are Blue's to choose in
    m.act("blue", type="advance")
    assert m.turn["step"] == "orders"


def test_it_stops_at_a_step_that_holds_something_of_the_sides_own(client: TestClient) -> None:
    m = at_combat(client)
    offered = legal(m, "germans")["advance"]
    # ES-4: the Germans owe their routed unit's move in the next step, so there is nothing to
    # pass until (before the duties, it passed the routed and broken movement steps and
    # stopped at move and fire): the plain advance is offered
    assert offered["until"] is None and offered["ahead"] == []
    assert offered["to"] == "combat/routed_movement"
    m.act("germans", type="advance")
    pay_owed(m)  # the routed unit moves; then the broken one, in its own step
    m.act("germans", type="advance")
    pay_owed(m)
    m.act("germans", **UNTIL)
    assert m.turn["step"] == "combat/move_and_fire"  # the Germans may fire here
    fire = next(a for a in legal(m, "germans")["actions"] if a["type"] == "fire")
    assert fire["own"]


def test_it_stops_where_another_seat_must_act(client: TestClient) -> None:
    m = at_combat(client)
    while m.turn["step"] != "combat/move_and_fire":  # ES-4: the routed and broken moves
        pay_owed(m)
        m.act("germans", type="advance")
    m.act("germans", type="advance")  # to the Soviets' Defender's fire
    before = m.version
    m.refused("germans", 403, "ES-4", UNTIL)  # not the Germans' step to leave: no event
    assert m.version == before
    m.act("soviets", type="advance")  # the Germans' Attacker's advancing fire
    m.act("germans", **UNTIL)
    events = events_after(m, before + 1)
    assert {e["actor"] for e in events} == {"germans"}
    last = [e for e in events if e["type"] in ("PhaseAdvanced", "TurnAdvanced")][-1]
    # (issue 38) it stops at the Attacker's advance, where the Germans may move: a move of
    # their own holds them (before, it went on to the Soviets' player-turn)
    assert (last["marker"]["step"], last["marker"]["active_side"]) == (
        "combat/advance", "germans")
    assert any(a["own"] for a in legal(m, "germans")["actions"])


def test_a_refused_pass_leaves_no_event(client: TestClient) -> None:
    m = Played(client, scenario("atomic-africa-demo"))
    before = m.version
    m.refused("red", 422, "AA-1", UNTIL)  # 1st Squad or 2nd Squad to activate first
    m.refused("blue", 403, "AA-1", UNTIL)  # red's activation, not blue's
    r = m.client.post(f"/api/matches/{m.match}/actions", json={**UNTIL, "to": "cleanup/split"},
                      headers=m.auth("red"))
    assert r.status_code == 422, r.text
    r = m.client.post(f"/api/matches/{m.match}/actions",
                      json={"type": "advance", "until": "everything"}, headers=m.auth("red"))
    assert r.status_code == 422, r.text
    r = m.client.post(f"/api/matches/{m.match}/actions", json=UNTIL,
                      headers=m.auth("spectator"))
    assert r.status_code == 403, r.text
    assert m.version == before


def test_the_referee_and_a_lone_step_are_not_offered_the_pass(client: TestClient) -> None:
    m = Played(client, scenario("extended-sequence-demo"))
    assert legal(m, "referee")["advance"]["until"] is None
    # the Germans' advance is a done with the weather and no more: nothing to pass
    assert legal(m, "germans")["advance"]["until"] is None


def test_supply_for_all_of_a_sides_units_in_one_choice(client: TestClient) -> None:
    m = Played(client, scenario("normandy-demo"))
    while m.turn["step"] != "mutual/supply":
        pay_owed(m)  # NO-1: the weather and sea rolls, the operations (none)
        m.act("referee", type="advance")
    supply = next(a for a in legal(m, "german")["actions"] if a["type"] == "set_supply")
    every = supply["choices"][0]
    assert every["label"] == "All 4 of your units still to do"  # on the map
    units = every["body"]["unit_ids"]
    # one unit left out (an exception), determined apart first
    m.act("german", type="set_supply", unit_ids=[units[0]], status="isolated")
    supply = next(a for a in legal(m, "german")["actions"] if a["type"] == "set_supply")
    labels = [c["label"] for c in supply["choices"]]
    assert labels[0] == "All 3 of your units still to do"
    assert m.unit(units[0])["name"] not in labels  # done: no longer offered by itself
    assert supply["choices"][0]["body"]["unit_ids"] == units[1:]
    m.act("german", **{**supply["choices"][0]["body"], "status": "in_supply"})
    supply = next(a for a in legal(m, "german")["actions"] if a["type"] == "set_supply")
    # the units done are no longer offered one by one; a change is still possible
    labels = [c["label"] for c in supply["choices"]]
    assert not {m.unit(u)["name"] for u in units} & set(labels)
    assert "Change a supply already determined" in labels
    assert legal(m, "german")["advance"]["legal"]
