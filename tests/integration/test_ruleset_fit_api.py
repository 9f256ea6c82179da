"""A match under a ruleset file fits what the file declares (issue 28,
docs/rulesets/authoring.md "What a match must fit"): a scenario whose units are of a kind
the file does not declare, miss a required attribute, give one of the wrong type, out of its
bounds, not one of its choices or not declared for their kind, or start with a marker kind
or status the file does not declare, or whose end's option is missing or out of bounds, is
refused with 422 naming the rule and the unit, at creation and at import, and leaves no
event; in play a marker kind or status the file does not declare is refused the same way.
Each test runs once per store (SQLite, PostgreSQL)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario
from test_import_checks import rechained

from domain.app import Matches

MUSTER = Path(__file__).parents[1] / "fixtures" / "rulefiles" / "muster.yaml"
YAML = {"Content-Type": "application/yaml"}


def company(**more: Any) -> dict[str, Any]:
    return {"id": "c1", "side": "red", "name": "1st Company", "kind": "company",
            "extra": {"strength": 4}, **more}


def body(*units: dict[str, Any], **options: Any) -> dict[str, Any]:
    return {"ruleset": "muster", "scenario": "The green",
            "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}],
            "units": list(units) or [company()], "options": {"days": 3, **options}}


def uploaded(client: TestClient) -> None:
    r = client.post("/api/rulesets", content=MUSTER.read_bytes(), headers=YAML)
    assert r.status_code == 201, r.text


def events_stored(matches: Matches) -> int:
    return matches.recorder.max_notification_id() or 0


REFUSED = [
    ("kind", body(company(kind="cavalry")), "core-unit-kinds", "'cavalry'"),
    ("required", body(company(extra={})), "core-attributes", "'strength'"),
    ("type", body(company(extra={"strength": "four"})), "core-attributes", "'strength'"),
    ("bounds", body(company(extra={"strength": 7})), "core-attributes", "1 to 6"),
    ("choice", body(company(extra={"strength": 4, "drill": "elite"})), "core-attributes",
     "veteran"),
    ("text", body(company(extra={"strength": 4, "colonel": "Fitzwilliam-Darcy"})),
     "core-attributes", "12 characters"),
    ("flag", body(company(extra={"strength": 4, "mounted": "yes"})), "core-attributes",
     "'mounted'"),
    ("undeclared", body(company(extra={"strength": 4, "guns": 2})), "core-attributes",
     "'guns'"),
    ("marker", body(company(markers={"smoke": 1})), "core-markers", "'smoke'"),
    ("marker-most", body(company(markers={"fatigue": 3})), "core-markers", "at most 2"),
    ("status", body(company(status=["routed"])), "core-statuses", "'routed'"),
    ("option-missing", {**body(), "options": {}}, "MU-1", "'days'"),
    ("option-bounds", body(days=101), "MU-1", "'days'"),
]


@pytest.mark.parametrize(("case", "setup", "rule", "said"), REFUSED,
                         ids=[case[0] for case in REFUSED])
def test_a_scenario_that_does_not_fit_its_file_is_refused_and_leaves_no_event(
        client: TestClient, matches: Matches, case: str, setup: dict[str, Any], rule: str,
        said: str) -> None:
    uploaded(client)
    before = events_stored(matches)
    r = client.post("/api/matches", json=setup)
    assert r.status_code == 422, r.text
    problem = r.json()
    assert problem["rule"] == rule and said in problem["detail"], problem
    if rule.startswith("core-"):
        assert "unit 'c1'" in problem["detail"], problem
    assert events_stored(matches) == before


def test_in_play_an_undeclared_marker_or_status_is_refused_and_a_declared_one_taken(
        client: TestClient, matches: Matches) -> None:
    uploaded(client)
    fits = company(extra={"strength": 6, "drill": "veteran", "colonel": "Hale", "mounted": 1})
    battery = {"id": "b1", "side": "blue", "name": "Guns", "kind": "battery",
               "cv": 3, "extra": {"guns": 4}}  # a unit's own number, not declared: free
    m = Played(client, body(fits, battery))
    before = events_stored(matches)
    m.refused("red", 422, "core-markers", type="place_marker", unit_id="c1", kind="smoke")
    m.refused("red", 422, "core-statuses", type="set_status", unit_id="c1", set=["routed"])
    m.refused("referee", 422, "core-statuses", type="set_status", unit_id="c1", set=["routed"])
    m.refused("red", 422, "core-unit-kinds", type="deploy_unit",
              unit={"side": "red", "name": "Hussars", "kind": "cavalry"})
    assert events_stored(matches) == before
    m.act("red", type="place_marker", unit_id="c1", kind="fatigue", count=2)
    m.refused("red", 422, "core-markers", type="place_marker", unit_id="c1", kind="fatigue")
    m.act("red", type="set_status", unit_id="c1", set=["shaken"])
    [unit] = [u for u in m.board["units"] if u["id"] == "c1"]
    assert (unit["markers"], unit["status"]) == ({"fatigue": 2}, ["shaken"])


def test_the_legal_actions_offer_the_files_markers_and_statuses_and_no_other(
        client: TestClient) -> None:
    uploaded(client)
    m = Played(client, body())
    answer = client.get(f"/api/matches/{m.match}/legal", headers=m.auth("red")).json()
    offered = {a["type"]: a["choices"][0] for a in answer["actions"]}
    [kind] = [i for i in offered["place_marker"]["inputs"] if i["name"] == "kind"]
    [status] = [i for i in offered["set_status"]["inputs"] if i["name"] == "set"]
    for given, declared in ((kind, "fatigue"), (status, "shaken")):
        assert [o["value"] for o in given["values"]] == [declared], given
        assert not given.get("open"), given
    m.act("red", **{**offered["place_marker"]["body"], "kind": kind["values"][0]["value"]})
    assert m.board["units"][0]["markers"] == {"fatigue": 1}


def test_an_import_whose_units_do_not_fit_the_carried_file_is_refused_and_stores_nothing(
        client: TestClient, matches: Matches) -> None:
    uploaded(client)
    m = Played(client, body())
    r = client.get(f"/api/matches/{m.match}/export", headers=m.auth("referee"))
    assert r.status_code == 200, r.text

    def cavalry(version: int, event: dict[str, Any]) -> None:
        if version == 1:
            event["units"][0]["kind"] = "cavalry"

    forged = rechained(r.text.splitlines(keepends=True), cavalry, uuid4())  # it verifies
    before = events_stored(matches)
    again = client.post("/api/matches/import", content=forged,
                        headers={"Content-Type": "application/x-ndjson"})
    assert again.status_code == 422, again.text
    assert "core-unit-kinds" in again.json()["detail"] and "'cavalry'" in again.json()["detail"]
    assert events_stored(matches) == before


@pytest.mark.parametrize("demo_id", ["battlegroup-demo", "wing-command-demo"])
def test_a_built_in_game_played_from_its_file_is_refused_a_unit_its_file_does_not_declare(
        client: TestClient, matches: Matches, demo_id: str) -> None:
    demo = scenario(demo_id)
    assert Played(client, demo).board["ruleset_title"]  # the shipped demo fits its file
    before = events_stored(matches)
    hale = {**demo["units"][0], "kind": "cavalry"}
    r = client.post("/api/matches", json={**demo, "units": [hale, *demo["units"][1:]]})
    assert r.status_code == 422 and r.json()["rule"] == "core-unit-kinds", r.text
    assert f"unit '{hale['id']}'" in r.json()["detail"]
    assert events_stored(matches) == before
