"""Delivery lanes: one per target host, so that a receiver that is slow, never answers or
fails holds back only its own notices (`notify_delivery` claims the notices and asks the
lanes which it may start now).

A lane is the host a notice connects to: a webhook's or a push endpoint's host name (as
registered, lower case), and for e-mail the SMTP relay, the only host an e-mail connects to
(a slow recipient domain is the relay's to queue, not ours). Each lane has

- its share: at most `per_host` sends at once, and all lanes together at most `senders`;
  lanes whose last send failed share at most half of `senders` between them, so that
  failing hosts under many names cannot take every sender;
- a circuit breaker: after `failures` consecutive failures (no answer, a timeout, a 5xx, a
  408 or a 429) the lane opens: none of its notices is sent, they wait (not failed, their
  attempts not counted) until `cool_down` seconds have passed; then one notice probes the
  host (half-open): an answer closes the lane again, a failure opens it for another
  cool-down. A refusal of the target by the service's own checks is no failure of the host.

A small class of ours rather than a circuit-breaker library (pybreaker, circuitbreaker,
purgatory, aiobreaker): those wrap a call and raise while open, and pybreaker holds its lock
for the whole call, one send at a time per host; the delivery needs to ask before it takes
a sender (to give the notice back, and until when), to count a verdict read from an answer
rather than an exception, and to use the delivery's own clock."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit


@dataclass(frozen=True)
class LaneConfig:
    senders: int = 16  # sends at once, all lanes together
    per_host: int = 4  # sends at once to one host
    failures: int = 5  # consecutive failures that open a host's lane
    cool_down: float = 60.0  # seconds an open lane waits before one probe


def lane_of(kind: str, target: str, relay: str = "") -> str:
    """The lane of a registration: `smtp:<relay>` for e-mail, else the target's host."""
    if kind == "email":
        return f"smtp:{relay}"
    try:
        host = urlsplit(target).hostname or ""
    except ValueError:
        host = ""
    return host.rstrip(".")


def host_failed(status_code: int | None, error: str | None) -> bool:
    """Whether an answer counts against its host: no answer (refused connection, timeout,
    reset), a 5xx, 408 or 429. A 4xx is the receiver's verdict on the notice, and a refusal
    of the target by our own checks (`refused: ...`) never reached the host."""
    if status_code is None:
        return not (error or "").startswith("refused")
    return status_code >= 500 or status_code in (408, 429)


@dataclass
class _Lane:
    sending: int = 0
    failed: int = 0  # consecutive failures
    open_until: float | None = None  # open until then; half-open after
    probing: bool = False


class Lanes:
    """The lanes' state, shared by the claiming loop and the senders (one lock)."""

    def __init__(self, config: LaneConfig, clock: Callable[[], float]) -> None:
        self.config = config
        self.clock = clock
        self._lanes: dict[str, _Lane] = {}
        self._lock = threading.Lock()
        self._sending = 0

    def free(self) -> int:
        """Senders free now, all lanes together."""
        with self._lock:
            return self.config.senders - self._sending

    def sending(self) -> int:
        with self._lock:
            return self._sending

    def admit(self, key: str) -> tuple[bool, float | None]:
        """(True, None): the lane takes one send now (end it with `done`). Else (False,
        until): the notice waits, until the lane's cool-down ends (open), or `None` when the
        lane is only busy (it is tried again as soon as a send ends)."""
        now = self.clock()
        with self._lock:
            lane = self._lanes.setdefault(key, _Lane())
            if lane.open_until is not None and now < lane.open_until:
                return False, lane.open_until
            if self._busy(lane):
                return False, None
            lane.probing = lane.open_until is not None  # half-open: this one probes
            lane.sending += 1
            self._sending += 1
            return True, None

    def _busy(self, lane: _Lane) -> bool:
        """Whether `lane` (not open) must wait for a send to end before it starts one."""
        if lane.probing or self._sending >= self.config.senders:
            return True
        if lane.sending >= (1 if lane.open_until is not None else self.config.per_host):
            return True
        failing = sum(other.sending for other in self._lanes.values() if other.failed)
        return bool(lane.failed) and failing >= max(1, self.config.senders // 2)

    def done(self, key: str, failed: bool | None) -> None:
        """A send of lane `key` ended: `failed` is the host's verdict (None: no verdict,
        e.g. the send itself broke)."""
        now = self.clock()
        with self._lock:
            lane = self._lanes[key]
            lane.sending -= 1
            self._sending -= 1
            probe, lane.probing = lane.probing, False
            if failed is False:
                lane.failed, lane.open_until = 0, None
            elif failed:
                lane.failed += 1
                if probe or lane.failed >= self.config.failures:
                    lane.open_until = now + self.config.cool_down
            if not lane.sending and not lane.failed and lane.open_until is None:
                del self._lanes[key]  # a healthy idle lane is no state worth keeping

    def blocked(self) -> set[str]:
        """The lanes that would not start a send now."""
        now = self.clock()
        with self._lock:
            return {key for key, lane in self._lanes.items()
                    if (lane.open_until is not None and now < lane.open_until)
                    or self._busy(lane)}

    def state(self, key: str) -> dict[str, Any]:
        """A lane's state, for logs and tests: sending, failed, open_until."""
        with self._lock:
            lane = self._lanes.get(key, _Lane())
            return {"sending": lane.sending, "failed": lane.failed,
                    "open_until": lane.open_until}
