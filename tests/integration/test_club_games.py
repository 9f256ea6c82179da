"""Three games a club wrote from docs/rulesets alone (tests/fixtures/rulefiles/club/, issue
38's "Done when"), each played to its end over 20 seeds by a client that knows only the
legal actions and acts only for the seats `waiting` names (tests/integration/legal_client.py):

- Broken Ranks: alternating activations; a squad whose wounds pass its grit must split into
  halves as equal as possible, or leave play, its owner's duty (`owes:` by owner);
- Iron Odds: a hex game with an odds results table; every unit of the phasing side next to
  an enemy unit must attack (`owes:` with `hex_distance`), and the results' retreats and
  eliminations are their owners' duties;
- Dice in the Bag: order dice drawn from a bag (a d12 on the bag's column), the side whose
  die comes out owes an order (`owes:` with `while`).

In every game: never stuck (a seat waited for always has a choice or Next step), no body
offered is refused, no 5xx, and the match reaches its end; the split game splits."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from legal_client import LegalClient, events
from rulesets_helpers import Played

from api.app import create_app
from api.settings import Settings
from domain.app import Matches
from projections.store import sqlite_env

CLUB = Path(__file__).resolve().parents[1] / "fixtures" / "rulefiles" / "club"
SEEDS = range(20)
MOVES = 600  # a bound no game of these scenarios comes near when it goes on


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The service in-process on a SQLite store; a 5xx is answered, not raised, so that the
    client counts it."""
    matches = Matches(env=sqlite_env(str(tmp_path / "battlelog.db")))
    app = create_app(Settings(admin_token="admin-token", create_rate="off"), matches=matches)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client
    matches.close()


def played(client: TestClient, game: str) -> tuple[dict[str, Counter[str]], list[str]]:
    """The game's file uploaded, then one match of its scenario played to its end for each
    seed: the events of every match by type, and every fault found (stuck, refused, 5xx,
    not ended), each in words."""
    stored = client.post("/api/rulesets", content=(CLUB / f"{game}.yaml").read_bytes(),
                         headers={"Content-Type": "application/yaml"})
    assert stored.status_code == 201, stored.text
    scenario = json.loads((CLUB / f"{game}-scenario.json").read_text())
    logs: dict[str, Counter[str]] = {}
    faults: list[str] = []
    for seed in SEEDS:
        m = Played(client, scenario)
        tally = LegalClient(m, seed, max_moves=MOVES).play()
        logs[f"seed {seed}"] = Counter(e["type"] for e in events(m))
        if not (tally.fine() and tally.ended):
            faults.append(f"seed {seed}: {tally.summary()}")
    return logs, faults


@pytest.mark.parametrize("game", ["broken-ranks", "iron-odds", "dice-bag"])
def test_a_club_game_is_played_to_its_end_by_a_legal_only_client(
        client: TestClient, game: str) -> None:
    logs, faults = played(client, game)
    assert faults == [], "\n".join(faults)
    assert all(log["MatchEnded"] == 1 for log in logs.values()), logs
    if game == "broken-ranks":  # the split game splits (BR-5)
        assert sum(log["UnitSplit"] for log in logs.values()) > 0, logs
    if game == "iron-odds":  # attacks are made (IO-4), and results carried out (IO-6)
        assert all(log["ResultRecorded"] > 0 for log in logs.values()), logs
        assert sum(log["UnitRemoved"] for log in logs.values()) > 0, logs


STUCK = """
format_version: 1
id: club-stuck
title: A game that sticks
sides: {count: 2}
actions:
  rule_roll: {title: Roll}
conditions:
  never: {title: Never, when: "turn < 0"}
rolls:
  never:
    title: A roll no one may make
    rule: ST-1
    steps: [hold]
    unit: false
    when: "turn < 0"
    dice: d6
    target: {at_least: "1"}
    passes: {says: it passes}
    fails: {says: it fails}
sequence:
  - step: hold
    title: Hold
    allows: [rule_roll]
    leave_when: never
"""


def test_the_client_counts_a_game_that_sticks(client: TestClient) -> None:
    """The harness itself: a step no seat can act in or leave is counted stuck, not played
    on and not passed (so that 0 stuck above means something)."""
    stored = client.post("/api/rulesets", content=STUCK,
                         headers={"Content-Type": "application/yaml"})
    assert stored.status_code == 201, stored.text
    m = Played(client, {"ruleset": "club-stuck", "scenario": "stuck", "sides": [
        {"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}], "units": []})
    tally = LegalClient(m, 0, max_moves=20).play()
    assert len(tally.stuck) == 1 and not tally.ended and tally.moves == 0, tally.summary()
