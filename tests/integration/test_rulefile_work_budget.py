"""A ruleset file's work has one budget per request and never runs on the event loop (issue
37, docs/rulesets/authoring.md "The work budget"): a board whose file's `unit_info` or
`expects` would pass the budget is served all the same, without the file's extras, saying
so; a guard whose body calls `hex_distance` many times over every pair of units is refused
before it runs (a move: 422 naming the budget, nothing recorded; the legal answer: cut short
saying the budget was spent); and a board being built in one match does not hold another
match's request. Counted in work and in what was served, never in seconds."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import Played

from domain.rulefiles import closures, cost, evaluate

YAML = {"Content-Type": "application/yaml"}
TWELVE = " + ".join(["hex_distance(a.hex, b.hex)"] * 12)
# every pair of units read for each unit shown: within one reading's bound, not 150 of them
PAIRS = "units.exists(a, units.exists(b, a.hex == b.hex && b.id == unit.id && a.id == ''))"


def ruleset_file(extra: str) -> str:
    return f"""\
format_version: 1
id: work-budget
title: Work budget
sides: {{count: 2}}
unit_kinds: {{squad: {{title: Squad}}}}
actions: {{move_unit: {{title: Move}}}}
sequence:
  - step: move
    title: Movement
    allows: [move_unit]
{extra}"""


UNIT_INFO = ruleset_file(f"""\
unit_info:
  - kinds: [squad]
    shows: {{alone: "!({PAIRS})"}}
""")
EXPECTS = ruleset_file("expects:\n" + "".join(
    f"  - {{when: \"units.exists(a, units.exists(b, a.hex == b.hex && a.id == '{n}'))\", "
    f"says: entry {n}}}\n" for n in range(150)) + "  - {says: every entry read}\n")
GUARDED = ruleset_file(f"""\
guards:
  - {{actions: [move_unit], rule: WB-1, says: the squads stay apart, binds_referee: true,
     when: "units.all(a, units.all(b, {TWELVE} < 100000))"}}
""")


def play(client: TestClient, text: str, count: int, scenario: str = "budget") -> Played:
    stored = client.post("/api/rulesets", content=text, headers=YAML)
    assert stored.status_code in (200, 201), stored.text
    units = [{"id": f"u{i}", "side": ("red", "blue")[i % 2], "name": f"u{i}",
              "kind": "squad", "position": {"hex": f"{i % 20 + 1:02d}{i // 20 + 1:02d}"}}
             for i in range(count)]
    return Played(client, {"ruleset": "work-budget", "ruleset_hash": stored.json()["hash"],
                           "scenario": scenario, "sides": [{"id": "red", "name": "Red"},
                                                           {"id": "blue", "name": "Blue"}],
                           "units": units})


def test_unit_info_past_the_budget_leaves_the_files_values_out_and_says_so(
        client: TestClient, charged: list[int]) -> None:
    """150 units, each shown after reading every pair of units (22,650 steps a unit):
    3.4 million steps in all, past the board's budget: the board is served, its units
    without the file's values, saying why, after no more than the budget's steps."""
    m = play(client, UNIT_INFO, 150)
    board = m.board
    assert len(board["units"]) == 150 and all(u["computed"] == {} for u in board["units"])
    assert "work budget" in board["left_out"] and "values of units" in board["left_out"]
    assert sum(charged) <= 2 * cost.BUDGET  # the extras' budget, and the rest's
    small = play(client, UNIT_INFO, 20, scenario="small")  # within the budget: shown
    assert small.board["left_out"] is None
    assert all(u["computed"] == {"alone": True} for u in small.board["units"])


def test_expects_past_the_budget_leave_the_files_words_out_and_say_so(
        client: TestClient, charged: list[int]) -> None:
    """150 entries, each reading every pair of 150 units (none holds): past the budget
    together; on 6 units, every entry is read and the last said."""
    m = play(client, EXPECTS, 150)
    board = m.board
    assert board["turn"]["expects"] == [] and "work budget" in board["left_out"]
    assert sum(charged) <= 2 * cost.BUDGET
    small = play(client, EXPECTS, 6, scenario="small")
    assert small.board["left_out"] is None and small.board["turn"]["expects"] == [
        "every entry read"]


@pytest.fixture
def distances(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per hex_distance call, whoever reads it (the closures or CEL's)."""
    calls: list[int] = []
    real = closures.OURS["hex_distance"]

    def counted(a: object, b: object) -> int:
        calls.append(1)
        return real(a, b)

    monkeypatch.setitem(closures.OURS, "hex_distance", counted)
    monkeypatch.setattr(evaluate, "hex_distance", counted)
    return calls


def test_a_guard_calling_hex_distance_over_every_pair_is_refused_before_it_runs(
        client: TestClient, distances: list[int]) -> None:
    """120 units: 14,400 pairs, 12 calls each. The guard is refused naming the budget (a
    move: 422, nothing recorded; the legal answer: cut short, saying so), no call made."""
    m = play(client, GUARDED, 120)
    refused = m.refused("red", 422, "WB-1", type="move_unit", unit_id="u0",
                        to={"hex": "0101"})
    assert refused["type"] == "/problems/work-spent" and "steps over this board" in refused["detail"]
    answer = m.get("/legal", "red")
    assert answer["page"]["truncated"]
    assert "work budget was spent" in answer["page"]["says"]
    assert [a for a in answer["actions"] if a["type"] == "move_unit"] == []
    assert distances == []


def test_a_board_being_built_does_not_hold_another_matchs_request(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """One match's board is held mid-build (on an event): another match's board is served
    meanwhile, so the first was not being built on the event loop."""
    from api.routes import views

    slow, other = play(client, UNIT_INFO, 4, scenario="slow"), play(
        client, UNIT_INFO, 4, scenario="other")
    entered, released, served = threading.Event(), threading.Event(), threading.Event()
    seen: list[bool] = []
    board_view = views.board_view

    def held(state: Any, *args: Any, **kwargs: Any) -> Any:
        if state.scenario == "slow":
            entered.set()
            released.wait(30)  # (a bound should the loop be held: the test then fails)
            seen.append(served.is_set())
        return board_view(state, *args, **kwargs)

    monkeypatch.setattr(views, "board_view", held)
    answers: list[int] = []
    reader = threading.Thread(target=lambda: answers.append(client.get(
        f"/api/matches/{slow.match}/board", headers=slow.auth("red")).status_code))
    reader.start()
    assert entered.wait(30)
    assert client.get(f"/api/matches/{other.match}/board",
                      headers=other.auth("red")).status_code == 200
    served.set()
    released.set()
    reader.join(30)
    assert answers == [200] and seen == [True]
