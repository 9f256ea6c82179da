"""A ruleset file's warnings over HTTP (issue 28): a plain key a YAML 1.1 reader takes for
true or false is said in `warnings` (check, line, column, message) by POST
/api/rulesets/check (200: the file passes) and by POST /api/rulesets (201: stored all the
same), and beside the `errors` of a 422 when the file has problems too."""

from __future__ import annotations

from fastapi.testclient import TestClient

from projections.rulefile_load import BOOLEAN_KEY

YAML = {"Content-Type": "application/yaml"}
LAMPS = """\
format_version: 1
id: lamps
title: Lamps
statuses:
  on: {title: Lit}
  dark: {title: Dark}
sequence:
  - step: play
    title: Play
"""


def test_a_file_with_only_warnings_is_checked_and_stored_with_them(client: TestClient) -> None:
    checked = client.post("/api/rulesets/check", content=LAMPS, headers=YAML)
    assert checked.status_code == 200, checked.text
    [warning] = checked.json()["warnings"]
    assert (warning["check"], warning["line"], warning["column"]) == (BOOLEAN_KEY, 5, 3)
    assert checked.json()["errors"] == []
    stored = client.post("/api/rulesets", content=LAMPS, headers=YAML)
    assert stored.status_code == 201, stored.text
    assert stored.json()["warnings"] == [warning]
    assert client.get(f"/api/rulesets/{stored.json()['hash']}").status_code == 200


def test_a_refused_file_says_its_warnings_beside_its_errors(client: TestClient) -> None:
    r = client.post("/api/rulesets/check", content=LAMPS.replace("title: Play", "titel: Play"),
                    headers=YAML)
    assert r.status_code == 422, r.text
    assert [e["check"] for e in r.json()["errors"]] == ["unknown-field"]
    assert [(w["check"], w["line"]) for w in r.json()["warnings"]] == [(BOOLEAN_KEY, 5)]


def test_a_file_without_such_keys_has_no_warnings(client: TestClient) -> None:
    r = client.post("/api/rulesets/check", content=LAMPS.replace("  on:", "  lit:"), headers=YAML)
    assert r.status_code == 200 and r.json()["warnings"] == []
