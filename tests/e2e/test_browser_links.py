"""Links and confirmations on a 390x844 phone, in a real browser against a real server: the join
page names the match and the side; join links are links with a Copy link button (or, without
the clipboard, a field to copy from); a fork's address is a link; the dice seed is revealed
only after the page says what that reveals and asks. No horizontal overflow, every control
tapped at least 44 by 44 px, no console error other than an expected refusal."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from table_steps import (  # the table page's own helpers
    PHONE,
    acted,
    fits_the_phone,
    join_link,
    panel_shot,
    policed_contexts,
    small_targets,
    start_sample,
    version_of,
    wait_version,
)

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]
SAMPLE = "atomic-africa-demo"


@pytest.fixture
def console() -> list[str]:
    return []


@pytest.fixture
def phones(browser: Any, server: str, console: list[str]) -> Iterator[Callable[..., Any]]:
    """Phones (390x844, touch) whose every request stays on the server, with no script error;
    each console error is kept in `console` (a refusal the test expects is its own to allow)."""
    policed = policed_contexts(browser, server)
    open_context = next(policed)

    def phone(**options: Any) -> Any:
        context = open_context(viewport=PHONE, is_mobile=True, has_touch=True, **options)
        context.on("page", lambda page: page.on(
            "console", lambda m: console.append(m.text) if m.type == "error" else None))
        return context

    yield phone
    next(policed, None)  # closes them: fails on a request elsewhere or a script error
    assert console == [], console


def scenario_name(server: str) -> str:
    return str(httpx.get(f"{server}/api/scenarios/{SAMPLE}").json()["scenario"])


def test_the_join_page_names_the_match_and_the_side(
        phones: Callable[..., Any], server: str, screenshots: Shot, console: list[str]) -> None:
    referee = phones().new_page()
    start_sample(referee, server)
    link = join_link(referee, "Free Militia")
    page = phones().new_page()
    page.goto(link)
    page.wait_for_selector("form[aria-label='Join this match']")
    scenario = scenario_name(server)
    assert page.locator("h1").inner_text() == f"Join {scenario}"
    invite = page.locator(".invite").inner_text()
    assert invite == f"You are invited to play Free Militia in {scenario}, a game of Atomic Africa."
    said = page.locator("main").inner_text()
    assert "Expeditionary Force (open), Free Militia (open)" in said and "null" not in said
    assert urlsplit(page.url).fragment == "", "the token must leave the address bar"
    assert fits_the_phone(page)
    assert small_targets(page, "main input, main button") == []
    screenshots(page, "01-join-page")
    page.get_by_label("Your name").fill("Bert")
    page.get_by_role("button", name="Take my seat as Free Militia").tap()
    page.wait_for_selector("#turn-marker")
    assert "You: Free Militia" in page.locator("#viewer").inner_text()

    # The same link again: it was used, and the page says so instead of asking for a name.
    again = phones().new_page()
    again.goto(link)
    again.get_by_role("heading", name="This link opens no seat").wait_for()
    assert again.locator("form").count() == 0 and fits_the_phone(again)
    screenshots(again, "02-used-link")
    refused = [m for m in console if "401" in m]
    assert len(refused) == 1, console  # the invitation of the used link, and nothing else
    console.remove(refused[0])


def test_join_links_are_links_with_copy_buttons(
        phones: Callable[..., Any], server: str, screenshots: Shot) -> None:
    page = phones(permissions=["clipboard-read", "clipboard-write"]).new_page()
    start_sample(page, server)
    seats = page.locator("#seats")
    for side in ("Expeditionary Force", "Free Militia"):
        href = join_link(page, side)
        assert re.fullmatch(rf"{re.escape(server)}/play/[0-9a-f-]{{36}}#join=.+", href), href
        seats.get_by_role("button", name=f"Copy link: Join link for {side}").tap()
        seats.get_by_text("Copied: paste it in a message.").first.wait_for()
        assert page.evaluate("navigator.clipboard.readText()") == href
    spectator = seats.get_by_role("link", name="Spectator link").get_attribute("href")
    assert spectator and "#seat=" in spectator
    assert small_targets(page, "#seats a, #seats button, #seats summary") == []
    assert fits_the_phone(page)
    panel_shot(screenshots, page, "01-seats-links")


def test_without_the_clipboard_a_join_link_shows_in_a_field_to_copy(
        phones: Callable[..., Any], server: str, screenshots: Shot) -> None:
    context = phones()
    # As on a phone reaching the server by its address on the local network (http): no
    # Clipboard API there.
    context.add_init_script("Object.defineProperty(Navigator.prototype, 'clipboard', "
                            "{ get: () => undefined })")
    page = context.new_page()
    start_sample(page, server)
    seats = page.locator("#seats")
    assert seats.get_by_role("button", name=re.compile("^Copy link")).count() == 0
    field = seats.get_by_label("Join link for Free Militia, to copy")
    assert field.input_value() == join_link(page, "Free Militia")
    field.tap()
    assert field.evaluate("f => [f.selectionStart, f.selectionEnd]") == [0, len(field.input_value())]
    assert small_targets(page, "#seats a, #seats button, #seats input") == []
    assert fits_the_phone(page)
    panel_shot(screenshots, page, "01-seats-fields")


def test_a_fork_is_a_link_to_the_what_if(
        phones: Callable[..., Any], server: str, screenshots: Shot) -> None:
    page = phones().new_page()
    start_sample(page, server)
    origin = urlsplit(page.url).path
    at = version_of(page)
    page.get_by_role("button", name="Fork a what-if from now").tap()
    acted(page)
    link = page.get_by_role("link", name=f"(what-if from event {at})")
    assert link.evaluate("a => a === document.activeElement")
    href = link.get_attribute("href") or ""
    assert re.fullmatch(r"/play/[0-9a-f-]{36}", href) and href != origin
    assert small_targets(page, "#seats a, #seats button, #seats summary") == []
    assert fits_the_phone(page)
    panel_shot(screenshots, page, "01-fork-link")
    link.tap()
    page.wait_for_url(f"**{href}")
    page.wait_for_selector("#turn-marker")
    assert "You: Referee" in page.locator("#viewer").inner_text()
    screenshots(page, "02-the-what-if")


def test_the_dice_seed_is_revealed_only_after_saying_what_and_asking(
        phones: Callable[..., Any], server: str, screenshots: Shot) -> None:
    page = phones().new_page()
    start_sample(page, server)
    before = version_of(page)
    seats = page.locator("#seats")
    seats.get_by_text("Reveal the dice seed now…").tap()
    question = seats.get_by_role("group", name="Reveal the dice seed to every seat?")
    question.get_by_text("Hands and deck orders stay hidden").wait_for()  # read from the log
    said = question.inner_text()
    assert "a fresh seed is committed at once, so no later roll can be worked out" in said
    assert "cannot be taken back" in said
    assert small_targets(page, "#seats summary, #seats button") == []
    assert fits_the_phone(page)
    panel_shot(screenshots, page, "01-reveal-asks")
    assert version_of(page) == before  # opening the question sent nothing
    question.get_by_role("button", name="Cancel").tap()
    assert not question.is_visible() and version_of(page) == before

    seats.get_by_text("Reveal the dice seed now…").tap()
    question.get_by_role("button", name="Yes, reveal the dice seed").tap()
    acted(page)
    wait_version(page, before + 2)  # the seed revealed, a fresh one committed
    events = page.evaluate(f"""async () => {{
        const entry = JSON.parse(localStorage.getItem('battlelog.matches'))[
            location.pathname.split('/')[2]];
        const r = await fetch(location.pathname.replace('/play/', '/api/matches/') +
            '/events?after={before}', {{ headers: {{ Authorization: 'Bearer ' + entry.tokens.referee }} }});
        return (await r.json()).events.map(e => e.type);
    }}""")
    assert events == ["DiceSeedRevealed", "DiceCommitted"]
    panel_shot(screenshots, page, "02-revealed")
