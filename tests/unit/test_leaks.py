"""The suite's check for leftovers (tests/leaks.py, issue 37): a test that leaves a thread, a
child process or an event loop marked running behind it fails, and a clean one passes; what
a fixture of a wider scope keeps across tests is checked when that fixture is finished. Each
case runs in a pytest of its own (pytester, in a subprocess: what it leaks dies with it)."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")

CONFTEST = f"""
import sys
sys.path[:0] = [{str(TESTS)!r}, {str(ROOT)!r}]
pytest_plugins = ["leaks"]
"""

CASES = """
import asyncio
import subprocess
import threading

import pytest

forever = threading.Event()


def test_clean():
    thread = threading.Thread(target=lambda: None)
    thread.start()
    thread.join()
    asyncio.run(asyncio.sleep(0))
    with subprocess.Popen(["true"]) as child:
        child.wait()


def test_leaks_a_thread():
    threading.Thread(target=forever.wait, name="leaked", daemon=True).start()


def test_leaves_a_loop_marked_running():
    asyncio._set_running_loop(asyncio.new_event_loop())


def test_leaves_a_process():
    subprocess.Popen(["sleep", "5"])


def test_a_thread_that_is_ending_is_waited_for():
    threading.Thread(target=lambda: threading.Event().wait(0.2), daemon=True).start()


class Pool:
    def __init__(self):
        self.stop = threading.Event()
        self.threads = []

    def start(self):
        thread = threading.Thread(target=self.stop.wait, name="pooled", daemon=True)
        thread.start()
        self.threads.append(thread)

    def close(self):
        self.stop.set()
        for thread in self.threads:
            thread.join()


@pytest.fixture(scope="module")
def pool():
    pool = Pool()
    pool.start()  # while it is set up: the fixture's own
    yield pool
    pool.close()


def test_a_module_fixture_keeps_its_thread(pool):
    pool.start()  # started lazily, stopped with the fixture: not this test's


def test_and_another_test_uses_it(pool):
    assert all(thread.is_alive() for thread in pool.threads)


@pytest.fixture(scope="module")
def careless():
    pool = Pool()
    pool.start()
    yield pool  # never closed


def test_a_module_fixture_that_does_not_stop_its_thread(careless):
    pass


def test_z_after_the_modules_fixtures():
    pass
"""


def inner(pytester: pytest.Pytester, **files: str) -> pytest.RunResult:
    """A pytest of its own over `files` (name: source), with the check, in file order."""
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(**files)
    return pytester.runpytest_subprocess("-p", "no:randomly", "-p", "no:cacheprovider",
                                         "-p", "no:xdist")


def test_a_test_that_leaves_something_behind_fails_and_a_clean_one_passes(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BATTLELOG_LEAKS_GRACE", "1")
    monkeypatch.delenv("BATTLELOG_LEAKS_REPORT", raising=False)
    result = inner(pytester, test_cases=CASES)
    out = result.stdout.str()
    errors = {line.split(" - ")[0].removeprefix("ERROR ") for line in out.splitlines()
              if line.startswith("ERROR test_cases.py::")}
    assert errors == {
        "test_cases.py::test_leaks_a_thread",
        "test_cases.py::test_leaves_a_loop_marked_running",
        "test_cases.py::test_leaves_a_process",
        # the careless fixture is finished in the teardown of the module's last test
        "test_cases.py::test_z_after_the_modules_fixtures",
    }, out
    result.assert_outcomes(passed=9, errors=4)
    result.stdout.fnmatch_lines([
        ("*thread 'leaked' (Event.wait; started at test_cases.py:* test_leaks_a_thread)"
         ", by test_cases.py::test_leaks_a_thread"),
        ("*an event loop marked running in its thread*"
         ", by test_cases.py::test_leaves_a_loop_marked_running"),
        "*process * (sleep 5), by test_cases.py::test_leaves_a_process",
        "*thread 'pooled' (Event.wait*), by the module-scoped fixture 'careless'",
    ])


def test_a_thread_a_test_starts_in_a_wider_fixtures_object_is_checked_when_it_ends(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """A thread left by a test while a module fixture it uses is set up may be the
    fixture's: if it outlives the fixture, the test that started it is named."""
    monkeypatch.setenv("BATTLELOG_LEAKS_GRACE", "1")
    result = inner(pytester, test_lazy="""
import threading

import pytest


@pytest.fixture(scope="module")
def pool():
    yield []


def test_starts_a_thread_in_the_pool(pool):
    thread = threading.Thread(target=threading.Event().wait, name="lazy", daemon=True)
    thread.start()
    pool.append(thread)


def test_last(pool):
    pass
""")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines([
        "*ERROR at teardown of test_last*",
        "*thread 'lazy' (Event.wait*), by test_lazy.py::test_starts_a_thread_in_the_pool",
    ])


def test_reporting_writes_what_is_left_and_fails_nothing(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BATTLELOG_LEAKS_GRACE", "1")
    monkeypatch.setenv("BATTLELOG_LEAKS_REPORT", str(tmp_path / "left.txt"))
    result = inner(pytester, test_cases=CASES)
    result.assert_outcomes(passed=9)
    who = [line.split("\t")[0] for line in (tmp_path / "left.txt").read_text().splitlines()]
    assert who == ["test_cases.py::test_leaks_a_thread",
                   "test_cases.py::test_leaves_a_loop_marked_running",
                   "test_cases.py::test_leaves_a_process",
                   "the module-scoped fixture 'careless'"]


def test_a_thread_started_as_a_test_module_is_imported_fails_the_first_test(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BATTLELOG_LEAKS_GRACE", "1")
    result = inner(pytester, test_imported="""
import threading

threading.Thread(target=threading.Event().wait, name="at-import", daemon=True).start()


def test_first():
    pass


def test_second():
    pass
""")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines([
        "*ERROR at setup of test_first*",
        ("*thread 'at-import' (Event.wait; started at test_imported.py:3 <module>)"
         ", by the import of a test module"),
    ])
