"""The table page in a real browser (headless Chromium) against a real `battlelog serve`.

Three seats in three browser contexts (so three separate devices): the referee starts the
Atomic Africa demo from the lobby and hands out the join links; red joins on a desktop, blue
on a 390-pixel phone. They play AA-X1 through the page (RULES.md: 11 figures, 2 wounds, 3
more wounds and 4 suppression, the compulsory split into 6 and 5, then a morale roll), each
page following the other live; then an undo that needs the other side's consent, time travel
back and forward, and the exports. Every screen is saved under test-artifacts/.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]
PHONE = {"width": 390, "height": 844}


def policed_contexts(browser: Any, server: str) -> Iterator[Callable[..., Any]]:
    """New browser contexts (separate devices) whose every request is checked: the page may
    talk to its own server only (no CDN, nothing else), and no script error is allowed."""
    opened: list[Any] = []
    elsewhere: list[str] = []
    errors: list[str] = []
    origin = urlsplit(server).netloc

    def open_context(**options: Any) -> Any:
        context = browser.new_context(accept_downloads=True, **options)

        def police(route: Any) -> None:
            url = route.request.url
            if urlsplit(url).netloc == origin or url.startswith(("data:", "blob:")):
                route.continue_()
            else:
                elsewhere.append(url)
                route.abort()

        context.route("**/*", police)
        context.on("page", lambda page: page.on("pageerror", lambda e: errors.append(str(e))))
        opened.append(context)
        return context

    yield open_context
    for context in opened:
        context.close()
    assert elsewhere == [], f"the page reached beyond its server: {elsewhere}"
    assert errors == [], f"script errors in the page: {errors}"


@pytest.fixture
def contexts(browser: Any, server: str) -> Iterator[Callable[..., Any]]:
    yield from policed_contexts(browser, server)


def unit_card(page: Any, unit_id: str) -> Any:
    return page.locator(f'li.unit-card[data-unit="{unit_id}"]')


def version_of(page: Any) -> int:
    match = re.search(r"v(\d+)", page.locator("#where").inner_text())
    assert match, page.locator("#where").inner_text()
    return int(match.group(1))


def wait_version(page: Any, version: int) -> None:
    """Wait until the page shows `version` (it updates itself: no reload anywhere)."""
    page.wait_for_function(
        "v => (document.querySelector('#where')?.textContent || '').endsWith(' v' + v)",
        arg=version, timeout=10_000)


def acted(page: Any) -> None:
    """Wait for the success notice of the last action (and fail on an error notice)."""
    notice = page.locator("#notice")
    notice.wait_for(state="visible")
    assert "ok" in (notice.get_attribute("class") or ""), notice.inner_text()
    page.evaluate("document.querySelector('#notice').hidden = true")


def place_markers(page: Any, unit_id: str, kind: str, count: int) -> None:
    """Place a marker from the unit's card: the kinds the service lists, and a count."""
    card = unit_card(page, unit_id)
    card.get_by_role("button", name="Place a marker", exact=True).click()
    card.locator("summary", has_text="With more detail").click()
    card.locator("label.pick", has_text=kind).click()
    card.get_by_label("How many").fill(str(count))
    card.locator(".input-form button[type=submit]").click()
    acted(page)


def join_link(page: Any, side: str) -> str:
    """The join link the Seats panel shows for `side` (by its name)."""
    return str(page.get_by_role("link", name=f"Join link for {side}").get_attribute("href"))


def join(context: Any, link: str, player: str, shot: Shot, name: str) -> Any:
    page = context.new_page()
    page.goto(link)
    page.get_by_label("Your name").fill(player)
    shot(page, f"{name}-join")
    page.get_by_role("button", name="Take my seat").click()
    page.wait_for_selector("#turn-marker")
    assert urlsplit(page.url).fragment == "", "the token must leave the address bar"
    return page


def start_sample(page: Any, server: str, sample: str = "atomic-africa-demo") -> None:
    """From the lobby, start a sample scenario: this page is then its referee's table."""
    page.goto(server)
    page.get_by_label("Sample scenario", exact=True).select_option(sample)
    page.get_by_role("button", name="Start this match").first.click()
    page.wait_for_selector("#turn-marker")


def unlabelled_controls(page: Any) -> list[str]:
    """Form controls a screen reader could not name."""
    return list(page.evaluate("""() => [...document.querySelectorAll('input, select, textarea, button')]
        .filter(el => !el.hidden && el.type !== 'hidden')
        .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                      && !(el.tagName === 'BUTTON' && el.textContent.trim()))
        .map(el => el.outerHTML.slice(0, 120))"""))


def low_contrast(page: Any) -> list[str]:
    """Text below WCAG AA contrast against the background it sits on (4.5:1, large 3:1)."""
    return list(page.evaluate("""() => {
      const rgba = (s) => { const m = s.match(/rgba?\\(([^)]+)\\)/);
        const p = m ? m[1].split(',').map(Number) : [0, 0, 0, 0];
        return { c: p.slice(0, 3), a: p.length > 3 ? p[3] : 1 }; };
      const lum = (c) => { const f = (v) => { v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
      const behind = (el) => { for (let e = el; e; e = e.parentElement) {
        const b = rgba(getComputedStyle(e).backgroundColor); if (b.a > 0.5) return b.c; }
        return [255, 255, 255]; };
      const bad = [];
      for (const el of document.querySelectorAll('body *')) {
        if (el.closest('svg') || !el.checkVisibility()) continue;
        if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
        const st = getComputedStyle(el);
        const [a, b] = [lum(rgba(st.color).c), lum(behind(el))];
        const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        const size = parseFloat(st.fontSize);
        const large = size >= 24 || (Number(st.fontWeight) >= 700 && size >= 18.66);
        if (ratio < (large ? 3 : 4.5)) bad.push(`${el.tagName} ${ratio.toFixed(2)}: ${el.textContent.trim().slice(0, 40)}`);
      }
      return bad;
    }"""))


def test_two_players_play_aa_x1_live_with_undo_consent_time_travel_and_export(
        contexts: Callable[..., Any], server: str, screenshots: Shot, tmp_path: Path) -> None:
    # The referee starts the demo from the lobby.
    referee = contexts(viewport={"width": 1280, "height": 900}).new_page()
    referee.goto(server)
    referee.get_by_label("Sample scenario", exact=True).select_option("atomic-africa-demo")
    assert unlabelled_controls(referee) == [] and low_contrast(referee) == []
    screenshots(referee, "01-lobby")
    referee.get_by_role("button", name="Start this match").first.click()
    referee.wait_for_selector("#turn-marker")
    assert "You: Referee" in referee.locator("#viewer").inner_text()
    red_link = join_link(referee, "Expeditionary Force")
    blue_link = join_link(referee, "Free Militia")
    assert "#join=" in red_link and "#join=" in blue_link
    screenshots(referee, "02-referee-table")

    red = join(contexts(viewport={"width": 1280, "height": 900}), red_link, "Ann", screenshots,
               "03-red")
    blue = join(contexts(viewport=PHONE, is_mobile=True, has_touch=True), blue_link, "Bert",
                screenshots, "04-blue-phone")
    assert "You: Expeditionary Force" in red.locator("#viewer").inner_text()
    assert "You: Free Militia" in blue.locator("#viewer").inner_text()
    assert blue.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert unlabelled_controls(red) == [] and low_contrast(red) == []
    # Private information: each side sees its own deck order, never the other's.
    assert "red-" in red.locator("#board").inner_text()
    assert "red-" not in blue.locator("main").inner_text()
    assert "blue-" not in red.locator("main").inner_text()

    # Out of turn: blue may not activate while red activates, so its page offers no Activate.
    assert unit_card(blue, "ml1").get_by_role("button", name="Activate", exact=True).count() == 0
    screenshots(blue, "04b-blue-out-of-turn")

    # AA-1: red activates sq1; blue's page follows without a reload.
    expects = red.locator(".expects")
    assert "Expeditionary Force to activate one of: 1st Squad, 2nd Squad" in expects.inner_text()
    unit_card(red, "sq1").get_by_role("button", name="Activate", exact=True).click()
    acted(red)
    wait_version(blue, version_of(red))
    assert "activated" in unit_card(blue, "sq1").inner_text()

    # AA-X1: 3 more wounds (5 in all) and 4 suppression; the card says it must split.
    place_markers(blue, "sq1", "wound", 3)
    place_markers(blue, "sq1", "suppression", 4)
    wait_version(red, version_of(blue))
    card = unit_card(red, "sq1")
    assert "wounds: 5" in card.inner_text() and "suppression: 4" in card.inner_text()
    assert "must split" in card.inner_text()
    assert low_contrast(red) == [] and low_contrast(blue) == []
    screenshots(red, "05-red-must-split")
    screenshots(blue, "06-blue-phone-markers")

    # The dice roller shows each die (red records fire).
    red.get_by_label("Dice to roll").fill("3d6")
    red.get_by_label("Purpose").fill("1st Squad fires at the Militia Band")
    red.get_by_role("button", name="Roll", exact=True).click()
    acted(red)
    faces = red.locator("#last-roll .die")
    assert faces.count() == 3
    assert all(1 <= int(f) <= 6 for f in faces.all_inner_texts())

    # Activations alternate until every unit has gone, then Clean-Up: Split.
    for page, unit in ((red, None), (blue, "ml1"), (red, "sq2"), (blue, "mg1")):
        if unit:
            wait_version(page, max(version_of(red), version_of(blue)))
            unit_card(page, unit).get_by_role("button", name="Activate", exact=True).click()
            acted(page)
        page.locator("#advance").click()
        acted(page)
    wait_version(red, version_of(blue))
    assert red.locator("li[aria-current=step]").get_attribute("data-step") == "cleanup/split"
    assert "units that must split: 1st Squad" in red.locator(".expects").inner_text()

    # AA-3: the compulsory split, 11 figures into 6 and 5, wounds 3 + 2, suppression 2 + 2.
    before_split = version_of(red)
    card = unit_card(red, "sq1")
    card.locator("button[data-action=split_unit]").click()  # as the rules divide it: at once
    if card.locator(".picker").count():  # where the rules offer two ways: the first
        card.locator(".picker .picks-grid button").first.click()
    if card.locator(".input-form").count():  # which half takes an odd marker: the first
        for group in card.locator("fieldset.picks:has(input[type=radio])").all():
            group.locator("label.pick").first.click()
        card.locator(".input-form button[type=submit]").click()
    acted(red)
    first, second = unit_card(red, "sq1").inner_text(), unit_card(red, "sq1-2").inner_text()
    assert "6 figures" in first and "wounds: 3" in first and "suppression: 2" in first
    assert "5 figures" in second and "wounds: 2" in second and "suppression: 2" in second
    assert "morale d4 (base d10)" in first and "morale d6 (base d10)" in second
    assert "must split" not in first
    wait_version(blue, version_of(red))
    assert unit_card(blue, "sq1-2").count() == 1
    screenshots(red, "07-red-after-split")

    # AA-7: on to Morale once both sides are done splitting; red rolls for sq1-2 (d6 against
    # 2 suppression).
    red.locator("#advance").click()  # "Done with this step"
    acted(red)
    wait_version(blue, version_of(red))
    blue.locator("#advance").click()
    acted(blue)
    wait_version(red, version_of(blue))
    assert "units owing a Morale roll: 1st Squad" in red.locator(".expects").inner_text()
    unit_card(red, "sq1-2").get_by_role("button", name="Morale roll").click()
    roll_here = unit_card(red, "sq1-2").get_by_role("button", name="Roll here")
    if roll_here.count():
        roll_here.click()
    acted(red)
    die = red.locator("#last-roll .die")
    assert die.count() == 1 and 1 <= int(die.inner_text()) <= 6
    rolled = version_of(red)
    # rolled once: its card offers no Morale roll any more
    assert unit_card(red, "sq1-2").get_by_role("button", name="Morale roll").count() == 0
    screenshots(red, "08-red-morale-roll")

    # Undo across the die: red asks, blue's page shows the question live, blue accepts.
    red.locator("#undo-here").click()
    acted(red)
    wait_version(blue, rolled + 1)
    prompt = blue.locator("#prompt")
    assert "asks to undo the last" in prompt.inner_text()
    screenshots(blue, "09-blue-undo-consent")
    prompt.get_by_role("button", name="Accept").click()
    acted(blue)
    wait_version(red, version_of(blue))
    assert unit_card(red, "sq1-2").get_by_role("button", name="Morale roll").count() == 1
    assert red.locator("#prompt").inner_text() == ""
    assert red.locator(f'#log li.undone[data-version="{rolled}"]').count() == 1  # struck out
    # Redo belongs to red, who asked for the undo: blue's page offers none.
    assert red.get_by_role("button", name="Redo").count() == 1
    assert blue.get_by_role("button", name="Redo").count() == 0

    # Time travel: back to before the split (the board says it is the past), then forward.
    now = version_of(red)
    slider = red.locator("#time-slider")
    slider.fill(str(before_split))
    slider.dispatch_event("change")
    red.locator("#past").wait_for(state="visible")
    assert f"version {before_split} of {now}" in red.locator("#past").inner_text()
    assert unit_card(red, "sq1-2").count() == 0
    assert "11 figures" in unit_card(red, "sq1").inner_text()
    assert red.locator("#advance").count() == 0  # no acting in the past
    assert low_contrast(red) == []
    screenshots(red, "10-red-time-travel")
    red.get_by_role("button", name="One event forward").click()
    red.wait_for_function("() => document.querySelector('#time-shown').textContent"
                          f".startsWith('Event {before_split + 1} of')")
    assert unit_card(red, "sq1-2").count() == 1
    red.locator("#past").get_by_role("button", name="Back to now").click()
    red.locator("#past").wait_for(state="hidden")
    assert red.locator("#advance").count() == 1

    # Exports: the match file verifies as JSON Lines with every event; the report has charts.
    with red.expect_download() as download:
        red.get_by_role("button", name="Match file (JSONL)").click()
    path = tmp_path / "match.jsonl"
    download.value.save_as(path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["format"] == "battlelog-match" and lines[0]["viewer"] == "red"
    assert [e["version"] for e in lines[1:]] == list(range(1, now + 1))
    with referee.expect_download() as download:
        referee.get_by_role("button", name="Report (HTML)").click()
    report = tmp_path / "report.html"
    download.value.save_as(report)
    assert "<svg" in report.read_text() and "Free Militia" in report.read_text()
    wait_version(referee, now)
    screenshots(referee, "11-referee-end")


def test_the_log_filters_and_a_dispute_goes_to_the_referee(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    referee = contexts().new_page()
    start_sample(referee, server)
    blue = join(contexts(viewport=PHONE), join_link(referee, "Free Militia"), "Bert", screenshots,
                "01-blue")

    # Blue disputes the match's first event; the referee sees it live and rules.
    entry = blue.locator('#log li[data-version="1"]')
    entry.locator("summary", has_text="Note or dispute").click()
    entry.get_by_label("Text").fill("The 1st Squad started with 2 wounds? It had none.")
    entry.get_by_role("button", name="Open dispute").click()
    acted(blue)
    wait_version(referee, version_of(blue))
    disputes = referee.locator("#disputes")
    assert "It had none" in disputes.inner_text()
    disputes.get_by_label("Ruling").fill("The scenario sets 2 wounds; play on.")
    disputes.get_by_role("button", name="Record the ruling").click()
    acted(referee)
    wait_version(blue, version_of(referee))
    assert "Ruling: The scenario sets 2 wounds" in blue.locator("#disputes").inner_text()

    # The log filters by seat and type.
    log = referee.locator("#log")
    log.get_by_label("Seat").select_option("blue")
    referee.wait_for_function("() => [...document.querySelectorAll('#log li .meta')]"
                              ".every(m => m.textContent.includes('Free Militia'))")
    assert log.locator("li").count() >= 1
    screenshots(referee, "02-referee-dispute-ruled")


def test_a_hex_game_draws_its_map_and_the_keyboard_selects_a_unit(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    page = contexts().new_page()
    start_sample(page, server, "normandy-demo")
    scenario = httpx.get(f"{server}/api/scenarios/normandy-demo").json()
    on_hexes = [u["id"] for u in scenario["units"] if (u["position"] or {}).get("hex")]
    units = page.locator("svg.map.hexes g.unit")
    assert sorted(units.evaluate_all("gs => gs.map(g => g.dataset.unit)")) == sorted(on_hexes)
    assert page.locator("svg.map.hexes g.hex").count() >= units.count()
    # A unit on the map is a button: Tab to it, Enter selects its card.
    first = units.first
    selected = first.get_attribute("data-unit")  # read first: the selected unit is drawn on top
    first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(f'li.unit-card.selected[data-unit="{selected}"]')
    assert unlabelled_controls(page) == [] and low_contrast(page) == []
    screenshots(page, "01-normandy-hex-map")


def test_one_player_plays_the_demo_alone_on_one_device_to_the_end(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    """What a new user does after `make run`: start the demo, take both seats on this device,
    play a turn switching seats, and end the match; the generic action form does the rest."""
    page = contexts(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    start_sample(page, server)
    for side, player in (("Expeditionary Force", "Ann"), ("Free Militia", "Bert")):
        page.get_by_label("Acting as").select_option(label="Referee") if page.get_by_label(
            "Acting as").count() else None
        row = page.locator("#seats li", has_text=side)
        row.get_by_role("button", name="Take this seat here").click()
        page.get_by_label("Your name").fill(player)
        page.get_by_role("button", name="Take my seat").click()
        page.wait_for_selector("#turn-marker")
        assert f"You: {side}" in page.locator("#viewer").inner_text()
    seats = page.get_by_label("Acting as")

    def as_side(label: str) -> None:
        seats.select_option(label=label)
        page.wait_for_function(
            "l => document.querySelector('#viewer').textContent.includes(l)", arg=label)

    # Turn 1's activations, alternating seats on the one device.
    for label, unit in (("Expeditionary Force", "sq1"), ("Free Militia", "ml1"),
                        ("Expeditionary Force", "sq2"), ("Free Militia", "mg1")):
        as_side(label)
        unit_card(page, unit).get_by_role("button", name="Activate", exact=True).click()
        acted(page)
        if unit == "sq1":  # the activated squad moves: tap Move, then the table
            card = unit_card(page, "sq1")
            assert "at 10, 12" in card.inner_text()
            card.get_by_role("button", name="Move", exact=True).click()
            page.locator("svg.map.placing").wait_for()
            box = page.locator("svg.map").bounding_box()
            page.locator("svg.map").click(position={"x": box["width"] / 2, "y": box["height"] / 2})
            acted(page)
            moved = re.search(r"at ([\d.]+), ([\d.]+)", unit_card(page, "sq1").inner_text())
            assert moved and (moved.groups() != ("10", "12"))
            # the move is red's own since the last barrier: undo is immediate, redo too
            page.locator("#undo").click()
            acted(page)
            assert "at 10, 12" in unit_card(page, "sq1").inner_text()
            page.get_by_role("button", name="Redo").click()
            acted(page)
            assert f"at {moved.group(1)}, {moved.group(2)}" in unit_card(page, "sq1").inner_text()
        page.locator("#advance").click()
        acted(page)

    def both_done() -> None:  # Clean-Up: each side says it is done with the sub-phase
        for label in ("Expeditionary Force", "Free Militia"):
            as_side(label)
            page.locator("#advance").click()
            acted(page)

    for _ in range(2):  # nothing to split, no morale owed
        both_done()
    assert page.locator("li[aria-current=step]").get_attribute("data-step") == "cleanup/cards"

    # AA-8 from Your move: each side shuffles its deck, then cuts the other's.
    play = page.locator("#play")
    for label in ("Expeditionary Force", "Free Militia"):
        as_side(label)
        play.get_by_role("button", name="Shuffle your deck (AA-8)").click()
        acted(page)
    for label in ("Expeditionary Force", "Free Militia"):
        as_side(label)
        play.locator("button[data-action=cut_deck]").click()
        play.get_by_label("Cards that go under").fill("2")
        play.locator(".input-form button[type=submit]").click()
        acted(page)
    both_done()
    assert "Turn 2" in page.locator("#turn-marker").inner_text()

    # The referee sets tracks from More actions (a name and a value, nothing else typed).
    as_side("Referee")
    more = page.locator("#actions")
    for name, value in (("weather", "rain"), ("turn_limit", "3")):
        more.locator("button[data-action=set_track]").click()
        if more.locator(".picker").count():
            more.locator(".picker .picks-grid button", has_text="Another track").click()
        form = more.locator(".input-form")
        form.locator("input").nth(0).fill(name)
        form.locator("input").nth(1).fill(value)
        form.locator("button[type=submit]").click()
        acted(page)
    tracks = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#board dl.tracks dt')].map(dt => [dt.textContent, dt.nextElementSibling.textContent]))""")
    assert tracks == {"weather": "rain", "turn limit": "3"}
    api_tracks = httpx.get(f"{server}/api/matches/{page.url.rsplit('/', 1)[-1]}/board",
                           headers={"Authorization": "Bearer " + page.evaluate(
                               "() => Object.values(JSON.parse(localStorage['battlelog.matches']))"
                               "[0].tokens.referee")}).json()["tracks"]
    assert api_tracks == {"weather": "rain", "turn_limit": 3}  # a number stays a number
    page.locator("#turn summary", has_text="End the match").click()
    page.get_by_label("Who wins").select_option(label="Expeditionary Force wins")
    page.get_by_label("Why").fill("demo over")
    page.get_by_role("button", name="End the match now").click()
    acted(page)
    assert "Ended: Expeditionary Force wins" in page.locator(".match-head").inner_text()
    assert page.locator("#advance").count() == 0
    screenshots(page, "01-demo-ended-phone")
