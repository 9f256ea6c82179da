"""The dispute toolkit through the API: step replay both ways, the diff between two points,
dispute tickets with permalinks, the referee's rulings (undo, re-roll, fork), what-if forks."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from normandy_setup import advance_to, no, through_mutual
from rulesets_helpers import Played, scenario

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


def ruling(client: TestClient, m: Played, dispute: int, **body: Any) -> Any:
    return client.post(f"/api/matches/{m.match}/disputes/{dispute}/ruling",
                       json={"ruling": "roll it again", **body}, headers=m.auth("referee"))


def disputed(m: Played, version: int, seat: str = "allies") -> int:
    [opened] = m.act(seat, type="open_dispute", about_version=version,
                     text="that roll was made too early")
    return int(opened["version"])


def test_a_reroll_ruling_rolls_server_dice_again_and_the_new_roll_replaces_the_old(
        client: TestClient) -> None:
    m, at = played(client)
    old = m.get(f"/events/{at['rolled']}")
    r = ruling(client, m, disputed(m, at["rolled"]), order="reroll")
    assert r.status_code == 201, r.text
    ruled, again = r.json()["events"]
    assert (ruled["type"], ruled["to"]) == ("DisputeRuled", at["rolled"])
    assert again["type"] == "DiceRolled" and again["replaces"] == at["rolled"]
    assert again["actor"] == "axis"  # the owner's roll, made again on the ruling
    assert again["roll_index"] == old["roll_index"] + 1  # the next index, never the old one
    for key in ("notation", "purpose", "unit_ids", "source"):
        assert again[key] == old[key], key
    # the effective history: the dice log, the board's last roll, the statistics, the words
    rolls = m.board["recent_rolls"]
    assert [roll["version"] for roll in rolls] == [again["version"]]
    assert m.get("/diff", **{"from": at["joined"], "to": m.version})["changes"][
        "dice_rolls"] == {"before": 0, "after": 1}
    stats = client.get(f"/api/matches/{m.match}/export", params={"format": "dice"},
                       headers=m.auth("axis")).json()
    assert stats["seats"]["axis"]["d6"]["dice"] == 2  # the new 2d6 only
    csv = client.get(f"/api/matches/{m.match}/export", params={"format": "csv"},
                     headers=m.auth("axis")).text.splitlines()
    assert csv[0].endswith(",replaces") and len(csv) == 3  # both rolls stay in the audit
    assert csv[2].split(",")[0] == str(again["version"])
    assert csv[2].endswith(f",{at['rolled']}")
    said = next(e["said"] for e in m.get("/events", "allies")["events"]
                if e["version"] == again["version"])
    assert "again" in said and f"version {at['rolled']}" in said
    # a what-if copy renumbers the roll it replaces: its board too shows the new roll only
    copy = fork(client, m, m.version).json()
    board = client.get(f"/api/matches/{copy['match_id']}/board", headers={
        "Authorization": f"Bearer {copy['tokens']['referee']}"}).json()
    assert [roll["dice"] for roll in board["recent_rolls"]] == [again["dice"]]
    m.act("referee", type="end_match", winner=None)
    text = client.get(f"/api/matches/{m.match}/export", headers=m.auth("referee")).text
    report = verify(text.splitlines(keepends=True))
    assert report.ok and report.rolls_checked == 2  # the new roll is the seed's too


def test_a_reroll_ruling_on_table_dice_waits_for_the_owners_throw(client: TestClient) -> None:
    m = Played(client, MATCH)
    _, thrown = m.act("allies", type="roll_dice", notation="d6+1", purpose="rally sq1",
                      source="table", results=[2])
    r = ruling(client, m, disputed(m, thrown["version"]), order="reroll")
    assert r.status_code == 201, r.text
    _, declared = r.json()["events"]
    assert (declared["type"], declared["actor"], declared["replaces"]) == (
        "RollDeclared", "allies", thrown["version"])
    assert m.turn["awaiting"]["by"] == "allies"
    m.refused("allies", 422, "core-results", type="score_vp", side="allies", points=1)
    m.refused("axis", 403, "core-authority", type="record_roll", results=[6])
    [again] = m.act("allies", type="record_roll", results=[5])
    assert (again["replaces"], again["total"], again["declared"]) == (
        thrown["version"], 6, declared["version"])
    assert m.turn["awaiting"] is None
    assert [roll["total"] for roll in m.board["recent_rolls"]] == [6]


def test_a_reroll_is_refused_for_what_it_cannot_make_again(client: TestClient) -> None:
    m, at = played(client)
    moved = ruling(client, m, disputed(m, at["moved"]), order="reroll")
    assert moved.status_code == 422 and "not a roll" in moved.json()["detail"]
    [rolled] = m.act("axis", type="roll_dice", notation="d6", purpose="undone")
    client.post(f"/api/matches/{m.match}/undo", json={}, headers=m.auth("referee"))
    before = m.version
    undone = ruling(client, m, disputed(m, rolled["version"]), order="reroll")
    assert undone.status_code == 422 and "undone" in undone.json()["detail"]
    assert ruling(client, m, disputed(m, at["rolled"]), order="reroll").status_code == 201
    twice = ruling(client, m, disputed(m, at["rolled"]), order="reroll")
    assert twice.status_code == 422 and "already" in twice.json()["detail"]
    assert m.version == before + 5  # three disputes, and one ruling with its roll
    m.act("referee", type="end_match", winner=None)
    [_, again] = m.get("/events", after=before + 2, limit=2)["events"]
    assert again["replaces"] == at["rolled"]
    over = ruling(client, m, disputed(m, again["version"]), order="reroll")
    assert over.status_code == 409 and "reopen" in over.json()["detail"]


def test_a_roll_the_service_resolved_is_not_made_again_by_a_ruling(client: TestClient) -> None:
    """WC-3's Unit Morale roll is the service's: what it decided follows it in the log, so
    a ruling orders an undo back before it rather than the roll made again."""
    m = Played(client, scenario("wing-command-demo"))
    m.act("french", type="roll_initiative", source="table", results={"french": 4, "british": 4})
    m.act("french", type="advance")
    m.act("british", type="advance")
    m.act("french", type="advance", to="phase/pre_activation/b_unit_morale")
    *_, rolled = m.act("french", type="rule_roll", roll="unit_morale", unit_id="f-line",
                       source="table", results=[6])
    assert (rolled["type"], rolled["rule"]) == ("DiceRolled", "WC-3")
    before = m.version
    r = ruling(client, m, disputed(m, rolled["version"], "british"), order="reroll")
    assert r.status_code == 422 and "order an undo" in r.json()["detail"]
    assert m.version == before + 1  # the dispute only


def test_the_owner_throws_a_table_reroll_in_a_step_where_another_side_acts(
        client: TestClient) -> None:
    """Normandy: the German roll of its Replacement phase is made again while the Allied
    player alone acts (Air Interdiction Determination); the German player enters the dice."""
    m = no(client)
    through_mutual(m, carpet=None)
    advance_to(m, "player_turn/replacement", "german")
    _, thrown = m.act("german", type="roll_dice", notation="d6", purpose="replacements",
                      source="table", results=[1])
    m.act("german", type="advance")
    assert m.turn["step"] == "player_turn/interdiction_effects"
    m.refused("german", 403, "NO-3", type="roll_dice", notation="d6", purpose="mine")
    assert ruling(client, m, disputed(m, thrown["version"], "german"),
                  order="reroll").status_code == 201
    [again] = m.act("german", type="record_roll", results=[6])
    assert again["replaces"] == thrown["version"] and m.turn["awaiting"] is None
