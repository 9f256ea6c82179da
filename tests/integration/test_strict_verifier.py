"""One verifier, strict (docs/integrity.md): `battlelog verify`, import and the page's check
(api/static/integrity.js, run here in Node as the replay and table pages run it) refuse the
same forged files, each naming the event: a die's total changed with `"hidden":["cards"]`
added and its hash kept (in the referee's file and a side's), an event deleted, a visible
field of a hidden event changed (the count of cards drawn, the time). Each says how many
events it could not check fully."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import Played
from rulesets_helpers import node as node_path
from test_hidden_commitments import freeform

from api.app import create_app
from api.cli import main as cli
from api.replay_page import DATA_OPEN, data_block
from api.settings import Settings
from domain.app import Matches
from domain.events import EVENT_TYPES
from domain.integrity import canonical, split_lines, verify
from projections.store import sqlite_env

STATIC = Path(__file__).resolve().parents[2] / "api" / "static"
Forgery = Callable[[list[dict[str, Any]]], int]  # changes the events, names the version


def export(m: Played, seat: str) -> str:
    r = m.client.get(f"/api/matches/{m.match}/export", headers=m.auth(seat))
    assert r.status_code == 200, r.text
    return r.text


def first(events: list[dict[str, Any]], kind: str, **fields: Any) -> dict[str, Any]:
    return next(e for e in events if e.get("type") == kind
                and all(e.get(k) == v for k, v in fields.items()))


def luckier_die(events: list[dict[str, Any]]) -> int:
    rolled = first(events, "DiceRolled")
    rolled["total"] += 1  # the hash kept
    rolled["hidden"] = ["cards"]
    return int(rolled["version"])


def deleted(events: list[dict[str, Any]]) -> int:
    gone = first(events, "CardsDiscarded")
    events.remove(gone)
    return int(gone["version"])


def more_cards_drawn(events: list[dict[str, Any]]) -> int:
    drawn = first(events, "CardsDrawn", side="red")
    drawn["count"] += 1  # visible to every seat; the cards are hidden from blue
    return int(drawn["version"])


def later(events: list[dict[str, Any]]) -> int:
    drawn = first(events, "CardsDrawn", side="red")
    drawn["timestamp"] = drawn["timestamp"][:-2] + ("2Z" if drawn["timestamp"][-2] != "2"
                                                    else "3Z")
    return int(drawn["version"])


def annotated(client: TestClient) -> Played:
    """`freeform`, with two annotations after its events (an import reads them first)."""
    m = freeform(client)
    for text in ("the discard", "the shuffle"):
        r = client.post(f"/api/matches/{m.match}/annotations", headers=m.auth("referee"),
                        json={"kind": "comment", "at_version": 3, "text": text})
        assert r.status_code == 201, r.text
    return m


FORGERIES: dict[str, tuple[Forgery, tuple[str, ...]]] = {
    "a die changed, hidden added": (luckier_die, ("referee", "blue")),
    "an event deleted": (deleted, ("referee", "blue")),
    "the count of a hidden event": (more_cards_drawn, ("blue", "spectator")),
    "the time of a hidden event": (later, ("blue",)),
}


def forged(text: str, forgery: Forgery) -> tuple[str, int]:
    lines = split_lines(text)
    events = [json.loads(line) for line in lines[1:]]
    version = forgery(events)
    return "".join([lines[0], *(canonical(e) + "\n" for e in events)]), version


def page_checks(exports: list[str]) -> list[dict[str, Any]]:
    """integrity.js's `checkExport` on each export, as the pages split it into lines, and
    the words the pages say of what it could not check fully."""
    script = (f"import {{ checkExport, notCheckedFully }} from "
              f"{json.dumps((STATIC / 'integrity.js').as_uri())};\n"
              "import { readFileSync } from 'node:fs';\n"
              "const out = [];\n"
              "for (const text of JSON.parse(readFileSync(0, 'utf8'))) {\n"
              "  const parts = text.split('\\n'); parts.pop();\n"
              "  const found = await checkExport(parts);\n"
              "  out.push({ problem: found.problem, events: found.events, hidden: found.hidden,\n"
              "             unchecked: found.unchecked, said: notCheckedFully(found) });\n"
              "}\n"
              "console.log(JSON.stringify(out));\n")
    done = subprocess.run([node_path(), "--input-type=module", "-e", script],
                          input=json.dumps(exports), capture_output=True, text=True, timeout=120,
                          check=True)
    return list(json.loads(done.stdout))


def replay_with(m: Played, seat: str, text: str, path: Path) -> Path:
    """The seat's replay file with `text` for the export it carries."""
    r = m.client.get(f"/api/matches/{m.match}/replay", headers=m.auth(seat))
    assert r.status_code == 200, r.text
    page = r.text
    start = page.index(DATA_OPEN)
    end = page.index("</script>", start)
    data = json.loads(page[start + len(DATA_OPEN):end])
    path.write_text(page[:start] + data_block({**data, "export": text}) + page[end + 9:],
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_a_forged_file_is_refused_by_verify_import_and_the_page_naming_the_event(
        client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        name: str) -> None:
    m = annotated(client)
    forgery, seats = FORGERIES[name]
    for seat in seats:
        genuine = export(m, seat)
        assert verify(split_lines(genuine)).ok
        text, version = forged(genuine, forgery)
        event = f"event {version}"
        report = verify(split_lines(text))
        assert not report.ok and event in report.problems[0], (seat, report.problems)
        for path in (tmp_path / f"{seat}.jsonl", replay_with(m, seat, text,
                                                             tmp_path / f"{seat}.html")):
            if path.suffix == ".jsonl":
                path.write_text(text, encoding="utf-8")
            assert cli(["verify", str(path)]) == 1, (seat, path.name)
            out = capsys.readouterr().out
            assert f"PROBLEM line {version + 1}: {event} " in out, out
            assert "events not checked fully: " in out
        r = client.post("/api/matches/import", content=text.encode(),
                        headers={"Content-Type": "application/x-ndjson"})
        assert 400 <= r.status_code < 500 and event in r.json()["detail"], (seat, r.text)
        [found] = page_checks([text])
        assert found["problem"]["version"] == version, (seat, found)


def test_each_check_says_how_many_events_it_could_not_check_fully(
        client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m = freeform(client)
    texts = {seat: export(m, seat) for seat in ("referee", "blue", "red")}
    hidden = {seat: sum('"hidden":' in line for line in text.splitlines())
              for seat, text in texts.items()}
    assert hidden["referee"] == 0 and hidden["blue"] >= 4 and hidden["red"] >= 1
    found = dict(zip(texts, page_checks(list(texts.values())), strict=True))
    for seat, text in texts.items():
        report = verify(split_lines(text))
        assert report.ok and (report.events_hidden, report.events_unchecked) == (
            hidden[seat], 0), (seat, report)
        assert found[seat]["problem"] is None, found[seat]
        assert (found[seat]["hidden"], found[seat]["unchecked"]) == (hidden[seat], 0)
        assert found[seat]["said"].startswith(f"{hidden[seat]} event"), found[seat]["said"]
        path = tmp_path / f"{seat}.jsonl"
        path.write_text(text, encoding="utf-8")
        assert cli(["verify", str(path)]) == 0
        out = capsys.readouterr().out
        assert f"events not checked fully: {hidden[seat]} " in out, out
    # the import's answer says it too (of the referee's file, the only one that imports)
    elsewhere = Matches(env=sqlite_env(str(tmp_path / "elsewhere.db")))
    try:
        with TestClient(create_app(Settings(admin_token="admin"), matches=elsewhere)) as there:
            r = there.post("/api/matches/import", content=texts["referee"].encode(),
                           headers={"Content-Type": "application/x-ndjson"})
        assert r.status_code == 201, r.text
        assert r.json()["verified"] == verify(split_lines(texts["referee"])).as_dict()
        assert (r.json()["verified"]["events_hidden"], r.json()["verified"]["events_unchecked"]
                ) == (0, 0)
    finally:
        elsewhere.close()


def test_hidden_is_accepted_only_for_a_field_the_files_seat_may_not_see(
        client: TestClient) -> None:
    """A side's own cards hidden in its own file, or a public field hidden, are refused,
    as is anything hidden in the referee's file (its header says whose file it is)."""
    m = freeform(client)

    def hiding(seat: str, kind: str, name: str, **fields: Any) -> list[str]:
        lines = split_lines(export(m, seat))
        events = [json.loads(line) for line in lines[1:]]
        body = first(events, kind, **fields)
        body.pop(name, None)
        body.pop("salts", None)
        body["hidden"] = [name]
        text = "".join([lines[0], *(canonical(e) + "\n" for e in events)])
        report = verify(split_lines(text))
        [page] = page_checks([text])
        assert page["problem"] is not None and page["problem"]["version"] == body["version"]
        return report.problems

    assert "which the red seat is shown" in hiding("red", "CardsDrawn", "cards", side="red")[0]
    assert "in the referee's file" in hiding("referee", "CardsDrawn", "cards", side="red")[0]
    assert "which the blue seat is shown" in hiding("blue", "DiceRolled", "dice")[0]


def test_the_pages_table_of_who_sees_what_is_the_events_own() -> None:
    """integrity.js's table of secret fields is the event classes' declarations
    (`secret_fields`, `secret_owner`, `secret_when`): the two verifiers cannot drift apart."""
    declared = {name: {"fields": sorted(cls.secret_fields), "owner": cls.secret_owner,
                       "when": cls.secret_when}
                for name, cls in EVENT_TYPES.items() if cls.secret_fields}
    script = (f"import {{ SECRETS }} from {json.dumps((STATIC / 'integrity.js').as_uri())};\n"
              "console.log(JSON.stringify(SECRETS));\n")
    done = subprocess.run([node_path(), "--input-type=module", "-e", script],
                          capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == declared
    assert set(declared) == {"CardsDrawn", "CardsDiscarded", "DeckShuffled", "MatchCreated",
                             "NoteAdded"}
