"""Ruleset files over HTTP and on the command line: GET /api/rulesets/schema serves a JSON
Schema that accepts the shipped files and refuses a misspelt field; POST /api/rulesets/check
answers 200 for a good file and 422 with every problem (check, line, column) for a defective
or hostile one, storing nothing; `battlelog check-ruleset FILE` prints the same report and
exits 0, 1 or 2."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import yaml
from fastapi.testclient import TestClient
from rulefile_forms import FIXTURES, SKIRMISH, billion_laughs

from api.app import create_app
from api.cli import main
from api.routes.rulefiles import MAX_CHECK_BODY
from api.settings import Settings
from domain.app import Matches
from projections.rulefile_load import BUILT_IN, MAX_BYTES, check_file
from projections.store import sqlite_env

GOOD = [SKIRMISH, *sorted(BUILT_IN.glob("*.yaml"))]
MISSPELT = FIXTURES / "defective" / "misspelt-field.yaml"


@pytest.fixture
def matches(tmp_path: Path) -> Iterator[Matches]:
    matches = Matches(env=sqlite_env(str(tmp_path / "battlelog.db")))
    yield matches
    matches.close()


@pytest.fixture
def client(matches: Matches) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(admin_token="admin-token", create_rate="off"),
                               matches=matches)) as client:
        yield client


def schema(client: TestClient) -> Any:
    answer = client.get("/api/rulesets/schema")
    assert answer.status_code == 200
    return jsonschema_rs.validator_for(answer.json())


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.stem)
def test_the_served_schema_accepts_every_good_file(client: TestClient, path: Path) -> None:
    schema(client).validate(yaml.safe_load(path.read_text()))


def test_the_served_schema_refuses_a_misspelt_field(client: TestClient) -> None:
    errors = list(schema(client).iter_errors(yaml.safe_load(MISSPELT.read_text())))
    assert errors and any("alows" in error.message for error in errors)


def check(client: TestClient, body: bytes | str) -> Any:
    return client.post("/api/rulesets/check", content=body,
                       headers={"Content-Type": "application/yaml"})


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.stem)
def test_a_good_file_passes_its_check(client: TestClient, path: Path) -> None:
    answer = check(client, path.read_bytes())
    assert answer.status_code == 200
    file = check_file(path).ruleset
    assert file is not None
    assert answer.json() == {"ok": True, "id": file.id, "title": file.title,
                             "version": file.version, "format_version": 1, "errors": [],
                             "warnings": []}


def test_a_defective_file_is_refused_with_every_problem_where_the_cli_says_it(
        client: TestClient, matches: Matches, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    text = SKIRMISH.read_text().replace(
        "        allows: [move_unit]", "        alows: [move_unit]").replace(
        "    roles: [attacker, defender]", "    roles: [attacker, defnder]")
    before = matches.recorder.max_notification_id()
    answer = check(client, text)
    assert answer.status_code == 422
    body = answer.json()
    assert body["type"] == "/problems/ruleset-file" and body["rule"] == "undeclared-role"
    assert [(e["check"], e["line"], e["column"]) for e in body["errors"]] == [
        ("undeclared-role", 37, 23), ("unknown-field", 42, 9)]
    assert matches.recorder.max_notification_id() == before  # nothing stored
    path = tmp_path / "two-defects.yaml"
    path.write_text(text)
    assert main(["check-ruleset", str(path)]) == 1
    said = capsys.readouterr().out.splitlines()
    assert said == [f"{path}:{e['line']}:{e['column']}: {e['check']}: {e['message']}"
                    for e in body["errors"]] + [f"{path}: 2 problems"]


@pytest.mark.parametrize(("body", "rule"), [
    (billion_laughs(), "yaml-anchor"),
    ("[" * 50_000 + "]" * 50_000, "too-deep"),
    ("title: !!python/object/apply:os.system ['true']\n", "yaml-tag"),
    ("#" * (MAX_BYTES + 1), "too-large"),
    (SKIRMISH.read_text().replace("u.hex != ''", "__import__('os') == null"),
     "unknown-function"),
    (SKIRMISH.read_text().replace("u.hex != ''", "u.__class__.__mro__ == null"),
     "undeclared-name"),
    (SKIRMISH.read_text().replace("u.hex != ''", "!" * 450 + "true"), "expression-too-large"),
], ids=["billion-laughs", "deep", "python-tag", "past-the-cap", "expression-call",
        "expression-attribute-walk", "expression-nesting"])
def test_a_hostile_file_is_refused_with_422_naming_the_problem(
        client: TestClient, matches: Matches, body: str, rule: str) -> None:
    before = matches.recorder.max_notification_id()
    answer = check(client, body)
    assert answer.status_code == 422
    assert answer.json()["rule"] == rule
    assert matches.recorder.max_notification_id() == before


def test_a_body_past_what_the_check_reads_is_refused_413(client: TestClient) -> None:
    answer = check(client, b"#" * (MAX_CHECK_BODY + 1))
    assert answer.status_code == 413


@pytest.mark.parametrize(("body", "rule"), [
    (billion_laughs(), "yaml-anchor"), ("x: " + "[" * 5_000 + "]" * 5_000 + "\n", "too-deep")],
    ids=["billion-laughs", "deep"])
def test_the_cli_refuses_a_hostile_file_with_exit_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, rule: str) -> None:
    path = tmp_path / "hostile.yaml"
    path.write_text(body)
    assert main(["check-ruleset", str(path)]) == 1
    assert f": {rule}: " in capsys.readouterr().out


def test_the_cli_passes_a_good_file_and_cannot_read_a_missing_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-ruleset", str(GOOD[0])]) == 0
    assert capsys.readouterr().out == f"{GOOD[0]}: OK: Skirmish (skirmish, version 1, format 1)\n"
    assert main(["check-ruleset", str(tmp_path / "none.yaml")]) == 2
    assert "cannot read" in capsys.readouterr().err
