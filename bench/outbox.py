"""The notifier's outbox over events no one follows (issue 30), in process, CPU time: 200
matches on SQLite, `--followed` of them with a confirmed registration, and blocks of
`add_note` actions on the others. After each block, the CPU that `Outbox.catch_up` spends
on those events, beside the match catalogue's `catch_up` over the same events (the anchor:
a projection that must read every event) and beside a plain read of all of them
(`read_log` without `only`: what the outbox read before it asked the store for the
followed matches' events alone). Each per event, on the CPU clock of this one thread.

    .venv/bin/python bench/cpu.py --only outbox
"""

from __future__ import annotations

import os
import sys
import time
import uuid
from collections.abc import Callable

sys.path.insert(0, os.getcwd())  # the packages of the tree it is run from (its root)

from domain.app import Matches
from domain.commands import AddNote, CreateMatch
from projections.catalogue import CatalogueService
from projections.log_read import read_log
from projections.notify_outbox import Outbox, OutboxConfig
from projections.notify_store import CONFIRMED, Registration, open_view
from projections.store import sqlite_env

SIDES = [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]


def measure(tmp: str, actions: int = 3000, block: int = 150, matches_count: int = 200,
            followed: int = 10) -> dict[str, float]:
    """CPU seconds per event of the matches no one follows: the outbox's, the catalogue's,
    the plain read's."""
    matches = Matches(env=sqlite_env(os.path.join(tmp, "outbox.db")))
    ids = [matches.create_match(CreateMatch.model_validate({
        "scenario": f"outbox {i}", "casual": True, "sides": SIDES})).events[0].originator_id
        for i in range(matches_count)]
    view = open_view(matches.factory, False)
    now = time.time()
    for match_id in ids[:followed]:
        reg = Registration(registration_id=str(uuid.uuid4()), match_id=str(match_id),
                           seat="red", kind="webhook", target="http://127.0.0.1:9/hook",
                           secret="whsec_" + "0" * 32, p256dh=None, auth=None, created=now,
                           status=CONFIRMED, confirmed=now)
        assert view.add_registration(reg, 100, 100) is None
    outbox = Outbox(matches, view, OutboxConfig())
    catalogue = CatalogueService(matches)
    outbox.catch_up()
    catalogue.catch_up()
    others = ids[followed:]
    note = AddNote(text="the hedgerow holds")
    spent = {"outbox": 0.0, "catalogue": 0.0, "read_all": 0.0}
    done = 0

    def timed(name: str, work: Callable[..., object], *args: object) -> None:
        start = time.process_time()
        work(*args)
        spent[name] += time.process_time() - start

    while done < actions:
        first = (matches.recorder.max_notification_id() or 0) + 1
        for i in range(block):
            matches.act(others[(done + i) % len(others)], note)
        done += block
        timed("read_all", read_log, matches, first, block)
        timed("outbox", outbox.catch_up)
        timed("catalogue", catalogue.catch_up)
    return {f"cpu_outbox_{name}_event_s": seconds / done for name, seconds in spent.items()}

