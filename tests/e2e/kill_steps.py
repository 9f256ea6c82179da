"""The client side of the kill tests (test_durability, test_group_commit_kill): post actions
until told to stop or the server dies, keeping the numbers it acknowledged."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import httpx


def post_tracks(url: str, match: str, auth: dict[str, str], stop: threading.Event,
                numbers: Iterator[int], acknowledged: list[int]) -> None:
    """Set track `n` to each next number of `numbers` until `stop` is set or the server
    dies mid-request; the numbers answered 201 go into `acknowledged` (those are the ones
    that must survive the kill)."""
    with httpx.Client(timeout=5) as http:
        while not stop.is_set():
            n = next(numbers)
            try:
                r = http.post(f"{url}/api/matches/{match}/actions", headers=auth,
                              json={"type": "set_track", "name": "n", "value": n})
            except httpx.TransportError:
                return  # the server died mid-request: not acknowledged
            if r.status_code == 201:
                acknowledged.append(n)
