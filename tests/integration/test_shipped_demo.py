"""The games shipped as ruleset files (projections/rulefiles/) on a fresh service with no
configuration: stored at start, their demos listed beside the built-in games' ones, and a
match created from such a demo as it is pinned to the shipped file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api import scenarios
from api.app import create_app
from api.settings import Settings
from domain.app import Matches
from domain.rulefiles.identity import file_hash
from projections import ruleset_store
from projections.rulefile_load import check_file
from projections.rulefiles import shipped

DEMO = "hold-the-towns-demo"
FIXTURES = Path(__file__).parents[1] / "fixtures" / "rulefiles"


def shipped_hash() -> str:
    [path] = [p for p in shipped() if p.name == "hold-the-towns.yaml"]
    report = check_file(path)
    assert report.ok, report.lines()
    return file_hash(report.data)


def test_a_fresh_service_lists_the_shipped_demo_and_starts_a_match_pinned_to_its_file(
        client: TestClient) -> None:
    listed = client.get("/api/scenarios")
    assert listed.status_code == 200, listed.text
    by_name = {s["name"]: s for s in listed.json()}
    assert set(by_name) == {*scenarios.names(), DEMO}  # beside the built-in demos
    demo = by_name[DEMO]
    assert (demo["ruleset"], demo["title"]) == ("hold-the-towns", "Hold the Towns")
    assert demo["ruleset_hash"] == shipped_hash()  # the hash of the file as shipped
    assert {by_name[n]["ruleset_hash"] for n in scenarios.names()} == {None}
    assert by_name["battlegroup-demo"]["title"] == "Battlegroup"

    # the file is stored as any file is: the service holds it by its hash
    held = client.get(f"/api/rulesets/{shipped_hash()}")
    assert held.status_code == 200, held.text
    assert held.json()["id"] == "hold-the-towns"

    body = client.get(f"/api/scenarios/{DEMO}").json()
    assert body["ruleset_hash"] == shipped_hash()
    created = client.post("/api/matches", json=body)
    assert created.status_code == 201, created.text
    referee = {"Authorization": f"Bearer {created.json()['tokens']['referee']}"}
    base = f"/api/matches/{created.json()['match_id']}"
    [first] = client.get(f"{base}/events", params={"limit": 1}, headers=referee).json()["events"]
    assert first["type"] == "MatchCreated"
    assert (first["ruleset"], first["ruleset_hash"]) == ("hold-the-towns", shipped_hash())
    turn = client.get(f"{base}/turn", headers=referee).json()
    assert turn["step"] == "player_turn/reinforcement"  # the file's first step


def test_the_demo_stays_pinned_to_the_shipped_file_when_a_later_version_is_uploaded(
        client: TestClient) -> None:
    [path] = [p for p in shipped() if p.name == "hold-the-towns.yaml"]
    later = re.sub(r"(?m)^version: \d+$", "version: 99", path.read_text(), count=1)
    # the operator's own later version (the id is the operator's: issue 37)
    up = client.post("/api/rulesets", content=later, headers={
        "Content-Type": "application/yaml", "Authorization": "Bearer admin-token"})
    assert up.status_code == 201, up.text
    assert up.json()["version"] == 99 and up.json()["hash"] != shipped_hash()
    by_name = {s["name"]: s for s in client.get("/api/scenarios").json()}
    assert by_name[DEMO]["ruleset_hash"] == shipped_hash()
    body = client.get(f"/api/scenarios/{DEMO}").json()
    created = client.post("/api/matches", json=body)
    assert created.status_code == 201, created.text
    assert created.json()["match_id"]
    [first] = client.get(f"/api/matches/{created.json()['match_id']}/events",
                         params={"limit": 1}, headers={
        "Authorization": f"Bearer {created.json()['tokens']['referee']}"}).json()["events"]
    assert first["ruleset_hash"] == shipped_hash()  # not the later upload's


def test_a_shipped_file_that_fails_its_checks_stops_the_start(
        store_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    broken = FIXTURES / "defective" / "misspelt-field.yaml"
    monkeypatch.setattr(ruleset_store, "shipped", lambda: [broken])
    matches = Matches(env=store_env)
    try:
        with pytest.raises(ruleset_store.RulesetFolderError, match="misspelt-field.yaml"), \
                TestClient(create_app(Settings(admin_token="a"), matches=matches)):
            pass
        assert ruleset_store.store_of(matches).page() == ([], None)  # nothing stored
    finally:
        ruleset_store.store_of(matches).close()
        matches.close()
