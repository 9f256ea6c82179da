"""A replay file with a decoy data block (issue 37, finding 3): `battlelog verify`,
`battlelog import` and `POST /api/matches/import` read the file's HTML as HTML, the block a
browser reads; a genuine block hidden in a comment beside a forged one, or two blocks, are
refused, and nothing is imported."""

from __future__ import annotations

import json
from pathlib import Path
from uuid import UUID

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario

from api.app import create_app
from api.cli import main as cli
from api.imports import ISOLATE_ABOVE
from api.replay_page import DATA_OPEN, data_block
from api.replay_read import export_of
from api.settings import Settings
from domain.app import Matches
from domain.errors import MatchNotFound
from projections.store import sqlite_env


def played(client: TestClient) -> Played:
    m = Played(client, scenario("atomic-africa-demo"))
    m.act("red", type="activate_unit", unit_id="sq1")
    m.act("red", type="roll_dice", notation="2d6", purpose="fire", unit_ids=["sq1"])
    return m


def with_a_forged_die(text: str) -> tuple[str, int]:
    """The data block of the file `text` with its first roll's first die changed, and the
    roll's version."""
    start = text.index(DATA_OPEN)
    data = json.loads(text[start + len(DATA_OPEN):text.index("</script>", start)])
    lines = data["export"].split("\n")
    at, rolled = next((i, json.loads(line)) for i, line in enumerate(lines)
                      if '"DiceRolled"' in line)
    face = rolled["dice"][0]
    lines[at] = lines[at].replace(f'"dice":[{face}', f'"dice":[{face % 6 + 1}', 1)
    return data_block({**data, "export": "\n".join(lines)}), int(rolled["version"])


def decoys(text: str) -> dict[str, str]:
    """The finding's file (the genuine block in a comment, the forged one where the browser
    reads it) and two blocks, the genuine first."""
    start = text.index(DATA_OPEN)
    end = text.index("</script>", start) + len("</script>")
    genuine = text[start:end]
    forged, _ = with_a_forged_die(text)
    return {"in a comment": text[:start] + f"<!-- {genuine} -->" + forged + text[end:],
            "two blocks": text[:end] + forged + text[end:]}


@pytest.fixture
def film(tmp_path: Path) -> tuple[Path, str]:
    """A referee's replay file written by `battlelog replay`, and its match id."""
    here = str(tmp_path / "here.db")
    matches = Matches(env=sqlite_env(here))
    with TestClient(create_app(Settings(admin_token="a"), matches=matches)) as client:
        m = played(client)
    matches.close()
    path = tmp_path / "match.html"
    assert cli(["replay", m.match, "--db", here, "-o", str(path)]) == 0
    return path, m.match


def test_verify_and_import_refuse_a_decoy_block_and_import_nothing(
        film: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, match = film
    text = path.read_text(encoding="utf-8")
    assert cli(["verify", str(path)]) == 0  # the genuine file verifies
    capsys.readouterr()
    for name, forged in decoys(text).items():
        bad = tmp_path / "bad.html"
        bad.write_text(forged, encoding="utf-8")
        assert cli(["verify", str(bad)]) == 1, name
        said = capsys.readouterr()
        assert "refused" in said.err and "OK" not in said.out, (name, said)
        assert ("comment holds markup" if name == "in a comment"
                else "2 match data blocks") in said.err, said.err
        there = str(tmp_path / f"{name}.db")
        assert cli(["import", str(bad), "--db", there]) == 1, name
        assert "refused" in capsys.readouterr().err
        stored = Matches(env=sqlite_env(there))
        try:
            with pytest.raises(MatchNotFound):
                stored.head(UUID(match))
        finally:
            stored.close()


def test_the_import_route_reads_a_replay_file_and_refuses_a_decoy(
        film: tuple[Path, str], client: TestClient) -> None:
    path, match = film
    text = path.read_text(encoding="utf-8")
    for name, forged in decoys(text).items():
        r = client.post("/api/matches/import", content=forged.encode("utf-8"))
        assert r.status_code == 422, (name, r.text)
        assert r.json()["rule"] == "core-import" and "refused" in r.json()["detail"], r.text
        assert client.get(f"/api/matches/{match}/export").status_code in (401, 404)
    r = client.post("/api/matches/import", content=text.encode("utf-8"))
    assert r.status_code == 201, r.text
    assert r.json()["match_id"] == match


def test_a_forged_block_read_where_the_browser_reads_it_names_the_event(
        film: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With the genuine block gone, the forged one alone is what verify reads: it names the
    changed roll."""
    path, _ = film
    text = path.read_text(encoding="utf-8")
    start = text.index(DATA_OPEN)
    end = text.index("</script>", start) + len("</script>")
    forged, version = with_a_forged_die(text)
    bad = tmp_path / "forged.html"
    bad.write_text(text[:start] + forged + text[end:], encoding="utf-8")
    assert export_of(bad.read_text(encoding="utf-8")) != export_of(text)
    assert cli(["verify", str(bad)]) == 1
    assert f"event {version}" in capsys.readouterr().out


def test_a_large_replay_file_is_read_by_the_import_child_too(
        film: tuple[Path, str], client: TestClient) -> None:
    """Past ISOLATE_ABOVE the import route hands the file to a child process: it reads the
    replay file as HTML there, the same way (a comment without markup pads the file)."""
    path, match = film
    text = path.read_text(encoding="utf-8")
    padding = "<!-- " + "padding " * (ISOLATE_ABOVE // 8) + "-->\n"
    for forged in decoys(text).values():
        big = forged.replace("<html", padding + "<html", 1).encode("utf-8")
        assert len(big) > ISOLATE_ABOVE
        r = client.post("/api/matches/import", content=big)
        assert r.status_code == 422 and "refused" in r.json()["detail"], r.text
    r = client.post("/api/matches/import", content=text.replace(
        "<html", padding + "<html", 1).encode("utf-8"))
    assert r.status_code == 201, r.text
    assert r.json()["match_id"] == match
