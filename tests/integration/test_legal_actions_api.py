"""`GET /api/matches/{id}/legal`: each seat reads what it may do now, under the same read
rules as the other views (a spectator reads nothing to do, with the reason; a join token
reads nothing; another side's hand is never shown), and the body offered for a choice is the
one the actions route accepts."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario

from api import scenarios


def legal(m: Played, seat: str) -> dict[str, Any]:
    r = m.client.get(f"/api/matches/{m.match}/legal", headers=m.auth(seat))
    assert r.status_code == 200, r.text
    assert r.headers["ETag"] == f'"{r.json()["version"]}"'
    return dict(r.json())


def action(answer: dict[str, Any], key: str) -> dict[str, Any] | None:
    return next((a for a in answer["actions"] if a["id"] == key), None)


def test_a_seat_posts_the_body_it_is_offered_and_the_turn_moves_on(client: TestClient) -> None:
    m = Played(client, scenario("atomic-africa-demo"))
    red = legal(m, "red")
    assert (red["seat"], red["turn"], red["step"]) == ("red", 1, "activation/activate")
    activate = action(red, "activate_unit")
    assert activate is not None and activate["title"] == "Activate a unit (AA-1)"
    assert [(c["label"], c["body"]) for c in activate["choices"]] == [
        ("1st Squad", {"type": "activate_unit", "unit_id": "sq1"}),
        ("2nd Squad", {"type": "activate_unit", "unit_id": "sq2"})]
    assert not red["advance"]["legal"] and "1st Squad" in red["advance"]["reason"]
    r = client.post(f"/api/matches/{m.match}/actions", json=activate["choices"][0]["body"],
                    headers={**m.auth("red"), "If-Match": f'"{red["version"]}"'})
    assert r.status_code == 201, r.text
    red = legal(m, "red")
    assert action(red, "activate_unit") is None
    assert red["advance"]["legal"] and red["advance"]["title"].startswith("Next step")
    r = client.post(f"/api/matches/{m.match}/actions", json=red["advance"]["body"],
                    headers=m.auth("red"))
    assert r.status_code == 201, r.text
    assert m.turn["active_side"] == "blue"


def test_the_side_whose_turn_it_is_not_reads_why_it_cannot_move_on(client: TestClient) -> None:
    m = Played(client, scenario("atomic-africa-demo"))
    blue = legal(m, "blue")
    assert action(blue, "activate_unit") is None
    assert not blue["advance"]["legal"]
    assert "Expeditionary Force" in blue["advance"]["reason"]


def test_a_spectator_reads_nothing_to_do_with_the_reason(client: TestClient) -> None:
    m = Played(client, scenario("battlegroup-demo"))
    answer = legal(m, "spectator")
    assert answer["actions"] == [] and answer["reason"] == "spectators watch; they do not act"
    assert not answer["advance"]["legal"]


def test_a_join_token_or_no_token_reads_nothing(client: TestClient) -> None:
    body = scenario("atomic-africa-demo")
    created = client.post("/api/matches", json=body).json()
    url = f"/api/matches/{created['match_id']}/legal"
    assert client.get(url, headers={
        "Authorization": f"Bearer {created['tokens']['join:red']}"}).status_code == 403
    assert client.get(url).status_code == 401
    other = client.post("/api/matches", json=body).json()
    assert client.get(f"/api/matches/{other['match_id']}/legal", headers={
        "Authorization": f"Bearer {created['tokens']['referee']}"}).status_code == 401
    r = client.get(f"{url}?at=3", headers={
        "Authorization": f"Bearer {created['tokens']['referee']}"})
    assert r.status_code == 422  # legal actions are for now: no time travel


def test_no_seat_reads_another_sides_hand_in_its_legal_actions(client: TestClient) -> None:
    m = Played(client, scenario("atomic-africa-demo"))
    [drawn] = m.act("red", type="draw_cards", count=2)
    hand = drawn["cards"]
    red = legal(m, "red")
    played = action(red, "play_card")
    assert played is not None
    assert [c["body"] for c in played["choices"]] == [
        {"type": "play_card", "card": card} for card in hand]
    for seat in ("blue", "referee", "spectator"):
        said = json.dumps(legal(m, seat))
        assert not [card for card in hand if card in said], seat


def test_every_demo_answers_every_seat_and_the_referee_moves_the_turn_on(
        client: TestClient) -> None:
    for name in scenarios.names():
        m = Played(client, scenario(name))
        for seat in [*m.tokens]:
            if seat.startswith("join:"):
                continue
            answer = legal(m, seat)
            assert all(a["title"] and a["choices"] for a in answer["actions"]), (name, seat)
        referee = legal(m, "referee")
        rolled = action(referee, "roll_initiative")
        if rolled is not None:  # the initiative first, then the marker may move on
            m.act("referee", **rolled["choices"][0]["body"])
            referee = legal(m, "referee")
        if referee["advance"]["legal"]:
            before = m.version
            m.act("referee", **referee["advance"]["body"])
            assert m.version > before
