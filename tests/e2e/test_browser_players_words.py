"""Players' words everywhere (issue 26, item 3), on a 390x844 phone: every label, heading,
button, summary, option, placeholder and accessible name that the lobby, the join page and
the table render, and every title, label and value of what the table offers (the legal
answer each form is drawn from), for each seat of the five demos, the lobby's custom-match
form for each game system (filled from its sample) and a freeform match started from it. None shows an id of the match's own (a unit, card,
battlegroup or track, compared with the match's ids), a dotted name, a version, the engine's
"advance", or a rule-engine state; no field asks for an id; an example looks like one.

One pass per game: the table as the referee, then as each side (Acting as), and the join
page of one of its seats. The log, the disputes and the undo panel say events and rulings,
whose words are their own tests'. (Every screen any browser test saves is also scanned by
the `screenshots` fixture: tests/players_words.py `scan_screen`.) A refusal's notice is one
sentence for the players, and a long notice takes one line with "more"."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from board_steps import DEMOS
from lobby_steps import Thumb, fill_allies_and_axis, kept_match
from phone import Phone, new_match

from tests.players_words import legal_words, wrong

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]

# what a player reads on the page (the log, the disputes and the undo panel are left out)
SHOWN = """() => {
  const out = [];
  const away = (el) => el.closest('#log, #disputes, #time');
  const add = (el, what, t) => { t = (t || '').replace(/\\s+/g, ' ').trim();
    if (t && !away(el)) out.push(what + ': ' + t); };
  const said = 'label, h1, h2, h3, h4, legend, summary, button, option, #where, .step-now, '
    + '.hint, .expects li, .choice-head, dt, .sequence li, .sequence-all li';
  for (const el of document.querySelectorAll(said)) add(el, el.tagName.toLowerCase(), el.textContent);
  for (const el of document.querySelectorAll('[placeholder]')) add(el, 'placeholder', el.placeholder);
  for (const el of document.querySelectorAll('[aria-label]')) add(el, 'name', el.getAttribute('aria-label'));
  return out; }"""

def _ids(server: str, match: str, auth: dict[str, str]) -> set[str]:
    """The match's own ids: its units, battlegroups, cards (its scenario's decks and every
    seat's hand it shows) and tracks."""
    board = httpx.get(f"{server}/api/matches/{match}/board", headers=auth).json()
    units = board["units"] + board["off_board"]
    ids = {u["id"] for u in units} | {str(u["extra"]["battlegroup"]) for u in units
                                      if "battlegroup" in (u.get("extra") or {})}
    for cards in board["cards"]:
        ids |= {*cards["played"], *(cards.get("hand") or ()), *(cards.get("deck") or ())}
    return ids | set(board["tracks"])


def _walk_table(phone: Phone, server: str, match: str, seats: dict[str, str]) -> list[str]:
    """The table as each seat held on this phone (by its name in Acting as, with its token):
    what it shows, and the legal answer its forms are drawn from."""
    texts: list[str] = []
    for name, token in seats.items():
        phone.as_seat(name)
        texts += phone.page.evaluate(SHOWN)
        texts += legal_words(httpx.get(f"{server}/api/matches/{match}/legal",
                                        headers={"Authorization": f"Bearer {token}"}).json())
    return texts


@pytest.mark.parametrize("demo", DEMOS)
def test_a_demo_speaks_the_players_words(browser: Any, server: str, screenshots: Shot,
                                         demo: str) -> None:
    made = httpx.post(f"{server}/api/matches",
                      json=httpx.get(f"{server}/api/scenarios/{demo}").json()).json()
    match = new_match(server, demo)
    auth = {"Authorization": f"Bearer {match['seats']['referee']}"}
    phone = Phone(browser, server, f"words-{demo}", screenshots)
    # the join page of one of the other match's seats
    join = next(t for k, t in made["tokens"].items() if k.startswith("join:"))
    phone.page.goto(f"{server}/play/{made['match_id']}#join={join}")
    phone.page.get_by_label("Your name").wait_for()
    texts = [f"join {t}" for t in phone.page.evaluate(SHOWN)]
    phone.open(match, "referee")
    sides = {s["id"]: s["name"] for s in httpx.get(
        f"{server}/api/matches/{match['id']}", headers=auth).json()["sides"]}
    seats = {("Referee" if seat == "referee" else sides[seat]): token
             for seat, token in match["seats"].items()}
    texts += _walk_table(phone, server, match["id"], seats)
    phone.screen("table")
    # the sequence of play reads as the game's steps, not their paths ("Cleanup: morale")
    steps = phone.page.locator(".sequence-all li").all_text_contents()
    turn = httpx.get(f"{server}/api/matches/{match['id']}/board", headers=auth).json()["turn"]
    assert steps == turn["sequence_titles"] and len(steps) == len(turn["sequence"]) >= 4
    assert not {s.split("/")[-1].replace("_", " ") for s in turn["sequence"]} & {
        t.split(": ")[-1].lower() for t in steps if ": " in t}, steps
    bad = wrong(texts, _ids(server, match["id"], auth))
    assert bad == [], "\n".join(bad)
    assert len(texts) > 100, texts  # the walk read the page (and the forms)
    phone.close()


def test_the_lobby_and_a_match_from_its_form_speak_the_players_words(
        browser: Any, server: str, screenshots: Shot) -> None:
    phone = Phone(browser, server, "words-lobby-freeform", screenshots)
    page = phone.page
    page.goto(server)
    you = Thumb(page)
    you.form.wait_for()
    # an empty form: its examples read as examples
    name = you.form.get_by_label("Scenario name")
    assert (name.get_attribute("placeholder") or "").startswith("e.g. ")
    assert name.evaluate("e => getComputedStyle(e, '::placeholder').fontStyle") == "italic"
    texts = [f"lobby {t}" for t in page.evaluate(SHOWN)]
    # the form for each game system, filled in from its sample (its units' fields, its
    # options), before the freeform match below is made by hand
    system = you.form.get_by_label("Game system")
    # (the games of ruleset files, by their hash, have no sample to fill in from: the walk of
    # a file's form is test_browser_ruleset_file's)
    games = [v for v in system.locator("option").evaluate_all("os => os.map(o => o.value)")
             if v != "freeform" and not v.startswith("sha256:")]
    assert games == ["atomic-africa", "battlegroup", "extended-sequence", "normandy",
                     "wing-command"], games
    for game in games:
        system.select_option(game)
        you.tap(you.form.get_by_role("button", name=re.compile(r"^Fill in the .* sample$")))
        you.form.get_by_label("Scenario name").and_(page.locator(":not(:placeholder-shown)")).wait_for()
        # every unit's row unfolded: the fields each game asks of a unit
        page.evaluate("document.querySelectorAll('form details').forEach(d => { d.open = true; })")
        shown = page.evaluate(SHOWN)
        assert "label: Unit name" in shown, shown
        texts += [f"lobby {game} {t}" for t in shown]
    phone.screen("lobby-sample")
    page.reload()
    you = Thumb(page)
    you.form.wait_for()
    fill_allies_and_axis(you, "Crossroads")
    texts += [f"lobby {t}" for t in page.evaluate(SHOWN)]
    phone.screen("lobby-filled")
    you.tap(you.form.get_by_role("button", name="Start this match"))
    page.wait_for_url("**/play/*")
    page.wait_for_selector("#play .step-now")
    phone.settle()
    match, auth = kept_match(page)
    texts += _walk_table(phone, server, match, {"Referee": auth["Authorization"][7:]})
    # the Deploy form: the player names the unit; the service makes its id
    more = page.locator("#actions")
    phone.tap(more.locator("button.big.action", has_text="Deploy a unit").first, "deploy")
    phone.tap(more.locator(".picker").get_by_role("button", name="Axis", exact=True), "deploy")
    texts += page.evaluate(SHOWN)
    phone.screen("deploy-form")
    bad = wrong(texts, _ids(server, match, auth))
    assert bad == [], "\n".join(bad)
    phone.close()


# a refusal, as the page's notice shows any refused action (table.js `post`: api.js, dom.js)
REFUSE = """async ([match, token]) => {
  const { api } = await import('/static/api.js');
  const { notice } = await import('/static/dom.js');
  try { await api(`/api/matches/${match}/actions`, { method: 'POST', token, body: { type: 'advance' } }); }
  catch (error) { notice(error.explainedAs ? error.explainedAs((x) => x) : error); }
}"""


def test_a_refusal_and_a_long_notice_are_one_line_in_the_players_words(
        browser: Any, server: str, screenshots: Shot) -> None:
    """A refusal's notice (Normandy's German seat moving the marker on from the Allies' step)
    is one sentence for the players: the step's title, who moves on by name, what to do; a
    notice of eleven sentences takes one line with "more", which shows it whole."""
    match = new_match(server, "normandy-demo")
    phone = Phone(browser, server, "words-refusal-notice", screenshots)
    phone.open(match, "german")
    page = phone.page
    phone.allow(403, f"/api/matches/{match['id']}/actions")
    page.evaluate(REFUSE, [match["id"], match["seats"]["german"]])
    # (the browser logs the expected 403 as a console error: only that one is dropped)
    assert phone.errors == [("Failed to load resource: the server responded with a status "
                             "of 403 (Forbidden)")], phone.errors
    phone.errors.clear()
    notice = page.locator("#notice")
    notice.wait_for(state="visible")
    said = notice.inner_text()
    assert "error" in (notice.get_attribute("class") or "")
    assert said.endswith("Wait for them, or ask the referee."), said
    assert re.match(r"In [A-Z]\w+.* only Second Army moves the turn marker on( \(NO-\d+\))?\. ",
                    said), said
    assert not re.search(r"'|\bstep '|\bseat\b|\ballied\b|/", said), said
    page.evaluate("window.scrollTo(0, 0)")
    phone.screen("refusal")
    # eleven sentences: one line (with "more"), then whole on a tap, then one line again
    long = " ".join(f"Sentence {i} of what the action did, with its roll and the rule's words."
                    for i in range(1, 12))
    page.evaluate("async (t) => (await import('/static/dom.js')).notice(t, 'ok')", long)
    line = notice.bounding_box()
    assert line is not None and line["height"] <= 60, line  # one line, not half the screen
    assert notice.text_content() == long  # the whole notice is its text
    more = notice.get_by_role("button", name="Show the whole notice")
    phone.check_size(more, "more")
    phone.screen("long-notice-folded")
    more.click()
    whole = notice.bounding_box()
    assert whole is not None and whole["height"] > 3 * line["height"], whole
    assert notice.get_by_role("button", name="Fold the notice to one line").is_visible()
    phone.screen("long-notice-whole")
    notice.get_by_role("button", name="Fold the notice to one line").click()
    assert (notice.bounding_box() or {})["height"] <= 60
    phone.close()
