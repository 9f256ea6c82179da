"""docs/rulesets/tutorial.md cannot rot: its file is built from the page's own blocks, part
by part, as a reader builds it (a `yaml stage` block replaces the fields of the file it
names, in place, and adds the others there; a `yaml mistake` block is tried and left out),
and each `text check` block is exactly what `battlelog check-ruleset` prints for the file
just above it (the mistake refused at its line and column, exit 1; every part passing,
exit 0). The `yaml whole` block is the file the parts build. Then the whole file is
uploaded, the page's `json scenario` block starts a match, and the match is played through
the API's legal actions (every action one the legal answer offers the seat that takes it)
to the service's end of it after turn 3, each side's sightings scored at each turn's end."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import Played

from api.cli import main

TUTORIAL = Path(__file__).parents[2] / "docs" / "rulesets" / "tutorial.md"
NAME = "ridge-watch.yaml"  # the name the page's check output gives the file
BLOCK = re.compile(r"^```(\w+) (\w+)\n(.*?)^```$", re.DOTALL | re.MULTILINE)
TOP = re.compile(r"^([a-z_]+):")


def blocks() -> list[tuple[str, str]]:
    """The page's tagged blocks, in order: (tag, text)."""
    found = [(m.group(2), m.group(3)) for m in BLOCK.finditer(TUTORIAL.read_text())]
    assert found, "docs/rulesets/tutorial.md has no tagged blocks"
    return found


def fields(text: str) -> list[tuple[str, str]]:
    """A file's top-level fields in order, each with its lines."""
    out: list[tuple[str, str]] = []
    for line in text.splitlines(keepends=True):
        top = TOP.match(line)
        if top:
            out.append((top.group(1), line))
        else:
            assert out, f"a block starts inside a field: {line!r}"
            out[-1] = (out[-1][0], out[-1][1] + line)
    return out


def merged(text: str, block: str) -> str:
    """The file `text` with the part `block` written in: the block stands where the first
    field it gives again stood (those fields replaced), or at the end."""
    old, new = fields(text), fields(block)
    given = {name for name, _ in new}
    at = next((i for i, (name, _) in enumerate(old) if name in given), len(old))
    kept = [(name, part) for name, part in old if name not in given]
    at -= sum(1 for name, _ in old[:at] if name in given)
    return "".join(part for _, part in [*kept[:at], *new, *kept[at:]])


def checked(text: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """What `battlelog check-ruleset ridge-watch.yaml` prints for `text`, and its exit."""
    (folder / NAME).write_text(text)
    capsys.readouterr()
    status = main(["check-ruleset", NAME])
    return status, capsys.readouterr().out


def built(folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, dict[str, Any]]:
    """The file the page's parts build, every check block held to the real check; and the
    page's scenario."""
    text, last, scenario = "", "", None
    stages = mistakes = 0
    for tag, body in blocks():
        if tag == "stage":
            text = last = merged(text, body)
            stages += 1
        elif tag == "mistake":
            last = merged(text, body)
            mistakes += 1
        elif tag == "check":
            status, out = checked(last, folder, capsys)
            assert out == body, f"the page shows\n{body}\nthe check says\n{out}"
            assert status == (1 if last != text else 0), out
        elif tag == "whole":
            assert body == text, "the whole file on the page is not what its parts build"
        elif tag == "scenario":
            scenario = json.loads(body)
    assert (stages, mistakes) == (5, 1) and scenario is not None
    return text, scenario


def test_each_part_of_the_tutorial_checks_as_the_page_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    text, _ = built(tmp_path, capsys)
    status, out = checked(text, tmp_path, capsys)
    assert status == 0 and out.startswith(f"{NAME}: OK: Ridge Watch")


def test_a_mistake_in_a_part_is_what_the_page_shows() -> None:
    """The page's mistake is the one its check block names: the fix differs from it by the
    misspelt name alone (so the shown output cannot be about something else)."""
    tags = [(tag, body) for tag, body in blocks() if tag in ("mistake", "stage")]
    at = next(i for i, (tag, _) in enumerate(tags) if tag == "mistake")
    mistake, fix = tags[at][1], tags[at + 1][1]
    assert mistake.replace(".sped", ".speed") == fix


class Match:
    """The tutorial's match, each action taken from the legal answer of its seat."""

    def __init__(self, client: TestClient, scenario: dict[str, Any]) -> None:
        self.m = Played(client, scenario)
        self.events: list[dict[str, Any]] = []

    def legal(self, seat: str) -> dict[str, Any]:
        return dict(self.m.get("/legal", seat))

    def offers(self, seat: str, kind: str) -> list[dict[str, Any]]:
        return [c for a in self.legal(seat)["actions"] if a["type"] == kind
                for c in a["choices"]]

    def take(self, seat: str, body: dict[str, Any]) -> None:
        self.events += self.m.act(seat, **body)

    def advance(self, seat: str) -> None:
        answer = self.legal(seat)
        assert answer["advance"]["legal"], (seat, answer["step"], answer["advance"])
        self.take(seat, answer["advance"]["body"])

    @property
    def ended(self) -> bool:
        return any(e["type"] == "MatchEnded" for e in self.events)


MOVES = {"ash": ["0302", "0402", "0502"], "birch": ["0203", "0403", "0503"],
         "rook": ["0502", "0502", "0502"], "wren": ["0403", "0303", "0203"]}


def test_the_tutorial_game_plays_to_its_end_through_the_legal_actions(
        client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    text, scenario = built(tmp_path, capsys)
    stored = client.post("/api/rulesets", content=text,
                         headers={"Content-Type": "application/yaml"})
    assert stored.status_code == 201, stored.text
    g = Match(client, scenario)
    created = g.m.get("/events", limit=1)["events"][0]
    assert created["ruleset_hash"] == stored.json()["hash"]
    sides = [s["id"] for s in scenario["sides"]]
    faces = iter([6, 1, 3, 5, 4, 2, 6, 6, 1, 2, 5, 3])  # thrown at the table, in turn
    turns = 0
    while not g.ended:
        turn = g.m.turn["turn"]
        for side in sides:
            other = next(s for s in sides if s != side)
            assert g.legal(side)["step"] == "turn/move"
            assert g.offers(other, "move_unit") == []  # not the other side's step
            moved = {c["unit_id"]: c for c in g.offers(side, "move_unit")}
            assert set(moved) == {u["id"] for u in scenario["units"] if u["side"] == side}
            for unit, choice in moved.items():
                if turn == 1 and unit == "ash":  # three hexes: refused (RW-2)
                    g.m.refused(side, 422, "RW-2", body=choice["body"], to={"hex": "0402"})
                g.take(side, {**choice["body"], "to": {"hex": MOVES[unit][turn - 1]}})
            g.advance(side)
            assert g.legal(side)["step"] == "turn/watch"
            for choice in g.offers(side, "rule_roll"):
                table = choice["table"]
                g.take(side, {**table["body"], table["field"]: [next(faces)]})
            assert g.offers(side, "rule_roll") == []  # each scout watched once (RW-3)
            g.advance(side)
        turns += 1
        assert turns <= 3
    marked = {u["id"]: u["markers"].get("sighting", 0) for u in g.m.board["units"]}
    # d6 + eyes >= 6: turn 1 ash 6+2, birch 1+1, rook 3+3, wren 5+0; turn 2 ash 4+2, birch
    # 2+1, rook 6+3, wren 6+0; turn 3 ash 1+2, birch 2+1, rook 5+3, wren 3+0
    assert marked == {"ash": 2, "birch": 0, "rook": 3, "wren": 1}
    scored = [(e["side"], e["points"], e["rule"]) for e in g.events
              if e["type"] == "VictoryPointsScored"]
    assert scored == [("blue", 1, "RW-4"), ("red", 1, "RW-4"),   # turn 1: ash; rook
                      ("blue", 1, "RW-4"), ("red", 2, "RW-4"),   # turn 2: ash; rook, wren
                      ("blue", 1, "RW-4"), ("red", 2, "RW-4")]   # turn 3
    [end] = [e for e in g.events if e["type"] == "MatchEnded"]
    assert (end["winner"], end["rule"], turns) == ("red", "RW-5", 3)
