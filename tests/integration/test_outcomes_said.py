"""A rule roll's outcome is said in one place (projections.sentences_outcome) and reads the
same on the three surfaces that tell it: the action's answer (`outcome`, what the page says
after the tap), the log (each of the action's events' `said`, the deciding roll first) and
the notice (`last`, what the outbox writes for the event that hands over) and the report (the
action one line of its turn). One roll kind of
each of the five games, with table dice so that each outcome is exact."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario
from test_atomic_africa_api import aa, both_done, squad, to_clean_up
from wing_command_setup import french_first, table, wc

from domain.app import Matches
from domain.waiting import Waiting
from projections.notify_channels import text
from projections.notify_outbox import Outbox, OutboxConfig
from projections.notify_store import open_view
from projections.quoting import markdown_text


def wing_command_morale(client: TestClient) -> tuple[Played, str, dict[str, Any]]:
    m = wc(client)
    french_first(m)
    return m, "french", {"type": "rule_roll", "roll": "unit_morale", "unit_id": "f-line",
                         "leader_id": "f-co", "leadership": 1, **table(2)}


def battlegroup_initiative(client: TestClient) -> tuple[Played, str, dict[str, Any]]:
    m = Played(client, scenario("battlegroup-demo"))
    return m, "north", {"type": "roll_initiative", "source": "table",
                        "results": {"north": 5, "south": 6, "west": 2}}


def atomic_africa_morale(client: TestClient) -> tuple[Played, str, dict[str, Any]]:
    m = aa(client, squad("a", "red", 8, "d10", wound=3, suppression=3),
           squad("ml1", "blue", 10, "d8"))
    to_clean_up(m)
    both_done(m)
    return m, "red", {"type": "roll_morale", "unit_id": "a", "source": "table", "result": 4}


def extended_sequence_weather(client: TestClient) -> tuple[Played, str, dict[str, Any]]:
    m = Played(client, scenario("extended-sequence-demo"))
    return m, "referee", {"type": "roll_dice", "notation": "2d6", "purpose": "weather change",
                          "rule": "ES-1", "source": "table", "results": [4, 3]}


def normandy_sea(client: TestClient) -> tuple[Played, str, dict[str, Any]]:
    m = Played(client, scenario("normandy-demo"))
    return m, "allied", {"type": "roll_dice", "notation": "d6", "purpose": "sea conditions",
                         "rule": "NO-1", "source": "table", "results": [5]}


# (the roll, the words its outcome must hold: what the dice were against, what followed)
ROLLS = {
    "wing-command-morale": (wing_command_morale, [
        "threw 2 for WC-3 unit morale of 4e Ligne", "2 + 1 = 3, failed (needed 4+)",
        "Out of play (casualty): 4e Ligne and its 3 pieces.",
        "removed 1 marker from General Lasalle: Leadership cubes"]),  # the file's title
    "battlegroup-initiative": (battlegroup_initiative, ["Initiative: ", "order: "]),
    "atomic-africa-morale": (atomic_africa_morale, ["for AA-7", "removed 1 suppression marker"]),
    "extended-sequence-weather": (extended_sequence_weather, [
        "threw 4 and 3 for weather change (2d6): 7"]),
    "normandy-sea": (normandy_sea, ["threw 5 for sea conditions (d6): 5."]),
}


@pytest.mark.parametrize("kind", list(ROLLS))
def test_a_rule_rolls_outcome_reads_the_same_after_the_tap_in_the_log_and_in_a_notice(
        client: TestClient, matches: Matches, kind: str) -> None:
    setup, words = ROLLS[kind]
    m, seat, roll = setup(client)
    answer = client.post(f"/api/matches/{m.match}/actions", json=roll, headers=m.auth(seat))
    assert answer.status_code == 201, answer.text
    outcome, events = answer.json()["outcome"], answer.json()["events"]
    for said in words:
        assert said in outcome, (said, outcome)
    assert "Done." not in outcome
    # the log: the action's events say the outcome's sentences, the deciding roll first
    versions = [e["version"] for e in events]
    log = [e for e in m.get("/events", seat, after=versions[0] - 1, limit=len(versions))["events"]]
    assert [e["version"] for e in log] == versions
    assert [e["said"] for e in log] == [e["said"] for e in events]
    deciding = next(e["said"] for e in log if e["type"] in ("DiceRolled", "InitiativeRolled"))
    assert outcome.startswith(deciding)
    for e in log:
        if e["type"] not in ("UnitRemoved", "RollDeclared"):
            assert e["said"] in outcome, e
    # the notice: what the outbox says when the action's last event hands over
    outbox = Outbox(matches, open_view(matches.factory, "postgres" in matches.env[
        "PERSISTENCE_MODULE"]), OutboxConfig())
    [last] = matches.events_of(UUID(m.match), after=versions[-1] - 1, upto=versions[-1])
    notice = outbox.payload(UUID(m.match), versions[-1], Waiting(), seat, last)
    assert notice["last"] == outcome
    assert f"Last: {outcome}\n" in text(notice)  # the e-mail's and the push message's words
    # the report: the action is one line of its turn, the outcome itself
    report = client.get(f"/api/matches/{m.match}/export", params={"format": "md"},
                        headers=m.auth(seat))
    assert report.status_code == 200, report.text
    assert f"  - {markdown_text(outcome)}\n" in report.text


def test_an_action_no_rule_decided_has_no_outcome_and_the_page_says_its_own_words(
        client: TestClient) -> None:
    m = Played(client, scenario("normandy-demo"))
    answer = client.post(f"/api/matches/{m.match}/actions", json={
        "type": "add_note", "text": "coffee first"}, headers=m.auth("allied")).json()
    assert answer["outcome"] == "" and answer["events"][0]["said"]
