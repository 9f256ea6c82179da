"""A stored ruleset file's sample set-up, for the lobby's "Fill in its sample" (issue 28):
GET /api/rulesets lists each stored file with the address of its sample (`sample_at`), and
the sample is a body `POST /api/matches` takes as it is, pinned to the file's hash: for an
uploaded file, made from what the file declares (its fewest sides, one unit of each kind a
side, each required attribute within its bounds); for the game shipped with battlelog, its
own demo. Before, a stored file had no sample at all (`sample: null`, no address)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from rulesets_helpers import Played

from api.scenarios import FILES, load

YAML = {"Content-Type": "application/yaml"}
# three to four sides, two kinds of unit, a required attribute of each type and an optional
# one (left out of the sample)
MUSTER = """\
format_version: 1
id: muster
title: Muster
sides: {fewest: 3, most: 4}
unit_kinds:
  foot:
    title: Foot
    attributes:
      drill: {type: integer, title: Drill, minimum: 3, maximum: 8, required: true}
      arm: {type: choice, values: [pike, shot], required: true}
      banner: {type: text, max_length: 3, required: true}
      veteran: {type: integer, minimum: 0, maximum: 1}
  horse: {title: Horse}
actions:
  move_unit: {title: Move}
sequence:
  - step: march
    title: March
"""


def listed(client: TestClient, **where: Any) -> dict[str, Any]:
    r = client.get("/api/rulesets")
    assert r.status_code == 200, r.text
    [found] = [x for x in r.json() if all(x[k] == v for k, v in where.items())]
    return dict(found)


def test_an_uploaded_files_sample_is_made_from_what_it_declares_and_starts_a_match(
        client: TestClient) -> None:
    stored = client.post("/api/rulesets", content=MUSTER, headers=YAML)
    assert stored.status_code == 201, stored.text
    content_hash = stored.json()["hash"]
    info = listed(client, hash=content_hash)
    assert info["sample_at"] == f"/api/rulesets/{content_hash}/sample"
    r = client.get(info["sample_at"])
    assert r.status_code == 200, r.text
    sample = r.json()
    assert (sample["ruleset"], sample["ruleset_hash"]) == ("muster", content_hash)
    assert [s["name"] for s in sample["sides"]] == ["Blue", "Red", "Green"]  # its fewest
    kinds = sorted((u["side"], u["kind"]) for u in sample["units"])
    assert kinds == sorted((s, k) for s in ("blue", "red", "green") for k in ("foot", "horse"))
    foot = next(u for u in sample["units"] if u["kind"] == "foot")
    assert foot["extra"] == {"drill": 5, "arm": "pike", "banner": "Blu"}  # required only
    assert all(u["position"]["hex"] for u in sample["units"])
    m = Played(client, sample)  # taken as it is
    created = m.get("/events", limit=1)["events"][0]
    assert created["ruleset_hash"] == content_hash
    assert len(m.board["units"]) == 6


def test_the_shipped_games_sample_is_its_demo_pinned_to_the_shipped_file(
        client: TestClient) -> None:
    info = listed(client, id="hold-the-towns")
    r = client.get(info["sample_at"])
    assert r.status_code == 200, r.text
    demo = load("hold-the-towns-demo").model_dump(mode="json")
    assert r.json() == {**demo, "ruleset_hash": info["hash"]}
    assert (FILES / "hold-the-towns-demo.json").is_file()


def test_a_built_in_games_sample_is_its_scenario_and_an_unknown_file_has_none(
        client: TestClient) -> None:
    info = listed(client, id="battlegroup", hash=None)
    assert info["sample_at"] == f"/api/scenarios/{info['sample']}"
    assert client.get(info["sample_at"]).status_code == 200
    missing = client.get("/api/rulesets/sha256:" + "0" * 64 + "/sample")
    assert missing.status_code == 404 and missing.json()["rule"] == "core-rulesets"
