"""Our read models' tables (notifications, the catalogue) are created by whichever process or
thread opens them first: an API process, its background loops, `battlelog project`. On
PostgreSQL several creating them at once must queue, not deadlock (seen in a full run: a
`DeadlockDetected` in the notifications view's CREATE TABLE while the notifier opened it too)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from domain.app import Matches
from projections.catalogue import PostgresCatalogueView
from projections.notify_store import open_view

pytestmark = pytest.mark.postgres
OPENERS = 8


@pytest.mark.parametrize("store_env", ["postgres"], indirect=True)
@pytest.mark.parametrize("round_", range(3))
def test_many_openers_at_once_on_an_empty_database_all_succeed(
        store_env: dict[str, str], round_: int) -> None:
    matches = Matches(env=store_env)
    start = threading.Barrier(OPENERS)
    failed: list[BaseException] = []

    def opener(n: int) -> None:
        start.wait()
        try:
            if n % 2:
                open_view(matches.factory, postgres=True)
            else:
                matches.factory.tracking_recorder(PostgresCatalogueView)
        except BaseException as error:  # noqa: BLE001 - the test reports what any opener met
            failed.append(error)

    threads = [threading.Thread(target=opener, args=(n,)) for n in range(OPENERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not failed, [f"{type(e).__name__}: {e}" for e in failed]
    view: Any = open_view(matches.factory, postgres=True)
    assert view.notices() == []  # the tables are there and usable
    matches.close()
