"""The delivery lanes' own rules, with a clock given in: a lane per host (e-mail's is the
SMTP relay), a share per host and in all, a smaller share per target within its host's,
failing hosts at most half of the senders, what counts against a host, a breaker per
target and per host (opened by two failing targets), and the breaker's one probe at a time
once its cool-down is over."""

from __future__ import annotations

from projections.notify_lanes import LaneConfig, Lanes, host_failed, lane_of


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_lane_is_the_targets_host_and_for_e_mail_the_relay() -> None:
    assert lane_of("webhook", "https://Hooks.Example.org:8443/a?b=c", "") == "hooks.example.org"
    assert lane_of("push", "https://push.example.net./sub/1", "") == "push.example.net"
    assert lane_of("email", "red@example.org", "smtp.example.com:587") == (
        "smtp:smtp.example.com:587")
    assert lane_of("email", "blue@elsewhere.example", "smtp.example.com:587") == (
        "smtp:smtp.example.com:587")


def test_what_counts_against_a_host() -> None:
    assert host_failed(None, "ReadTimeout: timed out")
    assert host_failed(None, "ConnectError: [Errno 111] Connection refused")
    assert host_failed(503, None) and host_failed(500, None)
    assert host_failed(429, None) and host_failed(408, None)
    assert not host_failed(204, None) and not host_failed(410, None)
    assert not host_failed(None, "refused: a public address")  # never reached the host


def test_a_host_gets_its_share_and_failing_hosts_half_the_senders() -> None:
    lanes = Lanes(LaneConfig(senders=6, per_host=2, failures=99), Clock())
    # three targets on host a: the host's share of 2 (each target under its own share)
    assert [lanes.admit("a", f"a/{n}")[0] for n in range(3)] == [True, True, False]
    assert lanes.blocked() == ({"a"}, set())
    assert lanes.admit("b", "b/0") == (True, None)
    lanes.done("a", "a/0", failed=True)
    lanes.done("b", "b/0", failed=True)  # a and b are failing now: 1 send under way (a's)
    assert lanes.admit("b", "b/1") == (True, None)  # failing sends: 2 of the 3 allowed
    assert lanes.admit("c", "c/0") == (True, None)
    lanes.done("c", "c/0", failed=True)
    assert lanes.admit("c", "c/1") == (True, None)  # 3 failing sends under way: half of 6
    assert lanes.admit("d", "d/0") == (True, None)  # a healthy host still gets its own
    lanes.done("d", "d/0", failed=False)
    assert lanes.admit("b", "b/2") == (False, None)  # but no failing host gets a fourth
    assert lanes.blocked() == ({"a", "b", "c"}, set())
    assert lanes.free() == 3


def test_a_target_gets_its_share_within_its_hosts() -> None:
    """Finding 12: one target (a slow webhook) takes at most `per_target` of its host's
    `per_host` sends, and the host's other targets get the rest."""
    lanes = Lanes(LaneConfig(senders=16, per_host=4, per_target=2, failures=99), Clock())
    assert [lanes.admit("h", "h/slow")[0] for _ in range(3)] == [True, True, False]
    assert lanes.blocked() == (set(), {"h/slow"})  # the target waits, not its host
    assert lanes.admit("h", "h/other") == (True, None)
    assert lanes.admit("h", "h/third") == (True, None)
    assert lanes.admit("h", "h/fourth") == (False, None)  # now the host's share is taken
    assert lanes.blocked() == ({"h"}, {"h/slow"})
    lanes.done("h", "h/other", failed=False)
    assert lanes.admit("h", "h/slow") == (False, None)  # still at its own share
    assert lanes.admit("h", "h/fourth") == (True, None)


def test_one_failing_target_opens_alone_two_open_their_host() -> None:
    clock = Clock()
    lanes = Lanes(LaneConfig(senders=16, per_host=4, per_target=2, failures=2,
                             cool_down=60), clock)
    for _ in range(3):  # one target failing: its breaker opens, its host's does not
        if lanes.admit("h", "h/slow")[0]:
            lanes.done("h", "h/slow", failed=True)
    assert lanes.admit("h", "h/slow") == (False, 1060.0)
    assert lanes.admit("h", "h/other") == (True, None)  # the host is still open to others
    lanes.done("h", "h/other", failed=True)  # a second target fails in a row: host opens
    assert lanes.admit("h", "h/third") == (False, 1060.0)
    assert lanes.state("h")["open_until"] == 1060.0
    clock.now = 1060.0
    assert lanes.admit("h", "h/third") == (True, None)  # the host's probe
    assert lanes.admit("h", "h/fourth") == (False, None)  # one at a time
    lanes.done("h", "h/third", failed=False)  # answered: the host closes
    assert lanes.admit("h", "h/fourth") == (True, None)


def test_an_open_lane_waits_its_cool_down_then_lets_one_probe_through() -> None:
    clock = Clock()
    lanes = Lanes(LaneConfig(senders=8, per_host=4, failures=2, cool_down=60), clock)
    for dead in ("dead/1", "dead/2"):  # failures in a row from two targets
        assert lanes.admit("dead", dead)[0]
        lanes.done("dead", dead, failed=True)
    assert lanes.admit("dead", "dead/3") == (False, 1060.0)  # open: wait until then
    clock.now = 1060.0
    assert lanes.admit("dead", "dead/3") == (True, None)  # the probe
    assert lanes.admit("dead", "dead/4") == (False, None)  # one at a time
    lanes.done("dead", "dead/3", failed=True)
    assert lanes.admit("dead", "dead/4") == (False, 1120.0)  # failed probe: another cool-down
    clock.now = 1120.0
    assert lanes.admit("dead", "dead/4") == (True, None)
    lanes.done("dead", "dead/4", failed=None)  # no verdict: still half-open, the next probes
    assert lanes.admit("dead", "dead/5") == (True, None)
    lanes.done("dead", "dead/5", failed=False)  # answered: closed, the whole share again
    assert [lanes.admit("dead", f"dead/{n}")[0] for n in range(5)] == [True] * 4 + [False]
