""""Check every roll" on a 390x844 phone, against a real server and its SQLite file: after
the referee reveals the dice seed, the page recomputes every server roll and every link of
the hash chain itself (Web Crypto) and says that all matched, with the counts the server's
own check gives; with a roll edited in the store under the running server (its hash and the
chain after it made good again, as a forger would, or not), the page names that roll by its
sentence. The page's verifier itself (api/static/integrity.js) against the server's on every
kind of server roll (dice, initiative, a shuffle from the card seed), on Python's floats and
on text in any script; each kind forged in a file, re-hashed and re-chained, is caught by its
recomputation."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from phone import Phone, new_match
from table_steps import panel_shot

from domain.events.commitments import commitment_to
from domain.integrity import canonical, content_hash, event_hash, split_lines

pytestmark = pytest.mark.e2e

DEMO = "atomic-africa-demo"


def roll_on_the_page(phone: Phone, notation: str, purpose: str) -> None:
    """Roll server dice with the Dice panel's form."""
    form = phone.page.get_by_role("form", name="Roll dice")
    form.get_by_label("Dice to roll").fill(notation)
    form.get_by_label("Purpose").fill(purpose)
    phone.tap(form.get_by_role("button", name="Roll"), "roll")
    phone.acted()


def reveal_and_check(phone: Phone) -> str:
    seats = phone.page.locator("#seats")
    phone.tap(seats.get_by_text("Reveal the dice seed now…"), "reveal")
    phone.tap(seats.get_by_role("button", name="Yes, reveal the dice seed"), "reveal")
    phone.acted()
    return check(phone)


def check(phone: Phone) -> str:
    result = phone.page.locator("#roll-check-result")
    phone.page.evaluate("document.querySelector('#roll-check-result').textContent = ''")
    phone.tap(phone.page.get_by_role("button", name="Check every roll"), "check")
    phone.page.wait_for_function("""() => /^(All|Not matched|The check)/.test(
        document.querySelector('#roll-check-result').textContent)""")
    return str(result.inner_text())


def played(browser: Any, server: str, shot: Callable[[Any, str], Path]) -> tuple[
        Phone, dict[str, Any]]:
    """A demo on a phone, the referee's seat, each side joined with entropy as the join page
    gives it and more (quotes, accents, an emoji: the key mixes it as Python's JSON writes it):
    three server rolls from the page."""
    match = new_match(server, DEMO, entropy='dé "🎲" \\ ')
    phone = Phone(browser, server, "roll-check", shot)
    phone.open(match, "referee")
    roll_on_the_page(phone, "2d6", "Artillery on the ridge")
    roll_on_the_page(phone, "3d6", "Morale of the rearguard")
    roll_on_the_page(phone, "d10+1", "Scouting the wadi")
    return phone, match


def server_check(server: str, match: dict[str, Any]) -> dict[str, Any]:
    answer = httpx.get(f"{server}/api/matches/{match['id']}/verify",
                       headers={"Authorization": f"Bearer {match['seats']['referee']}"})
    answer.raise_for_status()
    return dict(answer.json())


def test_check_every_roll_after_the_reveal_says_all_matched_with_the_servers_counts(
        browser: Any, server: str, screenshots: Callable[[Any, str], Path]) -> None:
    phone, match = played(browser, server, screenshots)
    said = reveal_and_check(phone)
    verdict = server_check(server, match)
    assert verdict["ok"] and verdict["rolls_checked"] >= 3 and verdict["rolls_unchecked"] == 0
    assert said.startswith(f"All {verdict['events']} events are linked and unchanged, and all "
                           f"{verdict['rolls_checked']} server rolls recomputed from the "
                           "revealed seed match."), said
    assert f"The chain ends in {verdict['chain_head'][:16]}…, the chain head shown above." in said
    phone.screen("all-matched")
    panel_shot(screenshots, phone.page, "all-matched")
    phone.close()


def _stored(db: Path, match_id: str) -> list[tuple[int, dict[str, Any]]]:
    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT originator_version, state FROM stored_events WHERE "
                         "originator_id=? ORDER BY originator_version",
                         (match_id.replace("-", ""),)).fetchall()
    return [(version, json.loads(state)) for version, state in rows]


def forged(bodies: list[dict[str, Any]], version: int,
           change: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Event `version` of an export's events changed as `change` says, with its hash and
    every later link made good again, as a forger would (the referee's file holds the salts:
    a changed hidden value is committed to anew): what changed in each event."""
    changes: dict[int, dict[str, Any]] = {version: dict(change)}
    prev = bodies[version - 1]["prev_hash"]
    for body in bodies[version - 1:]:
        edit = changes.setdefault(body["version"], {})
        edit["prev_hash"] = prev
        body.update(edit)
        if body.get("salts"):
            body["commitments"] = {name: commitment_to(salt, body[name])
                                   for name, salt in body["salts"].items()}
        edit["hash"] = prev = body["hash"] = event_hash(body)
    return changes


def edit_a_roll(db: Path, server: str, match: dict[str, Any], *, rechain: bool) -> int:
    """Change the faces of the match's first "2d6" server roll in the SQLite file under the
    running server; `rechain`: its hash and every later link made good again, so only the
    dice themselves give the edit away. Returns its version."""
    export = httpx.get(f"{server}/api/matches/{match['id']}/export",
                       headers={"Authorization": f"Bearer {match['seats']['referee']}"})
    bodies = [json.loads(line) for line in split_lines(export.text)[1:]]
    roll = next(b for b in bodies if b["type"] == "DiceRolled" and b["notation"] == "2d6")
    faces = [7 - d for d in roll["dice"]]  # each die turned over: not what the seed gave
    change = {"dice": faces, "total": sum(faces)}
    changes = forged(bodies, roll["version"], change) if rechain else {roll["version"]: change}
    stored = dict(_stored(db, match["id"]))
    with sqlite3.connect(db) as c:
        for version, edit in changes.items():
            state = {**stored[version], **edit}
            c.execute("UPDATE stored_events SET state=? WHERE originator_id=? AND "
                      "originator_version=?", (json.dumps(state).encode(),
                                               match["id"].replace("-", ""), version))
    return int(roll["version"])


def test_check_every_roll_names_a_roll_edited_in_the_store_under_the_page(
        browser: Any, own_server: str, tmp_path: Path,
        screenshots: Callable[[Any, str], Path]) -> None:
    phone, match = played(browser, own_server, screenshots)
    assert reveal_and_check(phone).startswith("All ")
    db = tmp_path / "battlelog.db"

    edit_a_roll(db, own_server, match, rechain=True)  # the chain made good: only dice differ
    said = check(phone)
    assert said.startswith("Not matched: “"), said
    assert "Artillery on the ridge" in said and "does not come from the revealed seed" in said
    assert not server_check(own_server, match)["ok"]  # the server's own check agrees
    phone.screen("forged-roll-named")
    panel_shot(screenshots, phone.page, "forged-roll-named")

    edit_a_roll(db, own_server, match, rechain=False)  # turned back, its hash left as forged
    said = check(phone)
    assert said.startswith("Not matched: “") and "Artillery on the ridge" in said, said
    assert "was changed after it was recorded" in said
    phone.screen("altered-roll-named")
    panel_shot(screenshots, phone.page, "altered-roll-named")
    phone.close()


def act(server: str, match: dict[str, Any], seat: str, **action: Any) -> list[dict[str, Any]]:
    answer = httpx.post(f"{server}/api/matches/{match['id']}/actions", json=action,
                        headers={"Authorization": f"Bearer {match['seats'][seat]}"})
    assert answer.status_code == 201, answer.text
    return list(answer.json()["events"])


def export_of(server: str, match: dict[str, Any], seat: str = "referee") -> str:
    return httpx.get(f"{server}/api/matches/{match['id']}/export",
                     headers={"Authorization": f"Bearer {match['seats'][seat]}"}).text


def page_check(page: Any, text: str) -> dict[str, Any]:
    """The page's own check (api/static/integrity.js) of a match file."""
    return dict(page.evaluate("""async (text) => {
        const { checkExport } = await import('/static/integrity.js');
        return checkExport(text.split('\\n').slice(0, -1));
    }""", text))


def forged_export(text: str, kind: str, change: Callable[[dict[str, Any]], dict[str, Any]]) -> str:
    """The export with its first event of `kind` changed, re-hashed and re-chained, and its
    header sealed again with the new chain head: only a recomputation can tell."""
    header, *bodies = [json.loads(line) for line in split_lines(text)]
    event = next(b for b in bodies if b["type"] == kind)
    forged(bodies, event["version"], change(event))
    header["chain_head"] = bodies[-1]["hash"]
    header["hash"] = content_hash(header)
    return "".join(canonical(b) + "\n" for b in (header, *bodies))


def test_the_pages_check_agrees_with_battlelog_verify_on_every_kind_of_server_roll(
        contexts: Callable[..., Any], server: str) -> None:
    """Initiative (one d6 per side, named in a map), a deck shuffled from the card seed, dice
    with a modifier, a float as Python writes it (2.0, 1e-05), a note in any script: each
    match ended (both seeds revealed); the page's counts are the server's."""
    page = contexts().new_page()
    page.goto(server)
    battlegroup = new_match(server, "battlegroup-demo", entropy="ünïcode ✓")
    act(server, battlegroup, "referee", type="roll_initiative")
    freeform_body = {"scenario": "Awkward lines", "decks": {"red": ["r-3", "r-1", "R-2", "r-10"]},
                     "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}],
                     "units": [{"id": "u1", "side": "red", "name": "Scouts",
                                "position": {"x": 1, "y": 1}}]}
    made = httpx.post(f"{server}/api/matches", json=freeform_body).json()
    seats = {"referee": made["tokens"]["referee"]}
    for side in ("red", "blue"):
        seats[side] = httpx.post(f"{server}/api/matches/{made['match_id']}/seats",
                                 json={"player": side, "entropy": f"«{side}»\u2028"},
                                 headers={"Authorization": f"Bearer {made['tokens'][f'join:{side}']}"},
                                 ).json()["token"]
    freeform = {"id": made["match_id"], "seats": seats}
    act(server, freeform, "red", type="shuffle_deck")
    act(server, freeform, "red", type="roll_dice", notation="3d6-2", purpose="Über \"fire\"")
    act(server, freeform, "red", type="move_unit", unit_id="u1", to={"x": 0.00001, "y": 2.0})
    act(server, freeform, "blue", type="add_note", text="nöte \u2028 𝄞 </script>")
    for match in (battlegroup, freeform):
        act(server, match, "referee", type="end_match", reason="enough")
        verdict = server_check(server, match)
        assert verdict["ok"] and verdict["rolls_checked"] >= 1, verdict
        found = page_check(page, export_of(server, match))
        assert found["problem"] is None, found
        assert (found["events"], found["checked"], found["waiting"], found["head"]) == (
            verdict["events"], verdict["rolls_checked"], verdict["rolls_unchecked"],
            verdict["chain_head"])
    text = export_of(server, freeform)
    assert "1e-05" in text and '"y":2.0' in text  # Python's floats, kept byte for byte

    # each roll kind forged, re-hashed and re-chained in the file: named by its recomputation
    for match, kind, change in (
            (freeform, "DeckShuffled", lambda e: {"order": e["order"][::-1]}),
            (freeform, "DiceRolled", lambda e: {"dice": [1, 1, 1], "total": 1}),
            (battlegroup, "InitiativeRolled", lambda e: {"dice": {k: 7 - v for k, v in e[
                "dice"].items()}})):
        text = forged_export(export_of(server, match), kind, change)
        found = page_check(page, text)
        assert found["problem"]["kind"] == "roll", (kind, found)
        assert found["problem"]["detail"].startswith("does not come from the revealed seed")
        assert any(e["type"] == kind and e["version"] == found["problem"]["version"]
                   for e in map(json.loads, split_lines(text)[1:]))
    # a line written another way (a space after a colon) is refused, as battlelog verify does
    lines = split_lines(export_of(server, freeform))
    lines[2] = lines[2].replace('":', '": ', 1)
    assert page_check(page, "".join(lines))["problem"]["kind"] == "canonical"
