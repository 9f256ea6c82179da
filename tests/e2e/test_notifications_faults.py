"""The notifier under faults, on PostgreSQL: two API processes (BATTLELOG_PROJECTIONS=
external) and `battlelog project`, which runs the outbox and the delivery; the project
process is SIGKILLed 10 times during a scripted match of 200 handoffs, and started again
each time. Every handoff arrives at the webhook receiver (0 missed), no delivery id is
counted twice (0 repeated), every signature verifies. A kill between sending and recording
makes a raw redelivery with the same id: those are counted and printed, not failed (delivery
is at least once over HTTP, exactly once per delivery id)."""

from __future__ import annotations

import subprocess
import time
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from conftest import serving
from notifications_receivers import Table, WebhookReceiver, wait_until
from test_scale_out import pg_env, start_projector, stop

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
HANDOFFS = 200
KILLS = 10


def test_notifier_killed_ten_times_neither_misses_nor_repeats(
        pg_database: dict[str, Any], tmp_path: Path) -> None:
    env = {**pg_env(pg_database), "BATTLELOG_NOTIFY_ALLOW_PRIVATE": "1",
           "BATTLELOG_NOTIFY_LEASE": "2", "BATTLELOG_NOTIFY_POLL": "0.05",
           "BATTLELOG_NOTIFY_BACKOFF": "0.2", "BATTLELOG_CREATE_RATE": "off",
           "BATTLELOG_NOTIFY_BUDGET_MATCH": "off"}  # 200 handoffs in one match
    hooks = WebhookReceiver()
    log = tmp_path / "projector.log"
    started = time.monotonic()
    with ExitStack() as stack:
        stack.callback(hooks.close)
        urls = [stack.enter_context(serving(tmp_path / "unused.db", env)) for _ in range(2)]
        # the project process, started in the background (the match goes on meanwhile)
        starting = ThreadPoolExecutor(max_workers=1)
        stack.callback(starting.shutdown)
        projector: list[Future[subprocess.Popen[bytes]]] = [
            starting.submit(start_projector, env, log)]

        def finish() -> None:
            proc = projector[0].result()
            if proc.poll() is None:
                stop(proc)
        stack.callback(finish)

        table = Table.start(urls[0])
        for seat in ("red", "blue"):
            made = table.register(seat, {"kind": "webhook", "url": f"{hooks.url}/{seat}"})
            hooks.secrets[seat] = made["secret"]
            table.confirm(made["registration_id"], hooks.got)

        def kill_now_and_then(i: int) -> None:
            if i % (HANDOFFS // KILLS) == 0:
                proc = projector[0].result()
                proc.kill()  # SIGKILL: no clean stop, wherever it was
                proc.wait()
                projector[0] = starting.submit(start_projector, env, log)

        table.play(HANDOFFS, urls=urls, between=kill_now_and_then)
        expected = sorted(table.handoffs)
        assert len(expected) == HANDOFFS
        wait_until(lambda: len(hooks.got.unique()) >= HANDOFFS, 60, "every handoff")
        time.sleep(2.5)  # past a lease: a late repeat would show now

        got = hooks.got.handoffs()
        missed = sorted(set(expected) - set(got))
        repeated = len(got) - len(set(got))  # the same handoff under two delivery ids
        redelivered = len(hooks.got.raw) - len(hooks.got.unique())
        print(f"\nnotifier SIGKILLed {KILLS} times over {HANDOFFS} handoffs: missed "
              f"{len(missed)}, repeated {repeated}, raw redeliveries (same id) {redelivered}, "
              f"{time.monotonic() - started:.1f} s")
        assert missed == [] and repeated == 0 and got == expected
        assert hooks.got.bad == []  # every signature verified
        assert "Traceback" not in log.read_text()
