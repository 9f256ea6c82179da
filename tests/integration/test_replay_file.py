"""The replay file (docs/replay.md): `GET /api/matches/{id}/replay` and `battlelog replay`
write one HTML page carrying the export of one viewpoint, byte for byte; it holds nothing
that seat may not see (every other side's hand, deck, face-down discards; no unrevealed
seed); `battlelog verify` and `battlelog import` read the export out of it."""

from __future__ import annotations

import copy
import json
import re
import subprocess
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import PLANTED_SEED, Played, battlegroup_north_discards, scenario
from rulesets_helpers import node as node_path

from api.app import create_app
from api.cli import main as cli
from api.replay_read import export_of
from api.settings import Settings
from domain import events as ev
from domain.app import Matches
from projections.store import sqlite_env

SEED = PLANTED_SEED
STATIC = Path(__file__).resolve().parents[2] / "api" / "static"


def replay(m: Played, seat: str, **params: Any) -> str:
    r = m.client.get(f"/api/matches/{m.match}/replay", params=params, headers=m.auth(seat))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/html")
    return r.text


def export(m: Played, seat: str) -> str:
    r = m.client.get(f"/api/matches/{m.match}/export", headers=m.auth(seat))
    assert r.status_code == 200, r.text
    return r.text


def atomic_africa_with_cards(client: TestClient) -> Played:
    """Both sides draw cards, red plays one face up, and the server rolls dice."""
    m = Played(client, scenario("atomic-africa-demo"))
    m.act("red", type="activate_unit", unit_id="sq1")
    [drawn] = m.act("red", type="draw_cards", count=3)
    m.act("red", type="play_card", card=drawn["cards"][0])
    m.act("red", type="roll_dice", notation="2d6", purpose="fire", unit_ids=["sq1"])
    m.act("blue", type="draw_cards", count=2)
    return m


def battlegroup_with_discards(client: TestClient) -> Played:
    return battlegroup_north_discards(client)[0]


def freeform_with_a_discard(client: TestClient) -> Played:
    m = Played(client, {"scenario": "s", "decks": {"red": ["ACE", "KING", "QUEEN", "JACK"]},
                        "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]})
    [drawn] = m.act("red", type="draw_cards", count=3)
    m.act("red", type="discard_cards", cards=[drawn["cards"][0]])
    m.act("red", type="roll_dice", notation="d6", purpose="luck")
    return m


PLAYED = {"atomic-africa": atomic_africa_with_cards, "battlegroup": battlegroup_with_discards,
          "freeform": freeform_with_a_discard}


def secrets_of(m: Played, side: str) -> set[str]:
    """What only `side` and the referee may see: its hand, its deck (each card, so its order
    too) and its cards discarded face down, as the referee's board has them."""
    [cards] = [c for c in m.get("/board", "referee")["cards"] if c["side"] == side] or [{}]
    return {*cards.get("hand", ()), *cards.get("deck", ()), *(cards.get("discarded") or ())}


def public_deck_lists(text: str, m: Played) -> str:
    """The file's text less the match's first event (the scenario's deck lists are public),
    as the page's data writes it, and less the viewer's own code (its modules, the same in
    every file: a constant such as FACES_MOST is no card ACE)."""
    created = export(m, "referee").splitlines()[1]
    written = json.dumps(created, ensure_ascii=False)[1:-1].replace("<", "\\u003c")
    assert written in text
    code = re.compile(r'<script type="text/plain" data-module="[^"]+">.*?</script>', re.DOTALL)
    assert code.search(text)
    return code.sub("", text).replace(written, "")


@pytest.mark.parametrize("game", sorted(PLAYED))
def test_no_seats_replay_holds_another_sides_secret_or_the_seed(
        planted: tuple[TestClient, Matches], game: str) -> None:
    client, matches = planted
    m = PLAYED[game](client)
    sides = [s["id"] for s in m.body["sides"]]
    secrets = {side: secrets_of(m, side) for side in sides}
    assert any(secrets.values())  # the match did deal cards
    [created] = matches.events_of(UUID(m.match), upto=1)
    assert isinstance(created, ev.MatchCreated) and created.card_seed
    seeds = {SEED.hex(), created.card_seed}
    for seat in [*sides, "spectator", "referee"]:
        text = replay(m, seat)
        assert not any(seed in text for seed in seeds), seat  # no seed is revealed yet
        rest = public_deck_lists(text, m)
        for side, cards in secrets.items():
            if seat in (side, "referee"):
                continue
            found = sorted(card for card in cards if card in rest)
            assert not found, (seat, side, found)
    # the test can fail: the referee's own file names what the others' must not
    rest = public_deck_lists(replay(m, "referee"), m)
    assert all(card in rest for cards in secrets.values() for card in cards)


def test_the_file_carries_each_seats_export_byte_for_byte(client: TestClient) -> None:
    m = atomic_africa_with_cards(client)
    for seat in ("referee", "red", "blue", "spectator"):
        text = replay(m, seat)
        assert export_of(text) == export(m, seat), seat
        data = json.loads(text.split('id="battlelog-replay">', 1)[1].split("</script>", 1)[0])
        assert data["viewer"] == seat and data["head"] == m.version
        assert [s["v"] for s in data["steps"]] == list(range(1, m.version + 1))
        said = [e["said"] for e in m.get("/events", seat, limit=500)["events"]]
        assert [s["said"] for s in data["steps"]] == said, seat  # the log's own sentences
    assert "<script src" not in text and "<link rel=\"stylesheet\"" not in text


def test_the_referee_chooses_a_viewpoint_a_player_only_its_own(client: TestClient) -> None:
    m = atomic_africa_with_cards(client)
    as_red = replay(m, "referee", viewpoint="red")
    assert export_of(as_red) == export(m, "red")
    before = m.version
    for seat, asked, status in (("red", "blue", 403), ("spectator", "referee", 403),
                                ("referee", "nobody", 422)):
        r = client.get(f"/api/matches/{m.match}/replay", params={"viewpoint": asked},
                       headers=m.auth(seat))
        assert r.status_code == status, r.text
        assert r.json()["rule"] == "core-replay"
    assert m.version == before
    r = client.get(f"/api/matches/{m.match}/replay", params={"from": 1}, headers=m.auth("red"))
    assert r.status_code == 422 and r.json()["rule"] == "core-replay"


def test_verify_and_import_read_a_replay_file_to_the_same_head_hash(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    here, there = str(tmp_path / "here.db"), str(tmp_path / "there.db")
    matches = Matches(env=sqlite_env(here))
    with TestClient(create_app(Settings(admin_token="a"), matches=matches)) as client:
        # (no cards: an unfinished match whose sides drew cards does not always import, the
        # same from its export: noted in the issue)
        m = Played(client, scenario("atomic-africa-demo"))
        m.act("red", type="activate_unit", unit_id="sq1")
        m.act("red", type="roll_dice", notation="2d6", purpose="fire", unit_ids=["sq1"])
        m.act("blue", type="place_marker", kind="suppression", unit_id="ml1")
        head = m.get("")["chain_head"]
    matches.close()
    film = tmp_path / "match.html"
    assert cli(["replay", m.match, "--db", here, "-o", str(film)]) == 0
    assert cli(["verify", str(film)]) == 0
    assert f"chain head {head}" in capsys.readouterr().out
    assert cli(["import", str(film), "--db", there]) == 0
    assert f"imported match {m.match}" in capsys.readouterr().out
    again = Matches(env=sqlite_env(there))
    try:
        assert again.head(UUID(m.match)).chain_head == head
    finally:
        again.close()
    # one die face changed in the file: verify names the event
    text = film.read_text(encoding="utf-8")
    rolled = next(line for line in export_of(text).splitlines() if '"DiceRolled"' in line)
    faces = json.loads(rolled)["dice"]
    changed = rolled.replace(f'"dice":{json.dumps(faces, separators=(",", ":"))}',
                             f'"dice":[{faces[0] % 6 + 1}{"".join(f",{d}" for d in faces[1:])}]')
    assert changed != rolled
    bad = tmp_path / "edited.html"
    bad.write_text(text.replace(json.dumps(rolled)[1:-1], json.dumps(changed)[1:-1]),
                   encoding="utf-8")
    assert cli(["verify", str(bad)]) == 1
    version = json.loads(rolled)["version"]
    assert f"event {version}" in capsys.readouterr().out
    assert cli(["replay", m.match, "--db", here, "--viewpoint", "nobody"]) == 1


def test_the_pages_patches_rebuild_the_seats_board_at_every_version(
        client: TestClient, tmp_path: Path) -> None:
    """api/static/patch.js, run in Node on the file's data, gives at each version the board
    `GET .../board?at=` gives the same seat (undo included: the board goes back)."""
    node = node_path()
    m = atomic_africa_with_cards(client)
    m.act("blue", type="place_marker", kind="suppression", unit_id="ml1")
    m.act("red", type="place_marker", kind="wound", unit_id="ml1")
    r = client.post(f"/api/matches/{m.match}/undo", json={}, headers=m.auth("red"))
    assert r.status_code == 201, r.text
    for seat in ("blue", "referee"):
        text = replay(m, seat)
        data = tmp_path / f"{seat}.json"
        data.write_text(text.split('id="battlelog-replay">', 1)[1].split("</script>", 1)[0],
                        encoding="utf-8")
        script = (f"import {{ applyPatch }} from {json.dumps((STATIC / 'patch.js').as_uri())};\n"
                  "import { readFileSync } from 'node:fs';\n"
                  f"const data = JSON.parse(readFileSync({json.dumps(str(data))}, 'utf8'));\n"
                  "const boards = [data.board];\n"
                  "for (const step of data.steps.slice(1)) "
                  "boards.push(applyPatch(boards.at(-1), step.patch));\n"
                  "console.log(JSON.stringify(boards));\n")
        done = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True,
                              text=True, timeout=60, check=True)
        boards = json.loads(done.stdout)
        assert len(boards) == m.version
        for version, board in enumerate(boards, start=1):
            served = m.get("/board", seat, at=version)
            del served["point"]
            assert board == served, (seat, version)
        assert boards[-1] == boards[-3] != boards[-2]  # the undo took the wound back


def data_of(text: str) -> dict[str, Any]:
    return dict(json.loads(text.split('id="battlelog-replay">', 1)[1].split("</script>", 1)[0]))


def forked(m: Played, at: int) -> Played:
    """A what-if of `m` from version `at` (the referee's fork), every side seated in it."""
    r = m.client.post(f"/api/matches/{m.match}/fork", params={"at": at}, headers=m.auth("referee"))
    assert r.status_code == 201, r.text
    fork = copy.copy(m)
    fork.match, fork.tokens = str(r.json()["match_id"]), dict(r.json()["tokens"])
    for side in m.body["sides"]:
        joined = m.client.post(f"/api/matches/{fork.match}/seats", json={"player": side["name"]},
                               headers=fork.auth(f"join:{side['id']}"))
        assert joined.status_code == 201, joined.text
        fork.tokens[side["id"]] = joined.json()["token"]
    return fork


def test_a_variation_in_a_sides_file_holds_no_hidden_value_of_another_side(
        planted: tuple[TestClient, Matches]) -> None:
    """A what-if in which blue draws cards: red's file carries the fork's events after the
    branch as red's own reads give them (its sentences, its board: blue's hand a count), and
    none of blue's cards there; the referee's names them (the test can fail)."""
    client, _ = planted
    m = atomic_africa_with_cards(client)
    at = m.version
    fork = forked(m, at)
    fork.act("blue", type="draw_cards", count=3)
    fork.act("red", type="roll_dice", notation="d6", purpose="luck")
    fork_secrets = secrets_of(fork, "blue")
    [blue] = [c for c in fork.get("/board", "referee")["cards"] if c["side"] == "blue"]
    assert len(blue["hand"]) == 5  # two drawn in the match, three more in the what-if
    r = client.post(f"/api/matches/{m.match}/annotations", headers=m.auth("red"), json={
        "kind": "variation", "fork": fork.match, "at_version": at, "text": "if blue drew",
        "visibility": "public"})
    assert r.status_code == 201, r.text
    for seat in ("red", "spectator", "referee"):
        text = replay(m, seat)
        [variation] = data_of(text)["variations"]
        assert variation["fork"] == fork.match and variation["from"] == at
        start = variation["start"]
        said = [e["said"] for e in fork.get("/events", seat, limit=500)["events"]]
        assert [s["v"] for s in variation["steps"]] == list(range(start, fork.version + 1))
        assert [s["said"] for s in variation["steps"]] == said[start - 1:], seat
        assert variation["board"] == {k: v for k, v in fork.get(
            "/board", seat, at=start).items() if k != "point"}
        found = sorted(card for card in fork_secrets if card in public_deck_lists(text, m))
        in_variation = json.dumps(variation)
        if seat == "referee":  # the referee's what-if shows blue's hand: the search can fail
            assert all(card in in_variation for card in blue["hand"])
        else:
            assert not found, (seat, found)
            assert not any(card in in_variation for card in fork_secrets), seat
    assert SEED.hex() not in replay(m, "red")  # nor the fork's own (unrevealed) dice seed


def test_the_clocks_at_every_version_are_the_table_pages(client: TestClient) -> None:
    """A clocked match: each version's clocks in the file are `GET .../clock?at=` (each
    side's time left to a tenth, whose time ran, a fallen flag), none before the start."""
    m = Played(client, scenario("atomic-africa-demo"))
    m.act("red", type="activate_unit", unit_id="sq1")
    m.act("referee", type="start_clock", controls={"red": {"total": 600}, "blue": {"total": 900}})
    started = m.version
    m.act("red", type="roll_dice", notation="2d6", purpose="fire", unit_ids=["sq1"])
    m.act("blue", type="place_marker", kind="suppression", unit_id="ml1")
    m.act("referee", type="pause_clock")
    m.act("referee", type="adjust_clock", side="blue", seconds=-60, reason="late")
    steps = data_of(replay(m, "blue"))["steps"]
    assert all("clock" not in step for step in steps[:started - 1])
    for step in steps[started - 1:]:
        served = m.get("/clock", "blue", at=step["v"])
        assert step["clock"] == {"paused": served["paused"], "sides": [
            [s["side"], round(s["remaining"], 1), s["running"], s["flag_fallen"]]
            for s in served["sides"]]}, step["v"]
    assert steps[-1]["clock"]["paused"] and steps[-1]["clock"]["sides"][1][1] == 840


@pytest.mark.parametrize("demo", ["wing-command-demo", "extended-sequence-demo",
                                  "normandy-demo"])
def test_a_demo_without_cards_holds_no_seed_in_any_seats_replay(
        planted: tuple[TestClient, Matches], demo: str) -> None:
    """The games that deal no cards still roll the service's dice: after a roll, no seat's file
    (the referee's neither, before the reveal) holds the dice seed or the card seed."""
    client, matches = planted
    m = Played(client, scenario(demo))
    seat = next(seat for seat in ["referee", *(s["id"] for s in m.body["sides"])]
                if any(a["type"] == "roll_dice" for a in m.get("/legal", seat)["actions"]))
    m.act(seat, type="roll_dice", notation="2d6", purpose="a roll at the table's request")
    assert any(isinstance(e, ev.DiceRolled) and e.roll_index is not None
               for e in matches.events_of(UUID(m.match)))  # the service's dice rolled
    [created] = matches.events_of(UUID(m.match), upto=1)
    assert isinstance(created, ev.MatchCreated)
    seeds = {SEED.hex(), *([created.card_seed] if created.card_seed else [])}
    for seat in [*(s["id"] for s in m.body["sides"]), "spectator", "referee"]:
        text = replay(m, seat)
        assert not any(seed in text for seed in seeds), seat
    # the search can fail: once the referee reveals the seed, every file carries it
    r = client.post(f"/api/matches/{m.match}/dice/reveal", headers=m.auth("referee"))
    assert r.status_code == 201, r.text
    assert SEED.hex() in replay(m, "spectator")
