"""A match driven through the HTTP API by its seats, for the ruleset tests."""

from __future__ import annotations

import copy
import os
import shutil
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from api import scenarios
from domain.app import Matches
from domain.history import replay


def scenario(name: str, **changes: Any) -> dict[str, Any]:
    """A shipped sample scenario as a request body, with top-level fields replaced."""
    return {**scenarios.load(name).model_dump(mode="json"), **copy.deepcopy(changes)}

PLANTED_SEED = b"PLANTED-REPLAY-SEED-7c21"  # every dice seed of the `planted` fixture's service


@dataclass
class Played:
    client: TestClient
    body: dict[str, Any]
    match: str = ""
    tokens: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        r = self.client.post("/api/matches", json=self.body)
        assert r.status_code == 201, r.text
        self.match = str(r.json()["match_id"])
        self.tokens = dict(r.json()["tokens"])
        for side in self.body["sides"]:
            joined = self.client.post(f"/api/matches/{self.match}/seats",
                                      json={"player": side["name"]},
                                      headers=self.auth(f"join:{side['id']}"))
            assert joined.status_code == 201, joined.text
            self.tokens[side["id"]] = joined.json()["token"]

    def auth(self, seat: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def get(self, path: str, seat: str = "referee", **params: Any) -> Any:
        r = self.client.get(f"/api/matches/{self.match}{path}", params=params,
                            headers=self.auth(seat))
        assert r.status_code == 200, r.text
        return r.json()

    def act(self, seat: str, **action: Any) -> list[dict[str, Any]]:
        r = self.client.post(f"/api/matches/{self.match}/actions", json=action,
                             headers=self.auth(seat))
        assert r.status_code == 201, r.text
        return list(r.json()["events"])

    def refused(self, seat: str, status: int, rule: str, body: dict[str, Any] | None = None,
                **action: Any) -> dict[str, Any]:
        """The action (`body`, or the keywords) is refused with `status` naming `rule`, and
        nothing is appended."""
        action = {**(body or {}), **action}
        before = self.version
        r = self.client.post(f"/api/matches/{self.match}/actions", json=action,
                             headers=self.auth(seat))
        assert r.status_code == status, r.text
        assert r.json()["rule"] == rule, r.text
        assert self.version == before
        return dict(r.json())

    @property
    def version(self) -> int:
        return int(self.get("")["version"])

    @property
    def board(self) -> dict[str, Any]:
        return dict(self.get("/board"))

    @property
    def turn(self) -> dict[str, Any]:
        return dict(self.get("/turn"))

    def unit(self, unit_id: str, seat: str = "referee") -> dict[str, Any]:
        board = self.get("/board", seat)
        return next(u for u in board["units"] + board["off_board"] if u["id"] == unit_id)


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


def assert_replay_matches(matches: Matches, m: Played) -> None:
    """The log replayed from scratch reaches exactly the state the service holds."""
    match_id = UUID(m.match)
    head = matches.head(match_id)
    replayed = replay(matches.events_of(match_id))
    assert replayed.version == head.version
    assert replayed.state == head.state


def battlegroup_in_round_two(client: TestClient) -> Played:
    """A Battlegroup demo match without units over two rounds: in round 1 every side drew a
    card; round 2's initiative is rolled and its next step begun."""
    m = Played(client, scenario("battlegroup-demo", units=[], options={"rounds": 2}))
    while True:
        m.act("referee", type="roll_initiative", source="table",
              results={"north": 4, "south": 3, "west": 1})
        m.act("referee", type="advance")
        if m.turn["turn"] == 2:
            return m
        for side in ("north", "south", "west"):
            m.act(side, type="draw_cards")
        while m.turn["turn"] == 1:
            m.act("referee", type="advance")


def battlegroup_north_discards(client: TestClient) -> tuple[Played, str, str]:
    """`battlegroup_in_round_two`, then north discards its card face down (BG-6) and draws
    another, and the round comes to its last step. The match, the card discarded and the
    card drawn."""
    m = battlegroup_in_round_two(client)
    [north] = [c for c in m.get("/board", "north")["cards"] if c["side"] == "north"]
    [gone] = m.act("north", type="discard_cards", cards=north["hand"])
    [drawn] = m.act("north", type="draw_cards")
    while m.turn["step"] != "round_up":
        m.act("referee", type="advance")
    return m, gone["cards"][0], drawn["cards"][0]


def node() -> str:
    """Node.js, for the tests that run a page's module on the service's answers; the test is
    skipped where it is missing, unless BATTLELOG_REQUIRE_BROWSER=1 (CI: it fails there)."""
    found = shutil.which("node")
    if found is None:
        if os.environ.get("BATTLELOG_REQUIRE_BROWSER") == "1":  # CI: the page is tested there
            pytest.fail("Node.js is not installed (this machine kind has it: /usr/bin/node)")
        pytest.skip("Node.js is not installed")
    return found
