"""Authority, through HTTP on each store: every action type of the served union x every seat
kind (the referee, the target's owner, another player, a spectator) x whose unit, side or
track it targets. A refusal is a 403 naming its rule and appends nothing; an allowed seat
gets past authority (201, or the refusal the action would meet anyway in freeform: another
ruleset's procedure). The table asserted here is the one in docs/seats.md; the findings
that led to it have their own tests in test_authority_findings.py, on both stores."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from domain.app import Matches
from domain.commands import CreateMatch, DrawCards
from projections.store import sqlite_env

SIDES = ("red", "blue")
UNIT = {"red": "r1", "blue": "b1"}


def other(side: str) -> str:
    return "blue" if side == "red" else "red"


def _unit(side: str) -> dict[str, Any]:
    return {"id": UNIT[side], "side": side, "name": f"{side} squad", "figures": 10, "steps": 2,
            "morale_die": "d6", "markers": {"suppression": 2}, "position": {"x": 5, "y": 5},
            "extra": {"battlegroup": f"{side}-bg"}}


Builder = Callable[[str, "Table"], dict[str, Any]]  # (target side, match) -> action body

# kind -> (the action against `target`'s things, who may take it, what an allowed seat gets)
# who: "owner" (the target's side and the referee), "sides" (any side for itself, and the
# referee), "not owner" (another side, and the referee), "side" (any side, not the referee),
# "own" (the target side alone: another side's hand is out of its reach), "referee" (the
# referee alone), "itself" (the target side alone, not even the referee: a 403).
ANSWERED = 201
OTHER_RULESET = (422, "core-actions")
TABLE: dict[str, tuple[Builder, str, Any]] = {
    "deploy_unit": (lambda t, m: {"unit": {**_unit(t), "id": f"{t}-new"}}, "owner", ANSWERED),
    "move_unit": (lambda t, m: {"unit_id": UNIT[t], "to": {"x": 7, "y": 8}}, "owner", ANSWERED),
    "set_status": (lambda t, m: {"unit_id": UNIT[t], "set": ["pinned"]}, "owner", ANSWERED),
    "place_marker": (lambda t, m: {"kind": "wound", "unit_id": UNIT[t]}, "sides", ANSWERED),
    "remove_marker": (lambda t, m: {"kind": "suppression", "unit_id": UNIT[t]}, "owner",
                      ANSWERED),
    "roll_dice": (lambda t, m: {"notation": "2d6", "purpose": "fire at it", "unit_ids": [UNIT[t]]},
                  "sides", ANSWERED),
    "record_roll": (lambda t, m: {"results": [4]}, "owner", ANSWERED),  # t declared the roll
    "split_unit": (lambda t, m: {"unit_id": UNIT[t], "new_unit_id": f"{t}-half", "figures": 4},
                   "owner", ANSWERED),
    "rally_unit": (lambda t, m: {"unit_id": UNIT[t], "remove_markers": {"suppression": 1}},
                   "owner", ANSWERED),
    "remove_unit": (lambda t, m: {"unit_id": UNIT[t], "reason": "destroyed"}, "owner", ANSWERED),
    "lose_step": (lambda t, m: {"unit_id": UNIT[t]}, "owner", ANSWERED),
    "gain_step": (lambda t, m: {"unit_id": UNIT[t]}, "owner", ANSWERED),
    "activate_unit": (lambda t, m: {"unit_id": UNIT[t]}, "owner", ANSWERED),
    "set_track": (lambda t, m: {"name": f"morale.{t}", "value": 3}, "owner", ANSWERED),
    "score_vp": (lambda t, m: {"side": t, "points": 10_000}, "owner", ANSWERED),
    "advance": (lambda t, m: {}, "sides", ANSWERED),
    "add_note": (lambda t, m: {"text": f"about {UNIT[t]}"}, "sides", ANSWERED),
    "open_dispute": (lambda t, m: {"about_version": 1, "text": "that roll"}, "sides", ANSWERED),
    "end_match": (lambda t, m: {"winner": t}, "sides", ANSWERED),  # a side's is a proposal
    "concede": (lambda t, m: {}, "side", ANSWERED),
    "reopen_match": (lambda t, m: {}, "referee", ANSWERED),  # the match has ended first
    "draw_cards": (lambda t, m: {"count": 1}, "side", ANSWERED),  # always the actor's own deck
    "discard_cards": (lambda t, m: {"cards": [m.hand(t)]}, "own", ANSWERED),
    "play_card": (lambda t, m: {"card": m.hand(t)}, "own", ANSWERED),
    "shuffle_deck": (lambda t, m: {}, "side", ANSWERED),
    "cut_deck": (lambda t, m: {"side": t, "at": 1}, "not owner", ANSWERED),
    "rule_roll": (lambda t, m: {"roll": "morale", "unit_id": UNIT[t]}, "owner",
                  (422, "core-rolls")),
    "fire": (lambda t, m: {"unit_id": UNIT[t], "target_id": UNIT[other(t)]}, "owner",
             OTHER_RULESET),
    "roll_morale": (lambda t, m: {"unit_id": UNIT[t], "source": "table", "result": 6}, "owner",
                    OTHER_RULESET),
    "activate_battlegroup": (lambda t, m: {"battlegroup": f"{t}-bg"}, "owner", OTHER_RULESET),
    "roll_initiative": (lambda t, m: {"source": "table", "results": {t: 6}}, "sides",
                        OTHER_RULESET),
    "pass_initiative": (lambda t, m: {}, "sides", OTHER_RULESET),
    "announce_reinforcements": (lambda t, m: {"unit_ids": [UNIT[t]], "entry": "north"}, "owner",
                                OTHER_RULESET),
    "set_supply": (lambda t, m: {"unit_ids": [UNIT[t]], "status": "isolated"}, "owner",
                   OTHER_RULESET),
    "resolve_combat": (lambda t, m: {"attackers": [UNIT[t]], "defenders": [UNIT[other(t)]],
                                  "odds": "3:1"}, "owner", OTHER_RULESET),
    "call_artillery": (lambda t, m: {"mission": "m1", "stage": "radio_contact"}, "sides",
                       OTHER_RULESET),
    "declare_operation": (lambda t, m: {}, "sides", OTHER_RULESET),
    "enter_result": (lambda t, m: {"result": "hit"}, "sides", (422, "core-results")),
    # the game clock is the referee's (docs/clock.md); pause, resume, adjust: once started
    "start_clock": (lambda t, m: {"controls": {s: {"total": 600} for s in SIDES}}, "referee",
                    ANSWERED),
    "pause_clock": (lambda t, m: {"reason": f"{t} asked"}, "referee", ANSWERED),
    "resume_clock": (lambda t, m: {}, "referee", ANSWERED),
    # a side's standing pass: started by that side alone (the referee only stops one)
    "standing_pass": (lambda t, m: {"side": t}, "itself", ANSWERED),
    "adjust_clock": (lambda t, m: {"side": t, "seconds": 3600, "reason": "more time"},
                     "referee", ANSWERED),
}


def may(who: str, seat: str, target: str) -> bool:
    return {"owner": seat in ("referee", target), "sides": True,
            "not owner": seat != target, "side": seat in SIDES, "own": seat == target,
            "referee": seat == "referee", "itself": seat == target}[who]


class Table:
    """A freeform match with a unit, a deck and a drawn card per side, set up through the
    application; actions go through HTTP."""

    def __init__(self, client: TestClient, matches: Matches) -> None:
        self.client, self.matches = client, matches
        created = matches.create_match(CreateMatch.model_validate({
            "ruleset": "freeform", "scenario": "authority",
            "sides": [{"id": s, "name": s.title()} for s in SIDES],
            "units": [_unit(s) for s in SIDES],
            "decks": {s: [f"{s}-{i}" for i in range(1, 5)] for s in SIDES}}))
        self.id: UUID = created.events[0].originator_id
        self.tokens = dict(created.tokens)
        for side in SIDES:
            self.tokens[side] = matches.join(self.id, side=side, player=side).tokens[side]
            matches.act(self.id, DrawCards(count=1), actor=side)

    def hand(self, side: str) -> str:
        return self.matches.head(self.id).state.hands[side][0]

    @property
    def version(self) -> int:
        return self.matches.head(self.id).version

    def act(self, seat: str, body: dict[str, Any]) -> Any:
        return self.client.post(f"/api/matches/{self.id}/actions", json=body,
                                headers={"Authorization": f"Bearer {self.tokens[seat]}"})


@pytest.fixture(scope="module")
def matches(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Matches]:
    """One SQLite store for the whole table (each case has a match of its own): who may do
    what is decided in the domain, the same on every store; the findings' tests below and
    the e2e races run on PostgreSQL too."""
    matches = Matches(env=sqlite_env(str(tmp_path_factory.mktemp("authority") / "b.db")))
    yield matches
    matches.close()


@pytest.fixture(scope="module")
def client(matches: Matches) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(admin_token="admin-token"), matches=matches)) as client:
        yield client


def _prepare(table: Table, kind: str, target: str) -> None:
    """What the action needs first: a roll declared by `target`, an ended match."""
    if kind == "record_roll":
        r = table.act(target, {"type": "roll_dice", "notation": "d6", "purpose": "rally",
                               "source": "table"})
        assert r.status_code == 201, r.text
    if kind == "reopen_match":
        r = table.act("referee", {"type": "end_match", "winner": target})
        assert r.status_code == 201, r.text
    clock = {"pause_clock": ["start_clock"], "adjust_clock": ["start_clock"],
             "resume_clock": ["start_clock", "pause_clock"]}.get(kind, [])
    for first in clock:
        r = table.act("referee", {"type": first, **TABLE[first][0](target, table)})
        assert r.status_code == 201, r.text


def test_the_table_covers_every_action_type_the_api_serves(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    body = schema["paths"]["/api/matches/{match_id}/actions"]["post"]["requestBody"]
    mapping = body["content"]["application/json"]["schema"]["discriminator"]["mapping"]
    assert set(mapping) == set(TABLE)


@pytest.mark.parametrize("target", SIDES)
@pytest.mark.parametrize("seat", ["referee", "red", "blue", "spectator"])
@pytest.mark.parametrize("kind", sorted(TABLE))
def test_who_may_take_each_action_on_whose_things(
    client: TestClient, matches: Matches, kind: str, seat: str, target: str
) -> None:
    build, who, allowed = TABLE[kind]
    table = Table(client, matches)
    _prepare(table, kind, target)
    before = table.version
    r = table.act(seat, {"type": kind, **build(target, table)})
    if seat == "spectator":
        assert (r.status_code, r.json()["rule"]) == (403, "core-seats"), r.text
    elif who == "own" and seat != "referee" and not may(who, seat, target):
        assert (r.status_code, r.json()["rule"]) == (422, "core-cards"), r.text  # not yours
    elif not may(who, seat, target):
        assert r.status_code == 403, r.text
        assert r.json()["rule"] in ("core-authority", "core-cards", "core-end"), r.text
    else:
        expected = (r.status_code if r.status_code == 201 else
                    (r.status_code, r.json()["rule"]))
        assert expected == allowed, r.text
        return
    assert table.version == before  # a refusal appends nothing
