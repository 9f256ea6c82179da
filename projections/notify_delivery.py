"""Delivery: claim the due notices of the outbox, send each, record the attempt and its
answer, and mark it sent, or due again later (exponential backoff with jitter), or failed
after `max_attempts`.

A claim leases the rows for `lease` seconds (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so two
workers never claim one row at once). A worker that dies between sending and recording
leaves its lease to run out; the notice is then sent again with the same delivery id
(`webhook-id`, the e-mail's Message-ID), so delivery is at least once over HTTP and
exactly once per delivery id for a receiver that drops an id it has already seen.

A seat present on the table page now (a heartbeat within the presence TTL) is not told:
its notice is recorded as `suppressed`, not sent. A registration's confirmation message
(reminder -1) is never held back: it is registered from that very page."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from projections.notify_channels import Answer, Channels
from projections.notify_store import Notice, NotifyView

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DeliveryConfig:
    lease: float = 30.0  # seconds a claimed notice is the claimer's
    max_attempts: int = 8
    backoff: float = 2.0  # seconds before the first retry; doubled each time, with jitter
    max_backoff: float = 3600.0
    batch: int = 32
    senders: int = 8  # notices sent at once


def backoff(config: DeliveryConfig, attempts: int, draw: Callable[[], float]) -> float:
    """Seconds before the next attempt after `attempts` failed ones: `backoff * 2^(n-1)`,
    at most `max_backoff`, times a random factor between 0.5 and 1 (full jitter's lower
    half: retries from many matches do not arrive together)."""
    delay = min(config.max_backoff, config.backoff * 2.0 ** max(0, attempts - 1))
    return delay * (0.5 + 0.5 * draw())


class Deliverer:
    def __init__(self, view: NotifyView, channels: Channels, config: DeliveryConfig,
                 clock: Callable[[], float] = time.time,
                 draw: Callable[[], float] = random.random) -> None:
        self.view = view
        self.channels = channels
        self.config = config
        self.clock = clock
        self.draw = draw
        self._senders: ThreadPoolExecutor | None = None

    def _pool(self) -> ThreadPoolExecutor:
        if self._senders is None:
            self._senders = ThreadPoolExecutor(self.config.senders, "notify-send")
        return self._senders

    def close(self) -> None:
        if self._senders is not None:
            self._senders.shutdown(wait=True)

    def deliver_due(self) -> int:
        """Send what is due now, a batch at a time; how many notices were settled or
        rescheduled."""
        done = 0
        while True:
            claimed = self.view.claim(self.clock(), self.config.lease, self.config.batch)
            if len(claimed) > 1 and self.config.senders > 1:
                list(self._pool().map(self.deliver, claimed))
            else:
                for notice in claimed:
                    self.deliver(notice)
            done += len(claimed)
            if len(claimed) < self.config.batch:
                return done

    def deliver(self, notice: Notice) -> None:
        reg = self.view.registration(notice.registration_id)
        now = self.clock()
        if reg is None:  # deleted since: nothing to send, nowhere to send it
            self.view.finish(notice.delivery_id, "dropped", now, None)
            return
        if notice.reminder >= 0 and self.view.is_present(notice.match_id, notice.seat, now):
            self.view.finish(notice.delivery_id, "suppressed", now, None)
            return
        answer = self.channels.send(reg.kind, reg, notice.delivery_id, notice.payload)
        attempt = {"delivery_id": notice.delivery_id, "registration_id": reg.registration_id,
                   "at": now, "status_code": answer.status_code, "error": answer.error,
                   "duration_ms": round(answer.duration_ms, 1)}
        if answer.ok:
            self.view.finish(notice.delivery_id, "sent", self.clock(), attempt)
        elif answer.final or notice.attempts >= self.config.max_attempts:
            log.info("notice %s failed: %s", notice.delivery_id, _said(answer))
            self.view.finish(notice.delivery_id, "failed", self.clock(), attempt)
        else:
            self.view.retry(notice.delivery_id,
                            self.clock() + backoff(self.config, notice.attempts, self.draw),
                            attempt)


def _said(answer: Answer) -> str:
    return answer.error or f"HTTP {answer.status_code}"
