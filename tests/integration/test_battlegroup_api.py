"""Battlegroup through the HTTP API with three players: Command Cards BG-6, activation BG-7,
Round Up and the round limit BG-8/BG-9 (the initiative, BG-2..BG-5, in
test_battlegroup_initiative_api.py)."""

from __future__ import annotations

from typing import Any

from duty_pay import pay_owed
from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario


def _first_group(m: Played, side: str) -> str:
    """The first battlegroup `side` is offered to activate (the legal answer's own body)."""
    return next(str(c["body"]["battlegroup"]) for a in m.get("/legal", side)["actions"]
                if a["type"] == "activate_battlegroup" for c in a["choices"])

def bg(client: TestClient, **changes: Any) -> Played:
    return Played(client, scenario("battlegroup-demo", **changes))


def settle(m: Played, **results: int) -> None:
    m.act("north", type="roll_initiative", source="table", results=results)
    everyone_done(m)


def everyone_done(m: Played) -> None:
    """Every side says it is done with the current step (the last one moves the marker)."""
    where = (m.turn["turn"], m.turn["step"])
    for side in [s["id"] for s in m.body["sides"]]:
        if (m.turn["turn"], m.turn["step"]) != where:
            return
        if side in (m.turn.get("waiting_for") or [side]):
            m.act(side, type="advance")


def to_activation(m: Played) -> None:
    """Initiative north, south, west; every side draws; on to the first activation."""
    settle(m, north=4, south=3, west=1)
    while m.turn["step"] != "activation/activate":
        if m.turn["step"] == "initiation/cards":
            for side in ("north", "south", "west"):
                m.act(side, type="draw_cards")
        everyone_done(m)


def test_hands_are_filled_to_the_highest_cv_and_private(client: TestClient) -> None:
    m = bg(client)
    settle(m, north=4, south=3, west=1)
    assert m.turn["step"] == "initiation/cards"
    m.refused("north", 422, "BG-6", type="advance")
    m.refused("north", 422, "BG-6", type="draw_cards", count=3)
    [drawn] = m.act("north", type="draw_cards")
    assert drawn["count"] == 2  # CV 2
    hand = drawn["cards"]
    m.refused("north", 422, "BG-6", type="discard_cards", cards=hand[:1])  # discard first
    assert m.act("south", type="draw_cards")[0]["count"] == 1  # embarked Commander, CV 1
    assert m.act("west", type="draw_cards")[0]["count"] == 1  # no Commander
    for seat in ("south", "west", "spectator"):
        north = next(c for c in m.get("/board", seat)["cards"] if c["side"] == "north")
        assert north["hand"] is None and north["hand_count"] == 2
        seen = next(e for e in m.get("/events", seat)["events"] if e["type"] == "CardsDrawn")
        assert "cards" not in seen and seen["count"] == 2
    assert next(c for c in m.get("/board", "north")["cards"]
                if c["side"] == "north")["hand"] == hand
    everyone_done(m)
    assert m.turn["step"] == "initiation/special_rules"


def test_next_round_discards_then_draws_up_to_the_hand_size(client: TestClient) -> None:
    m = bg(client, options={"rounds": 2})
    play_round(m)
    settle(m, north=4, south=3, west=1)
    hand = m.get("/board", "north")["cards"][0]["hand"]
    m.act("north", type="discard_cards", cards=[hand[0]])
    [drawn] = m.act("north", type="draw_cards")
    assert drawn["count"] == 1
    assert len(m.get("/board", "north")["cards"][0]["hand"]) == 2


def play_round(m: Played, **points: int) -> list[tuple[str, str]]:
    """Draw, then activate every battlegroup in turn, score `points` in Round Up; returns
    who activated what."""
    if m.turn["step"] == "initiation/initiative":
        settle(m, north=4, south=3, west=1)
    for side in m.turn["initiative"]:
        if not any(w.startswith("hands") for w in m.turn["expects"]):
            m.act(side, type="draw_cards")
    everyone_done(m)  # the cards
    everyone_done(m)  # the special rules
    done = []
    while m.turn["step"] == "activation/activate":
        side = m.turn["active_side"]
        group = _first_group(m, side)
        m.act(side, type="activate_battlegroup", battlegroup=group)
        pay_owed(m)  # BG-7: the battlegroup acts with a unit (a move where it stands)
        m.act(side, type="advance")
        done.append((side, group))
    assert m.turn["step"] == "round_up"
    for side, vp in points.items():
        m.act("referee", type="score_vp", side=side, points=vp)
    everyone_done(m)
    return done


def test_activation_follows_the_order_skips_and_passes_over(client: TestClient) -> None:
    m = bg(client)
    to_activation(m)
    assert m.turn["active_side"] == "north"
    m.refused("south", 403, "BG-7", type="activate_battlegroup", battlegroup="s-1")
    m.refused("north", 422, "BG-7", type="advance")  # must activate: no skipping
    m.refused("north", 403, "core-authority", type="activate_battlegroup", battlegroup="n-1",
              auxiliaries=["s-rifles"])  # another side's squad
    activated, *flagged = m.act("north", type="activate_battlegroup", battlegroup="n-1",
                                auxiliaries=["n-snipers"])
    assert activated["unit_ids"] == ["n-hq", "n-rifles", "n-snipers"]
    assert [(e["unit_id"], e["set"]) for e in flagged] == [
        (unit, ["acting"]) for unit in activated["unit_ids"]]
    m.refused("north", 422, "BG-7", type="activate_battlegroup", battlegroup="n-2")
    m.act("north", type="move_unit", unit_id="n-rifles", to={"x": 9, "y": 30})
    pay_owed(m)  # BG-7: the activated battlegroup acts with a unit
    m.act("north", type="advance")
    assert m.turn["active_side"] == "south"
    m.act("south", type="activate_battlegroup", battlegroup="s-1")
    pay_owed(m)  # BG-7: the activated battlegroup acts with a unit
    m.act("south", type="advance")
    assert m.turn["active_side"] == "west"
    # w-2 is all in reserve: it cannot be activated
    m.refused("west", 422, "BG-7", type="activate_battlegroup", battlegroup="w-2")
    m.act("west", type="activate_battlegroup", battlegroup="w-1")
    pay_owed(m)  # BG-7: the activated battlegroup acts with a unit
    m.act("west", type="advance")
    # south and west have nothing left: passed over; north activates its last battlegroup
    assert m.turn["active_side"] == "north"
    m.refused("north", 422, "BG-7", type="activate_battlegroup", battlegroup="n-1")
    m.act("north", type="activate_battlegroup", battlegroup="n-2")
    pay_owed(m)  # BG-7: the activated battlegroup acts with a unit
    m.act("north", type="advance")
    assert m.turn["step"] == "round_up"


def test_bg_7_only_the_activated_battlegroup_and_its_auxiliaries_act(client: TestClient) -> None:
    m = bg(client)
    to_activation(m)
    assert m.turn["active_side"] == "north"
    move = {"type": "move_unit", "to": {"x": 20, "y": 20}}
    refused = m.refused("north", 422, "BG-7", move, unit_id="n-rifles")
    assert "activates a battlegroup first" in refused["detail"]
    m.act("north", type="activate_battlegroup", battlegroup="n-1", auxiliaries=["n-snipers"])
    assert all("acting" in m.unit(u)["status"] for u in ("n-hq", "n-rifles", "n-snipers"))
    m.act("north", **move, unit_id="n-rifles")
    m.act("north", **move, unit_id="n-snipers")
    refused = m.refused("north", 422, "BG-7", move, unit_id="n-armour")  # another battlegroup
    assert "n-hq, n-rifles, n-snipers" in refused["detail"]
    m.refused("north", 422, "BG-7", type="roll_dice", notation="d6", purpose="fire",
              unit_ids=["n-armour"])
    # other players' units do not act in north's activation ...
    m.refused("south", 403, "BG-7", move, unit_id="s-rifles")
    m.refused("west", 403, "BG-7", type="roll_dice", notation="d6", purpose="fire",
              unit_ids=["w-rifles"])
    m.refused("south", 403, "BG-7", type="rally_unit", unit_id="s-rifles")
    # ... but what north's units do to them is recorded, by either side
    m.act("north", type="roll_dice", notation="2d6", purpose="fire at s-rifles",
          unit_ids=["n-rifles", "s-rifles"])
    m.act("south", type="roll_dice", notation="d6", purpose="save against n-rifles' fire",
          unit_ids=["s-rifles", "n-rifles"])
    m.act("north", type="place_marker", kind="pinned", unit_id="s-rifles")
    m.act("south", type="set_status", unit_id="s-rifles", set=["suppressed"])
    m.act("west", type="roll_dice", notation="d6", purpose="scatter")  # names no unit
    m.refused("north", 422, "BG-7", type="set_status", unit_id="n-armour", set=["acting"])
    m.refused("north", 422, "BG-7", type="set_status", unit_id="n-rifles", clear=["activated"])
    pay_owed(m)  # BG-7: the activated battlegroup acts with a unit
    m.act("north", type="advance")
    assert not any("acting" in u["status"] for u in m.board["units"])
    assert m.turn["active_side"] == "south"
    m.refused("north", 403, "BG-7", move, unit_id="n-rifles")  # its activation is over
    m.act("south", type="activate_battlegroup", battlegroup="s-1")
    m.act("south", **move, unit_id="s-rifles")
    pay_owed(m)  # BG-7: the activated battlegroup acts with a unit
    m.act("south", type="advance")
    m.act("west", type="activate_battlegroup", battlegroup="w-1")
    pay_owed(m)  # BG-7: the activated battlegroup acts with a unit
    m.act("west", type="advance")
    m.act("north", type="activate_battlegroup", battlegroup="n-2")
    refused = m.refused("north", 422, "BG-7", move, unit_id="n-snipers")  # declared with n-1
    assert "n-armour" in refused["detail"]
    m.act("north", **move, unit_id="n-armour")


def test_the_round_limit_ends_the_match_most_points_wins(client: TestClient) -> None:
    m = bg(client, options={"rounds": 2})
    play_round(m)
    assert m.turn["turn"] == 2
    play_round(m, west=3)
    match = m.get("")
    assert match["outcome"]["winner"] == "west"
    assert "round 2 of 2" in match["outcome"]["reason"]
    m.refused("north", 409, "core-end", type="advance")


def test_rounds_are_required(client: TestClient) -> None:
    r = client.post("/api/matches", json=scenario("battlegroup-demo", options={}))
    assert r.status_code == 422 and r.json()["rule"] == "BG-1"


def test_equal_points_at_the_round_limit_is_a_tie(client: TestClient) -> None:
    m = bg(client, options={"rounds": 1})
    play_round(m, north=2, south=2)
    outcome = m.get("")["outcome"]
    assert outcome["winner"] is None and "victory points tied" in outcome["reason"]


def test_a_bad_scenario_is_refused_naming_the_field(client: TestClient) -> None:
    body = scenario("battlegroup-demo")
    body["units"][3]["side"] = "east"
    r = client.post("/api/matches", json=body)
    assert r.status_code == 422 and "units[3] (n-snipers): there is no side 'east'" in r.text
    body = scenario("battlegroup-demo")
    body["units"][1]["figures"] = -1
    r = client.post("/api/matches", json=body)
    assert r.status_code == 422 and "units" in r.text and "figures" in r.text


def test_bg_1_special_rules_act_at_the_end_of_initiation(client: TestClient) -> None:
    """The last part of Initiation is when special rules that act then are resolved: here a
    scenario's reserve rule brings west's reserve platoon on, and north records an effect."""
    m = bg(client)
    settle(m, north=4, south=3, west=1)
    for side in ("north", "south", "west"):
        m.act(side, type="draw_cards")
    everyone_done(m)
    assert m.turn["step"] == "initiation/special_rules"
    assert m.turn["waiting_for"] == ["north", "south", "west"]
    m.act("west", type="move_unit", unit_id="w-reserve", to={"x": 72, "y": 30})
    m.act("north", type="place_marker", kind="smoke", location="crossroads")
    m.act("south", type="roll_dice", notation="d6", purpose="a special rule's roll")
    everyone_done(m)
    assert m.turn["step"] == "activation/activate"
    m.act("north", type="activate_battlegroup", battlegroup="n-1")
    pay_owed(m)  # BG-7: the activated battlegroup acts with a unit
    m.act("north", type="advance")
    m.act("south", type="activate_battlegroup", battlegroup="s-1")
    pay_owed(m)  # BG-7: the activated battlegroup acts with a unit
    m.act("south", type="advance")
    # w-2 is on the table (the battlegroups by the scenario's names)
    assert m.turn["expects"] == ["west to activate one of: Western rifles, Western reserve"]


def test_the_card_step_ends_when_every_side_has_drawn_and_said_it_is_done(
        client: TestClient) -> None:
    m = bg(client)
    settle(m, north=4, south=3, west=1)
    assert m.turn["step"] == "initiation/cards"
    assert m.turn["advanced_by"] == ["north", "south", "west", "referee"]
    m.act("north", type="draw_cards")
    [done] = m.act("north", type="advance")
    assert done["type"] == "SideDone" and m.turn["step"] == "initiation/cards"
    assert m.turn["waiting_for"] == ["south", "west"]
    refused = m.refused("south", 422, "BG-6", type="advance")  # south has not drawn yet
    assert "draw up to your hand size (1)" in refused["detail"]
    m.refused("north", 403, "BG-6", type="advance")  # north has said it is done already
    m.act("south", type="draw_cards")
    m.act("south", type="advance")
    assert m.turn["step"] == "initiation/cards" and m.turn["waiting_for"] == ["west"]
    m.act("west", type="draw_cards")
    m.act("west", type="advance")
    assert m.turn["step"] == "initiation/special_rules"


def test_round_up_ends_when_every_side_has_resolved_its_special_rules(
        client: TestClient) -> None:
    m = bg(client, options={"rounds": 2})
    to_activation(m)
    while m.turn["step"] == "activation/activate":
        side = m.turn["active_side"]
        m.act(side, type="activate_battlegroup", battlegroup=_first_group(m, side))
        assert m.turn["advanced_by"] == [side, "referee"]
        pay_owed(m)  # BG-7: the activated battlegroup acts with a unit
        m.act(side, type="advance")
    assert m.turn["step"] == "round_up"
    m.act("south", type="place_marker", kind="rubble", location="church")  # collateral damage
    m.act("south", type="advance")
    m.act("north", type="score_vp", side="north", points=1, reason="objective held")
    m.act("north", type="advance")
    assert m.turn["step"] == "round_up" and m.turn["waiting_for"] == ["west"]
    m.act("west", type="advance")
    assert (m.turn["turn"], m.turn["step"]) == (2, "initiation/initiative")


def test_bg_7_battlegroups_are_keyed_by_their_side_so_two_sides_may_each_own_a_1(
        client: TestClient) -> None:
    """Each side names its battlegroups "1" and "2": a side activates its own "1", and
    another side's "1" is still to activate."""
    body = scenario("battlegroup-demo")
    for unit in body["units"]:
        if "battlegroup" in unit["extra"]:
            unit["extra"]["battlegroup"] = unit["extra"]["battlegroup"][-1]
    m = Played(client, body)
    to_activation(m)
    assert m.turn["expects"] == ["north to activate one of: 1, 2"]
    offered = [c for o in m.get("/legal", "north")["actions"] if o["type"] ==
               "activate_battlegroup" for c in o["choices"]]
    assert [(c["side"], c["body"]["battlegroup"]) for c in offered][:2] == [
        ("north", "1"), ("north", "2")]
    [activated, *_] = m.act("north", type="activate_battlegroup", battlegroup="1")
    assert activated["unit_ids"] == ["n-hq", "n-rifles"]  # north's "1" only
    pay_owed(m)  # BG-7: the activated battlegroup acts with a unit
    m.act("north", type="advance")
    assert (m.turn["step"], m.turn["active_side"]) == ("activation/activate", "south")
    assert m.turn["expects"] == ["south to activate one of: 1"]
    [activated, *_] = m.act("south", type="activate_battlegroup", battlegroup="1")
    assert activated["unit_ids"] == ["s-hq", "s-truck", "s-rifles"]
    pay_owed(m)  # BG-7: the activated battlegroup acts with a unit
    m.act("south", type="advance")
    m.act("west", type="activate_battlegroup", battlegroup="1")
    pay_owed(m)  # BG-7: the activated battlegroup acts with a unit
    m.act("west", type="advance")
    assert m.turn["active_side"] == "north"
    m.refused("north", 422, "BG-7", type="activate_battlegroup", battlegroup="1")
    m.act("north", type="activate_battlegroup", battlegroup="2")
    pay_owed(m)  # BG-7: the activated battlegroup acts with a unit
    m.act("north", type="advance")
    assert m.turn["step"] == "round_up"
