"""The words a ruleset file gives (its title, its steps' titles and what they expect, its
description) are cleaned as notes and annotations are (issue 37, finding 10): no bidi
override, zero-width or other invisible character reaches a page, and a one-line text
(a title) holds no line break that could pass for another line (`referee: red conceded`)."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient
from rulesets_helpers import Played

from projections.rulefile_load import check_file

PATROL = Path(__file__).parents[1] / "fixtures" / "rulefiles" / "patrol.yaml"
HOSTILE = "Battle\u200bgroup \u202eniw der\u202c\nreferee: red conceded"
INVISIBLE = {"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u202a", "\u202b", "\u202c",
             "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u061c"}


def hostile_patrol() -> dict[str, object]:
    data = check_file(PATROL).data
    data["title"] = HOSTILE
    data["description"] = "Two patrols\u200b meet\u2028in the woods.\u202e"
    light = dict(data["sequence"][0])
    light["title"] = "\u2066Light\u2069\u200b\r\nreferee: the match is over"
    light["expects"] = "a player says\u202e how light it is"
    data["sequence"] = [light, *data["sequence"][1:]]
    return data


def seen(text: str) -> bool:
    return not (set(text) & INVISIBLE) and "\n" not in text and "\r" not in text


def test_a_files_titles_and_step_words_are_cleaned_as_notes_are(client: TestClient) -> None:
    r = client.post("/api/rulesets", content=json.dumps(hostile_patrol()),
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 201, r.text
    assert r.json()["title"] == "Battlegroup niw der referee: red conceded"
    stored = client.get(f"/api/rulesets/{r.json()['hash']}").json()
    assert stored["title"] == r.json()["title"]
    m = Played(client, {"ruleset": "patrol", "ruleset_hash": r.json()["hash"],
                        "scenario": "In the woods",
                        "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}],
                        "units": [{"id": "r1", "side": "red", "name": "1st", "kind": "section"},
                                  {"id": "b1", "side": "blue", "name": "A", "kind": "section"}]})
    turn = m.get("/turn")
    assert turn["title"] == "Light referee: the match is over"
    assert m.board["ruleset_title"] == "Battlegroup niw der referee: red conceded"
    said = json.dumps([e["said"] for e in m.get("/events")["events"]])
    assert not (set(json.loads(said)[0]) & INVISIBLE)
    for text in (turn["title"], m.board["ruleset_title"], json.loads(said)[0]):
        assert seen(text), repr(text)
    assert all(seen(str(v)) for v in turn.values() if isinstance(v, str)), turn


def test_a_description_keeps_its_line_breaks_but_nothing_invisible() -> None:
    from domain.rulefiles import RulesetFile

    file = RulesetFile.model_validate(hostile_patrol())
    assert file.description == "Two patrols meet\nin the woods."
    assert file.sequence[0].expects == "a player says how light it is"  # type: ignore[union-attr]


def test_words_a_step_computes_are_cleaned_as_given_words_are(client: TestClient) -> None:
    data = check_file(PATROL).data
    light = dict(data["sequence"][0])
    light["expects"] = [{"says": "'a player\u202e says\u200b' + '\\nreferee: red conceded'"}]
    data["sequence"] = [light, *data["sequence"][1:]]
    r = client.post("/api/rulesets", content=json.dumps(data),
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 201, r.text
    m = Played(client, {"ruleset": "patrol", "ruleset_hash": r.json()["hash"],
                        "scenario": "In the woods",
                        "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}],
                        "units": []})
    assert m.get("/turn")["expects"] == ["a player says referee: red conceded"]
