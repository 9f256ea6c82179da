"""The notifier: the outbox projection (`notify_outbox`), its reminders and the delivery
(`notify_delivery`), run beside the catalogue: in the API process when projections are
inline (the default), in `battlelog project` when `BATTLELOG_PROJECTIONS=external`.

Several processes may run it on one PostgreSQL: the outbox's tracking record lets one of
them write each event's notices (the other's transaction fails and writes nothing), and
claims with `SKIP LOCKED` share the delivery. docs/notifications.md tells it for users."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from uuid import UUID

from domain.app import Matches
from projections.egress import Egress, EgressConfig
from projections.log_read import LogRecord
from projections.notify_channels import Channels, SmtpConfig, make_vapid
from projections.notify_delivery import Deliverer, DeliveryConfig
from projections.notify_outbox import Outbox, OutboxConfig
from projections.notify_store import NotifyView, open_view
from projections.store import projections_inline
from projections.ticker import Ticker

if TYPE_CHECKING:
    from projections.projector import Projector

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class NotifyConfig:
    outbox: OutboxConfig = field(default_factory=OutboxConfig)
    delivery: DeliveryConfig = field(default_factory=DeliveryConfig)
    smtp: SmtpConfig = field(default_factory=SmtpConfig)
    egress: EgressConfig = field(default_factory=EgressConfig)  # where requests may go
    vapid_subject: str = ""
    poll: float = 0.25  # seconds between looks at the store for others' saves
    # seconds at least between two of the outbox's steps while it follows this process's
    # saves: a burst of actions is read in one go, a notice waits at most this long more
    trail: float = 0.1


class NotifyService:
    def __init__(self, matches: Matches, config: NotifyConfig | None = None) -> None:
        self.matches = matches
        self.config = config or NotifyConfig()
        postgres = matches.env.get("PERSISTENCE_MODULE", "").startswith("eventsourcing.postgres")
        self.view: NotifyView = open_view(matches.factory, postgres)
        self.outbox = Outbox(matches, self.view, self.config.outbox)
        self.egress = Egress(self.config.egress)  # registrations and deliveries alike
        self._channels: Channels | None = None
        self._deliverer: Deliverer | None = None
        self._reminded = 0.0
        self._lock = threading.Lock()
        # the outbox follows this process's saves only while a match has a registration
        # (`_saved`); else it looks every `poll` seconds, and when one is made here
        self._projecting = Ticker(matches, "notify-outbox", self._project, self.config.poll,
                                  follows_saves=False, pause=self.config.trail)
        # the delivery is woken by what concerns it (the outbox wrote, a sender is free),
        # not by every save: it claims on its own only every `poll` seconds
        self._delivering = Ticker(matches, "notify-delivery", self._deliver, self.config.poll,
                                  follows_saves=False)
        self._started = False
        self._feed: Projector | None = None  # the runner that feeds the outbox (PostgreSQL)
        self._wrote = threading.Event()  # the outbox wrote rows (`battlelog project`)

    def position(self) -> int:
        """The outbox's: the last event it applied."""
        return self.outbox.position()

    def vapid_public_key(self) -> str:
        return self.view.vapid(make_vapid)[1]

    def deliverer(self) -> Deliverer:
        if self._deliverer is None:
            self._channels = Channels(smtp=self.config.smtp, vapid=self.view.vapid(make_vapid),
                                      vapid_subject=self.config.vapid_subject,
                                      egress=self.egress)
            smtp = self.config.smtp
            self._deliverer = Deliverer(self.view, self._channels, self.config.delivery,
                                        relay=f"{smtp.host}:{smtp.port}")
            self._deliverer.wake = self._delivering.wake  # a sender is free: claim again
        return self._deliverer

    def start(self, feed: Projector | None = None) -> None:
        """Run the notifier in this process, unless another process does
        (`BATTLELOG_PROJECTIONS=external`): its outbox fed by `feed` (on PostgreSQL, the
        catalogue's runner: one read of the log for both), else by its own thread."""
        if not projections_inline():
            return
        if feed is not None:
            self._feed, feed.notify = feed, self
        else:
            self.matches.saved_listeners.append(self._saved)
            self._projecting.start()
        self._delivering.start()
        self._started = True

    def _saved(self, saved: frozenset[UUID]) -> None:
        """A save of this process: the outbox has work only if a match saved has a
        registration (as it last found; `registered` when one is made here; one made by
        another process is found at its next look, every `poll` seconds)."""
        known = self.outbox.registered
        if known is None or any(str(match_id) in known for match_id in saved):
            self._projecting.wake()

    def registered(self, match_id: UUID) -> None:
        """A registration was just made in this process: the outbox follows that match's
        saves from now on."""
        self.outbox.registered = (self.outbox.registered or frozenset()) | {str(match_id)}
        self._projecting.wake()

    def stop(self) -> None:
        if self._started:
            if self._feed is not None:
                self._feed.notify, self._feed = None, None
                with self._lock:  # a step of the feed's under way ends first
                    pass
            if self._saved in self.matches.saved_listeners:
                self.matches.saved_listeners.remove(self._saved)
            self._projecting.stop()
            self._delivering.stop()
            self._started = False
        if self._deliverer is not None:
            self._deliverer.close()
        if self._channels is not None:
            self._channels.close()

    def _project(self) -> None:
        written = self.outbox.written
        self.step_outbox()
        if self.outbox.written != written:
            self._delivering.wake()

    def _deliver(self) -> None:
        self.deliverer().deliver_due(wait=False)

    def step_outbox(self, records: Sequence[LogRecord] | None = None) -> int:
        """Apply the new events (read here, or `records`: one read of the log shared with
        the catalogue, in `battlelog project`), and every few seconds write the reminders
        due; how many events were applied. A lost race for the tracking record (another
        process wrote those events' notices first) is no error."""
        with self._lock:
            written = self.outbox.written
            try:
                done = self.outbox.catch_up() if records is None else self.outbox.apply(records)
            except Exception as error:  # noqa: BLE001 - above all another writer's tracking
                log.debug("outbox: %s; trying again", error)
                self.outbox.forget_position()
                done = 0
            now = time.monotonic()
            if now - self._reminded >= min(30.0, self.config.outbox.quiet / 4):
                self._reminded = now
                self.outbox.schedule_reminders()
            if self.outbox.written != written:
                self._wrote.set()
                self._delivering.wake()  # (its thread runs when fed by the catalogue's runner)
            return done

    def deliver_forever(self, stopping: threading.Event) -> None:
        """`battlelog project`'s delivery, until `stopping` (the outbox is fed by its one
        read of the log, `step_outbox(records)`): its sends run in their lanes, so a slow
        receiver holds back neither the next handoffs nor other receivers; woken as soon as
        the outbox wrote something or a sender is free."""
        def deliver() -> int:
            self._wrote.clear()
            return self.deliverer().deliver_due(wait=False)

        self.deliverer().wake = self._wrote.set  # a sender is free: claim again
        self._keep(stopping, deliver, self._wrote)

    def _keep(self, stopping: threading.Event, work: Callable[[], object],
              idle: threading.Event) -> None:
        """Run `work` until `stopping`; when it had nothing to do, wait for `idle` (at most
        the poll interval)."""
        while not stopping.is_set():
            try:
                busy = work()
            except Exception:  # a notifier that stops is none: log it and go on
                log.exception("notifier failed; resuming from its position")
                stopping.wait(1.0)
                continue
            if not busy:
                idle.wait(self.config.poll)
