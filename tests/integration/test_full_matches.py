"""A whole scripted match per ruleset, through the HTTP API with the server's dice: at
least three turns with activations, splits, morale rolls, initiative ties, card draws and
the card reset, to the end. Then the log is replayed from scratch and must reach exactly
the state the service holds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario

from domain.application import Matches
from domain.history import replay


def assert_replay_matches(matches: Matches, m: Played) -> None:
    match_id = UUID(m.match)
    head = matches.head(match_id)
    replayed = replay(matches.events_of(match_id))
    assert replayed.version == head.version
    assert replayed.state == head.state


def test_a_full_atomic_africa_match(matches: Matches, client: TestClient) -> None:
    m = Played(client, scenario("atomic-africa-demo"))  # 3 turns
    seen: set[str] = set()
    while m.get("")["outcome"] is None:
        turn, step = m.turn["turn"], m.turn["step"]
        if step == "activation/activate":
            side = m.turn["active_side"]
            foe = "blue" if side == "red" else "red"
            unit = next(u for u in m.board["units"] if u["side"] == side
                        and "activated" not in u["status"] and u["position"]["box"] is None)
            m.act(side, type="activate_unit", unit_id=unit["id"])
            if turn == 1:
                m.act(side, type="draw_cards", count=1)
            m.act(side, type="roll_dice", notation="2d6", purpose="fire", unit_ids=[unit["id"]])
            # the players say the shot hits the biggest enemy unit: one wound, one suppression
            target = max((u for u in m.board["units"] if u["side"] == foe),
                         key=lambda u: u["figures"])
            m.act(side, type="place_marker", kind="suppression", unit_id=target["id"])
            m.act(side, type="place_marker", kind="wound", unit_id=target["id"])
            seen.add("fire")
            m.act(side, type="advance")
        elif step == "cleanup/split":
            for unit in m.board["units"]:
                if unit["computed"].get("must_split"):
                    m.act(unit["side"], type="split_unit", unit_id=unit["id"],
                          new_unit_id=f"{unit['id']}-t{turn}")
                    seen.add("split")
                    break
            else:
                m.act("red", type="advance")
        elif step == "cleanup/morale":
            owed = [u for u in m.board["units"] if u["markers"].get("suppression")
                    and "morale_rolled" not in u["status"]]
            if owed:
                m.act(owed[0]["side"], type="roll_morale", unit_id=owed[0]["id"])
                seen.add("morale")
            else:
                m.act("red", type="advance")
        else:
            assert step == "cleanup/cards"
            for side, foe in (("red", "blue"), ("blue", "red")):
                m.act(side, type="shuffle_deck")
                m.act(foe, type="cut_deck", side=side, at=2)
            seen.add("cards")
            m.act("red", type="advance")
    assert seen == {"fire", "split", "morale", "cards"}
    assert m.get("")["outcome"]["reason"].startswith("turn 3 of 3")
    assert_replay_matches(matches, m)


def test_a_full_battlegroup_match(matches: Matches, client: TestClient) -> None:
    m = Played(client, scenario("battlegroup-demo"))  # 3 rounds, three players
    rolls = 0
    while m.get("")["outcome"] is None:
        step = m.turn["step"]
        if step == "initiation/initiative":
            if m.turn["expects"][0].startswith(("initiative rolls", "tied")):
                m.act("north", type="roll_initiative")
                rolls += 1
            else:
                m.act("north", type="advance")
        elif step == "initiation/cards":
            for side in m.turn["initiative"]:
                hand = next((c["hand"] for c in m.get("/board", side)["cards"]
                             if c["side"] == side), None)
                if hand and m.turn["turn"] > 1:
                    m.act(side, type="discard_cards", cards=hand[:1])
                m.act(side, type="draw_cards")
            m.act("north", type="advance")
        elif step == "activation/activate":
            side = m.turn["active_side"]
            group = m.turn["expects"][0].split(": ")[1].split(", ")[0]
            m.act(side, type="activate_battlegroup", battlegroup=group)
            m.act(side, type="roll_dice", notation="d6", purpose="fire")
            m.act(side, type="advance")
        else:
            m.act("referee", type="score_vp", side=m.turn["initiative"][0], points=1)
            m.act("north", type="advance")
    assert rolls >= 3
    assert "round 3 of 3" in m.get("")["outcome"]["reason"]
    assert_replay_matches(matches, m)


@dataclass
class Script(Played):
    """A `Played` match that remembers which rules produced the events of its actions."""

    rules: set[str] = field(default_factory=set)

    def act(self, seat: str, **action: Any) -> list[dict[str, Any]]:
        events = super().act(seat, **action)
        self.rules.update(e["rule"] for e in events if e["rule"])
        return events

    def attempt(self, seat: str, **action: Any) -> bool:
        """Act if the service accepts it (the script tries what the dice may not allow)."""
        r = self.client.post(f"/api/matches/{self.match}/actions", json=action,
                             headers=self.auth(seat))
        self.rules.update(e["rule"] for e in r.json().get("events", []) if e["rule"])
        return r.status_code == 201

    def mine(self, side: str, kind: str) -> list[dict[str, Any]]:
        return [u for u in self.board["units"] if u["side"] == side and u["kind"] == kind]

    def enter_result(self, failed: bool = False) -> None:
        awaiting = self.turn["awaiting"]
        if awaiting is not None:
            self.act(awaiting["by"], type="enter_result", result="as the table says",
                     failed=failed)


def test_a_full_wing_command_match(matches: Matches, client: TestClient) -> None:
    m = Script(client, scenario("wing-command-demo"))  # 3 turns
    while m.get("")["outcome"] is None:
        step, side = m.turn["step"], m.turn["active_side"]
        foe = "british" if side == "french" else "french"
        if step == "initiative":
            if m.turn["expects"][0].startswith(("initiative rolls", "tied")):
                m.act("french", type="roll_initiative")
            else:
                m.act("french", type="advance")
        elif step.endswith("a_reposition"):
            co = m.mine(side, "co")[0]
            m.act(side, type="move_unit", unit_id=co["id"],
                  to={"x": co["position"]["x"] + 1, "y": co["position"]["y"]})
            m.act(side, type="advance")
        elif step.endswith("b_unit_morale"):
            for unit in m.mine(side, "unit"):
                if unit["computed"]["morale_check"]:
                    co = m.mine(side, "co")[0]
                    cubes = min(1, co["markers"].get("leadership", 0))
                    m.act(side, type="rule_roll", roll="unit_morale", unit_id=unit["id"],
                          leader_id=co["id"], leadership=cubes)
            m.act(side, type="advance")
        elif step.endswith("c_disruption"):
            for piece in m.mine(side, "piece"):
                if "disrupted" in piece["status"]:
                    m.act(side, type="rule_roll", roll="disruption_recovery", unit_id=piece["id"])
            m.act(side, type="advance")
        elif step.endswith("d_corner_lock"):
            for piece in m.mine(side, "piece"):
                if "corner_locked" in piece["status"]:
                    m.act(side, type="rule_roll", roll="disengage", unit_id=piece["id"])
            m.act(side, type="advance")
        elif step.endswith("e_line_command"):
            m.act(side, type="advance")
        elif step == "phase/activation":
            for unit in m.mine(side, "unit"):
                if m.turn["expects"][0].startswith("an activation failed"):
                    break
                if "activated" in unit["status"]:
                    continue
                events = m.act(side, type="rule_roll", roll="activation", unit_id=unit["id"],
                               dice=2)
                m.enter_result(failed=events[-1]["result"].startswith("0 of"))
                if events[-1]["result"].startswith("0 of"):
                    break
                # its pieces fire at an enemy piece; a hit disrupts, a second one destroys
                shooter = next((p for p in m.mine(side, "piece") if p["extra"]["unit"] ==
                                unit["id"] and "unloaded" not in p["status"]), None)
                target = next(iter(m.mine(foe, "piece")), None)
                if shooter and target:
                    m.act(side, type="fire", unit_id=shooter["id"], target_id=target["id"])
                    m.enter_result()
                    if "disrupted" in target["status"]:
                        m.act(foe, type="remove_unit", unit_id=target["id"], reason="casualty")
                    else:
                        m.act(foe, type="set_status", unit_id=target["id"], set=["disrupted"])
            if m.turn["turn"] == 1:
                fo = m.mine(side, "fo")[0]
                m.act(side, type="rule_roll", roll="special_move", unit_id=fo["id"])
            m.act(side, type="advance")
        else:
            assert step == "victory"
            m.act("referee", type="score_vp", side=m.turn["initiative"][0], points=1)
            m.act("french", type="advance")
    assert {"WC-1", "WC-3", "WC-4", "WC-5", "WC-6", "WC-7", "WC-8", "WC-10"} <= m.rules
    assert "turn 3 of 3" in m.get("")["outcome"]["reason"]
    assert_replay_matches(matches, m)


def test_a_full_extended_sequence_match(matches: Matches, client: TestClient) -> None:
    m = Script(client, scenario("extended-sequence-demo"))  # 3 turns

    def units(side: str, *having: str, lacking: tuple[str, ...] = ()) -> list[dict[str, Any]]:
        return [u for u in m.board["units"] if u["side"] == side and set(having) <= set(
            u["status"]) and not set(lacking) & set(u["status"]) and u["kind"] != "leader"
            and u["position"]["box"] is None]

    def shoot(side: str, foe: str) -> None:
        """Fire every able unit of `side` at the first enemy, as often as its ROF allows."""
        for unit in units(side, lacking=("broken", "routed", "broken_down")):
            for _ in range(3):
                target = next(iter(units(foe)), None)
                if target is None:
                    return
                if not m.attempt(side, type="fire", unit_id=unit["id"],
                                 target_id=target["id"]):
                    break  # its rate of fire is spent
                m.enter_result()
                m.act(side, type="place_marker", kind="suppression", unit_id=target["id"])

    while m.get("")["outcome"] is None:
        step, turn = m.turn["step"], m.turn["turn"]
        if step == "initial/weather":
            m.act("soviets", type="set_track", name="weather.visibility", value=10 - turn)
        elif step == "initial/smoke_and_fire" and turn == 1:
            m.act("germans", type="place_marker", kind="smoke", location="0607")
        elif step == "initial/reinforcements" and turn == 1:
            m.act("germans", type="announce_reinforcements", unit_ids=["g-stug"], entry="0101")
        elif step == "initial/artillery":
            for stage in ("radio_contact", "spotting_round", "fire_for_effect"):
                m.attempt("germans", type="call_artillery", mission="m1", stage=stage,
                          location="0708")
        elif step == "rally/repair":
            for unit in units("germans", "broken_down") + units("soviets", "broken_down"):
                m.act(unit["side"], type="rule_roll", roll="repair", unit_id=unit["id"])
        elif step == "rally/self_rally":
            for unit in units("germans", "broken", lacking=("routed",)):
                # turn 1: an original 2 (table dice) rallies it and creates a leader
                dice = {"source": "table", "results": [1, 1]} if turn == 1 else {}
                m.act("germans", type="rule_roll", roll="self_rally", unit_id=unit["id"],
                      **dice)
        elif step == "rally/leader_rally":
            for side, leader in (("germans", "g-leader"), ("soviets", "s-leader")):
                for unit in units(side, "broken")[:1] + units(side, "routed")[:1]:
                    m.act(side, type="rule_roll", roll="leader_rally", unit_id=unit["id"],
                          leader_id=leader)
        elif step == "combat/prepared_fire":
            shoot("germans", "soviets")
        elif step == "combat/routed_movement":
            shoot("soviets", "germans")
        elif step == "combat/move_and_fire":
            if m.unit("g-stug")["position"]["box"] == "reinforcements":
                m.act("germans", type="move_unit", unit_id="g-stug", to={"hex": "0101"})
            mover = next((u for u in units("germans", lacking=("broken", "routed"))
                          if not u["markers"]), None)
            if mover:
                m.act("germans", type="move_unit", unit_id=mover["id"], to={"hex": "0506"})
        elif step == "combat/defensive_fire":
            shoot("soviets", "germans")
        elif step == "combat/advancing_fire":
            shoot("germans", "soviets")
        elif step == "admin/victory":
            assert not any({"prepared_fire", "rof_spent", "halted"} & set(u["markers"])
                           for u in m.board["units"])
            m.act("referee", type="score_vp", side="germans", points=1)
        seat = {"attacker": "germans", "defender": "soviets"}.get(m.turn["acting"], "referee")
        if step.startswith("combat/"):
            seat = "soviets" if step == "combat/defensive_fire" else "germans"
        m.act(seat, type="advance")
    assert {"ES-1", "ES-2", "ES-3", "ES-4", "ES-5", "ES-6"} <= m.rules
    assert "turn 3 of 3" in m.get("")["outcome"]["reason"]
    assert_replay_matches(matches, m)


def test_a_full_normandy_match(matches: Matches, client: TestClient) -> None:
    m = Script(client, scenario("normandy-demo"))  # 4 Game-Turns
    while m.get("")["outcome"] is None:
        step, turn, side = m.turn["step"], m.turn["turn"], m.turn["active_side"]
        foe = "german" if side == "allied" else "allied"
        if step == "mutual/weather":
            m.act("allied", type="roll_dice", notation="2d6", purpose="NO-1 next turn's weather")
            m.act("allied", type="set_track", name="weather.next",
                  value=("clear", "rain")[turn % 2])
            m.act("allied", type="set_track", name="sea.next", value="calm")
        elif step == "mutual/allied_air":
            m.act("allied", type="set_track", name="air.received", value=4)
            m.act("allied", type="set_track", name="air.interdiction", value=1)
            m.act("allied", type="set_track", name="air.ground_support", value=3)
        elif step == "mutual/operations":
            m.act("allied", type="declare_operation", hqs=["a-1corps"])
            m.act("german", type="declare_operation", hqs=["g-86corps"] if turn == 2 else [],
                  first=turn == 2)
        elif step == "mutual/army_support":
            m.act("german", type="set_track", name="support.7th-army", value=2)
        elif step == "mutual/supply" and turn == 1:
            m.act("allied", type="set_supply", unit_ids=["a-6para"], status="out_of_supply")
        elif step == "player_turn/replacement":
            m.act(side, type="set_track", name=f"replacements.{side}", value=turn)
        elif step == "player_turn/tactical_movement" and side == "allied":
            if not m.unit("a-27arm")["markers"].get("reserve"):
                m.act("allied", type="place_marker", kind="reserve", unit_id="a-27arm")
        elif step == "player_turn/combat":
            attacker = next((u for u in m.board["units"] if u["side"] == side
                             and u["kind"] != "hq" and not u["markers"].get("reserve")), None)
            defender = next((u for u in m.board["units"] if u["side"] == foe
                             and u["kind"] != "hq" and u["position"]["hex"]), None)
            if attacker and defender:
                m.act(side, type="resolve_combat", attackers=[attacker["id"]],
                      defenders=[defender["id"]], odds="2:1", modifiers={"terrain": -1})
                m.enter_result()
                m.act(foe, type="lose_step", unit_id=defender["id"])
                if turn == 1:
                    m.act(side, type="place_marker", kind="disorganized",
                          unit_id=defender["id"])
                if defender["id"] == "g-716" and turn == 3:
                    m.act(side, type="set_track", name="control.1405", value="allied")
        elif step == "player_turn/air_interdiction":
            m.act("allied", type="place_marker", kind="interdiction", location="1304")
        elif step == "end/victory_points":
            m.act("german", type="score_vp", side="german", points=1, reason="held the line")
        m.act("referee", type="advance")
    assert {"NO-1", "NO-2", "NO-4", "NO-5", "core-steps"} <= m.rules
    vp = {track["side"]: track for track in m.board["vp"]["tracks"]}
    assert vp["allied"]["by_turn"].get("4", 0) >= 1  # the city VP of Game-Turn 4
    assert "Game-Turn 4 of 4" in m.get("")["outcome"]["reason"]
    assert_replay_matches(matches, m)
