"""Delivery: claim the due notices of the outbox, send each in its lane
(`notify_lanes`: one per target host, with its own share of the senders, a smaller share
per target within it, and circuit breakers), record the attempt and its answer, and mark
it sent, or due again later (exponential backoff with jitter), or failed after
`max_attempts`.

The claiming loop never waits for a send: it claims only as many notices as there are free
senders, starts each one its lane and target can take now, gives the others back unsent
(no attempt counted; a lane or target whose breaker is open: due again when its cool-down
ends) and leaves out, in its next claims, the registrations of the lanes and targets that
cannot start one (a slow target's, not its host's others). A claimed notice is being sent
or is given back at once: none waits in a queue of ours while its lease runs.

A claim leases the rows for `lease` seconds (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so two
workers never claim one row at once), and the loop lengthens the lease of every send still
under way, so a send that outlasts a lease is not sent again beside itself. A worker that
dies between sending and recording leaves its lease to run out; the notice is then sent
again with the same delivery id (`webhook-id`, the e-mail's Message-ID), so delivery is at
least once over HTTP and exactly once per delivery id for a receiver that drops an id it
has already seen.

A seat present on the table page now (a heartbeat within the presence TTL) is not told:
its notice is recorded as `suppressed`, not sent. A registration's confirmation message
(reminder -1) is never held back: it is registered from that very page."""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from projections.notify_channels import Answer, Channels
from projections.notify_lanes import LaneConfig, Lanes, host_failed, lane_of
from projections.notify_store import Notice, NotifyView, Registration

log = logging.getLogger(__name__)

SKIP_AT_MOST = 500  # registrations left out of one claim (the rest are given back)


@dataclass(frozen=True)
class DeliveryConfig:
    lease: float = 30.0  # seconds a claimed notice is the claimer's
    max_attempts: int = 8
    backoff: float = 2.0  # seconds before the first retry; doubled each time, with jitter
    max_backoff: float = 3600.0
    batch: int = 32  # notices claimed at most at once
    lanes: LaneConfig = field(default_factory=LaneConfig)


def backoff(config: DeliveryConfig, attempts: int, draw: Callable[[], float]) -> float:
    """Seconds before the next attempt after `attempts` failed ones: `backoff * 2^(n-1)`,
    at most `max_backoff`, times a random factor between 0.5 and 1 (full jitter's lower
    half: retries from many matches do not arrive together)."""
    delay = min(config.max_backoff, config.backoff * 2.0 ** max(0, attempts - 1))
    return delay * (0.5 + 0.5 * draw())


class Deliverer:
    def __init__(self, view: NotifyView, channels: Channels, config: DeliveryConfig,
                 clock: Callable[[], float] = time.time,
                 draw: Callable[[], float] = random.random, relay: str = "") -> None:
        self.view = view
        self.channels = channels
        self.config = config
        self.clock = clock
        self.draw = draw
        self.relay = relay  # the SMTP relay: e-mail's lane
        self.lanes = Lanes(config.lanes, clock)
        self.wake: Callable[[], None] = lambda: None  # called when a sender is free again
        self._senders: ThreadPoolExecutor | None = None
        self._leases: dict[str, float] = {}  # delivery id -> lease end, of sends under way
        self._lane_of: dict[str, tuple[str, str]] = {}  # registration -> (lane, target)
        self._lock = threading.Lock()  # _leases and _lane_of
        self._ended = threading.Condition()  # a send ended (`_ends` counts them)
        self._ends = 0

    def _pool(self) -> ThreadPoolExecutor:
        if self._senders is None:
            self._senders = ThreadPoolExecutor(self.config.lanes.senders, "notify-send")
        return self._senders

    def close(self) -> None:
        if self._senders is not None:
            self._senders.shutdown(wait=True)

    def deliver_due(self, wait: bool = True) -> int:
        """Start what is due now and its lanes can take; how many notices were started (or
        settled without a send: dropped, suppressed). `wait`: until every send started has
        ended, starting what becomes startable meanwhile (the tests' way); the notifier's
        loop does not wait and is woken (`wake`) when a sender is free."""
        done = 0
        while True:
            ends = self._ends
            started, waiting = self._round()
            done += started
            if not wait:
                return done
            with self._ended:
                if self._ends != ends:  # a send ended during the round: another round
                    continue
                if not self.lanes.sending():
                    if not waiting:
                        return done
                    continue
                self._ended.wait(timeout=self.config.lease / 4)

    def _round(self) -> tuple[int, int]:
        """Claim and start while senders are free: (notices started or settled, notices
        given back to wait for a busy lane)."""
        self._keep_leases()
        started = busy = 0
        while (free := min(self.config.batch, self.lanes.free())) > 0:
            blocked = self._blocked()
            claimed = self.view.claim(self.clock(), self.config.lease, free,
                                      sorted(blocked)[:SKIP_AT_MOST])
            back: dict[float | None, list[str]] = {}
            learned = False  # a registration given back that the claims did not leave out
            for notice in claimed:
                taken, until = self._start(notice)
                if taken:
                    started += 1
                else:
                    back.setdefault(until, []).append(notice.delivery_id)
                    learned = learned or notice.registration_id not in blocked
            for until, ids in back.items():
                self.view.release(ids, until)
            busy += len(back.get(None, ()))
            if len(claimed) < free or (back and not learned):
                break  # nothing more due, or only what the lanes cannot take yet
        return started, busy

    def _blocked(self) -> set[str]:
        """Registrations whose lanes or targets cannot start a send now (left out of the
        claims)."""
        lanes, targets = self.lanes.blocked()
        if not lanes and not targets:
            return set()
        with self._lock:
            return {reg for reg, (lane, target) in self._lane_of.items()
                    if lane in lanes or target in targets}

    def _start(self, notice: Notice) -> tuple[bool, float | None]:
        """(True, None): `notice` is being sent in its lane, or was settled without a send.
        (False, until): it is given back, to wait until then (None: while its lane is busy)."""
        with self._lock:
            if notice.delivery_id in self._leases:  # still being sent here (lease renewed)
                return True, None
        reg = self.view.registration(notice.registration_id)
        now = self.clock()
        if reg is None:  # deleted since: nothing to send, nowhere to send it
            self.view.finish(notice.delivery_id, "dropped", now, None)
            return True, None
        if notice.reminder >= 0 and self.view.is_present(notice.match_id, notice.seat, now):
            self.view.finish(notice.delivery_id, "suppressed", now, None)
            return True, None
        lane = lane_of(reg.kind, reg.target, self.relay)
        with self._lock:
            if len(self._lane_of) >= 20 * SKIP_AT_MOST:
                self._lane_of.clear()
            self._lane_of[reg.registration_id] = (lane, reg.target)
        admitted, until = self.lanes.admit(lane, reg.target)
        if not admitted:
            return False, until
        with self._lock:
            self._leases[notice.delivery_id] = now + self.config.lease
        self._pool().submit(self._send, notice, reg, lane)
        return True, None

    def _send(self, notice: Notice, reg: Registration, lane: str) -> None:
        failed: bool | None = None
        try:
            at = self.clock()
            answer = self.channels.send(reg.kind, reg, notice.delivery_id, notice.payload)
            failed = host_failed(answer.status_code, answer.error)
            self._settle(notice, reg, answer, at)
        except Exception:  # a sender that stops is none: the lease runs out, it is sent again
            log.exception("notice %s: sending or recording failed", notice.delivery_id)
        finally:
            with self._lock:
                self._leases.pop(notice.delivery_id, None)
            self.lanes.done(lane, reg.target, failed)
            with self._ended:
                self._ends += 1
                self._ended.notify_all()
            self.wake()

    def _settle(self, notice: Notice, reg: Registration, answer: Answer, at: float) -> None:
        attempt = {"delivery_id": notice.delivery_id, "registration_id": reg.registration_id,
                   "at": at, "status_code": answer.status_code,
                   "error": answer.error, "duration_ms": round(answer.duration_ms, 1)}
        if answer.ok:
            self.view.finish(notice.delivery_id, "sent", self.clock(), attempt)
        elif answer.final or notice.attempts >= self.config.max_attempts:
            log.info("notice %s failed: %s", notice.delivery_id, _said(answer))
            self.view.finish(notice.delivery_id, "failed", self.clock(), attempt)
        else:
            self.view.retry(notice.delivery_id,
                            self.clock() + backoff(self.config, notice.attempts, self.draw),
                            attempt)

    def _keep_leases(self) -> None:
        """Lengthen, by a whole lease, the leases of sends under way that are half over."""
        now = self.clock()
        with self._lock:
            ending = [d for d, until in self._leases.items()
                      if until - now < self.config.lease / 2]
        if ending:
            self.view.extend(ending, now + self.config.lease)
            with self._lock:
                for delivery_id in ending:
                    if delivery_id in self._leases:
                        self._leases[delivery_id] = now + self.config.lease


def _said(answer: Answer) -> str:
    return answer.error or f"HTTP {answer.status_code}"
