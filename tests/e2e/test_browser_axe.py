"""axe-core finds no serious or critical violation (issue 26), on a 390x844 phone in a real
browser against a real `battlelog serve`:
- the lobby as it opens, with the custom-match form refused in words, then filled in with
  every folded part open, and listing a match kept on this device;
- the custom match's table (freeform) as it opens, and with a unit selected and every folded
  part open;
- for each of the five demos: its join page, the table of the seat taken there, and the
  referee's table as it opens and with a unit selected and every folded part open;
- the after-action report the table opens.
No console error on any of these pages either. axe-core is the version tests/e2e/
package-lock.json pins; a failure lists each rule at fault, where, and what to fix."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from axe_steps import axe_source, readable, violations
from board_steps import DEMOS, create
from lobby_steps import Thumb, fill_allies_and_axis
from table_steps import PHONE, join, start_sample

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]
OPEN_ALL = "document.querySelectorAll('details').forEach(d => { d.open = true; })"


@pytest.fixture(scope="module")
def axe() -> str:
    return axe_source()


def phone(contexts: Callable[..., Any], console: list[str]) -> Any:
    """A phone-sized touch context whose pages' console errors land in `console`."""
    context = contexts(viewport=PHONE, is_mobile=True, has_touch=True)
    context.on("console", lambda m: console.append(f"{m.page.url if m.page else ''}: {m.text}")
               if m.type == "error" else None)
    return context


def check(page: Any, axe: str, where: str, found: dict[str, str]) -> None:
    """Run axe on the page as it is now; what it finds is kept under `where`."""
    report = readable(where, violations(page, axe))
    if report:
        found[where] = report


def select_a_unit_and_open_all(page: Any) -> None:
    """A unit tapped on the map (its card opens) and every folded part of the page opened."""
    page.locator("#board svg.map g.unit").first.click()
    page.wait_for_selector("#board svg.map g.unit.selected")
    page.evaluate(OPEN_ALL)


def test_axe_finds_nothing_serious_on_the_lobby_and_a_custom_match(
        contexts: Callable[..., Any], server: str, axe: str, screenshots: Shot) -> None:
    console: list[str] = []
    found: dict[str, str] = {}
    page = phone(contexts, console).new_page()
    page.goto(server)
    page.get_by_label("Sample scenario", exact=True).wait_for()
    check(page, axe, "lobby", found)
    you = Thumb(page)
    you.tap(you.form.get_by_role("button", name="Start this match"))
    page.locator("[aria-invalid=true]").first.wait_for()
    check(page, axe, "lobby, the custom-match form refused in words", found)
    fill_allies_and_axis(you, "Axe check")
    page.evaluate(OPEN_ALL)
    check(page, axe, "lobby, the custom-match form filled, every part open", found)
    screenshots(page, "lobby-form-filled")
    you.tap(you.form.get_by_role("button", name="Start this match"))
    page.wait_for_selector("#play .step-now")
    check(page, axe, "the custom match's table", found)
    select_a_unit_and_open_all(page)
    check(page, axe, "the custom match's table, a unit selected, every part open", found)
    page.goto(server)
    page.locator(".lobby .matches a").first.wait_for()
    check(page, axe, "lobby listing a match", found)
    screenshots(page, "lobby-with-a-match")
    assert not found, "\n".join(found.values())
    assert console == [], console


@pytest.mark.parametrize("demo", DEMOS)
def test_axe_finds_nothing_serious_on_the_join_page_and_tables(
        contexts: Callable[..., Any], server: str, axe: str, screenshots: Shot,
        demo: str) -> None:
    console: list[str] = []
    found: dict[str, str] = {}
    match, tokens = create(server, httpx.get(f"{server}/api/scenarios/{demo}").json())
    link = next(token for key, token in tokens.items() if key.startswith("join:"))
    player = phone(contexts, console)
    page = player.new_page()
    page.goto(f"{server}/play/{match}#join={link}")
    page.get_by_label("Your name").wait_for()
    check(page, axe, f"{demo} join page", found)
    page.close()
    seat = join(player, f"{server}/play/{match}#join={link}", "Ann", screenshots, demo)
    seat.wait_for_selector("#play .step-now")
    check(seat, axe, f"{demo} table of the seat joined", found)

    referee = phone(contexts, console).new_page()
    referee.goto(f"{server}/play/{match}#seat={tokens['referee']}")
    referee.wait_for_selector("#play .step-now")
    check(referee, axe, f"{demo} referee's table", found)
    select_a_unit_and_open_all(referee)
    check(referee, axe, f"{demo} referee's table, a unit selected, every part open", found)
    screenshots(referee, f"{demo}-table-open")
    assert not found, "\n".join(found.values())
    assert console == [], console


def test_axe_finds_nothing_serious_on_the_report(
        contexts: Callable[..., Any], server: str, axe: str, screenshots: Shot) -> None:
    console: list[str] = []
    found: dict[str, str] = {}
    page = phone(contexts, console).new_page()
    start_sample(page, server, DEMOS[0])
    with page.expect_popup() as opened:
        page.get_by_role("link", name="Report (opens in a new tab)").click()
    report = opened.value
    report.wait_for_selector("svg text")
    check(report, axe, "report", found)
    screenshots(report, "report")
    assert not found, "\n".join(found.values())
    assert console == [], console
