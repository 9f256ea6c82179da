"""Cards discarded unseen (`CardsDiscarded`) are private to their side and the referee: every
surface that shows cards to a seat shows the other sides' discards only as counts. A card
played face up (`CardPlayed`) is public. Each surface is read by each kind of seat: the
owner, another player, the referee and a spectator."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import (
    Played,
    battlegroup_in_round_two,
    battlegroup_north_discards,
    scenario,
)
from rulesets_helpers import node as node_path

OWNER, OTHER = "red", "blue"
SEES = {OWNER: True, OTHER: False, "referee": True, "spectator": False}
DECK = ["CARD-ACE", "CARD-KING", "CARD-QUEEN", "CARD-JACK"]
STATIC = Path(__file__).resolve().parents[2] / "api" / "static"


class Discarded(Played):
    """A freeform match in which red drew three cards, discarded `secret` unseen and played
    `shown` face up (versions 8, 9 and 10)."""

    secret: str
    shown: str


def discarded(client: TestClient) -> Discarded:
    m = Discarded(client, {"scenario": "s", "decks": {OWNER: DECK},
                           "sides": [{"id": OWNER, "name": "Red"}, {"id": OTHER, "name": "Blue"}]})
    [drawn] = m.act(OWNER, type="draw_cards", count=3)
    m.secret, m.shown = drawn["cards"][0], drawn["cards"][1]
    [gone] = m.act(OWNER, type="discard_cards", cards=[m.secret])
    assert gone["cards"] == [m.secret]  # the owner's own answer names it
    m.act(OWNER, type="play_card", card=m.shown)
    assert m.version == 10
    return m


def red_cards(m: Played, seat: str, **params: Any) -> dict[str, Any]:
    return next(c for c in m.get("/board", seat, **params)["cards"] if c["side"] == OWNER)


def test_the_board_shows_another_sides_discards_only_as_a_count(client: TestClient) -> None:
    m = discarded(client)
    for seat, sees in SEES.items():
        for version in range(9, m.version + 1):  # now, and each point since the discard
            board = json.dumps(m.get("/board", seat, at=version))
            cards = red_cards(m, seat, at=version)
            assert (m.secret in board) == sees, (seat, version)
            assert (cards["hand_count"], cards["discarded_count"]) == (3 - (version - 8), 1)
            assert cards["played"] == [m.shown][:version - 9]  # face up: every seat sees it
            assert cards["discarded"] == ([m.secret] if sees else None), (seat, version)


def test_battlegroup_discards_bg_6_stay_with_their_side_and_the_referee(
        client: TestClient) -> None:
    m = battlegroup_in_round_two(client)  # round 1: each side drew; north discards its card
    [north] = [c for c in m.get("/board", "north")["cards"] if c["side"] == "north"]
    [gone] = m.act("north", type="discard_cards", cards=north["hand"])
    for seat in ("north", "south", "west", "referee", "spectator"):
        board = m.get("/board", seat)
        [cards] = [c for c in board["cards"] if c["side"] == "north"]
        assert cards["discarded_count"] == 1 and cards["hand_count"] == 0
        assert cards["played"] == []
        assert (gone["cards"][0] in json.dumps(board)) == (seat in ("north", "referee")), seat


def test_battlegroup_a_played_card_is_public_and_a_discarded_one_is_not(
        client: TestClient) -> None:
    """In round 2 north discards its card face down (BG-6), draws another and plays it face
    up: every seat sees the played card; only north and the referee see the discarded one."""
    m, secret, shown = battlegroup_north_discards(client)
    m.act("north", type="play_card", card=shown)
    for seat, sees in {"north": True, "south": False, "referee": True,
                       "spectator": False}.items():
        board = m.get("/board", seat)
        [cards] = [c for c in board["cards"] if c["side"] == "north"]
        assert cards["played"] == [shown], seat
        assert cards["discarded_count"] == 1 and cards["hand_count"] == 0, seat
        assert cards["discarded"] == ([secret] if sees else None), seat
        assert (secret in json.dumps(board)) == sees, seat


def test_a_card_played_face_up_is_public_to_every_seat(client: TestClient) -> None:
    """Atomic Africa has no discards: its pile is the cards played, shown to all."""
    m = Played(client, scenario("atomic-africa-demo", units=[
        {"id": "r1", "side": "red", "name": "r1", "figures": 8, "morale_die": "d8"},
        {"id": "b1", "side": "blue", "name": "b1", "figures": 8, "morale_die": "d8"}]))
    [drawn] = m.act("red", type="draw_cards", count=2)
    m.act("red", type="play_card", card=drawn["cards"][0])
    for seat in SEES:
        cards = red_cards(m, seat)
        assert cards["played"] == drawn["cards"][:1] and cards["discarded_count"] == 0, seat


def test_where_sides_can_discard_a_played_card_is_still_shown_to_every_seat(
        client: TestClient) -> None:
    m = discarded(client)
    for seat in SEES:
        assert m.shown in red_cards(m, seat)["played"], seat


def test_the_match_summary_shows_no_card(client: TestClient) -> None:
    m = discarded(client)
    for seat in SEES:
        summary = json.dumps(m.get("", seat))
        assert not any(card in summary for card in DECK), seat


def without_the_deck_list(events: list[dict[str, Any]]) -> str:
    """The events as text, less `MatchCreated` (the scenario's deck list is public)."""
    return json.dumps([e for e in events if e["type"] != "MatchCreated"])


def test_the_events_replay_and_diff_hide_the_discarded_card(client: TestClient) -> None:
    m = discarded(client)
    for seat, sees in SEES.items():
        log = m.get("/events", seat)["events"]
        [gone] = [e for e in log if e["type"] == "CardsDiscarded"]
        assert gone["count"] == 1
        if sees:
            assert gone["cards"] == [m.secret] and "hidden" not in gone
        else:
            assert "cards" not in gone and gone["hidden"] == ["cards"]
        [played] = [e for e in log if e["type"] == "CardPlayed"]
        assert played["card"] == m.shown  # public
        one = m.get("/events/9", seat)
        steps = [s["event"] for s in m.get("/replay", seat, to=m.version, **{"from": 1})["steps"]]
        back = [s["event"] for s in m.get("/replay", seat, to=1, **{"from": m.version})["steps"]]
        for said in (without_the_deck_list(log), json.dumps(one), json.dumps(steps),
                     json.dumps(back)):
            assert (m.secret in said) == sees, seat
        changes = m.get("/diff", seat, to=m.version, **{"from": 7})
        assert m.secret not in json.dumps(changes), seat  # the diff leaves cards out


def test_each_seats_export_hides_the_discarded_card_from_the_others(
        client: TestClient) -> None:
    m = discarded(client)
    for seat, sees in SEES.items():
        r = client.get(f"/api/matches/{m.match}/export", headers=m.auth(seat))
        assert r.status_code == 200, r.text
        lines = [json.loads(line) for line in r.text.splitlines()]
        assert lines[0]["viewer"] == seat
        [gone] = [e for e in lines if e.get("type") == "CardsDiscarded"]
        assert gone.get("cards") == ([m.secret] if sees else None), seat
        assert (m.secret in without_the_deck_list(lines[1:])) == sees, seat


@pytest.mark.parametrize("form", ["md", "html", "csv", "dice"])
def test_the_reports_name_no_card(client: TestClient, form: str) -> None:
    m = discarded(client)
    for seat in SEES:
        r = client.get(f"/api/matches/{m.match}/export", params={"format": form},
                       headers=m.auth(seat))
        assert r.status_code == 200, r.text
        # the card played face up is public (the report says it was played); no other
        assert not any(card in r.text for card in DECK if card != m.shown), (seat, form)


def test_the_table_page_writes_only_what_the_board_gives_the_seat(
        client: TestClient) -> None:
    """The page's cards line (api/static/cards.js), run in Node on each seat's board."""
    node = node_path()
    m = discarded(client)
    boards = {seat: red_cards(m, seat) for seat in SEES}
    script = (f"import {{ cardsLine }} from {json.dumps((STATIC / 'cards.js').as_uri())};\n"
              f"const boards = {json.dumps(boards)};\n"
              "console.log(JSON.stringify(Object.fromEntries(Object.entries(boards)"
              ".map(([seat, cards]) => [seat, cardsLine(cards, 'Red')]))));\n")
    done = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True,
                          text=True, timeout=60, check=True)
    lines = json.loads(done.stdout)
    for seat, sees in SEES.items():
        assert (m.secret in lines[seat]) == sees, lines[seat]
        assert lines[seat].startswith("Red cards: deck 1, hand 1"), lines[seat]
    assert lines[OTHER].endswith(f"; played this turn: {m.shown}; discarded this turn: 1 "
                                 "(not shown)")
    assert lines[OWNER].endswith(f"; played this turn: {m.shown}; discarded this turn: "
                                 f"{m.secret}")
