""""... and done" (issue 26, fewer taps): `POST .../actions?then=done` records an action
and then the seat's Next step in one request, as the very events of the two taps it
replaces (each decided as that seat: the authority and the sequence checked for each; one
command id, so one undo takes both back). The legal answer marks the choices that let a
side move on where its Next step waits for them (`then_done`). Where the rules refuse the
done after the action, the action is recorded alone; a refused action, an unknown `then`,
an advance with `then` and a clock action with `then` are 4xx with no event."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario
from test_done_until_mine_api import events_after, kept, legal

THEN = "?then=done"


def post(m: Played, seat: str, query: str = THEN, **action: Any) -> Any:
    return m.client.post(f"/api/matches/{m.match}/actions{query}", json=action,
                         headers=m.auth(seat))


def at_the_cards(client: TestClient) -> Played:
    """Battlegroup's demo at its Command Cards step, every side to draw (BG-6)."""
    m = Played(client, scenario("battlegroup-demo"))
    m.act("referee", type="roll_initiative", source="table",
          results={"north": 4, "south": 3, "west": 1})
    m.act("referee", type="advance")
    assert m.turn["step"] == "initiation/cards"
    return m


def choice(m: Played, seat: str, kind: str) -> dict[str, Any]:
    [action] = [a for a in legal(m, seat)["actions"] if a["type"] == kind]
    return dict(action["choices"][0])


def test_the_events_are_those_of_the_two_taps(client: TestClient) -> None:
    tapped, once = at_the_cards(client), at_the_cards(client)
    before = tapped.version
    tapped.act("north", type="draw_cards")
    tapped.act("north", type="advance")
    r = post(once, "north", type="draw_cards")
    assert r.status_code == 201, r.text
    assert kept(events_after(once, before)) == kept(events_after(tapped, before))
    assert [e["type"] for e in r.json()["events"]][-1] == "SideDone"
    assert once.get("")["waiting"]["seats"] == tapped.get("")["waiting"]["seats"] == [
        "south", "west"]
    assert len({e["command_id"] for e in events_after(once, before)}) == 1


def test_one_undo_takes_back_the_action_and_its_done(client: TestClient) -> None:
    m = Played(client, scenario("atomic-africa-demo"))
    side = m.turn["active_side"]
    activate = choice(m, side, "activate_unit")
    before, step = m.version, m.turn["step"]
    r = post(m, side, **activate["body"])
    assert r.status_code == 201, r.text
    made = events_after(m, before)
    assert [e["type"] for e in made][-1] == "PhaseAdvanced"
    assert m.turn["active_side"] != side
    undone = m.client.post(f"/api/matches/{m.match}/undo", json={}, headers=m.auth(side))
    assert undone.status_code == 201, undone.text
    assert (m.turn["step"], m.turn["active_side"]) == (step, side)
    assert choice(m, side, "activate_unit") == activate  # the unit is to activate again


def test_the_legal_answer_marks_what_the_step_waits_for(client: TestClient) -> None:
    m = at_the_cards(client)
    # the step waits for north's draw: drawing lets it move on
    assert legal(m, "north")["advance"]["legal"] is False
    assert choice(m, "north", "draw_cards")["then_done"] is True
    # Atomic Africa's activation: activating a unit lets the side move on
    aa = Played(client, scenario("atomic-africa-demo"))
    side = aa.turn["active_side"]
    assert choice(aa, side, "activate_unit")["then_done"] is True
    # where Next step is legal already, nothing is marked (a plain tap of Next step does)
    # (the extended sequence's weather, once its roll owed is made: ES-1)
    es = Played(client, scenario("extended-sequence-demo"))
    es.act("germans", type="roll_dice", notation="2d6", purpose="weather change",
           source="table", results=[3, 4])
    assert legal(es, "germans")["advance"]["legal"] is True
    assert not any(c["then_done"] for a in legal(es, "germans")["actions"] for c in a["choices"])
    # the referee says no one's done
    assert all(not c["then_done"] for a in legal(m, "referee")["actions"]
               for c in a["choices"])


def test_a_done_the_rules_refuse_then_leaves_the_action_alone(client: TestClient) -> None:
    m = Played(client, scenario("battlegroup-demo"))
    before = m.version
    # a tie to roll again: the initiative is not settled, so north may not move on yet
    r = post(m, "referee", type="roll_initiative", source="table",
             results={"north": 3, "south": 3, "west": 3})
    assert r.status_code == 201, r.text
    assert [e["type"] for e in events_after(m, before)] == ["InitiativeRolled"]
    assert m.turn["step"] == "initiation/initiative"


def test_refusals_leave_no_event(client: TestClient) -> None:
    m = at_the_cards(client)
    before = m.version
    # an action this step does not allow: refused as it would be alone
    refused = post(m, "south", type="activate_battlegroup", battlegroup="n-1")
    assert 400 <= refused.status_code < 500, refused.text
    # an unknown `then`
    assert post(m, "north", "?then=later", type="draw_cards").status_code == 422
    # an advance is the done itself
    twice = post(m, "north", type="advance")
    assert twice.status_code == 422 and twice.json()["rule"] == "core-sequence", twice.text
    # a spectator's token acts in no seat
    spectator = m.client.post(f"/api/matches/{m.match}/actions{THEN}",
                              json={"type": "draw_cards"},
                              headers={"Authorization": f"Bearer {m.tokens['spectator']}"})
    assert 400 <= spectator.status_code < 500, spectator.text
    assert m.version == before
    # the clock's own actions are not the match's steps
    clock = post(m, "referee", type="start_clock",
                 controls={s: {"total": 600} for s in ("north", "south", "west")})
    assert clock.status_code == 422 and clock.json()["rule"] == "core-requests", clock.text
    assert m.version == before
