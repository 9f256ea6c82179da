"""A real `battlelog serve` process on a free port, for end-to-end tests."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import httpx
import leaks
import pytest
from table_steps import policed_contexts

from tests.players_words import scan_screen

ROOT = Path(__file__).resolve().parents[2]
Serve = Callable[[Path], AbstractContextManager[str]]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """Start `battlelog serve --db DB` (with `env` added) and wait until it answers. Its
    standard error goes to a temporary file (a pipe nobody reads would stall a long-lived
    server once full); a port taken between choosing it and binding it is chosen again."""
    for attempt in range(3):
        port = _free_port()
        with tempfile.TemporaryFile() as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "api.cli", "serve", "--db", str(db), "--host",
                 "127.0.0.1", "--port", str(port)],
                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log,
                env={**os.environ, **(env or {})},
            )
            url = f"http://127.0.0.1:{port}"
            if _answers(proc, url):
                return proc, url
            log.seek(0)
            err = log.read().decode(errors="replace")
        if f"port {port} on 127.0.0.1 is taken" not in err or attempt == 2:
            pytest.fail(f"battlelog serve did not come up:\n{err}")
    raise AssertionError("unreachable")


def _answers(proc: subprocess.Popen[bytes], url: str) -> bool:
    """Wait until the server at `url` is ready (True), or has exited or is 30 s late (False:
    it is killed)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"{url}/api/health/ready", timeout=1).status_code == 200:
                return True
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            return False
        time.sleep(0.05)


@contextmanager
def serving(db: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """A server for the duration of the block; yields its base URL."""
    proc, url = start_server(db, env)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest) -> dict[str, str]:
    """The environment that points a server at SQLite or at a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return {"BATTLELOG_STORE": "sqlite"}
    pg: dict[str, Any] = request.getfixturevalue("pg_database")
    return {"BATTLELOG_STORE": "postgres", "BATTLELOG_PG_DBNAME": pg["dbname"],
            "BATTLELOG_PG_HOST": pg["host"], "BATTLELOG_PG_PORT": str(pg["port"]),
            "BATTLELOG_PG_USER": pg["user"], "BATTLELOG_PG_PASSWORD": pg["password"]}


@pytest.fixture
def serve() -> Serve:
    return serving


# Creations, imports and replay files are not counted on the shared server: its tests make
# many a minute from one address (the quotas are tested on servers of their own,
# test_quotas.py, test_replay_cache.py).
SHARED_ENV = {"BATTLELOG_CREATE_RATE": "off", "BATTLELOG_IMPORT_RATE": "off",
              "BATTLELOG_REPLAY_RATE": "off", "BATTLELOG_REPLAY_BUILD_RATE": "off"}


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server for the session (for each xdist worker): each test makes its own matches
    on it, so none depends on another's (a fresh server per test cost about 2 s each)."""
    with serving(tmp_path_factory.mktemp("shared") / "battlelog.db", SHARED_ENV) as url:
        yield url


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[str]:
    """A server of this test's own, its store at tmp_path/battlelog.db."""
    with serving(tmp_path / "battlelog.db") as url:
        yield url


# ---- the browser: Debian's chromium driven by Playwright (no browser download) ------------

CHROMIUM = os.environ.get("BATTLELOG_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(os.environ.get("BATTLELOG_ARTIFACTS", ROOT / "test-artifacts"))
# The flags keep a headless Chromium off the network it would otherwise reach for.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"]


@pytest.fixture(scope="session")
def chromium() -> Iterator[tuple[Any, asyncio.AbstractEventLoop]]:
    """Headless Chromium for the session, and the event loop of Playwright's sync API;
    skipped where it is missing unless BATTLELOG_REQUIRE_BROWSER=1 (CI sets it, so the
    browser tests always run there). Tests ask for `browser`."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("BATTLELOG_REQUIRE_BROWSER") == "1":
            pytest.fail(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")
        pytest.skip(f"no Chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=CHROMIUM_ARGS)
        # While it is open, Playwright's sync API marks its event loop running in this
        # thread, between its calls too, and asyncio.run() then refuses to run here: it is
        # marked only while a test uses the browser (`browser`), not for the session.
        loop = asyncio.get_running_loop()
        asyncio._set_running_loop(None)
        try:
            yield launched, loop
        finally:
            asyncio._set_running_loop(loop)
            launched.close()


@pytest.fixture
def browser(request: pytest.FixtureRequest,
            chromium: tuple[Any, asyncio.AbstractEventLoop]) -> Iterator[Any]:
    """The session's Chromium for this test; a browser context the test leaves open fails
    it (and is closed)."""
    launched, loop = chromium
    asyncio._set_running_loop(loop)
    try:
        yield launched
        left = launched.contexts
        for context in left:
            context.close()
        if left:
            leaks.found(request.node, [(f"{len(left)} browser context(s) open",
                                        request.node.nodeid)])
    finally:
        asyncio._set_running_loop(None)


@pytest.fixture
def screenshots(request: pytest.FixtureRequest) -> Callable[[Any, str], Path]:
    """`shot(page, name)` saves a full-page PNG under test-artifacts/<test>/ (kept by CI),
    and scans the screen's words (tests/players_words.py `scan_screen`): a screen that shows
    an id where a name exists, an event type, a version or exception text fails the test."""
    folder = ARTIFACTS / request.node.name
    folder.mkdir(parents=True, exist_ok=True)

    def shot(page: Any, name: str) -> Path:
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        bad = scan_screen(page)
        assert bad == [], f"screen {name} is not in the players' words:\n" + "\n".join(bad)
        return path

    return shot


@pytest.fixture
def board_shot(request: pytest.FixtureRequest) -> Callable[[Any, str], Path]:
    """`shot(page, name)` saves the board panel as a PNG under test-artifacts/<test>/."""
    folder = ARTIFACTS / request.node.name
    folder.mkdir(parents=True, exist_ok=True)

    def shot(page: Any, name: str) -> Path:
        path: Path = folder / f"{name}.png"
        page.locator("#board").screenshot(path=str(path))
        return path

    return shot


@pytest.fixture
def contexts(browser: Any, server: str) -> Iterator[Callable[..., Any]]:
    """`contexts(**options)` opens a browser context (a device) policed as `policed_contexts`
    says: every request stays on the server, and no script error."""
    yield from policed_contexts(browser, server)


@pytest.fixture
def offline(browser: Any) -> Iterator[Callable[[], Any]]:
    """Phone-sized contexts that refuse every request (replay_offline.Offline), each checked
    as the test ends: nothing asked of the network, no console error."""
    from replay_offline import Offline  # (it imports phone, which imports this module)

    made: list[Offline] = []

    def make() -> Offline:
        made.append(Offline(browser))
        return made[-1]

    yield make
    for one in made:
        one.close()
