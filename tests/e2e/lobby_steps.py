"""The lobby's scenario form, step by step as a thumb does it: each control checked to be at
least 44 by 44 px before it is tapped or typed in; the two-sided freeform scenario both the
form's and the freeform play's tests fill in; and, once started, the match the page keeps the
referee's token of; and the lobby opened on a phone, its console errors kept."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from phone import PHONE
from table_steps import policed_contexts


class Thumb:
    """Taps and types on a page, checking first that each control is at least 44 by 44 px."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.form = page.locator('form[aria-label="Start your own match"]')

    def _big(self, control: Any) -> Any:
        control.scroll_into_view_if_needed()
        box = control.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, box
        return control

    def tap(self, control: Any) -> None:
        self._big(control).tap()

    def type(self, control: Any, text: str) -> None:
        self._big(control).tap()
        control.fill(text)

    def choose(self, control: Any, label: str) -> None:
        self._big(control).select_option(label=label)

    def side(self, n: int) -> Any:
        return self.form.locator("fieldset.side").nth(n)

    def unit(self, side: int, n: int) -> Any:
        return self.side(side).locator("fieldset.unit").nth(n)

    def add_unit(self, side: int, name: str, **fields: str) -> Any:
        """Add a unit to a side: its name, then each field by its label (a select by the
        label of its choice)."""
        self.tap(self.side(side).get_by_role("button", name="Add a unit to this side"))
        unit = self.unit(side, self.side(side).locator("fieldset.unit").count() - 1)
        self.type(unit.get_by_label("Unit name"), name)
        for label, value in fields.items():
            control = unit.get_by_label(label.replace("_", " "), exact=False).first
            if control.evaluate("el => el.tagName") == "SELECT":
                self.choose(control, value)
            else:
                self.type(control, value)
        return unit


def fill_allies_and_axis(you: Thumb, scenario: str, grenadiers_across: str = "30") -> None:
    """A freeform scenario of Allies and Axis: 1st Squad (8 figures at 10, 12) and a Sherman
    troop (3 steps, in reserve); Grenadiers (10 figures at `grenadiers_across`, 24) and a
    Panzer IV (1 figure, in reserve)."""
    you.type(you.form.get_by_label("Scenario name"), scenario)
    you.type(you.side(0).get_by_label("Side name"), "Allies")
    you.type(you.side(1).get_by_label("Side name"), "Axis")
    you.add_unit(0, "1st Squad", Figures="8", Across="10", Along="12")
    you.add_unit(0, "Sherman troop", Steps="3", Where="In reserve")
    you.add_unit(1, "Grenadiers", Figures="10", Across=grenadiers_across, Along="24")
    you.add_unit(1, "Panzer IV", Figures="1", Where="In reserve")


def kept_match(page: Any) -> tuple[str, dict[str, str]]:
    """The one match this device keeps: its id, and the referee's Authorization header."""
    saved = json.loads(page.evaluate("localStorage.getItem('battlelog.matches')"))
    (match_id, entry), = saved.items()
    return match_id, {"Authorization": f"Bearer {entry['tokens']['referee']}"}


def board_of(page: Any, server: str) -> dict[str, Any]:
    """The board, read with the referee's token this device keeps."""
    match_id, auth = kept_match(page)
    return dict(httpx.get(f"{server}/api/matches/{match_id}/board", headers=auth).json())


def started(page: Any, server: str) -> tuple[str, dict[str, Any], dict[str, Any], list[Any]]:
    """After Start: the table page opened; the match (by the referee's token this device
    keeps), its board and its first event."""
    page.wait_for_url("**/play/*")
    match_id, auth = kept_match(page)
    assert page.url.endswith(f"/play/{match_id}")
    match = httpx.get(f"{server}/api/matches/{match_id}", headers=auth).json()
    board = httpx.get(f"{server}/api/matches/{match_id}/board", headers=auth).json()
    events = httpx.get(f"{server}/api/matches/{match_id}/events", headers=auth).json()
    return match_id, match, board, events


@contextmanager
def phone_lobby(browser: Any, server: str) -> Iterator[tuple[Any, list[str]]]:
    """The lobby on a phone (policed: every request stays on the server), and the console
    errors it logs."""
    console: list[str] = []
    policed = policed_contexts(browser, server)
    context = next(policed)(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.goto(server)
    page.locator('form[aria-label="Start your own match"]').wait_for()
    yield page, console
    next(policed, None)
