"""The board of a game written as a ruleset file carries what the file declares of its units
(issue 39): each unit kind's title and its attributes by their titles, and the titles of its
markers and statuses, so that the table page's unit cards say a unit's values in the game's
words (Ridge Watch's "Eyes 2", "Speed in hexes 2"). A built-in game declares none."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

TUTORIAL = Path(__file__).parents[2] / "docs" / "rulesets" / "tutorial.md"
BLOCK = re.compile(r"^```(\w+) (\w+)\n(.*?)^```$", re.DOTALL | re.MULTILINE)


def ridge_watch() -> tuple[str, dict[str, Any]]:
    """The tutorial's whole file and its scenario, as the page gives them."""
    found = {tag: text for _, tag, text in BLOCK.findall(TUTORIAL.read_text())}
    return found["whole"], json.loads(found["scenario"])


def board(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    made = client.post("/api/matches", json=body)
    assert made.status_code == 201, made.text
    answer = client.get(f"/api/matches/{made.json()['match_id']}/board",
                        headers={"Authorization": f"Bearer {made.json()['tokens']['referee']}"})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_a_file_games_board_carries_its_unit_kinds_attributes_and_titles(
        client: TestClient) -> None:
    text, scenario = ridge_watch()
    stored = client.post("/api/rulesets", content=text,
                         headers={"Content-Type": "application/yaml"})
    assert stored.status_code == 201, stored.text
    seen = board(client, scenario)
    assert seen["unit_kinds"] == {"scout": {"title": "Scout", "attributes": {
        "eyes": "Eyes", "speed": "Speed in hexes"}}}
    assert seen["marker_titles"] == {"sighting": "Sighting"}
    ash = next(u for u in seen["units"] if u["id"] == "ash")
    assert ash["extra"] == {"eyes": 2, "speed": 2}, "the values the cards show beside them"


def test_a_built_in_games_board_declares_no_unit_kinds(client: TestClient) -> None:
    body = client.get("/api/scenarios/atomic-africa-demo").json()
    seen = board(client, body)
    assert seen["unit_kinds"] == {} and seen["marker_titles"] == {}
