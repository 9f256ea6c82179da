"""The API documentation works without the internet: /docs (Swagger UI) and /redoc (ReDoc)
render the operations from the server's own copies of their scripts and styles (the
fastapi-offline package), with every request beyond the server refused."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from table_steps import PHONE, policed_contexts

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]


@pytest.fixture
def offline(browser: Any, server: str) -> Iterator[Callable[..., Any]]:
    """Browser contexts that may reach the server only (a CDN request is refused and fails
    the test)."""
    yield from policed_contexts(browser, server)


def first_screen(page: Any, whole: Path) -> None:
    """Beside the whole page, what a phone shows first."""
    page.screenshot(path=str(whole.with_name(f"{whole.stem}-first-screen.png")))


def test_swagger_ui_renders_the_operations_with_nothing_but_the_server(
        offline: Callable[..., Any], server: str, screenshots: Shot) -> None:
    page = offline(viewport=PHONE).new_page()
    page.goto(f"{server}/docs")
    operations = page.locator(".opblock")
    operations.first.wait_for(timeout=15_000)
    assert operations.count() > 10
    assert page.get_by_text("/api/matches/{match_id}/actions").first.is_visible()
    # An operation opens and runs from the page ("Try it out", then "Execute").
    scenarios = page.locator(".opblock-get", has=page.locator(
        '.opblock-summary-path[data-path="/api/scenarios"]'))
    scenarios.locator(".opblock-summary").click()
    scenarios.get_by_role("button", name="Try it out").click()
    scenarios.get_by_role("button", name="Execute").click()
    status = scenarios.locator(".live-responses-table tbody .response-col_status").first
    status.wait_for(timeout=10_000)
    assert status.inner_text().strip() == "200"
    first_screen(page, screenshots(page, "swagger-ui"))


def test_redoc_renders_the_operations_with_nothing_but_the_server(
        offline: Callable[..., Any], server: str, screenshots: Shot) -> None:
    page = offline(viewport=PHONE).new_page()
    page.goto(f"{server}/redoc")
    operations = page.locator('[data-section-id^="operation/"]')
    operations.first.wait_for(state="attached", timeout=15_000)
    assert operations.count() > 10
    first_screen(page, screenshots(page, "redoc"))
