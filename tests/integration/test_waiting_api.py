"""Whose turn through the API: the match view (what the lobby reads per match) and the board
(the table page's) say which seats the match waits for, by id and by name, with reasons,
including the sides whose consent a pending undo needs; nobody once the match has ended."""

from __future__ import annotations

from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario


def test_the_match_view_and_the_board_say_whose_turn(client: TestClient) -> None:
    m = Played(client, scenario("extended-sequence-demo"))
    for view in (m.get("")["waiting"], m.board["waiting"]):
        assert view["seats"] == ["germans", "soviets"]
        # ES-1: the weather roll is owed, by either side (ours): both are waited for
        assert [w["reason"] for w in view["waits"]] == ["to roll for the weather change"] * 2
        assert [w["name"] for w in view["waits"]] == [s["name"] for s in m.body["sides"]]
        assert view["ended"] is False and view["words"].startswith("Waiting for ")
    m.act("germans", type="roll_dice", notation="2d6", purpose="weather change",
          source="table", results=[3, 4])
    assert [w["reason"] for w in m.board["waiting"]["waits"]] == [
        "to say it is done with Weather change"] * 2
    m.act("germans", type="advance")
    assert m.get("", "soviets")["waiting"]["seats"] == ["soviets"]


def test_a_pending_undo_is_waited_for_and_an_ended_match_waits_for_nobody(
        client: TestClient) -> None:
    m = Played(client, scenario("normandy-demo"))
    m.act("allied", type="roll_dice", notation="1d6", purpose="weather")
    r = client.post(f"/api/matches/{m.match}/undo", json={}, headers=m.auth("allied"))
    assert r.status_code == 201, r.text
    allied = m.body["sides"][0]["name"]
    waits = m.board["waiting"]["waits"]
    assert [w["seat"] for w in waits] == ["allied", "german"]
    # the weather is rolled: the sea is still owed (NO-1)
    assert waits[0]["reason"] == "to roll this turn's sea conditions (after the weather)"
    assert waits[1]["reason"].startswith(f"to answer {allied}'s request to take back")
    m.act("referee", type="end_match", winner=None, reason="a draw")
    view = m.get("")["waiting"]
    assert view == {"seats": [], "waits": [], "ended": True, "words": "The match has ended."}
