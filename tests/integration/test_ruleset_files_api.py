"""Ruleset files loaded and played (issue 28, docs/rulesets/authoring.md): a file stored by
upload (`POST /api/rulesets`) or from the configured folder, listed with its content hash;
a defective, hostile or unplayable file refused with 422 and nothing stored; a match created
from a stored file pins its hash in its first event and is refereed through the same legal
actions, whose turn, refusals and sentences as a built-in game; its export carries the file,
so a fresh server that never loaded it imports, replays and verifies it; and the same log
checked against an edited file is flagged."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import Played

from api.app import create_app
from api.cli import main
from api.settings import Settings
from domain.app import Matches
from domain.integrity import canonical, content_hash, split_lines, verify
from domain.rulefiles.identity import file_hash
from domain.rulesets import registry
from projections.rulefile_load import check_file
from projections.rulefiles import shipped
from projections.ruleset_store import RulesetFolderError
from projections.store import sqlite_env

FIXTURES = Path(__file__).parents[1] / "fixtures" / "rulefiles"
PATROL = FIXTURES / "patrol.yaml"
YAML = {"Content-Type": "application/yaml"}
SHIPPED = {file_hash(check_file(path).data) for path in shipped()}


def upload(client: TestClient, text: bytes | str, **headers: str) -> Any:
    return client.post("/api/rulesets", content=text, headers={**YAML, **headers})


def stored(client: TestClient) -> list[dict[str, Any]]:
    """The ruleset files the service holds but those shipped with battlelog (stored at
    every start: tests/integration/test_shipped_demo.py)."""
    r = client.get("/api/rulesets")
    assert r.status_code == 200, r.text
    return [r for r in r.json() if r["hash"] is not None and r["hash"] not in SHIPPED]


def patrol_hash() -> str:
    return file_hash(check_file(PATROL).data)


def body(ruleset: str = "patrol", **more: Any) -> dict[str, Any]:
    return {"ruleset": ruleset, "scenario": "In the woods",
            "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}],
            "units": [{"id": "r1", "side": "red", "name": "1st Section", "kind": "section"},
                      {"id": "b1", "side": "blue", "name": "A Section", "kind": "section"}],
            **more}


def legal(m: Played, seat: str) -> dict[str, Any]:
    r = m.client.get(f"/api/matches/{m.match}/legal", headers=m.auth(seat))
    assert r.status_code == 200, r.text
    return dict(r.json())


def offered(m: Played, seat: str, kind: str) -> dict[str, Any]:
    """The first choice the legal answer offers `seat` for `kind`, its inputs filled with
    their examples: the body the page would post."""
    [found] = [a for a in legal(m, seat)["actions"] if a["type"] == kind]
    choice = found["choices"][0]
    return {**choice["body"], **{i["name"]: i["example"] for i in choice["inputs"]
                                 if i["required"]}}


def advance(m: Played, seat: str) -> None:
    answer = legal(m, seat)
    assert answer["advance"]["legal"], answer["advance"]
    r = m.client.post(f"/api/matches/{m.match}/actions", json=answer["advance"]["body"],
                      headers=m.auth(seat))
    assert r.status_code == 201, r.text


def test_an_uploaded_file_is_stored_by_its_hash_and_listed_once(client: TestClient) -> None:
    text = PATROL.read_bytes()
    r = upload(client, text)
    assert r.status_code == 201, r.text
    assert r.json()["hash"] == patrol_hash()
    assert re.fullmatch(r"sha256:[0-9a-f]{64}", r.json()["hash"])
    assert r.headers["Location"] == f"/api/rulesets/{patrol_hash()}"
    held = client.get(r.headers["Location"])
    assert held.status_code == 200, held.text
    assert file_hash(held.json()["file"]) == patrol_hash() and held.json()["id"] == "patrol"
    missing = client.get("/api/rulesets/sha256:" + "0" * 64)
    assert missing.status_code == 404 and missing.json()["rule"] == "core-rulesets"
    # a segment that is no content hash is no stored file's address: the check's own path
    # takes POST only (405), and a malformed hash is no such resource (404)
    wrong = client.get("/api/rulesets/check")
    assert wrong.status_code == 405 and wrong.headers["Allow"] == "POST"
    assert client.get("/api/rulesets/sha256:xyz").status_code == 404
    listed = client.put("/api/rulesets")  # Allow names what the path's routes take
    assert listed.status_code == 405 and listed.headers["Allow"] == "GET, POST"
    # the same file as JSON, keys in another order: the same content, the same hash
    data = check_file(PATROL).data
    again = client.post("/api/rulesets", content=json.dumps(dict(reversed(data.items()))),
                        headers={"Content-Type": "application/json"})
    assert again.status_code == 201 and again.json()["hash"] == patrol_hash()
    [listed] = stored(client)
    assert (listed["id"], listed["title"], listed["hash"]) == ("patrol", "Patrol", patrol_hash())
    info = client.get(listed["info_at"]).json()  # the list carries no more than the titles
    assert info["hash"] == patrol_hash()
    assert info["sides"]["fewest"] == info["sides"]["most"] == 2
    assert [k["value"] for k in info["kinds"]] == ["section"]


@pytest.mark.parametrize(("name", "check", "line"), [
    ("defective/misspelt-field.yaml", "unknown-field", 42),
    ("defective/role-not-declared.yaml", "undeclared-role", None),
    ("unplayable.yaml", "unknown-procedure", None),  # checks, but names a procedure
])
def test_a_defective_or_unplayable_file_is_refused_and_nothing_is_stored(
        client: TestClient, name: str, check: str, line: int | None) -> None:
    text = (FIXTURES / name).read_text()
    r = upload(client, text)
    assert r.status_code == 422, r.text
    assert r.json()["rule"] == check
    first = r.json()["errors"][0]
    assert first["check"] == check and first["column"] >= 1
    if line is not None:
        assert first["line"] == line
    if check == "unknown-procedure":  # at the procedure's own line in the file
        lines = text.splitlines()
        assert "procedure: skirmish.all_moved" in lines[first["line"] - 1]
    assert stored(client) == []


def test_a_hostile_file_is_refused_and_nothing_is_stored(client: TestClient) -> None:
    bomb = "a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n"
    r = upload(client, bomb)
    assert r.status_code == 422 and r.json()["rule"] == "yaml-anchor"
    r = upload(client, "format_version: 1\nid: !!python/object:os.system x\n")
    assert r.status_code == 422 and r.json()["rule"] == "yaml-tag"
    assert stored(client) == []


@pytest.mark.parametrize("who", ["admin", "off"])
def test_who_may_upload_is_the_deployments_setting(store_env: dict[str, str],
                                                   who: str) -> None:
    matches = Matches(env=store_env)
    settings = Settings(admin_token="the-admin", ruleset_upload=who)
    with TestClient(create_app(settings, matches=matches)) as client:
        r = upload(client, PATROL.read_bytes())
        assert r.status_code == (401 if who == "admin" else 403), r.text
        assert r.json()["rule"] == "core-rulesets"
        r = upload(client, PATROL.read_bytes(), Authorization="Bearer the-admin")
        assert r.status_code == (201 if who == "admin" else 403), r.text
        assert len(stored(client)) == (1 if who == "admin" else 0)
    matches.close()


def test_the_configured_folder_is_stored_at_start_and_a_bad_file_there_stops_it(
        tmp_path: Path) -> None:
    folder = tmp_path / "rulesets"
    folder.mkdir()
    (folder / "patrol.yaml").write_bytes(PATROL.read_bytes())
    (folder / "notes.txt").write_text("not a ruleset file: not read")
    matches = Matches(env=sqlite_env(str(tmp_path / "a.db")))
    with TestClient(create_app(Settings(admin_token="a", rulesets_dir=str(folder)),
                               matches=matches)) as client:
        assert [r["hash"] for r in stored(client)] == [patrol_hash()]
    (folder / "bad.yaml").write_text((FIXTURES / "unplayable.yaml").read_text())
    app = create_app(Settings(admin_token="a", rulesets_dir=str(folder)), matches=matches)
    with pytest.raises(RulesetFolderError, match=r"bad\.yaml:\d+:\d+: unknown-procedure"), (
            TestClient(app)):
        pass
    matches.close()


def patrol_match(client: TestClient, **more: Any) -> Played:
    assert upload(client, PATROL.read_bytes()).status_code == 201
    return Played(client, body(**more))


def test_a_match_from_a_file_pins_its_hash_and_is_refereed_through_the_legal_actions(
        client: TestClient) -> None:
    m = patrol_match(client)
    [created] = m.get("/events", limit=1)["events"]
    assert created["type"] == "MatchCreated"
    assert (created["ruleset"], created["ruleset_hash"]) == ("patrol", patrol_hash())
    turn = m.turn
    assert (turn["step"], turn["title"], turn["sequence"]) == (
        "light", "Light", ["light", "turn/move", "turn/fire"])
    # the light, as the legal answer offers it; then red's player-turn (red first)
    assert m.board["ruleset_title"] == "Patrol"
    m.act("red", **offered(m, "red", "set_track"))
    assert m.board["tracks"] == {"light": "day"}
    assert m.board["track_titles"] == {"light": "Light"}
    advance(m, "red")
    assert (m.turn["step"], m.turn["active_side"]) == ("turn/move", "red")
    # not blue's turn: the legal answer offers it no move, and the action is refused
    assert [a for a in legal(m, "blue")["actions"] if a["type"] == "move_unit"] == []
    refusal = m.refused("blue", 403, "PA-2", type="move_unit", unit_id="b1",
                        to={"x": 1, "y": 1})  # the step's rule, from the file
    assert refusal["type"] == "/problems/not-your-turn" and "only red acts" in refusal["detail"]
    before = m.version
    m.act("red", **offered(m, "red", "move_unit"))
    assert m.version == before + 1
    advance(m, "red")
    assert m.turn["step"] == "turn/fire"
    # fire is not in the movement step's list: out of its step, refused naming its rule
    assert [a["type"] for a in legal(m, "red")["actions"] if a["type"] == "move_unit"] == []
    m.act("red", **offered(m, "red", "place_marker"))
    advance(m, "red")
    assert (m.turn["step"], m.turn["active_side"]) == ("turn/move", "blue")
    m.act("blue", **offered(m, "blue", "move_unit"))
    advance(m, "blue")
    advance(m, "blue")
    assert (m.turn["turn"], m.turn["step"]) == (2, "light")  # the end of the first turn
    said = [e["said"] for e in m.get("/events")["events"]]
    assert "Patrol" in said[0], said[0]
    report = client.get(f"/api/matches/{m.match}/export", params={"format": "md"},
                        headers=m.auth("referee"))
    assert report.status_code == 200 and "- Game: Patrol\n" in report.text  # its title, no version (issue 39)


def test_a_file_is_named_by_its_hash_even_where_a_built_in_has_its_id(
        client: TestClient) -> None:
    data = check_file(PATROL).data
    data = {**data, "id": "freeform", "title": "Patrol as freeform"}
    r = client.post("/api/rulesets", content=json.dumps(data),
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 201, r.text
    built_in = Played(client, body("freeform"))
    assert built_in.turn["sequence"] != ["light", "turn/move", "turn/fire"]
    from_file = Played(client, body("freeform", ruleset_hash=r.json()["hash"]))
    assert from_file.turn["sequence"] == ["light", "turn/move", "turn/fire"]
    unknown = client.post("/api/matches", json=body("patrol", ruleset_hash="sha256:" + "0" * 64))
    assert unknown.status_code == 422 and unknown.json()["rule"] == "core-ruleset"


@pytest.fixture
def exported(client: TestClient) -> Iterator[tuple[Played, str]]:
    m = patrol_match(client)
    m.act("red", **offered(m, "red", "set_track"))
    advance(m, "red")
    m.act("red", **offered(m, "red", "move_unit"))
    r = client.get(f"/api/matches/{m.match}/export", headers=m.auth("referee"))
    assert r.status_code == 200, r.text
    yield m, r.text


def test_an_export_carries_the_file_and_a_fresh_server_imports_replays_and_verifies_it(
        exported: tuple[Played, str], tmp_path: Path) -> None:
    m, text = exported
    header = json.loads(text.splitlines()[0])
    assert header["ruleset_hash"] == patrol_hash()
    assert file_hash(header["ruleset_file"]) == patrol_hash()
    assert verify(split_lines(text)).ok
    registry.forget()  # a fresh process: this one's files and store are not known to it
    fresh = Matches(env=sqlite_env(str(tmp_path / "fresh.db")))
    with TestClient(create_app(Settings(admin_token="b"), matches=fresh)) as other:
        assert stored(other) == []
        r = other.post("/api/matches/import", content=text,
                       headers={"Content-Type": "application/x-ndjson"})
        assert r.status_code == 201, r.text
        # held by its hash for the match, unlisted: an import claims no id (issue 37)
        assert other.get(f"/api/rulesets/{patrol_hash()}").status_code == 200
        assert stored(other) == []
        tokens = r.json()["tokens"]
        ref = {"Authorization": f"Bearer {tokens['referee']}"}
        checked = other.get(f"/api/matches/{m.match}/verify", headers=ref)
        assert checked.status_code == 200 and checked.json()["ok"], checked.text
        board = other.get(f"/api/matches/{m.match}/board", headers=ref).json()
        assert board["units"] == m.board["units"]
        turn = other.get(f"/api/matches/{m.match}/turn", headers=ref).json()
        assert (turn["step"], turn["active_side"]) == ("turn/move", "red")
        again = other.get(f"/api/matches/{m.match}/export", headers=ref)
        assert again.text.splitlines()[1:] == text.splitlines()[1:]
    fresh.close()


def test_an_import_whose_carried_file_was_edited_is_refused_and_stores_nothing(
        exported: tuple[Played, str], tmp_path: Path) -> None:
    _, text = exported
    lines = text.splitlines(keepends=True)
    header = json.loads(lines[0])
    header["ruleset_file"] = {**header["ruleset_file"], "title": "Patrol (edited)"}
    del header["hash"]
    header["hash"] = content_hash(header)  # resealed: the header's own hash holds
    forged = canonical(header) + "\n" + "".join(lines[1:])
    report = verify(split_lines(forged))
    assert not report.ok
    assert "the ruleset file the export carries" in report.problems[0]
    registry.forget()
    fresh = Matches(env=sqlite_env(str(tmp_path / "fresh.db")))
    with TestClient(create_app(Settings(admin_token="b"), matches=fresh)) as other:
        r = other.post("/api/matches/import", content=forged,
                       headers={"Content-Type": "application/x-ndjson"})
        assert r.status_code == 422, r.text
        assert stored(other) == []
    fresh.close()


def test_verify_flags_the_log_checked_against_an_edited_file(
        exported: tuple[Played, str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    _, text = exported
    log = tmp_path / "match.jsonl"
    log.write_text(text)
    assert main(["verify", "--ruleset", str(PATROL), str(log)]) == 0
    assert f"created under the ruleset file {patrol_hash()}" in capsys.readouterr().out
    edited = tmp_path / "patrol-edited.yaml"
    edited.write_text(PATROL.read_text().replace("expects: the side whose turn it is moves",
                                                 "expects: the side whose turn it is walks"))
    assert main(["verify", "--ruleset", str(edited), str(log)]) == 1
    out = capsys.readouterr().out
    edited_hash = file_hash(check_file(edited).data)
    assert edited_hash != patrol_hash()
    assert f"PROBLEM line 2: the match was created under the ruleset file {patrol_hash()}, " \
           f"not under the file given ({edited_hash})" in out
    assert "FAILED" in out


def test_the_command_line_exports_and_imports_a_match_of_a_file_in_a_fresh_process(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "a.db"
    matches = Matches(env=sqlite_env(str(db)))
    with TestClient(create_app(Settings(admin_token="a"), matches=matches)) as client:
        m = patrol_match(client)
        m.act("red", **offered(m, "red", "set_track"))
    matches.close()
    registry.forget()  # as `battlelog export` starts: it knows no file but its store's
    out = tmp_path / "match.jsonl"
    assert main(["export", m.match, "--db", str(db), "--out", str(out)]) == 0
    header = json.loads(out.read_text().splitlines()[0])
    assert file_hash(header["ruleset_file"]) == patrol_hash()
    registry.forget()
    assert main(["import", str(out), "--db", str(tmp_path / "b.db")]) == 0
    capsys.readouterr()
    fresh = Matches(env=sqlite_env(str(tmp_path / "b.db")))
    with TestClient(create_app(Settings(admin_token="b"), matches=fresh)) as other:
        assert other.get(f"/api/rulesets/{patrol_hash()}").status_code == 200
        assert stored(other) == []  # held for the match, unlisted (issue 37)
    fresh.close()
