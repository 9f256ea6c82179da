"""Who may store which ruleset file (issue 37, findings 7, 8 and 9; docs/rulesets/authoring.md,
docs/interchange.md): an import obeys `BATTLELOG_RULESET_UPLOAD`; an id belongs to whoever
stored it first, and creation by id picks the file its owner chose, whatever others upload;
the list is paged and carries no file; an upload no match uses expires, a used one stays."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from freezegun import freeze_time
from rulesets_helpers import Played

from api.app import create_app
from api.settings import Settings
from domain.app import Matches
from domain.rulefiles.identity import file_hash
from domain.rulesets import registry
from projections.rulefile_load import check_file
from projections.rulefiles import shipped

PATROL = Path(__file__).parents[1] / "fixtures" / "rulefiles" / "patrol.yaml"
ADMIN = {"Authorization": "Bearer the-admin"}


def patrol(**changes: Any) -> dict[str, Any]:
    return {**check_file(PATROL).data, **changes}


def upload(client: TestClient, data: dict[str, Any], **headers: str) -> Any:
    return client.post("/api/rulesets", content=json.dumps(data),
                       headers={"Content-Type": "application/json", **headers})


def body(ruleset: str = "patrol", **more: Any) -> dict[str, Any]:
    return {"ruleset": ruleset, "scenario": "In the woods",
            "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}],
            "units": [{"id": "r1", "side": "red", "name": "1st", "kind": "section"},
                      {"id": "b1", "side": "blue", "name": "A", "kind": "section"}], **more}


def created_under(client: TestClient, made: dict[str, Any] | None = None) -> str:
    """The hash of the file a match created from `made` (else Patrol's body) is pinned to."""
    r = client.post("/api/matches", json=made or body())
    assert r.status_code == 201, r.text
    referee = {"Authorization": f"Bearer {r.json()['tokens']['referee']}"}
    [first] = client.get(f"/api/matches/{r.json()['match_id']}/events", params={"limit": 1},
                         headers=referee).json()["events"]
    return str(first["ruleset_hash"])


def every_page(client: TestClient, limit: int | None = None) -> list[dict[str, Any]]:
    """Every entry of the list, page after page (the `Link` header's next address)."""
    found: list[dict[str, Any]] = []
    at: str | None = "/api/rulesets" + (f"?limit={limit}" if limit else "")
    while at is not None:
        r = client.get(at)
        assert r.status_code == 200, r.text
        found += r.json()
        link = r.headers.get("Link")
        at = link.split(">")[0].removeprefix("<") if link else None
    return found


@pytest.fixture
def app_on(store_env: dict[str, str]) -> Iterator[Any]:
    """A service on a fresh store with the settings given (the admin token `the-admin`,
    no creation quota)."""
    opened: list[Matches] = []

    def start(**settings: Any) -> TestClient:
        matches = Matches(env=store_env)
        opened.append(matches)
        return TestClient(create_app(Settings(admin_token="the-admin", create_rate="off",
                                              **settings), matches=matches))
    yield start
    for matches in opened:
        matches.close()


# ---- finding 7: an import obeys BATTLELOG_RULESET_UPLOAD ------------------------------

def exported_patrol(tmp_path: Path) -> str:
    """A match of the uploaded Patrol file, exported by a server on its own SQLite file."""
    from projections.store import sqlite_env

    elsewhere = Matches(env=sqlite_env(str(tmp_path / "elsewhere.db")))
    with TestClient(create_app(Settings(admin_token="a"), matches=elsewhere)) as client:
        assert upload(client, patrol()).status_code == 201
        m = Played(client, body())
        r = client.get(f"/api/matches/{m.match}/export", headers=m.auth("referee"))
        assert r.status_code == 200, r.text
    elsewhere.close()
    registry.forget()  # the server importing is another: it never saw the file
    return str(r.text)


@pytest.mark.parametrize(("who", "status"), [("off", 403), ("admin", 401)])
def test_an_import_where_uploads_are_refused_stores_no_file_and_no_match(
        app_on: Any, tmp_path: Path, who: str, status: int) -> None:
    text = exported_patrol(tmp_path)
    match_id = json.loads(text.splitlines()[0])["match_id"]
    with app_on(ruleset_upload=who) as other:
        r = other.post("/api/matches/import", content=text,
                       headers={"Content-Type": "application/x-ndjson"})
        assert r.status_code == status, r.text
        assert r.json()["rule"] == "core-rulesets"
        assert "BATTLELOG_RULESET_UPLOAD" in r.json()["detail"]
        assert check_hash() in r.json()["detail"]
        assert other.get(f"/api/rulesets/{check_hash()}").status_code == 404
        catalogue = other.get("/api/matches", headers=ADMIN).json()
        assert [m for m in catalogue if m["match_id"] == match_id] == []
        if who == "admin":  # the operator may: with the admin token the import stores it
            r = other.post("/api/matches/import", content=text, headers={
                "Content-Type": "application/x-ndjson", **ADMIN})
            assert r.status_code == 201, r.text
            assert other.get(f"/api/rulesets/{check_hash()}").status_code == 200


def test_an_import_where_uploads_are_off_plays_a_file_the_operator_loaded(
        app_on: Any, tmp_path: Path) -> None:
    text = exported_patrol(tmp_path)
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "patrol.yaml").write_bytes(PATROL.read_bytes())
    with app_on(ruleset_upload="off", rulesets_dir=str(folder)) as other:
        r = other.post("/api/matches/import", content=text,
                       headers={"Content-Type": "application/x-ndjson"})
        assert r.status_code == 201, r.text


def check_hash() -> str:
    return file_hash(patrol())


# ---- finding 8: an id belongs to whoever stored it first -------------------------------

def test_another_uploaders_id_is_refused_and_creation_by_id_stays_the_owners(
        app_on: Any) -> None:
    with app_on() as client:
        first = upload(client, patrol())
        assert first.status_code == 201, first.text
        owner = {"Authorization": f"Bearer {first.json()['owner_token']}"}
        v1 = first.json()["hash"]
        north = patrol(version=3, title="Patrol", description="north +50 a turn")
        for headers in ({}, {"Authorization": "Bearer my-own-guess"}):
            taken = upload(client, north, **headers)
            assert taken.status_code == 409, taken.text
            assert taken.json()["rule"] == "core-ruleset-ids"
            assert "patrol" in taken.json()["detail"]
        assert client.get(f"/api/rulesets/{file_hash(north)}").status_code == 404
        assert created_under(client) == v1  # creation by id is the owner's file
        listed = [r for r in every_page(client) if r["id"] == "patrol"]
        assert [r["hash"] for r in listed] == [v1]  # the lobby lists it once
        # the same file again: nothing new, no token given
        again = upload(client, patrol())
        assert again.status_code == 201 and again.json()["hash"] == v1
        assert "owner_token" not in again.json()
        # the owner adds a version: creation by id picks it; and may mark another
        v2 = upload(client, patrol(version=2, description="v2"), **owner)
        assert v2.status_code == 201, v2.text
        assert created_under(client) == v2.json()["hash"]
        same_version = upload(client, patrol(version=2, description="v2 again"), **owner)
        assert same_version.status_code == 409 and v2.json()["hash"] in same_version.text
        mark = client.put("/api/rulesets/ids/patrol/current", json={"hash": v1})
        assert mark.status_code == 401
        mark = client.put("/api/rulesets/ids/patrol/current", json={"hash": v1},
                          headers={"Authorization": "Bearer my-own-guess"})
        assert mark.status_code == 409, mark.text
        mark = client.put("/api/rulesets/ids/patrol/current", json={"hash": v1}, headers=owner)
        assert mark.status_code == 204, mark.text
        assert created_under(client) == v1
        assert upload(client, patrol(version=4, description="v4"), **owner).status_code == 201
        assert created_under(client) == v1  # marked: a later version does not move it
        assert client.put("/api/rulesets/ids/patrol/current", json={"hash": None},
                          headers=owner).status_code == 204
        assert created_under(client) == file_hash(patrol(version=4, description="v4"))
        assert [r["version"] for r in every_page(client) if r["id"] == "patrol"] == [4]


def test_a_shipped_games_id_is_the_operators(app_on: Any) -> None:
    [path] = [p for p in shipped() if p.name == "hold-the-towns.yaml"]
    data = check_file(path).data
    shipped_hash = file_hash(data)
    with app_on() as client:
        for _ in range(2):  # a second "version 3" fails no one's creation either
            r = upload(client, {**data, "version": 3, "description": "north +50 VP a turn"})
            assert r.status_code == 409, r.text
        demo = client.get("/api/scenarios/hold-the-towns-demo").json()
        by_id = {**demo, "ruleset_hash": None}  # created by the id alone
        assert created_under(client, by_id) == shipped_hash
        titles = [r["title"] for r in every_page(client)]
        assert titles.count("Hold the Towns") == 1
        # the operator (admin token) may add its own later version
        later = upload(client, {**data, "version": 3}, **ADMIN)
        assert later.status_code == 201, later.text
        assert created_under(client, by_id) == later.json()["hash"]


# ---- finding 9: a paged list of titles; unused uploads expire ----------------------------

def test_the_list_is_paged_carries_no_file_and_stays_small_with_300_uploads(
        app_on: Any) -> None:
    words = "a long description that the list never carries " * 40
    with app_on() as client:
        for n in range(300):
            r = upload(client, patrol(id=f"patrol-{n:03}", title=f"Patrol {n:03}",
                                      description=words[:1990]))
            assert r.status_code == 201, r.text
        first = client.get("/api/rulesets")
        assert first.status_code == 200
        stored = [r for r in first.json() if r.get("info_at")]  # but the built-in games
        assert len(stored) == 50  # a page, by default (the shipped Hold the Towns among them)
        assert len(first.content) < 40_000, len(first.content)
        assert "never carries" not in first.text and '"file"' not in first.text
        assert 'rel="next"' in first.headers["Link"]
        assert set(stored[0]) == {"id", "title", "version", "hash", "info_at", "sample_at"}
        ids = [r["id"] for r in every_page(client, limit=100) if r["id"].startswith("patrol-")]
        assert ids == [f"patrol-{n:03}" for n in range(300)]  # each once, by title
        assert client.get("/api/rulesets", params={"limit": 101}).status_code == 422
        assert client.get("/api/rulesets", params={"cursor": "nonsense"}).status_code == 422
        info = client.get(stored[-1]["info_at"])  # patrol-...
        assert info.status_code == 200 and info.json()["kinds"][0]["value"] == "section"


def test_an_upload_no_match_uses_expires_and_a_used_one_stays(app_on: Any) -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    with freeze_time(start) as frozen, app_on(ruleset_keep_unused=2.0) as client:
        unused = upload(client, patrol(id="unused", title="Unused"))
        used = upload(client, patrol(id="used", title="Used"))
        assert unused.status_code == used.status_code == 201
        m = Played(client, body("used"))
        frozen.move_to(start + timedelta(days=1))
        assert {r["id"] for r in every_page(client)} >= {"unused", "used"}
        frozen.move_to(start + timedelta(days=3))
        listed = {r["id"] for r in every_page(client)}
        assert "unused" not in listed and "used" in listed
        assert client.get(f"/api/rulesets/{unused.json()['hash']}").status_code == 404
        assert client.get(f"/api/rulesets/{used.json()['hash']}").status_code == 200
        assert m.board["ruleset_title"] == "Used"  # the match plays on under its file
        refused = client.post("/api/matches", json=body("unused"))
        assert refused.status_code == 422, refused.text
        # the id is free again: anyone may take it
        again = upload(client, patrol(id="unused", title="Unused", version=7))
        assert again.status_code == 201 and again.json()["owner_token"]
        # a shipped game never expires
        assert "hold-the-towns" in {r["id"] for r in every_page(client)}


def test_a_store_made_before_ids_had_owners_keeps_its_files_and_gives_their_ids_to_the_operator(
        store_env: dict[str, str]) -> None:
    from domain.errors import IdTaken
    from domain.rulefiles.identity import canonical_json
    from projections.ruleset_store import store_of

    matches = Matches(env=store_env)
    p = "%s" if "POSTGRES_DBNAME" in store_env else "?"
    with matches.recorder.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]
        c.execute("CREATE TABLE battlelog_rulesets (hash TEXT PRIMARY KEY, id TEXT NOT NULL, "
                  "title TEXT NOT NULL, version BIGINT NOT NULL, body TEXT NOT NULL)")
        c.execute(f"INSERT INTO battlelog_rulesets VALUES ({p}, {p}, {p}, {p}, {p})",
                  (check_hash(), "patrol", "Patrol", 1, canonical_json(patrol())))
    store = store_of(matches)
    try:
        assert store.current("patrol") == check_hash()
        store.keep_unused = 1.0
        with freeze_time(datetime.now(UTC) + timedelta(days=400)):
            assert store.sweep() == []  # a file from before is kept: a match may use it
        with pytest.raises(IdTaken):
            store.add_text(json.dumps(patrol(version=2)), by=None)
        rows, _ = store.page()
        assert [(r.id, r.hash) for r in rows if r.id == "patrol"] == [("patrol", check_hash())]
    finally:
        store.close()
        matches.close()


@pytest.mark.parametrize("cursor", ["nonsense", "WyJhXHUwMDAwIiwgImIiXQ==",  # ["a\u0000", "b"]
                                    "eyJhIjogMX0="])  # {"a": 1}
def test_a_cursor_the_list_did_not_give_is_refused(client: TestClient, cursor: str) -> None:
    r = client.get("/api/rulesets", params={"cursor": cursor})
    assert r.status_code == 422, r.text
    assert r.json()["rule"] == "core-rulesets"


def test_the_operator_takes_an_id_over_and_creation_by_id_never_picks_the_earlier_owners(
        app_on: Any) -> None:
    with app_on() as client:
        theirs = upload(client, patrol(version=5, description="an uploader's patrol"))
        assert theirs.status_code == 201, theirs.text
        ours = upload(client, patrol(), **ADMIN)  # the operator's own patrol, version 1
        assert ours.status_code == 201, ours.text
        assert created_under(client) == ours.json()["hash"]
        assert [(r["version"], r["hash"]) for r in every_page(client) if r["id"] == "patrol"] \
            == [(1, ours.json()["hash"])]
        # the earlier file stays held by its hash; its owner token no longer adds versions
        assert client.get(f"/api/rulesets/{theirs.json()['hash']}").status_code == 200
        later = upload(client, patrol(version=6), Authorization=f"Bearer {theirs.json()['owner_token']}")
        assert later.status_code == 409, later.text


# ---- issue 38: one id and version, one content -------------------------------------------

def test_other_content_under_a_stored_id_and_version_is_refused_naming_both_hashes(
        app_on: Any) -> None:
    with app_on() as client:
        first = upload(client, patrol())
        assert first.status_code == 201, first.text
        owner = {"Authorization": f"Bearer {first.json()['owner_token']}"}
        edited = patrol(description="edited, its version left as it was")
        r = upload(client, edited, **owner)
        assert r.status_code == 409, r.text
        said = r.json()["detail"]
        assert check_hash() in said and file_hash(edited) in said, said
        assert "raise its `version` (to 2)" in said
        assert client.get(f"/api/rulesets/{file_hash(edited)}").status_code == 404
        again = upload(client, patrol(), **owner)  # the same content again: idempotent
        assert again.status_code == 201 and again.json()["hash"] == check_hash()
        assert upload(client, {**edited, "version": 2}, **owner).status_code == 201


def test_an_import_carrying_other_content_under_a_listed_id_and_version_is_refused(
        app_on: Any, tmp_path: Path) -> None:
    text = exported_patrol(tmp_path)
    match_id = json.loads(text.splitlines()[0])["match_id"]
    with app_on() as other:
        edited = patrol(description="another patrol, version 1 too")
        assert upload(other, edited).status_code == 201
        r = other.post("/api/matches/import", content=text,
                       headers={"Content-Type": "application/x-ndjson"})
        assert r.status_code == 409, r.text
        said = r.json()["detail"]
        assert check_hash() in said and file_hash(edited) in said, said
        assert other.get(f"/api/rulesets/{check_hash()}").status_code == 404
        catalogue = other.get("/api/matches", headers=ADMIN).json()
        assert [m for m in catalogue if m["match_id"] == match_id] == []
