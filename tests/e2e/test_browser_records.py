"""The records a club takes away from the table page's Export panel (docs/replay.md,
docs/reports.md), on a 390x844 phone: the Replay file button saves the seat's own replay
(a side's seat: its side's view), which opens from disk with every request refused, says
Verified and tells its events in the log's sentences (no event type, no roll number); the
report opens at an address of its own that opens the same report again in a new page."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from axe_steps import axe_source, violations
from phone import PHONE, new_match
from replay_offline import Offline, referee_act
from table_steps import policed_contexts

from api.replay_page import DATA_OPEN

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]
# the names of events and the words of the API a replay must not show (docs/events.md)
API_WORDS = re.compile(r"\b(MatchCreated|DiceRolled|SeatJoined|UnitMoved|MarkerPlaced|"
                       r"MarkerRemoved|NoteAdded|PhaseAdvanced|TurnAdvanced)\b|\(roll \d+\)")


@pytest.fixture
def contexts(browser: Any, server: str) -> Iterator[Callable[..., Any]]:
    yield from policed_contexts(browser, server)


def _side_table(contexts: Callable[..., Any], server: str, match: dict[str, Any],
                seat: str) -> tuple[Any, list[str]]:
    page = contexts(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{server}/play/{match['id']}#seat={match['seats'][seat]}")
    page.wait_for_selector("#turn-marker")
    return page, errors


def test_the_replay_file_button_saves_the_seats_own_replay_that_verifies_offline(
        contexts: Callable[..., Any], server: str, tmp_path: Path,
        offline: Callable[[], Offline], screenshots: Shot) -> None:
    match = new_match(server, "atomic-africa-demo")
    referee_act(server, match, {"type": "roll_dice", "notation": "2d6", "purpose": "fire",
                                "unit_ids": ["sq1"]})
    referee_act(server, match, {"type": "add_note", "text": "the ford is held"})
    side = next(seat for seat in match["seats"] if seat not in ("referee", "spectator"))
    page, errors = _side_table(contexts, server, match, side)
    button = page.get_by_role("button", name="Replay file")
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44
    with page.expect_download() as saved:
        button.click()
    path = tmp_path / saved.value.suggested_filename
    assert path.suffix == ".html"
    saved.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    begin = text.index(DATA_OPEN) + len(DATA_OPEN)
    data = json.loads(text[begin:text.index("</script>", begin)])
    assert data["viewer"] == side  # the seat's own view, nothing more
    assert errors == []

    phone = offline()
    film = phone.open(path)
    assert film.locator("#verified").inner_text().startswith("Verified:")
    seen = [film.locator("body").inner_text()]
    last = len(data["steps"])
    for _ in range(last - 1):
        film.locator("#step-forward").click()
        seen.append(film.locator("#event").inner_text())
    screenshots(film, "replay-at-its-last-event")
    said = "\n".join(seen)
    assert "Rolled by the server." in said
    assert API_WORDS.findall(said) == [], API_WORDS.findall(said)


def test_the_report_has_an_address_that_opens_the_same_report_again(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    match = new_match(server, "atomic-africa-demo")
    referee_act(server, match, {"type": "roll_dice", "notation": "2d6", "purpose": "fire",
                                "unit_ids": ["sq1"]})
    page, errors = _side_table(contexts, server, match, "referee")
    link = page.get_by_role("link", name="Report (opens in a new tab)")
    assert link.get_attribute("href") == f"/matches/{match['id']}/report"
    with page.expect_popup() as opened:
        link.click()
    report = opened.value
    report.wait_for_selector("h1:has-text('After-action report:')")
    address = report.url
    assert address == f"{server}/matches/{match['id']}/report"
    assert not address.startswith("blob:")
    shown = report.locator("body").inner_text()
    expected = httpx.get(f"{server}/api/matches/{match['id']}/export", params={"format": "html"},
                         headers={"Authorization": f"Bearer {match['seats']['referee']}"})
    assert "After-action report:" in expected.text
    # the address again, in a new page (a bookmark, a link sent): the same report
    again = page.context.new_page()
    again.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    again.goto(address)
    again.wait_for_selector("h1:has-text('After-action report:')")
    assert again.locator("body").inner_text() == shown
    assert again.evaluate("getComputedStyle(document.body).maxWidth") == "832px"
    back = again.get_by_role("link", name="Back to the table")
    assert back.get_attribute("href") == f"/play/{match['id']}"
    assert back.bounding_box()["height"] >= 44
    assert again.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert violations(again, axe_source()) == []
    screenshots(again, "report-at-its-address")
    # a device with no seat of the match is told so, in words
    stranger = contexts(viewport=PHONE).new_page()
    stranger.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    stranger.goto(address)
    stranger.wait_for_selector("text=This device holds no seat of this match")
    assert violations(stranger, axe_source()) == []
    assert errors == []
