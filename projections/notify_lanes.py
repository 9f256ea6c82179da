"""Delivery lanes: one per target host, and within it one per target, so that a receiver
that is slow, never answers or fails holds back only its own notices (`notify_delivery`
claims the notices and asks the lanes which it may start now).

A lane is the host a notice connects to: a webhook's or a push endpoint's host name (as
registered, lower case), and for e-mail the SMTP relay, the only host an e-mail connects to
(a slow recipient domain is the relay's to queue, not ours). A target is one registration's
address (a webhook's URL, a push endpoint, an e-mail address): registrations of one address
share it. Each lane has

- its share: at most `per_host` sends at once, and all lanes together at most `senders`;
  lanes whose last send failed share at most half of `senders` between them, so that
  failing hosts under many names cannot take every sender;
- within it, each target's share: at most `per_target` sends at once (fewer than
  `per_host`), so that a slow target's attempts never take all of its host's room while
  other targets on that host have notices waiting (ours: many players' webhooks share a
  host, a chat service's, and one slow webhook there is not the host's fault);
- a circuit breaker per target and one per host: after `failures` consecutive failures (no
  answer, a timeout, a 5xx, a 408 or a 429) a target opens, and its host opens when those
  failures in a row came from two targets or more (one failing target is that target's
  trouble, not its host's). An open target's or host's notices are not sent, they wait
  (not failed, their attempts not counted) until `cool_down` seconds have passed; then one
  notice probes it (half-open): an answer closes it again, a failure opens it for another
  cool-down. An answer from any target of a host closes the host. A refusal of the target
  by the service's own checks is no failure of the host.

A small class of ours rather than a circuit-breaker library (pybreaker, circuitbreaker,
purgatory, aiobreaker): those wrap a call and raise while open, and pybreaker holds its lock
for the whole call, one send at a time per host; the delivery needs to ask before it takes
a sender (to give the notice back, and until when), to count a verdict read from an answer
rather than an exception, and to use the delivery's own clock."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit


@dataclass(frozen=True)
class LaneConfig:
    senders: int = 16  # sends at once, all lanes together
    per_host: int = 4  # sends at once to one host
    per_target: int = 2  # sends at once to one target (at most `per_host`)
    failures: int = 5  # consecutive failures that open a target, or a host (2 targets+)
    cool_down: float = 60.0  # seconds an open target or lane waits before one probe


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
class _Gate:
    """A host's lane or one of its targets: sends under way and its breaker."""
    sending: int = 0
    failed: int = 0  # consecutive failures
    open_until: float | None = None  # open until then; half-open after
    probing: bool = False

    def open_at(self, now: float) -> float | None:
        """Until when it is open, if it is open at `now`."""
        return self.open_until if self.open_until is not None and now < self.open_until else None

    def full(self, share: int) -> bool:
        """Whether it must wait for a send to end: a probe under way, or its share (one
        while half-open) taken."""
        return self.probing or self.sending >= (1 if self.open_until is not None else share)

    def start(self) -> None:
        self.probing = self.open_until is not None  # half-open: this one probes
        self.sending += 1

    def end(self, failed: bool | None, now: float, cool_down: float,
            opens: Callable[[_Gate], bool]) -> None:
        self.sending -= 1
        probe, self.probing = self.probing, False
        if failed is False:
            self.failed, self.open_until = 0, None
        elif failed:
            self.failed += 1
            if probe or opens(self):
                self.open_until = now + cool_down

    def idle(self) -> bool:
        """A healthy idle gate: no state worth keeping."""
        return not self.sending and not self.failed and self.open_until is None


@dataclass
class _Lane(_Gate):
    failing: set[str] = field(default_factory=set)  # targets failed since the last answer


class Lanes:
    """The lanes' and targets' state, shared by the claiming loop and the senders (one
    lock). A target is named by its address; its lane by `lane_of`."""

    def __init__(self, config: LaneConfig, clock: Callable[[], float]) -> None:
        self.config = config
        self.clock = clock
        self._lanes: dict[str, _Lane] = {}
        self._targets: dict[str, _Gate] = {}
        self._lock = threading.Lock()
        self._sending = 0

    def free(self) -> int:
        """Senders free now, all lanes together."""
        with self._lock:
            return self.config.senders - self._sending

    def sending(self) -> int:
        with self._lock:
            return self._sending

    def admit(self, key: str, target: str) -> tuple[bool, float | None]:
        """(True, None): lane `key` takes one send to `target` now (end it with `done`).
        Else (False, until): the notice waits, until the cool-down of its lane or target
        ends (open), or `None` when either is only busy (it is tried again as soon as a
        send ends)."""
        now = self.clock()
        with self._lock:
            lane = self._lanes.setdefault(key, _Lane())
            aim = self._targets.setdefault(target, _Gate())
            until = lane.open_at(now)
            until = aim.open_at(now) if until is None else until
            if until is not None or self._busy(lane) or aim.full(self._share()):
                self._forget(key, target)
                return False, until
            lane.start()
            aim.start()
            self._sending += 1
            return True, None

    def _share(self) -> int:
        return min(self.config.per_target, self.config.per_host)

    def _busy(self, lane: _Lane) -> bool:
        """Whether `lane` (not open) must wait for a send to end before it starts one."""
        if self._sending >= self.config.senders or lane.full(self.config.per_host):
            return True
        failing = sum(other.sending for other in self._lanes.values() if other.failed)
        return bool(lane.failed) and failing >= max(1, self.config.senders // 2)

    def done(self, key: str, target: str, failed: bool | None) -> None:
        """A send of lane `key` to `target` ended: `failed` is the host's verdict (None: no
        verdict, e.g. the send itself broke)."""
        now = self.clock()
        cool_down, most = self.config.cool_down, self.config.failures
        with self._lock:
            lane, aim = self._lanes[key], self._targets[target]
            self._sending -= 1
            if failed is False:
                lane.failing.clear()
            elif failed and len(lane.failing) < 2:  # more than one is all that matters
                lane.failing.add(target)
            aim.end(failed, now, cool_down, lambda gate: gate.failed >= most)
            lane.end(failed, now, cool_down,
                     lambda gate: gate.failed >= most and len(lane.failing) > 1)
            self._forget(key, target)

    def _forget(self, key: str, target: str) -> None:
        if self._targets[target].idle():
            del self._targets[target]
        if self._lanes[key].idle():
            del self._lanes[key]

    def blocked(self) -> tuple[set[str], set[str]]:
        """The lanes, and the targets, that would not start a send now."""
        now = self.clock()
        share = self._share()
        with self._lock:
            return ({key for key, lane in self._lanes.items()
                     if lane.open_at(now) is not None or self._busy(lane)},
                    {target for target, aim in self._targets.items()
                     if aim.open_at(now) is not None or aim.full(share)})

    def state(self, key: str, target: str | None = None) -> dict[str, Any]:
        """A lane's state (or its target's), for logs and tests: sending, failed,
        open_until."""
        with self._lock:
            gate = (self._lanes.get(key, _Lane()) if target is None
                    else self._targets.get(target, _Gate()))
            return {"sending": gate.sending, "failed": gate.failed,
                    "open_until": gate.open_until}
