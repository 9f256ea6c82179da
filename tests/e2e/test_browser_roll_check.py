""""Check every roll" on a 390x844 phone, against a real server and its SQLite file: after
the referee reveals the dice seed, the page recomputes every server roll and every link of
the hash chain itself (Web Crypto) and says that all matched, with the counts the server's
own check gives; with a roll edited in the store under the running server (its hash and the
chain after it made good again, as a forger would, or not), the page names that roll by its
sentence."""

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

from domain.integrity import content_hash

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


def edit_a_roll(db: Path, server: str, match: dict[str, Any], *, rechain: bool) -> int:
    """Change the faces of the match's first "2d6" server roll in the SQLite file under the
    running server; `rechain`: its hash and every later link made good again, so only the
    dice themselves give the edit away. Returns its version."""
    export = httpx.get(f"{server}/api/matches/{match['id']}/export",
                       headers={"Authorization": f"Bearer {match['seats']['referee']}"})
    bodies = [json.loads(line) for line in export.text.splitlines()[1:]]
    roll = next(b for b in bodies if b["type"] == "DiceRolled" and b["notation"] == "2d6")
    faces = [7 - d for d in roll["dice"]]  # each die turned over: not what the seed gave
    changes: dict[int, dict[str, Any]] = {roll["version"]: {"dice": faces,
                                                             "total": sum(faces)}}
    if rechain:
        prev = roll["prev_hash"]
        for body in bodies[roll["version"] - 1:]:
            change = changes.setdefault(body["version"], {})
            change["prev_hash"] = prev
            body.update(change)
            change["hash"] = prev = content_hash(body)
    stored = dict(_stored(db, match["id"]))
    with sqlite3.connect(db) as c:
        for version, change in changes.items():
            state = {**stored[version], **change}
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
