"""The event log and the dice panel in words (issue 17), in a real browser against a real
`battlelog serve`, on a phone 390 px wide: each event is its sentence (side and unit names,
initiative with its re-roll and the order), who and in which turn below it; no JSON and no
version link shows (the event as recorded waits in a closed disclosure); "Show the table
then" takes the table back to that moment; every control of the log is at least 44 by 44 px,
and nothing overflows sideways. Screens under test-artifacts/."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]
PHONE = {"width": 390, "height": 844}


def act(server: str, match: str, token: str, **body: Any) -> list[dict[str, Any]]:
    r = httpx.post(f"{server}/api/matches/{match}/actions", json=body,
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201, r.text
    return list(r.json()["events"])


def played(server: str) -> tuple[str, dict[str, str]]:
    """The Battlegroup demo: initiative rolled at the table with a tie, then the re-roll, the
    winner hands first place over, and a note about it."""
    scenario = httpx.get(f"{server}/api/scenarios/battlegroup-demo").json()
    r = httpx.post(f"{server}/api/matches", json=scenario)
    assert r.status_code == 201, r.text
    match, tokens = str(r.json()["match_id"]), dict(r.json()["tokens"])
    sides = [s["id"] for s in scenario["sides"]]
    ref = tokens["referee"]
    act(server, match, ref, type="roll_initiative", source="table",
        results={sides[0]: 6, sides[1]: 4, sides[2]: 4})
    act(server, match, ref, type="roll_initiative", source="table",
        results={sides[1]: 2, sides[2]: 5})
    act(server, match, ref, type="pass_initiative")
    act(server, match, ref, type="add_note", text="Western Column lost the roll-off")
    return match, tokens


def small_controls(page: Any, root: str) -> list[str]:
    """Visible controls under `root` smaller than 44 by 44 px."""
    return list(page.evaluate("""root => [...document.querySelectorAll(
            root + ' button, ' + root + ' summary, ' + root + ' select, ' + root + ' input')]
        .filter(el => el.offsetParent !== null)
        .map(el => [el, el.getBoundingClientRect()])
        .filter(([, r]) => r.width < 44 || r.height < 44)
        .map(([el, r]) => `${el.outerHTML.slice(0, 80)} ${r.width}x${r.height}`)""", root))


def test_the_log_says_each_event_in_words_on_a_phone(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    match, tokens = played(server)
    scenario = httpx.get(f"{server}/api/scenarios/battlegroup-demo").json()
    names = [s["name"] for s in scenario["sides"]]
    page = contexts(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    page.goto(f"{server}/play/{match}#seat={tokens['referee']}")
    page.wait_for_selector("#log li .said", state="attached")
    log = page.locator("#log")
    log.scroll_into_view_if_needed()
    screenshots(page, "01-log-in-words")

    text = log.inner_text()
    assert "{" not in text and '":' not in text, text[:400]  # no JSON shows
    assert not re.search(r"\bv\d+\b", text), text[:400]  # no version links
    said = log.locator("li .said").all_inner_texts()
    assert said and all(s.strip() for s in said)
    served = httpx.get(f"{server}/api/matches/{match}/events", headers={
        "Authorization": f"Bearer {tokens['referee']}"}).json()["events"]
    assert said == [e["said"] for e in reversed(served)]  # the service's words, newest first
    initiative = next(s for s in said if s.startswith("Initiative:"))
    assert f"{names[2]} 4 (re-roll 5), {names[1]} 4 (re-roll 2)" in initiative
    assert initiative.endswith(f"; order: {names[0]}, {names[2]}, {names[1]}.")
    handed = f"{names[0]} handed first place to {names[2]}; order: {names[2]}, {names[0]}, "
    assert f"{handed}{names[1]}." in said
    assert "Referee wrote a note: “Western Column lost the roll-off”" in said
    assert "Referee · turn 1" in log.locator("li .meta").first.inner_text()
    # the dice panel says this turn's initiative in the same words, and the hand-over
    dice = page.locator("#initiative-said").inner_text()
    assert initiative in dice and handed in dice

    # the filters speak the players' words: kinds of event, seats by name
    kinds = log.get_by_label("What").locator("option").all_inner_texts()
    assert "Initiative rolled" in kinds and "InitiativeRolled" not in kinds
    seats = log.get_by_label("Seat").locator("option").all_inner_texts()
    assert set(names) <= set(seats) and "Referee" in seats

    assert small_controls(page, "#log") == []
    width = page.evaluate("Math.max(document.documentElement.scrollWidth, "
                          "document.body.scrollWidth)")
    assert width <= PHONE["width"]

    # the event as recorded is there, closed until asked for
    row = log.locator("li", has=page.locator(".said", has_text="Initiative:")).first
    raw = row.locator("details.raw")
    assert raw.get_attribute("open") is None
    raw.locator("summary").click()
    assert '"type": "InitiativeRolled"' in raw.locator("pre").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshots(page, "02-as-recorded")

    # "Show the table then" takes the table back to just after that event
    row.get_by_role("button", name=re.compile("^Show the table then")).click()
    page.locator("#past").wait_for(state="visible")
    assert "Initiative:" in page.locator("#time-shown").evaluate(
        "el => el.closest('section, div').parentElement.innerText")
    screenshots(page, "03-the-table-then")


def test_the_log_fits_every_phone_width_with_the_event_as_recorded_open(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    match, tokens = played(server)
    page = contexts(viewport={"width": 360, "height": 800}, is_mobile=True,
                    has_touch=True).new_page()
    page.goto(f"{server}/play/{match}#seat={tokens['referee']}")
    page.wait_for_selector("#log li .said", state="attached")
    for summary in page.locator("#log details.raw > summary").all():
        summary.click()  # the longest thing the log can show: every event as recorded
    for width in (360, 390, 430):
        page.set_viewport_size({"width": width, "height": 800})
        page.wait_for_function("w => window.innerWidth === w", arg=width)
        assert page.evaluate("Math.max(document.documentElement.scrollWidth, "
                             "document.body.scrollWidth)") <= width, width
        assert small_controls(page, "#log") == [], width
        assert small_controls(page, "#dice") == [], width
    page.locator("#log").scroll_into_view_if_needed()
    screenshots(page, f"01-log-{width}-as-recorded")


def test_the_dice_panel_counts_passes_and_sums_only_what_is_summed(
        contexts: Callable[..., Any], server: str) -> None:
    """The Dice panel (api/static/dice.js) on a table holding a WC-6 activation (three dice,
    each tested against the QV) and a sum: the activation shows its faces and the passes,
    never "6 4 2 = 12"; the sum keeps its total."""
    match, tokens = played(server)
    page = contexts(viewport=PHONE).new_page()
    page.goto(f"{server}/play/{match}#seat={tokens['referee']}")
    page.wait_for_selector("#log li .said", state="attached")
    passes = ("French Corps rolled 6, 4 and 2 for WC-6 activation of 7e Hussards (wing right): "
              "3 dice against QV 4, 0 leadership (3d6): 2 of 3 dice passed (needed 4+).")
    summed = "French Corps rolled 3 and 5 for the guns (2d6): 8."
    shown = page.evaluate("""async ([passes, summed]) => {
        const { renderDice } = await import('/static/dice.js');
        const roll = (version, dice, notation) => ({ version, roller: 'french', notation, dice,
            total: dice.reduce((a, b) => a + b), purpose: 'p', source: 'server', type: 'DiceRolled' });
        const table = {
            at: null, canAct: false, lastRoll: roll(7, [6, 4, 2], '3d6'),
            log: [{ version: 7, turn: 1, type: 'DiceRolled', said: passes },
                  { version: 8, turn: 1, type: 'DiceRolled', said: summed }],
            board: { turn: { turn: 1 }, recent_rolls: [roll(7, [6, 4, 2], '3d6'), roll(8, [3, 5], '2d6')] },
            seatName: (x) => x,
        };
        const nodes = renderDice(table).filter(Boolean);
        const last = nodes.find((n) => n.id === 'last-roll');
        const rolls = [...nodes.find((n) => n.classList.contains('rolls')).children];
        return { last: last.textContent, rolls: rolls.map((li) => li.textContent) };
    }""", [passes, summed])
    assert "=" not in shown["last"] and "2 of 3 dice passed (needed 4+)" in shown["last"]
    assert "= 8" in shown["rolls"][0]  # a sum keeps its total
    assert shown["rolls"][0].endswith(summed)
    assert "=" not in shown["rolls"][1] and shown["rolls"][1].endswith(passes)
