"""Atomic Africa through the HTTP API: AA-X1 and AA-X2 verbatim, the sequence AA-1, the
Clean-Up procedures AA-3..AA-8, and who may see the decks."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario


def squad(unit_id: str, side: str, figures: int, die: str, **markers: int) -> dict[str, Any]:
    return {"id": unit_id, "side": side, "name": unit_id, "figures": figures, "morale_die": die,
            "markers": markers, "position": {"x": 1, "y": 1}}


def aa(client: TestClient, *units: dict[str, Any], **changes: Any) -> Played:
    return Played(client, scenario("atomic-africa-demo", units=list(units), **changes))


def to_clean_up(m: Played) -> None:
    """Each side activates its units in turn until none is eligible (AA-1)."""
    while m.turn["step"] == "activation/activate":
        side = m.turn["active_side"]
        unit = next(u for u in m.board["units"] if u["side"] == side
                    and "activated" not in u["status"])
        m.act(side, type="activate_unit", unit_id=unit["id"])
        m.act(side, type="advance")


def both_done(m: Played) -> None:
    """Each side says it is done with the current Clean-Up sub-phase (AA-3..AA-8)."""
    where = (m.turn["turn"], m.turn["step"])
    for side in ("red", "blue"):
        if (m.turn["turn"], m.turn["step"]) == where and side in (
                m.turn.get("waiting_for") or [side]):
            m.act(side, type="advance")


def test_aa_x1_eleven_figures_five_wounds_split_into_six_and_five(client: TestClient) -> None:
    """AA-X1: an 11-figure squad, base Morale d10, carries 2 wound counters; it takes 3 more
    wounds (5 in all) and ends with 4 suppression markers. Three wounds take d10 to d4; the
    fourth forces a split. Result: fireteams of 6 and 5 figures, 2 + 2 suppression markers,
    wounds 3 + 2 (owner's choice of which takes 3)."""
    m = aa(client, squad("sq1", "red", 11, "d10", wound=2), squad("ml1", "blue", 10, "d8"))
    assert m.unit("sq1")["computed"] == {"base_die": "d10", "current_die": "d6",
                                         "must_split": False}
    m.act("red", type="activate_unit", unit_id="sq1")
    m.act("blue", type="place_marker", kind="wound", count=3, unit_id="sq1")
    m.act("blue", type="place_marker", kind="suppression", count=4, unit_id="sq1")
    assert m.unit("sq1")["computed"]["must_split"] is True
    m.act("red", type="advance")
    to_clean_up(m)
    assert m.turn["step"] == "cleanup/split"
    assert m.turn["expects"] == ["units that must split: sq1"]
    refused = m.refused("red", 422, "AA-3", type="advance")
    assert "sq1" in refused["detail"]
    events = m.act("red", type="split_unit", unit_id="sq1", new_unit_id="sq1b",
                   odd_to={"wound": "first"})
    assert [e["type"] for e in events] == ["UnitSplit"] and events[0]["rule"] == "AA-3"
    first, second = m.unit("sq1"), m.unit("sq1b")
    assert (first["figures"], second["figures"]) == (6, 5)
    assert first["markers"] == {"wound": 3, "suppression": 2}
    assert second["markers"] == {"wound": 2, "suppression": 2}
    assert first["computed"]["current_die"] == "d4" and second["computed"]["current_die"] == "d6"
    both_done(m)
    assert m.turn["step"] == "cleanup/morale"


def test_aa_x1_the_owner_may_give_the_third_wound_to_the_smaller_team(
        client: TestClient) -> None:
    m = aa(client, squad("sq1", "red", 11, "d10", wound=5, suppression=4),
           squad("ml1", "blue", 10, "d8"))
    to_clean_up(m)
    m.act("red", type="split_unit", unit_id="sq1", new_unit_id="sq1b",
          odd_to={"wound": "second"})
    assert m.unit("sq1")["markers"] == {"wound": 2, "suppression": 2}
    assert m.unit("sq1b")["markers"] == {"wound": 3, "suppression": 2}
    assert (m.unit("sq1")["figures"], m.unit("sq1b")["figures"]) == (6, 5)


def test_the_owner_may_give_the_odd_figure_to_the_new_team(client: TestClient) -> None:
    """AA-3: as equal as possible, the owner choosing which half takes the odd figure."""
    m = aa(client, squad("sq1", "red", 11, "d10", wound=5, suppression=4),
           squad("ml1", "blue", 10, "d8"))
    to_clean_up(m)
    m.act("red", type="split_unit", unit_id="sq1", new_unit_id="sq1b",
          odd_to={"figures": "second", "wound": "first"})
    assert (m.unit("sq1")["figures"], m.unit("sq1b")["figures"]) == (5, 6)
    assert m.unit("sq1")["markers"] == {"wound": 3, "suppression": 2}
    assert m.unit("sq1b")["markers"] == {"wound": 2, "suppression": 2}


def test_aa_x2_d10_with_three_wounds_rolls_a_d4_and_only_a_4_discards(
        client: TestClient) -> None:
    """AA-X2: base d10, 3 wound counters, 3 suppression markers. The Morale roll uses a d4;
    only a 4 exceeds 3, so one marker is discarded with probability 1/4."""
    m = aa(client, squad("a", "red", 8, "d10", wound=3, suppression=3),
           squad("b", "red", 8, "d10", wound=3, suppression=3), squad("ml1", "blue", 10, "d8"))
    assert m.unit("a")["computed"] == {"base_die": "d10", "current_die": "d4",
                                       "must_split": False, "morale_chance": "1/4"}
    to_clean_up(m)
    both_done(m)
    assert m.turn["expects"] == ["units owing a Morale roll: a, b"]
    m.refused("red", 422, "AA-7", type="advance")
    m.refused("red", 422, "core-dice", type="roll_morale", unit_id="a", source="table", result=5)
    [rolled, _, discarded] = m.act("red", type="roll_morale", unit_id="a", source="table",
                                   result=4)
    assert rolled["notation"] == "d4" and rolled["total"] == 4 and rolled["rule"] == "AA-7"
    assert discarded["type"] == "MarkerRemoved" and discarded["kind"] == "suppression"
    assert m.unit("a")["markers"]["suppression"] == 2
    events = m.act("red", type="roll_morale", unit_id="b", source="table", result=3)
    assert [e["type"] for e in events] == ["DiceRolled", "UnitStatusChanged"]
    assert m.unit("b")["markers"]["suppression"] == 3
    m.refused("red", 422, "AA-7", type="roll_morale", unit_id="a")  # one roll per unit
    both_done(m)
    assert m.turn["step"] == "cleanup/cards"


def test_aa_1_activation_phases_alternate_and_only_the_activating_player_activates(
        client: TestClient) -> None:
    m = aa(client, squad("r1", "red", 8, "d8"), squad("r2", "red", 8, "d8"),
           squad("r3", "red", 8, "d8"), squad("b1", "blue", 8, "d8"))
    assert m.turn["active_side"] == "red"
    m.refused("blue", 403, "AA-1", type="activate_unit", unit_id="b1")
    m.refused("red", 422, "AA-1", type="advance")  # an Activation Phase activates a unit
    m.act("red", type="activate_unit", unit_id="r1")
    m.refused("red", 422, "AA-1", type="activate_unit", unit_id="r2")  # one per phase
    m.act("blue", type="roll_dice", notation="d6", purpose="reaction fire")  # reacting player
    m.refused("blue", 403, "AA-1", type="advance")  # the activating player ends the phase
    m.act("red", type="advance")
    assert m.turn["active_side"] == "blue"
    m.act("blue", type="activate_unit", unit_id="b1")
    m.act("blue", type="advance")
    # blue has nothing left to activate: red activates phase after phase
    assert m.turn["active_side"] == "red"
    m.refused("red", 422, "AA-1", type="activate_unit", unit_id="r1")  # already this turn
    for unit in ("r2", "r3"):
        assert m.turn["active_side"] == "red"
        m.act("red", type="activate_unit", unit_id=unit)
        m.act("red", type="advance")
    assert m.turn["step"] == "cleanup/split"


def test_out_of_sequence_names_the_rule_and_the_current_step(client: TestClient) -> None:
    m = aa(client, squad("sq1", "red", 11, "d10", wound=5), squad("ml1", "blue", 10, "d8"))
    refused = m.refused("red", 422, "AA-3", type="split_unit", unit_id="sq1", new_unit_id="x")
    assert refused["detail"] == ("AA-3: units split only in the Clean-Up Split sub-phase; "
                                 "current step: Activation 1")
    assert "activate_unit" in refused["allowed"]
    m.refused("red", 422, "AA-7", type="roll_morale", unit_id="sq1")
    m.refused("red", 422, "AA-8", type="shuffle_deck")


def test_aa_4_a_unit_under_six_figures_that_must_split_is_destroyed(client: TestClient) -> None:
    m = aa(client, squad("small", "red", 5, "d6", wound=4), squad("ml1", "blue", 10, "d8"))
    to_clean_up(m)
    assert m.unit("small")["removed"] == "destroyed"
    log = m.get("/events")["events"]
    assert log[-1]["type"] == "UnitRemoved" and log[-1]["rule"] == "AA-4"


def test_aa_5_voluntary_split_needs_six_figures(client: TestClient) -> None:
    m = aa(client, squad("six", "red", 6, "d8", suppression=1), squad("five", "red", 5, "d8"),
           squad("ml1", "blue", 10, "d8"))
    to_clean_up(m)
    m.refused("red", 422, "AA-5", type="split_unit", unit_id="five", new_unit_id="x")
    m.refused("blue", 403, "core-authority", type="split_unit", unit_id="six", new_unit_id="x")
    m.refused("red", 422, "AA-3", type="split_unit", unit_id="six", new_unit_id="x", figures=3)
    [split] = m.act("red", type="split_unit", unit_id="six", new_unit_id="six-b",
                    odd_to={"suppression": "second"})
    assert split["rule"] == "AA-5"
    assert m.unit("six")["figures"] == 3 and m.unit("six-b")["markers"] == {"suppression": 1}


def test_aa_6_a_new_unit_that_must_split_again_is_checked_again(client: TestClient) -> None:
    """Base d4 and 2 wounds: each half of 12 figures (6) keeps a wound and still must split;
    splitting a 6 with one wound into 3 + 3 leaves the half with the wound still unable to
    hold (d4 shifted below d4) and under six figures: it is destroyed at once."""
    m = aa(client, squad("big", "red", 12, "d4", wound=2), squad("ml1", "blue", 10, "d8"))
    to_clean_up(m)
    m.act("red", type="split_unit", unit_id="big", new_unit_id="big-b")
    assert m.turn["expects"] == ["units that must split: big, big-b"]
    events = m.act("red", type="split_unit", unit_id="big", new_unit_id="big-c")
    assert [(e["type"], e.get("unit_id")) for e in events] == [
        ("UnitSplit", "big"), ("UnitRemoved", "big")]
    assert events[1]["rule"] == "AA-6"
    assert m.unit("big-c")["markers"] == {} and m.unit("big-c")["computed"]["current_die"] == "d4"
    assert m.turn["expects"] == ["units that must split: big-b"]


def test_aa_8_cards_are_collected_shuffled_privately_and_cut_by_the_opponent(
        client: TestClient) -> None:
    m = aa(client, squad("r1", "red", 8, "d8"), squad("b1", "blue", 8, "d8"))
    m.act("red", type="draw_cards", count=2)
    hand = m.get("/board", "red")["cards"][0]["hand"]
    assert len(hand) == 2 and m.get("/board", "blue")["cards"][0]["hand"] is None
    m.act("red", type="play_card", card=hand[0])
    assert m.get("/board", "blue")["cards"][0]["played"] == [hand[0]]
    to_clean_up(m)
    both_done(m)
    both_done(m)
    assert m.turn["step"] == "cleanup/cards"
    m.refused("blue", 422, "AA-8", type="cut_deck", side="red", at=2)  # shuffle first
    [shuffled] = m.act("red", type="shuffle_deck")
    assert shuffled["roll_index"] == 0 and sorted(shuffled["order"]) == [
        f"red-{i}" for i in range(1, 7)]
    red_cards = m.get("/board", "red")["cards"][0]
    assert red_cards["deck_count"] == 6 and red_cards["hand_count"] == 0
    for seat in ("blue", "spectator"):
        seen = [e for e in m.get("/events", seat)["events"] if e["type"] == "DeckShuffled"]
        assert "order" not in seen[0] and seen[0]["hidden"] == ["order"]
        assert m.get("/board", seat)["cards"][0]["deck"] is None
    m.refused("red", 403, "core-cards", type="cut_deck", side="red", at=2)
    m.refused("red", 422, "AA-8", type="advance")
    [cut] = m.act("blue", type="cut_deck", side="red", at=2)
    assert (cut["by"], cut["at"]) == ("blue", 2)
    deck = m.get("/board", "red")["cards"][0]["deck"]
    assert deck == shuffled["order"][2:] + shuffled["order"][:2]
    m.act("blue", type="shuffle_deck")
    m.act("red", type="cut_deck", side="blue", at=3)
    m.act("red", type="advance")
    [turned] = m.act("blue", type="advance")
    assert turned["type"] == "TurnAdvanced" and m.turn["turn"] == 2
    assert all("activated" not in u["status"] for u in m.board["units"])


def test_aa_5_the_split_sub_phase_waits_for_both_sides_voluntary_splits(
        client: TestClient) -> None:
    m = aa(client, squad("r1", "red", 8, "d8"), squad("b1", "blue", 10, "d8", suppression=1))
    to_clean_up(m)
    assert m.turn["step"] == "cleanup/split"
    assert m.turn["advanced_by"] == ["red", "blue", "referee"]
    [done] = m.act("red", type="advance")
    assert done["type"] == "SideDone" and m.turn["step"] == "cleanup/split"
    assert m.turn["waiting_for"] == ["blue"]
    m.refused("red", 403, "AA-3", type="split_unit", unit_id="r1", new_unit_id="r1b")
    [split] = m.act("blue", type="split_unit", unit_id="b1", new_unit_id="b1b")
    assert split["rule"] == "AA-5"
    m.act("blue", type="advance")
    assert m.turn["step"] == "cleanup/morale"


def test_aa_3_a_side_with_a_unit_that_must_split_is_not_done(client: TestClient) -> None:
    m = aa(client, squad("r1", "red", 8, "d10", wound=4), squad("b1", "blue", 10, "d8"))
    to_clean_up(m)
    refused = m.refused("red", 422, "AA-3", type="advance")
    assert "r1" in refused["detail"]
    m.act("blue", type="advance")  # blue has nothing to split
    m.act("red", type="split_unit", unit_id="r1", new_unit_id="r1b")
    m.act("red", type="advance")
    assert m.turn["step"] == "cleanup/morale"


def test_aa_7_each_side_rolls_its_own_morale_before_it_is_done(client: TestClient) -> None:
    m = aa(client, squad("r1", "red", 8, "d8", suppression=1),
           squad("b1", "blue", 10, "d8", suppression=2))
    to_clean_up(m)
    both_done(m)
    assert m.turn["step"] == "cleanup/morale"
    m.refused("blue", 422, "AA-7", type="advance")  # b1 owes a Morale roll
    m.act("red", type="roll_morale", unit_id="r1", source="table", result=1)
    m.act("red", type="advance")
    assert m.turn["step"] == "cleanup/morale" and m.turn["waiting_for"] == ["blue"]
    m.act("blue", type="roll_morale", unit_id="b1", source="table", result=3)
    assert m.unit("b1")["markers"] == {"suppression": 1}
    m.act("blue", type="advance")
    assert m.turn["step"] == "cleanup/cards"


def test_aa_8_each_side_shuffles_its_deck_and_cuts_the_other_before_it_is_done(
        client: TestClient) -> None:
    m = aa(client, squad("r1", "red", 8, "d8"), squad("b1", "blue", 8, "d8"))
    to_clean_up(m)
    both_done(m)
    both_done(m)
    assert m.turn["step"] == "cleanup/cards"
    m.act("red", type="shuffle_deck")
    refused = m.refused("red", 422, "AA-8", type="advance")  # blue's deck is not cut yet
    assert "cut blue's deck" in refused["detail"]
    m.act("blue", type="shuffle_deck")
    m.act("red", type="cut_deck", side="blue", at=1)
    m.act("red", type="advance")
    assert m.turn["step"] == "cleanup/cards" and m.turn["waiting_for"] == ["blue"]
    m.act("blue", type="cut_deck", side="red", at=2)
    m.act("blue", type="advance")
    assert m.turn["turn"] == 2 and m.turn["step"] == "activation/activate"
    assert m.turn["advanced_by"] == ["red", "referee"]
