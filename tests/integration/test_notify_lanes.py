"""Delivery lanes on each store, with real webhook targets on loopback: a target that never
answers holds back only its own notices (another match's notice is received while its
attempts still hang, and it gets no more connections than its lane allows); a slow
webhook leaves room on its host: another webhook there is told while the slow one's
requests are held; a target that
keeps failing opens its lane's breaker: no connection during the cool-down, its notices
neither failed nor lost, one probe after it, and they all go out once it answers; a send
that outlasts its lease keeps it (another worker does not send it again). No wall clock:
the order of what the targets saw, counts, and clocks given in."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator

import pytest
from notify_targets import Target, notice, registered

from domain.app import Matches
from projections.egress import Egress, EgressConfig
from projections.notify_channels import Channels, SmtpConfig
from projections.notify_delivery import Deliverer, DeliveryConfig
from projections.notify_lanes import LaneConfig
from projections.notify_store import NotifyView, open_view

BLACKHOLE = "127.0.0.2"  # loopback too, another host name: another lane
HEALTHY = "127.0.0.1"
GUARD = 60.0  # seconds before a test that waits for an arrival gives up (never reached)


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def view_of(matches: Matches) -> NotifyView:
    return open_view(matches.factory, "postgres" in matches.env["PERSISTENCE_MODULE"])


@pytest.fixture
def targets() -> Iterator[list[Target]]:
    made: list[Target] = []
    yield made
    for target in made:
        target.close()


def target(targets: list[Target], host: str, mode: str) -> Target:
    made = Target(host, mode)
    targets.append(made)
    return made


def deliverer(view: NotifyView, lanes: LaneConfig,
              clock: Callable[[], float] = time.time, lease: float = 30.0) -> Deliverer:
    """A deliverer whose sends wait for an answer as long as the test lasts (an attempt at
    the blackhole hangs until the test closes it, however slow the machine)."""
    egress = Egress(EgressConfig(ports=None, allow_private=True, timeout=3600.0))
    return Deliverer(view, Channels(smtp=SmtpConfig(), egress=egress),
                     DeliveryConfig(lease=lease, backoff=2.0, lanes=lanes), clock,
                     draw=lambda: 1.0)


class Loop:
    """The notifier's delivery loop, as the service runs it: a round whenever woken (a
    sender is free, a notice was written) and at least every few milliseconds."""

    def __init__(self, sender: Deliverer) -> None:
        self.sender = sender
        self.woken = threading.Event()
        self.stopping = threading.Event()
        sender.wake = self.woken.set
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopping.is_set():
            self.sender.deliver_due(wait=False)
            self.woken.wait(0.02)
            self.woken.clear()

    def stop(self) -> None:
        self.stopping.set()
        self.woken.set()
        self.thread.join()


def wait_for(check: Callable[[], object], what: str) -> None:
    deadline = time.monotonic() + GUARD
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def test_a_target_that_never_answers_holds_back_no_other_matchs_notice(
        matches: Matches, targets: list[Target]) -> None:
    view = view_of(matches)
    blackhole = target(targets, BLACKHOLE, "hang")
    healthy = target(targets, HEALTHY, "answer")
    seen: list[tuple[int, int]] = []  # what the blackhole had seen when the notice arrived
    healthy.on_request = lambda: seen.append(blackhole.count())
    now = time.time()
    stuck = []
    for m in range(4):  # 40 webhooks from 4 matches, all to the blackhole, due first
        match = str(uuid.uuid4())
        for _ in range(10):
            reg = registered(view, blackhole.url, match, "blue", now)
            stuck.append(notice(view, reg, match, now - 60 + m))
    sender = deliverer(view, LaneConfig(senders=8, per_host=2))
    loop = Loop(sender)
    try:
        wait_for(lambda: blackhole.count()[0] >= 2, "the attempts at the blackhole to hang")
        other = str(uuid.uuid4())  # another match's notice, made while those hang
        told = notice(view, registered(view, healthy.url, other, "blue", now), other,
                      time.time())
        loop.woken.set()
        wait_for(lambda: [n.status for n in view.notices(other)] == ["sent"],
                 "the other match's notice")
        loop.stop()  # no round under way: none claimed for a moment and not yet given back
        notices = {n.delivery_id: n for n in view.notices()}
        assert healthy.answered == [told]
        # it arrived while both attempts at the blackhole were still hanging, and the
        # blackhole got no more connections than its lane's two
        assert seen == [(2, 0)] and blackhole.count() == (2, 0)
        # the blackhole's other notices were given back unsent: pending, no attempt counted
        assert all(notices[d].status == "pending" for d in stuck)
        assert sorted(notices[d].attempts for d in stuck) == [0] * 38 + [1, 1]
    finally:
        loop.stop()
        blackhole.close()
        sender.close()


def test_a_slow_target_leaves_room_on_its_host_for_the_hosts_other_targets(
        matches: Matches, targets: list[Target]) -> None:
    """Finding 12: one host, two webhooks. The slow one is held (its receiver reads each
    request and answers only when the test says); the other's notice, made while those are
    held, is received before any of them is answered, and the slow one never had more
    than its target's share of the host's senders. Once released, the held ones go out."""
    view = view_of(matches)
    slow = target(targets, BLACKHOLE, "hold")
    other_hook = target(targets, BLACKHOLE, "answer")  # same host, another webhook
    seen: list[int] = []  # requests the slow one held when the other's arrived
    other_hook.on_request = lambda: seen.append(slow.holding)
    now = time.time()
    held = []
    for m in range(3):  # 12 notices to the slow webhook from 3 matches, due first
        match = str(uuid.uuid4())
        reg = registered(view, slow.url, match, "blue", now)
        held += [notice(view, reg, match, now - 60 + m) for _ in range(4)]
    sender = deliverer(view, LaneConfig(senders=8, per_host=4))
    loop = Loop(sender)
    try:
        wait_for(lambda: slow.holding >= 2, "the slow webhook to hold its requests")
        other = str(uuid.uuid4())
        told = notice(view, registered(view, other_hook.url, other, "blue", now), other,
                      time.time())
        loop.woken.set()
        wait_for(lambda: [n.status for n in view.notices(other)] == ["sent"],
                 "the other webhook's notice")
        assert other_hook.answered == [told]
        assert seen == [2] and slow.count() == (2, 0)  # its share of 4: 2, both held
        assert slow.answered == []
        slow.release.set()
        wait_for(lambda: all(n.status == "sent" for n in view.notices()
                             if n.delivery_id in held), "the held notices")
        assert sorted(slow.answered) == sorted(held)
    finally:
        loop.stop()
        slow.release.set()  # nothing held past the test, passed or not
        sender.close()


def test_a_failing_target_opens_its_breaker_then_gets_everything_once_it_answers(
        matches: Matches, targets: list[Target]) -> None:
    view = view_of(matches)
    flaky = target(targets, BLACKHOLE, "drop")  # takes the connection, closes it unanswered
    clock = Clock(time.time())
    ids = []
    for _ in range(2):
        match = str(uuid.uuid4())
        for _ in range(5):
            ids.append(notice(view, registered(view, flaky.url, match, "blue", clock.now),
                              match, clock.now))
    sender = deliverer(view, LaneConfig(senders=4, per_host=1, failures=3, cool_down=600),
                       clock)
    try:
        def mine() -> list[tuple[str, int, float]]:
            got = {n.delivery_id: n for n in view.notices()}
            return [(got[d].status, got[d].attempts, got[d].due) for d in ids]

        sender.deliver_due()
        assert flaky.count()[0] == 3  # three failures in a row open the lane
        tried = [(s, a, due) for s, a, due in mine() if a]
        waiting = [(s, a, due) for s, a, due in mine() if not a]  # no attempt counted
        assert tried == [("pending", 1, clock.now + 2.0)] * 3  # retried after the backoff
        # the others wait: left out of the claims, or given back until the cool-down's end
        assert {(s, due in (clock.now, clock.now + 600)) for s, _, due in waiting} == {
            ("pending", True)} and len(waiting) == 7

        clock.now += 599  # the retries are due, the cool-down is not over: no connection
        assert sender.deliver_due() == 0
        assert flaky.count()[0] == 3
        assert all(status == "pending" for status, _, _ in mine())

        clock.now += 2  # over: one probe, which fails; the lane opens again
        sender.deliver_due()
        assert flaky.count()[0] == 4
        assert [s for s, _, _ in mine()] == ["pending"] * 10
        assert sender.deliver_due() == 0 and flaky.count()[0] == 4

        flaky.mode = "answer"
        clock.now += 601  # the next probe is answered: the lane closes, everything goes
        sender.deliver_due()
        assert [s for s, _, _ in mine()] == ["sent"] * 10
        assert sorted(flaky.answered) == sorted(ids)  # each once
        assert flaky.count()[0] == 14
    finally:
        sender.close()


def test_a_send_that_outlasts_its_lease_keeps_it(
        matches: Matches, targets: list[Target]) -> None:
    view = view_of(matches)
    blackhole = target(targets, BLACKHOLE, "hang")
    clock = Clock(time.time())
    match = str(uuid.uuid4())
    slow = notice(view, registered(view, blackhole.url, match, "blue", clock.now), match,
                  clock.now)
    sender = deliverer(view, LaneConfig(), clock, lease=30.0)
    other = deliverer(view, LaneConfig(), clock, lease=30.0)  # another worker, same store
    try:
        assert sender.deliver_due(wait=False) == 1
        wait_for(lambda: blackhole.count()[0] == 1, "the send to hang")
        clock.now += 45  # the claim's lease is over; the send still hangs
        sender.deliver_due(wait=False)  # the loop's next round lengthens it
        assert other.deliver_due(wait=False) == 0
        [held] = view.notices(match)
        assert held.delivery_id == slow and held.attempts == 1
        assert held.lease_until == clock.now + 30.0
        assert blackhole.count() == (1, 0)
    finally:
        blackhole.close()
        sender.close()
        other.close()
