"""A ruleset file's warnings over HTTP (issue 28): a plain key a YAML 1.1 reader takes for
true or false is said in `warnings` (check, line, column, message) by POST
/api/rulesets/check (200: the file passes) and by POST /api/rulesets (201: stored all the
same), and beside the `errors` of a 422 when the file has problems too."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from projections.rulefile_load import BOOLEAN_KEY

YAML = {"Content-Type": "application/yaml"}
LAMPS = (Path(__file__).parents[1] / "fixtures" / "rulefiles" / "warned" / "lamps.yaml"
         ).read_text()


def test_a_file_with_only_warnings_is_checked_and_stored_with_them(client: TestClient) -> None:
    checked = client.post("/api/rulesets/check", content=LAMPS, headers=YAML)
    assert checked.status_code == 200, checked.text
    warnings = checked.json()["warnings"]
    assert [(w["check"], w["line"], w["column"]) for w in warnings] == [
        (BOOLEAN_KEY, 8, 3), (BOOLEAN_KEY, 11, 3)]
    assert checked.json()["errors"] == []
    stored = client.post("/api/rulesets", content=LAMPS, headers=YAML)
    assert stored.status_code == 201, stored.text
    assert stored.json()["warnings"] == warnings
    assert client.get(f"/api/rulesets/{stored.json()['hash']}").status_code == 200


def test_a_refused_file_says_its_warnings_beside_its_errors(client: TestClient) -> None:
    r = client.post("/api/rulesets/check", content=LAMPS.replace("title: Play", "titel: Play"),
                    headers=YAML)
    assert r.status_code == 422, r.text
    assert [e["check"] for e in r.json()["errors"]] == ["unknown-field"]
    assert [(w["check"], w["line"]) for w in r.json()["warnings"]] == [(BOOLEAN_KEY, 8),
                                                                       (BOOLEAN_KEY, 11)]


def test_a_file_without_such_keys_has_no_warnings(client: TestClient) -> None:
    r = client.post("/api/rulesets/check", content=LAMPS.replace("  on:", "  lit:").replace("  n:", "  north:"), headers=YAML)
    assert r.status_code == 200 and r.json()["warnings"] == []
