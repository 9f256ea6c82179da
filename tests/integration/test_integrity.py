"""The hash chain, the export, `battlelog verify`, and the verifiable dice (commitment,
players' entropy, reveal at the end or by the referee)."""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario

from api.app import create_app
from api.cli import main as cli
from api.settings import Settings
from domain.app import Matches
from domain.integrity import GENESIS, canonical, content_hash, verify

SEED = bytes(range(32))
MATCH = {"ruleset": "freeform", "scenario": "Hill 112",
         "sides": [{"id": "allies", "name": "Allies"}, {"id": "axis", "name": "Axis"}],
         "units": [{"id": "sq1", "side": "allies", "name": "1st Squad", "figures": 8,
                    "position": {"x": 1, "y": 2}}]}


@pytest.fixture
def seeded(store_env: dict[str, str]) -> Iterator[TestClient]:
    """The service with a known dice seed for every match (so tests can look for it)."""
    seeds = itertools.chain([SEED], iter(lambda: hashlib.sha256(b"next").digest(), None))
    matches = Matches(env=store_env, seed_source=lambda: next(seeds))
    with TestClient(create_app(Settings(admin_token="admin-token"), matches=matches)) as client:
        yield client
    matches.close()


def play(m: Played, rolls: int = 3) -> None:
    for i in range(rolls):
        m.act("axis", type="roll_dice", notation="2d6", purpose=f"fire {i}", unit_ids=["sq1"])
        m.act("allies", type="place_marker", kind="suppression", unit_id="sq1")
    m.act("allies", type="add_note", text="séance: a note with a non-ASCII letter")
    m.act("axis", type="roll_dice", notation="d6", purpose="table", source="table", results=[4])


def export(client: TestClient, m: Played) -> str:
    r = client.get(f"/api/matches/{m.match}/export", headers=m.auth("referee"))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/x-ndjson")
    return r.text


def test_every_event_links_to_the_one_before_and_the_match_shows_the_head(
        seeded: TestClient) -> None:
    m = Played(seeded, MATCH)
    play(m)
    events = m.get("/events", limit=500)["events"]
    assert events[0]["prev_hash"] == GENESIS
    for before, event in itertools.pairwise(events):
        assert event["prev_hash"] == before["hash"]
    for event in events:  # `said` is the route's words for the reader, not the record
        assert event["hash"] == content_hash({k: v for k, v in event.items() if k != "said"})
    assert m.get("")["chain_head"] == events[-1]["hash"]


def test_an_export_verifies_and_its_rolls_are_checked_once_the_seed_is_revealed(
        seeded: TestClient) -> None:
    m = Played(seeded, MATCH)
    play(m)
    report = verify(export(seeded, m).splitlines(keepends=True))
    assert report.ok and report.rolls_checked == 0 and report.rolls_unchecked == 3
    assert m.get("/verify") == report.as_dict()
    m.act("referee", type="end_match", winner="allies", reason="the axis withdrew")
    text = export(seeded, m)
    last = json.loads(text.splitlines()[-1])
    assert (last["type"], last["seed"]) == ("DiceSeedRevealed", SEED.hex())
    report = verify(text.splitlines(keepends=True))
    assert report.ok and report.rolls_checked == 3 and report.rolls_unchecked == 0
    assert json.loads(text.splitlines()[0])["chain_head"] == report.chain_head


def test_every_single_byte_change_to_an_export_is_detected(seeded: TestClient) -> None:
    m = Played(seeded, MATCH)
    play(m, rolls=1)
    m.act("referee", type="end_match", winner=None)
    data = export(seeded, m).encode()
    assert verify(data.decode().splitlines(keepends=True)).ok
    for position in range(len(data)):
        for flip in (0x01, 0x20):
            changed = bytearray(data)
            changed[position] ^= flip
            try:
                lines = bytes(changed).decode().splitlines(keepends=True)
            except UnicodeDecodeError:
                continue  # not text any more: `battlelog verify` says it cannot read it
            assert not verify(lines).ok, (position, chr(data[position]), flip)


def rehash(lines: list[str], edit: Any) -> list[str]:
    """What a forger who rewrites an event and recomputes every hash after it produces."""
    out, prev = [lines[0]], GENESIS
    for line in lines[1:]:
        body = json.loads(line)
        edit(body)
        body["prev_hash"] = prev
        body["hash"] = prev = content_hash(body)
        out.append(canonical(body) + "\n")
    return out


def test_every_altered_die_result_is_named_even_with_a_rebuilt_chain(
        seeded: TestClient) -> None:
    m = Played(seeded, MATCH)
    play(m)
    m.act("referee", type="end_match", winner=None)
    lines = export(seeded, m).splitlines(keepends=True)
    rolls = [json.loads(line) for line in lines[1:] if '"roll_index":' in line]
    assert len(rolls) == 3
    for rolled in rolls:
        other = [7 - rolled["dice"][0], rolled["dice"][1]]  # another face for the first die

        def luckier(body: dict[str, Any], version: int = rolled["version"],
                    dice: list[int] = other) -> None:
            if body["version"] == version:
                body["dice"], body["total"] = dice, sum(dice)
        forged = rehash(lines, luckier)
        top = {**json.loads(forged[0]), "chain_head": json.loads(forged[-1])["hash"]}
        forged[0] = canonical({**top, "hash": content_hash(top)}) + "\n"
        named = (f"line {rolled['version'] + 1}: event {rolled['version']}: server roll "
                 f"{rolled['roll_index']} should be {rolled['dice']}, not {other}")
        assert verify(forged).problems == [named]
    dropped = [lines[0], *lines[1:3], *lines[4:]]
    assert verify(dropped).problems[0].startswith("line 4: event 3 is missing (this line "
                                                  "holds event 4, ")


def test_the_referee_reveals_the_seed_mid_match_and_a_fresh_one_is_committed(
        seeded: TestClient) -> None:
    m = Played(seeded, MATCH)
    play(m, rolls=2)
    committed = m.get("")["dice_commitment"]
    assert committed == hashlib.sha256(SEED).hexdigest()
    r = seeded.post(f"/api/matches/{m.match}/dice/reveal", headers=m.auth("allies"))
    assert r.status_code == 403
    r = seeded.post(f"/api/matches/{m.match}/dice/reveal", headers=m.auth("referee"))
    assert r.status_code == 201, r.text
    revealed, fresh = r.json()["events"]
    assert revealed["seed"] == SEED.hex() and "dice_seed" not in fresh
    assert m.get("")["dice_commitment"] == fresh["dice_commitment"] != committed
    play(m, rolls=2)
    report = verify(export(seeded, m).splitlines(keepends=True))
    assert report.ok and (report.rolls_checked, report.rolls_unchecked) == (2, 2)
    m.act("referee", type="end_match", winner=None)
    report = verify(export(seeded, m).splitlines(keepends=True))
    assert report.ok and (report.rolls_checked, report.rolls_unchecked) == (4, 0)
    r = seeded.post(f"/api/matches/{m.match}/dice/reveal", headers=m.auth("referee"))
    assert r.status_code == 409


def test_players_entropy_changes_the_dice_and_is_checked(seeded: TestClient) -> None:
    plain = Played(seeded, MATCH)
    plain.act("axis", type="roll_dice", notation="10d20", purpose="x")
    client = seeded
    r = client.post("/api/matches", json=MATCH)
    tokens = r.json()["tokens"]
    match = r.json()["match_id"]
    joined = client.post(f"/api/matches/{match}/seats", json={"player": "Ann", "entropy": "ann"},
                         headers={"Authorization": f"Bearer {tokens['join:allies']}"})
    assert joined.status_code == 201
    rolled = client.post(f"/api/matches/{match}/actions",
                         json={"type": "roll_dice", "notation": "10d20", "purpose": "x"},
                         headers={"Authorization": f"Bearer {tokens['referee']}"}).json()
    before = plain.get("/events", type="DiceRolled")["events"][0]["dice"]
    assert rolled["events"][0]["dice"] != before  # same seed, same index: the entropy counts
    client.post(f"/api/matches/{match}/actions", json={"type": "end_match", "winner": None},
                headers={"Authorization": f"Bearer {tokens['referee']}"})
    text = client.get(f"/api/matches/{match}/export",
                      headers={"Authorization": f"Bearer {tokens['referee']}"}).text
    assert '"entropy":"ann"' in text
    assert verify(text.splitlines(keepends=True)).rolls_checked == 1


def test_the_seed_appears_on_no_surface_before_it_is_revealed(seeded: TestClient) -> None:
    m = Played(seeded, MATCH)
    play(m)
    surfaces = [export(seeded, m), json.dumps(m.get("")), json.dumps(m.get("/board")),
                json.dumps(m.get("/events", limit=500)), json.dumps(m.get("/verify"))]
    assert not any(SEED.hex() in text for text in surfaces)
    assert SEED.hex() not in seeded.get(f"/api/matches/{m.match}/export",
                                        headers=m.auth("axis")).text


def test_battlelog_verify_reads_a_file_and_says_what_it_found(
        seeded: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m = Played(seeded, MATCH)
    play(m)
    m.act("referee", type="end_match", winner=None)
    good = tmp_path / "match.jsonl"
    good.write_text(export(seeded, m), encoding="utf-8")
    assert cli(["verify", str(good)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "OK"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(good.read_text().replace('"fire 1"', '"fire 2"'), encoding="utf-8")
    assert cli(["verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "PROBLEM line" in out and "was altered" in out and out.splitlines()[-1] == "FAILED"
    assert cli(["verify", str(tmp_path / "missing.jsonl")]) == 2


def test_an_initiative_roll_is_checked_in_the_order_its_dice_were_drawn(
        seeded: TestClient) -> None:
    """Wing Command's sides are french then british: the server draws the french die first,
    though the event's `dice` is written with its keys sorted (british first). Both checks
    (`verify`, and the page's integrity.js through the replay file's browser test) follow
    the match's order of sides, so a genuine initiative roll verifies once revealed."""
    Played(seeded, MATCH)  # (the first match's seed rolls two equal faces: the next one's)
    m = Played(seeded, scenario("wing-command-demo"))
    [rolled] = m.act("french", type="roll_initiative")
    assert list(rolled["dice"]) == ["french", "british"]  # drawn in the match's order
    assert rolled["dice"]["french"] != rolled["dice"]["british"]  # (this seed's) so the
    # order tells: read in the file's order, the faces would not be the seed's
    r = seeded.post(f"/api/matches/{m.match}/dice/reveal", headers=m.auth("referee"))
    assert r.status_code == 201, r.text
    text = export(seeded, m)
    line = next(json.loads(x) for x in text.splitlines() if '"InitiativeRolled"' in x)
    assert list(line["dice"]) == ["british", "french"]  # written with its keys sorted
    report = verify(text.splitlines(keepends=True))
    assert report.ok and report.rolls_checked == 1, report.problems
