"""The worker threads of the hot routes (issue 30): an action's use case (it commits, and may
wait on the store) runs in one of them, its answer handed back to the event loop.

anyio's `run_sync` (what `run_in_threadpool` is) does the same with a capacity limiter, a
cancel scope and a checkpoint (one more turn of the event loop) around each call: about
50 us of CPU a call on this machine, where this pool spends about 12 (bench/README.md).
What it does: a job is queued; a thread waiting for one takes it, else a new thread is
started, up to `most`, else the job waits for a thread to be free; the result (or the
error) comes back through the loop's `call_soon_threadsafe`. A caller that is cancelled
meanwhile does not stop the job (a commit runs to its end, as with anyio's default).
`stop` ends the threads once their jobs are done (an app, as it shuts down)."""

from __future__ import annotations

import asyncio
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_Job = tuple[Callable[[], Any], asyncio.AbstractEventLoop, "asyncio.Future[Any]",
             Callable[[], None] | None]


class _Crew:
    """Threads that take jobs from one queue, until each takes a None (`Workers.stop`)."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self.threads: list[threading.Thread] = []
        self.idle = 0  # threads waiting for a job that no queued job has claimed yet
        self.unclaimed = 0  # queued jobs that wait for a thread to be free


class Workers:
    """At most `most` threads that run jobs for event loops."""

    def __init__(self, most: int = 40, name: str = "battlelog-worker") -> None:
        self.most = most
        self.name = name
        self._lock = threading.Lock()
        self._crew = _Crew()

    async def run(self, fn: Callable[[], T], done: Callable[[], None] | None = None) -> T:
        """`fn()` in a worker thread; `done()` is called on the event loop once it ended
        (whether or not the caller still waits)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with self._lock:
            crew = self._crew
            if crew.idle:
                crew.idle -= 1
                start = None
            elif len(crew.threads) < self.most:
                start = threading.Thread(target=self._work, args=(crew,), daemon=True,
                                         name=f"{self.name}-{len(crew.threads) + 1}")
                crew.threads.append(start)
            else:
                start = None
                crew.unclaimed += 1
            crew.jobs.put((fn, loop, future, done))  # in the lock: to the crew counted on
        if start is not None:
            start.start()
        return await future

    def stop(self, timeout: float = 10.0) -> None:
        """End the threads, each once the jobs queued before are done (waiting up to
        `timeout` seconds for them in all); a later job starts new ones. An app stops
        them as it shuts down: no thread outlives the apps of its process."""
        with self._lock:
            crew, self._crew = self._crew, _Crew()
            for _ in crew.threads:
                crew.jobs.put(None)  # after every job queued to this crew
        deadline = time.monotonic() + timeout
        for thread in crew.threads:
            if thread.ident is not None:  # (started)
                thread.join(max(0.0, deadline - time.monotonic()))

    def _work(self, crew: _Crew) -> None:
        while (job := crew.jobs.get()) is not None:
            fn, loop, future, done = job
            try:
                result, error = fn(), None
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                result, error = None, exc
            try:
                loop.call_soon_threadsafe(_hand, future, result, error, done)
            except RuntimeError:  # the loop is closed: no one waits any more
                pass
            del fn, future, result, error, job
            with self._lock:
                if crew.unclaimed:
                    crew.unclaimed -= 1  # the next job is this thread's
                else:
                    crew.idle += 1


def _hand(future: asyncio.Future[Any], result: Any, error: BaseException | None,
          done: Callable[[], None] | None) -> None:
    if done is not None:
        done()
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
