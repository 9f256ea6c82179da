"""Leftovers fail the test that left them (a pytest plugin, loaded by tests/conftest.py).

After each test's teardown the plugin looks at what the test started and did not end:
an event loop still marked running in its thread (asyncio.run() then refuses to run in the
next test on the same worker), a thread, or a child process (a server, a browser's driver).
What a fixture of a wider scope (module, class, session) starts while it is set up is that
fixture's own: it may live across tests and is checked when the fixture is finished instead.
What is left after a test while such fixtures are set up may be theirs too (an object of
theirs that starts a thread when the test first uses it): it is checked again once those
fixtures are finished, and if it still runs then, the test that started it is named. Either
way the test whose teardown finishes the fixtures carries the failure. A loop left marked
running is never anyone's own: it changes what every later test in the thread can do.

A thread that the project's code started while the test modules were imported (collected)
fails the first test: nothing ends it.

A thread or process that is ending is given a moment to end (GRACE seconds in all,
BATTLELOG_LEAKS_GRACE).

With BATTLELOG_LEAKS_REPORT=<file>, leftovers are appended to that file (one line each:
test id, what, which) and fail nothing: to survey the whole suite in one run.
"""

from __future__ import annotations

import asyncio
import os
import sysconfig
import threading
import time
import traceback
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from multiprocessing import resource_tracker
from pathlib import Path
from typing import Any

import pytest

GRACE = float(os.environ.get("BATTLELOG_LEAKS_GRACE", "3"))
REPORT = os.environ.get("BATTLELOG_LEAKS_REPORT", "").strip()
_PYTHON = tuple({sysconfig.get_path("stdlib"), sysconfig.get_path("purelib"),
                 sysconfig.get_path("platlib")})


def _ours(filename: str) -> bool:
    """Whether code is the project's or its tests' (not Python's, a library's, nor this)."""
    return not filename.startswith(_PYTHON) and filename != __file__ and "<" not in filename


# ---- where each thread was started (for the message) -------------------------------------

_start = threading.Thread.start


def _start_recorded(self: threading.Thread) -> None:
    frames = [f for f in traceback.extract_stack()[:-1] if _ours(f.filename)]
    self._leaks_origin = ", ".join(  # type: ignore[attr-defined]
        f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in frames[-3:])
    _start(self)


threading.Thread.start = _start_recorded  # type: ignore[method-assign]


# ---- what is alive -------------------------------------------------------------------------


def _children() -> dict[int, str]:
    """This process's live child processes (zombies left out): pid -> command line. The
    resource tracker that multiprocessing starts once, with its first child process, and
    keeps for the rest of the process (by design) is left out."""
    tracker = getattr(getattr(resource_tracker, "_resource_tracker", None), "_pid", None)
    pids: set[int] = set()
    for task in Path("/proc/self/task").iterdir():
        try:
            pids.update(int(p) for p in (task / "children").read_text().split())
        except OSError:
            continue
    alive: dict[int, str] = {}
    for pid in pids - {tracker}:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            if stat.rsplit(")", 1)[1].split()[0] == "Z":
                continue
            alive[pid] = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ") \
                .decode(errors="replace").strip()[:160]
        except OSError:
            continue
    return alive


def _threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate()
            if t is not threading.main_thread() and not isinstance(t, threading._DummyThread)}


@dataclass
class Alive:
    threads: set[threading.Thread]
    children: dict[int, str]

    @classmethod
    def now(cls) -> Alive:
        return cls(_threads(), _children())


def _describe(thread: threading.Thread) -> str:
    target = getattr(thread, "_target", None)
    what = getattr(target, "__qualname__", None) or type(thread).__qualname__
    origin = getattr(thread, "_leaks_origin", "")
    return f"thread {thread.name!r} ({what}{'; started at ' + origin if origin else ''})"


def _still_alive(threads: Iterable[threading.Thread], pids: Iterable[int]) -> list[str]:
    """Of these, what is still alive after GRACE seconds in all."""
    deadline = time.monotonic() + GRACE
    left: list[str] = []
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
        if thread.is_alive():
            left.append(_describe(thread))
    pids = list(pids)
    while pids:
        alive = _children()
        pids = [p for p in pids if p in alive]
        if not pids or time.monotonic() > deadline:
            left.extend(f"process {p} ({alive[p]})" for p in pids)
            break
        time.sleep(0.05)
    return left


# ---- the plugin ------------------------------------------------------------------------------


Left = list[tuple[str, str]]  # what was left behind, and who left it


@dataclass(eq=False)  # a plugin is kept in sets: hashed by identity
class Leaks:
    # what each of our fixtures of a wider scope started while it was set up
    owned: dict[Any, Alive] = field(default_factory=dict)
    # what tests left while such fixtures of theirs were set up: who, what, those fixtures
    pending: list[tuple[str, Alive, set[Any]]] = field(default_factory=list)
    # found while fixtures were finished, not yet said
    unsaid: Left = field(default_factory=list)
    before: Alive = field(default_factory=lambda: Alive(set(), {}))
    loop_before: asyncio.AbstractEventLoop | None = None

    collected: bool = False

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, None, None]:
        imported: list[str] = []
        if not self.collected:  # the first test: what the test modules started at import
            self.collected = True
            imported = [_describe(t) for t in _threads() if getattr(t, "_leaks_origin", "")]
        self.before = Alive.now()
        self.loop_before = asyncio._get_running_loop()
        done = yield  # (failing before it would leave other plugins' setup half done)
        if imported:
            found(item, [(what, "the import of a test module") for what in imported])
        return done

    @pytest.hookimpl(wrapper=True)
    def pytest_fixture_setup(self, fixturedef: pytest.FixtureDef[Any],
                             request: pytest.FixtureRequest) -> Generator[Any, Any, Any]:
        # pytest's and its plugins' own fixtures (no base id) start nothing to check
        if fixturedef.scope == "function" or not fixturedef.baseid:
            return (yield)
        before = Alive.now()
        try:
            return (yield)
        finally:
            after = Alive.now()
            started = Alive(after.threads - before.threads,
                            {p: c for p, c in after.children.items() if p not in before.children})
            known = self.owned.get(fixturedef)
            if known is not None:
                started.threads |= known.threads
                started.children |= known.children
            self.owned[fixturedef] = started

    def pytest_fixture_post_finalizer(self, fixturedef: pytest.FixtureDef[Any],
                                      request: pytest.FixtureRequest) -> None:
        started = self.owned.pop(fixturedef, None)
        if started is None:
            return
        owner = f"the {fixturedef.scope}-scoped fixture {fixturedef.argname!r}"
        self.unsaid += [(what, owner) for what in _still_alive(started.threads, started.children)]
        for nodeid, alive, fixtures in self.pending:
            fixtures.discard(fixturedef)
            if not fixtures:
                self.unsaid += [(what, nodeid)
                                for what in _still_alive(alive.threads, alive.children)]
        self.pending = [p for p in self.pending if p[2]]

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_runtest_teardown(self, item: pytest.Item,
                                nextitem: pytest.Item | None) -> Generator[None, None, None]:
        request = getattr(item, "_request", None)  # with the fixtures asked for by name
        used = set(getattr(request, "fixturenames", getattr(item, "fixturenames", ())))
        try:
            return (yield)
        finally:
            self.check(item, used)

    def check(self, item: pytest.Item, used: set[str]) -> None:
        after = Alive.now()
        owned_threads = {t for a in self.owned.values() for t in a.threads}
        owned_pids = {p for a in self.owned.values() for p in a.children}
        started = Alive(after.threads - self.before.threads - owned_threads,
                        {p: c for p, c in after.children.items()
                         if p not in self.before.children and p not in owned_pids})
        left: Left = []
        loop = asyncio._get_running_loop()
        if loop is not None and loop is not self.loop_before:
            left.append((f"an event loop marked running in its thread ({loop!r})", item.nodeid))
        theirs = {f for f in self.owned if f.argname in used}
        if theirs and (started.threads or started.children):
            self.pending.append((item.nodeid, started, theirs))
        else:
            left += [(what, item.nodeid)
                     for what in _still_alive(started.threads, started.children)]
        left += self.unsaid
        self.unsaid = []
        if left:
            found(item, left)


def found(item: pytest.Item, left: Left) -> None:
    """Fail `item` (whose teardown found them) for what was left behind, or, reporting,
    write it down: who left it, what, and where it was found."""
    if REPORT:
        with open(REPORT, "a") as out:
            out.write("".join(f"{who}\t{what}\t{item.nodeid}\n" for what, who in left))
        return
    pytest.fail("left behind:\n" + "\n".join(f"  {what}, by {who}" for what, who in left),
                pytrace=False)


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(Leaks(), "battlelog-leaks")
