"""The dispute toolkit through the API: step replay both ways, the diff between two points,
dispute tickets with permalinks, the referee's rulings (undo, re-roll, fork), what-if forks."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from rulesets_helpers import Played

from domain.integrity import verify

MATCH = {"ruleset": "freeform", "scenario": "Hill 112",
         "sides": [{"id": "allies", "name": "Allies"}, {"id": "axis", "name": "Axis"}],
         "units": [{"id": "sq1", "side": "allies", "name": "1st Squad", "figures": 8,
                    "position": {"x": 1, "y": 2}}]}


def played(client: TestClient) -> tuple[Played, dict[str, int]]:
    """A short match; `at` names the versions after each step."""
    m = Played(client, MATCH)
    at = {"joined": m.version}
    m.act("allies", type="move_unit", unit_id="sq1", to={"x": 4, "y": 2})
    at["moved"] = m.version
    m.act("axis", type="roll_dice", notation="2d6", purpose="MG fire at sq1", unit_ids=["sq1"])
    at["rolled"] = m.version
    m.act("axis", type="place_marker", kind="suppression", count=2, unit_id="sq1")
    m.act("referee", type="set_track", name="weather", value="rain")
    m.act("axis", type="score_vp", side="axis", points=3)
    at["scored"] = m.version
    return m, at


def test_a_step_replay_goes_both_ways_saying_what_each_event_changed(client: TestClient) -> None:
    m, at = played(client)
    forward = m.get("/replay", **{"from": at["moved"], "to": at["scored"]})
    assert forward["direction"] == "forward"
    steps = forward["steps"]
    assert [s["version"] for s in steps] == list(range(at["moved"] + 1, at["scored"] + 1))
    marker = next(s for s in steps if s["event"]["type"] == "MarkerPlaced")
    assert marker["changed"]["units_changed"]["sq1"]["markers"] == {
        "before": {}, "after": {"suppression": 2}}
    backward = m.get("/replay", **{"from": at["scored"], "to": at["moved"]})["steps"]
    assert [s["event"]["version"] for s in backward] == [s["event"]["version"]
                                                          for s in reversed(steps)]
    back_marker = next(s for s in backward if s["event"]["type"] == "MarkerPlaced")
    assert back_marker["changed"]["units_changed"]["sq1"]["markers"] == {
        "before": {"suppression": 2}, "after": {}}
    assert back_marker["version"] == marker["version"] - 1  # where the step back lands


def test_the_diff_between_two_points(client: TestClient) -> None:
    m, at = played(client)
    changes = m.get("/diff", **{"from": at["joined"], "to": at["scored"]})["changes"]
    assert changes["units_changed"]["sq1"]["position"]["after"]["x"] == 4
    assert changes["units_changed"]["sq1"]["markers"]["after"] == {"suppression": 2}
    assert changes["tracks"] == {"weather": {"before": None, "after": "rain"}}
    assert changes["vp"] == {"axis": {"before": 0, "after": 3}}
    assert changes["dice_rolls"] == {"before": 0, "after": 1}
    assert m.get("/diff", **{"from": at["scored"], "to": at["scored"]})["changes"] == {}
    r = client.get(f"/api/matches/{m.match}/diff", params={"from": 1, "to": 999},
                   headers=m.auth("referee"))
    assert r.status_code == 404


def test_a_dispute_gets_a_permalink_and_the_referees_ruling_can_order_an_undo(
        client: TestClient) -> None:
    m, at = played(client)
    [opened] = m.act("allies", type="open_dispute", about_version=at["rolled"],
                     text="that roll was made before the move was finished")
    link = f"/events/{opened['version']}"
    assert m.get(link, "axis")["text"].startswith("that roll")
    m.refused("allies", 422, "core-disputes", type="open_dispute", about_version=999, text="x")
    ruling = {"ruling": "the roll stands, the VP do not", "order": "undo", "to": at["scored"] - 1}
    denied = client.post(f"/api/matches/{m.match}/disputes/{opened['version']}/ruling",
                         json=ruling, headers=m.auth("allies"))
    assert denied.status_code == 403
    r = client.post(f"/api/matches/{m.match}/disputes/{opened['version']}/ruling", json=ruling,
                    headers=m.auth("referee"))
    assert r.status_code == 201, r.text
    assert [e["type"] for e in r.json()["events"]] == ["DisputeRuled", "ActionsUndone"]
    assert {t["side"]: t["points"] for t in m.get("/vp")["tracks"]}["axis"] == 0
    [listed] = m.get("/disputes", "axis")
    assert listed["permalink"].endswith(link) and listed["ruling"]["order"] == "undo"
    again = client.post(f"/api/matches/{m.match}/disputes/{opened['version']}/ruling",
                        json={"ruling": "again"}, headers=m.auth("referee"))
    assert again.status_code == 422 and again.json()["rule"] == "core-disputes"


def test_disputes_and_notes_are_accepted_after_the_end(client: TestClient) -> None:
    m, at = played(client)
    m.act("referee", type="end_match", winner="axis")
    [opened] = m.act("allies", type="open_dispute", about_version=at["rolled"],
                     upto_version=at["scored"], text="review the whole fire phase")
    r = client.post(f"/api/matches/{m.match}/disputes/{opened['version']}/ruling",
                    json={"ruling": "replay it as a what-if", "order": "fork",
                          "to": at["moved"]}, headers=m.auth("referee"))
    assert r.status_code == 201, r.text
    fork_id = r.json()["events"][0]["fork"]
    fork = client.get(f"/api/matches/{fork_id}/events/1", headers=m.auth("referee"))
    assert fork.status_code == 401  # the origin's tokens open nothing in the fork


def fork(client: TestClient, m: Played, at: int, seat: str = "referee") -> Any:
    return client.post(f"/api/matches/{m.match}/fork", params={"at": at}, headers=m.auth(seat))


def test_a_fork_starts_from_the_effective_history_and_leaves_the_origin_alone(
        client: TestClient) -> None:
    m, at = played(client)
    m.act("referee", type="place_marker", kind="smoke", location="0101")
    client.post(f"/api/matches/{m.match}/undo", json={}, headers=m.auth("referee"))
    before = m.version
    assert fork(client, m, at["scored"], seat="allies").status_code == 403
    r = fork(client, m, m.version)
    assert r.status_code == 201, r.text
    new, tokens = r.json()["match_id"], r.json()["tokens"]
    referee = {"Authorization": f"Bearer {tokens['referee']}"}
    board = client.get(f"/api/matches/{new}/board", headers=referee).json()
    origin = m.board
    for key in ("units", "tracks", "location_markers", "vp", "turn"):
        assert board[key] == origin[key], key
    created = client.get(f"/api/matches/{new}/events/1", headers=referee).json()
    assert (created["forked_from"], created["forked_at"]) == (m.match, before)
    types = [e["type"] for e in client.get(f"/api/matches/{new}/events",
                                           params={"limit": 500}, headers=referee).json()["events"]]
    assert "ActionsUndone" not in types and "SeatJoined" not in types
    assert types.count("MarkerPlaced") == 1  # the undone smoke is not copied
    assert m.version == before  # the origin is untouched
    # the fork plays on with its own dice; its export verifies, the copied roll is inherited
    client.post(f"/api/matches/{new}/actions", json={"type": "roll_dice", "notation": "d6",
                                                     "purpose": "what if"}, headers=referee)
    client.post(f"/api/matches/{new}/actions", json={"type": "end_match", "winner": None},
                headers=referee)
    text = client.get(f"/api/matches/{new}/export", headers=referee).text
    report = verify(text.splitlines(keepends=True))
    assert report.ok and (report.rolls_checked, report.rolls_inherited) == (1, 1)
