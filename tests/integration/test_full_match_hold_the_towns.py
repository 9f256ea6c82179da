"""A whole match of Hold the Towns, the game written only as a ruleset file
(docs/rulesets/hold-the-towns.md), through the HTTP API: the file uploaded, a match created
from its demo by the game's id, then four game turns played by both sides to the match's end,
every action one the legal answer offers the seat that takes it (its body as offered, its
inputs filled as a player fills them). Each game turn: North's player-turn (reinforcement,
movement, combat), South's, then both sides set who holds the towns and say they are done,
and the service scores the towns (HT-7, the file's scoring). Table dice make every combat
known; the board after each game turn must be what the rules say (HT-3 to HT-7), and the
service ends the match as game turn 4 ends, the side with more points the winner (HT-8,
the file's end)."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from rulesets_helpers import Played, assert_replay_matches

from api.scenarios import HERE
from domain.app import Matches
from projections.rulefile_load import BUILT_IN

FILE = BUILT_IN / "hold-the-towns.yaml"
DEMO = HERE / "files" / "hold-the-towns-demo.json"
N, S = "north", "south"


class Game:
    """The match, and the legal answer each action is taken from."""

    def __init__(self, client: TestClient) -> None:
        stored = client.post("/api/rulesets", content=FILE.read_bytes(),
                             headers={"Content-Type": "application/yaml"})
        assert stored.status_code == 201, stored.text
        self.hash = stored.json()["hash"]
        self.m = Played(client, json.loads(DEMO.read_text()))
        self.taken = 0

    def legal(self, seat: str) -> dict[str, Any]:
        return dict(self.m.get("/legal", seat))

    def take(self, seat: str, action: str, label: str | None = None,
             thrown: list[int] | None = None, **inputs: Any) -> list[dict[str, Any]]:
        """The choice of type `action` (the one labelled `label`: a unit's name, a track's title)
        the legal answer offers `seat`, with `inputs` filled in; refused by the test if it
        is not offered or has no such input; `thrown`: with the faces thrown at the table,
        as the choice's table dice say."""
        answer = self.legal(seat)
        offers = [c for a in answer["actions"] if a["type"] == action for c in a["choices"]]
        chosen = [c for c in offers if label is None or c["label"] == label]
        assert chosen, (seat, action, label, [c["label"] for c in offers], answer["step"])
        choice = chosen[0]
        names = {i["name"] for i in choice["inputs"]}
        assert set(inputs) <= names, (action, label, set(inputs) - names)
        body = {**choice["body"], **inputs}
        if thrown is not None:
            table = choice["table"]
            assert table is not None, (action, label)
            body = {**table["body"], **inputs, table["field"]: thrown}
        self.taken += 1
        return self.m.act(seat, **body)

    def done(self, seat: str) -> list[dict[str, Any]]:
        answer = self.legal(seat)
        assert answer["advance"]["legal"], (seat, answer["step"], answer["advance"])
        self.taken += 1
        return self.m.act(seat, **answer["advance"]["body"])

    def move(self, seat: str, name: str, to: str) -> None:
        self.take(seat, "move_unit", name, to={"hex": to})

    def attack(self, attacker: str, defender: str, die: int) -> str:
        """One attack (HT-5): the phasing side names the defender and rolls for its
        attacker (the d6 thrown at the table); the service reads the odds column and the
        table (HT-6) and says the result; as the die is thrown the defender marker becomes
        the attacked marker. What the result owes is carried out after (`retreat`,
        `marker_off`)."""
        seat = self.phasing
        self.take(seat, "place_marker", defender, kind="defender")
        events = self.take(seat, "rule_roll", attacker, thrown=[die])
        [result] = [e["result"] for e in events if e["type"] == "ResultRecorded"]
        return str(result)

    def owed(self) -> list[tuple[str, str, list[str]]]:
        """What the board says is owed: each seat, rule and unit concerned."""
        return [(o["seat"], o["rule"], o["units"]) for o in self.m.board["owed"]]

    def retreat(self, seat: str, name: str, to: str) -> None:
        """A retreat a result owes (HT-6): its owner moves the unit, then takes its retreat
        marker off, each offered by the legal answer even out of its turn."""
        self.move(seat, name, to)
        self.take(seat, "remove_marker", name, kind="retreat")

    def marker_off(self, seat: str, name: str) -> None:
        """The attacked marker, off by its owner's hand once the result is carried out."""
        self.take(seat, "remove_marker", name, kind="attacked")

    def hold(self, seat: str, *towns: str) -> None:
        for town in towns:
            self.take(seat, "set_track", town, value=seat)

    @property
    def phasing(self) -> str:
        return str(self.m.get("/turn")["active_side"])

    @property
    def step(self) -> str:
        return str(self.legal(N)["step"])

    def board(self) -> dict[str, Any]:
        board = self.m.board
        return {
            "units": {u["name"]: u["position"]["hex"] for u in board["units"]
                      if u["position"]["hex"]},
            "waiting": sorted(u["name"] for u in board["units"]
                              if u["position"]["box"] == "reinforcements"),
            "removed": sorted(u["name"] for u in board["off_board"]),
            "towns": {c["name"]: c["controlled_by"] for c in board["map"]["cities"]},
            "vp": {t["side"]: t["points"] for t in board["vp"]["tracks"]},
            "turn": board["turn"]["turn"],
        }


def end_of_game_turn(g: Game, north: tuple[str, ...], south: tuple[str, ...],
                     points: tuple[int, int]) -> list[dict[str, Any]]:
    """Both sides set who holds the towns and say they are done; the service scores each
    side's towns as the game turn ends (HT-7): no player scores."""
    assert g.step == "end_of_turn"
    assert not [a for a in g.legal(N)["actions"] if a["type"] == "score_vp"]
    g.hold(N, *north)
    g.hold(S, *south)
    g.done(N)
    events = g.done(S)
    scored = [(e["side"], e["points"], e["rule"], e["actor"]) for e in events
              if e["type"] == "VictoryPointsScored"]
    assert scored == [(side, p, "HT-7", S) for side, p in zip((N, S), points, strict=True)
                      if p], scored
    return events


def test_a_whole_match_of_hold_the_towns_through_the_legal_actions(
        client: TestClient, matches: Matches) -> None:
    g = Game(client)
    created = g.m.get("/events", limit=1)["events"][0]
    assert (created["type"], created["ruleset"]) == ("MatchCreated", "hold-the-towns")
    assert created["ruleset_hash"] == g.hash  # the match pins the file it is played under
    start = g.board()
    assert start["towns"] == {"Kell": None, "Marrow": None, "Tarn": None}
    assert start["waiting"] == ["3rd Rifles", "Highland Guard"]

    # ---- game turn 1 ----
    assert g.step == "player_turn/reinforcement"  # North's: nothing due yet (HT-3)
    assert not [a for a in g.legal(N)["actions"] if a["type"] == "move_unit"]
    g.m.refused(N, 422, "HT-3", type="move_unit", unit_id="n-rifles-3", to={"hex": "0401"})
    g.done(N)
    g.m.refused(N, 422, "HT-1", type="move_unit", unit_id="n-rifles-2", to={"hex": "0301"})
    g.move(N, "2nd Rifles", "0403")
    g.move(N, "1st Rifles", "0203")  # into Kell
    g.done(N)
    g.done(N)  # no combat: no enemy next to North's units
    assert g.step == "player_turn/reinforcement"
    g.done(S)
    g.move(S, "2nd Fusiliers", "0404")  # into Marrow, next to the 2nd Rifles
    g.move(S, "1st Fusiliers", "0603")  # into Tarn
    g.done(S)
    assert g.attack("2nd Fusiliers", "2nd Rifles", 1).startswith("NE")  # 2 to 3: 1-2
    assert g.owed() == [(N, "HT-5", ["n-rifles-2"])]  # North's marker to take off
    g.m.refused(S, 422, "HT-5", type="advance")  # South's step waits for North
    g.marker_off(N, "2nd Rifles")
    g.done(S)
    end_of_game_turn(g, ("Control of Kell",), ("Control of Marrow", "Control of Tarn"), (1, 2))
    after = g.board()
    assert after["turn"] == 2
    assert after["towns"] == {"Kell": N, "Marrow": S, "Tarn": S}
    assert after["vp"] == {N: 1, S: 2}

    # ---- game turn 2 ----
    assert not g.legal(N)["advance"]["legal"]  # HT-3: not left while the 3rd Rifles wait
    g.move(N, "3rd Rifles", "0401")  # due this game turn, onto its entry hex (HT-3)
    g.done(N)
    g.move(N, "Grey Lancers", "0503")
    g.done(N)
    assert g.attack("Grey Lancers", "2nd Fusiliers", 1).startswith("DR")  # 5 to 4: 1-1
    assert g.owed() == [(S, "HT-6", ["s-fusiliers-2"])]  # the retreat falls on South
    g.m.refused(N, 422, "HT-6", type="advance")
    g.retreat(S, "2nd Fusiliers", "0405")  # its owner retreats it one hex, in North's turn
    g.marker_off(S, "2nd Fusiliers")
    assert g.owed() == []
    # a unit attacks once a player-turn (HT-5): no defender is named for it again
    g.m.refused(N, 422, "HT-5", type="place_marker", unit_id="s-fusiliers-2", kind="defender")
    g.m.refused(N, 422, "HT-5", type="rule_roll", roll="attack", unit_id="n-lancers")
    g.move(N, "Grey Lancers", "0404")  # and the attacker advances into Marrow
    g.done(N)
    g.done(S)  # South's reinforcement: the Highland Guard is not due until game turn 3
    g.move(S, "Red Hussars", "0504")
    g.done(S)
    assert g.attack("Red Hussars", "Grey Lancers", 6).startswith("AE")  # 4 to 2: 2-1
    assert "Red Hussars" not in g.board()["units"]  # eliminated by the result itself
    g.marker_off(N, "Grey Lancers")
    g.done(S)
    end_of_game_turn(g, ("Control of Marrow",), (), (2, 1))
    after = g.board()
    assert after["towns"] == {"Kell": N, "Marrow": N, "Tarn": S}
    assert after["vp"] == {N: 3, S: 3}
    assert after["removed"] == ["Red Hussars"] and after["waiting"] == ["Highland Guard"]

    # ---- game turn 3 ----
    g.done(N)
    g.move(N, "3rd Rifles", "0402")
    g.done(N)
    g.done(N)
    g.move(S, "Highland Guard", "0406")  # due now (HT-3)
    g.done(S)
    g.done(S)
    assert g.attack("2nd Fusiliers", "Grey Lancers", 3).startswith("AR")  # 2 to 2: 1-1
    assert g.owed() == [(S, "HT-6", ["s-fusiliers-2"]), (N, "HT-5", ["n-lancers"])]
    g.retreat(S, "2nd Fusiliers", "0305")  # the attacker retreats one hex
    g.marker_off(N, "Grey Lancers")
    g.done(S)
    end_of_game_turn(g, (), (), (2, 1))
    assert g.board()["vp"] == {N: 5, S: 4}

    # ---- game turn 4, the last (HT-8) ----
    for side in (N, S):
        g.done(side)
        g.done(side)
        g.done(side)
    events = end_of_game_turn(g, (), (), (2, 1))
    # HT-8: the service ends the match as the fourth game turn ends, more points winning
    [ended] = [e for e in events if e["type"] == "MatchEnded"]
    assert (ended["winner"], ended["rule"]) == (N, "HT-8"), ended
    assert "game turn 4 of 4 played" in ended["reason"]
    assert not [e for e in events if e["type"] == "TurnAdvanced"]
    last = g.board()
    assert last["vp"] == {N: 7, S: 5}
    assert last["units"] == {"1st Rifles": "0203", "2nd Rifles": "0403",
                             "Grey Lancers": "0404", "3rd Rifles": "0402",
                             "1st Fusiliers": "0603", "2nd Fusiliers": "0305",
                             "Highland Guard": "0406"}
    assert last["turn"] == 4
    over = g.m.get("")
    assert over["outcome"]["winner"] == N, over["outcome"]
    assert not g.legal(N)["advance"]["legal"]  # nothing moves on after the end
    log = g.m.get("/events", limit=500)["events"]
    assert [(e["type"], e["actor"]) for e in log if e["type"] in (
        "VictoryPointsScored", "MatchEnded")] == [
        *[("VictoryPointsScored", S)] * 8, ("MatchEnded", S)]  # the service's, on S's advance
    assert_replay_matches(matches, g.m)
