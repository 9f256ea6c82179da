"""The lobby follows this device's matches live (docs/lobby.md): a match started in one lobby
page appears in a second lobby page of the same device within 5 s, with no reload, and its
whose-turn line is filled by the same rounds of reads that keep the other lines current."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_steps import axe_source, violations
from phone import PHONE
from table_steps import policed_contexts, start_sample

pytestmark = pytest.mark.e2e


@pytest.fixture
def contexts(browser: Any, server: str) -> Iterator[Callable[..., Any]]:
    yield from policed_contexts(browser, server)


def test_a_match_started_in_one_lobby_appears_in_another_within_5_s(
        contexts: Callable[..., Any], server: str,
        screenshots: Callable[[Any, str], Path]) -> None:
    device = contexts(viewport=PHONE, is_mobile=True, has_touch=True)
    errors: list[str] = []
    watching = device.new_page()
    watching.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    watching.goto(server)
    watching.wait_for_selector("text=No match on this device yet")
    watching.evaluate("window.notReloaded = true")
    starting = device.new_page()
    start_sample(starting, server, "atomic-africa-demo")
    match = starting.url.rstrip("/").rsplit("/", 1)[-1]
    item = watching.locator(f'ul.matches li[data-id="{match}"]')
    item.wait_for(timeout=5000)
    assert watching.evaluate("window.notReloaded") is True
    assert watching.get_by_text("No match on this device yet").is_hidden()
    assert item.get_by_role("link").inner_text() != ""
    # the whose-turn line of the new match, from the lobby's own rounds of reads
    watching.wait_for_selector(f'ul.matches li[data-id="{match}"] .whose:not(:empty)',
                               timeout=10000)
    screenshots(watching, "lobby-after-a-match-started-elsewhere")
    assert violations(watching, axe_source()) == []
    assert errors == [], errors
