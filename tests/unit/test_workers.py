"""The hot routes' worker threads (issue 30, api/workers.py): a job's result or error
comes back to the event loop, jobs beyond `most` wait for a free thread, and a caller
cancelled meanwhile does not stop its job (a commit runs to its end) nor its `done`."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator

import pytest

from api.workers import Workers


@pytest.fixture
def pool() -> Iterator[Callable[..., Workers]]:
    """`pool(**options)`: a Workers stopped after the test."""
    made: list[Workers] = []

    def make(**options: int) -> Workers:
        made.append(Workers(**options))
        return made[-1]

    yield make
    for workers in made:
        workers.stop()


def test_a_job_runs_in_a_worker_thread_and_its_result_or_error_comes_back(
        pool: Callable[..., Workers]) -> None:
    workers = pool(most=2)

    def boom() -> None:
        raise ValueError("no")

    async def main() -> None:
        loop_thread = threading.get_ident()
        assert await workers.run(threading.get_ident) != loop_thread
        with pytest.raises(ValueError, match="no"):
            await workers.run(boom)

    asyncio.run(main())


def test_jobs_beyond_the_most_threads_wait_for_a_free_one(pool: Callable[..., Workers]) -> None:
    workers = pool(most=2)
    release = threading.Event()
    running: list[int] = []
    lock = threading.Lock()

    def job() -> int:
        with lock:
            running.append(threading.get_ident())
        release.wait(5)
        return 1

    async def main() -> list[int]:
        jobs = [asyncio.ensure_future(workers.run(job)) for _ in range(5)]
        while len(running) < 2:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        assert len(running) == 2  # the other three wait
        release.set()
        return list(await asyncio.gather(*jobs))

    assert asyncio.run(main()) == [1] * 5
    assert len(set(running)) == 2  # the two threads took the three waiting jobs


def test_a_cancelled_caller_does_not_stop_its_job_nor_its_done(
        pool: Callable[..., Workers]) -> None:
    workers = pool()
    started, release, finished = threading.Event(), threading.Event(), threading.Event()
    done: list[str] = []

    def job() -> None:
        started.set()
        release.wait(5)
        finished.set()

    async def main() -> None:
        caller = asyncio.ensure_future(workers.run(job, lambda: done.append("done")))
        while not started.is_set():
            await asyncio.sleep(0.01)
        caller.cancel()
        with pytest.raises(asyncio.CancelledError):
            await caller
        assert done == []  # the job still runs
        release.set()
        while not done:
            await asyncio.sleep(0.01)

    asyncio.run(main())
    assert finished.is_set() and done == ["done"]


def test_stop_ends_the_threads_once_their_jobs_are_done_and_a_later_job_starts_anew() -> None:
    workers = Workers(most=2, name="stopped-worker")
    release = threading.Event()
    ran: list[str] = []

    def job(name: str) -> Callable[[], threading.Thread]:
        def run() -> threading.Thread:
            release.wait(5)
            ran.append(name)
            return threading.current_thread()
        return run

    async def main() -> threading.Thread:
        jobs = [asyncio.ensure_future(workers.run(job(n))) for n in "abc"]
        await asyncio.sleep(0.05)  # two run, the third waits for a free thread
        stopping = threading.Thread(target=workers.stop)
        stopping.start()
        release.set()
        threads = set(await asyncio.gather(*jobs))
        await asyncio.to_thread(stopping.join)
        assert len(threads) == 2  # the third job was done by one of the two
        assert not any(t.is_alive() for t in threads)  # ended, once all three were done
        return await workers.run(threading.current_thread)

    again = asyncio.run(main())
    assert sorted(ran) == ["a", "b", "c"]
    assert again.name == "stopped-worker-1" and again.is_alive()  # a thread of a new crew
    workers.stop()
    assert not again.is_alive()
