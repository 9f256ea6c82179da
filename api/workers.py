"""The worker threads of the hot routes (issue 30): an action's use case (it commits, and may
wait on the store) runs in one of them, its answer handed back to the event loop.

anyio's `run_sync` (what `run_in_threadpool` is) does the same with a capacity limiter, a
cancel scope and a checkpoint (one more turn of the event loop) around each call: about
50 us of CPU a call on this machine, where this pool spends about 12 (bench/README.md).
What it does: a job is queued; a thread waiting for one takes it, else a new thread is
started, up to `most`, else the job waits for a thread to be free; the result (or the
error) comes back through the loop's `call_soon_threadsafe`. A caller that is cancelled
meanwhile does not stop the job (a commit runs to its end, as with anyio's default)."""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_Job = tuple[Callable[[], Any], asyncio.AbstractEventLoop, "asyncio.Future[Any]",
             Callable[[], None] | None]


class Workers:
    """At most `most` threads that run jobs for event loops."""

    def __init__(self, most: int = 40, name: str = "battlelog-worker") -> None:
        self.most = most
        self.name = name
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._threads = 0
        self._idle = 0  # threads waiting for a job that no queued job has claimed yet
        self._unclaimed = 0  # queued jobs that wait for a thread to be free

    async def run(self, fn: Callable[[], T], done: Callable[[], None] | None = None) -> T:
        """`fn()` in a worker thread; `done()` is called on the event loop once it ended
        (whether or not the caller still waits)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with self._lock:
            if self._idle:
                self._idle -= 1
                start = False
            else:
                start = self._threads < self.most
                self._threads += start
                self._unclaimed += not start
        self._jobs.put((fn, loop, future, done))
        if start:
            threading.Thread(target=self._work, name=f"{self.name}-{self._threads}",
                             daemon=True).start()
        return await future

    def _work(self) -> None:
        while True:
            fn, loop, future, done = self._jobs.get()
            try:
                result, error = fn(), None
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                result, error = None, exc
            try:
                loop.call_soon_threadsafe(_hand, future, result, error, done)
            except RuntimeError:  # the loop is closed: no one waits any more
                pass
            del fn, future, result, error
            with self._lock:
                if self._unclaimed:
                    self._unclaimed -= 1  # the next job is this thread's
                else:
                    self._idle += 1


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
