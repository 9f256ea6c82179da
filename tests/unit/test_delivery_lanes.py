"""The delivery lanes' own rules, with a clock given in: a lane per host (e-mail's is the
SMTP relay), a share per host and in all, failing hosts at most half of the senders, what
counts against a host, and the breaker's one probe at a time once its cool-down is over."""

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
    assert [lanes.admit("a")[0] for _ in range(3)] == [True, True, False]  # per host
    assert lanes.blocked() == {"a"}
    assert lanes.admit("b") == (True, None)
    lanes.done("a", failed=True)
    lanes.done("b", failed=True)  # a and b are failing now: 1 send under way (a's)
    assert lanes.admit("b") == (True, None)  # failing sends: 2 of the 3 allowed
    assert lanes.admit("c") == (True, None)
    lanes.done("c", failed=True)
    assert lanes.admit("c") == (True, None)  # 3 failing sends under way: half of 6
    assert lanes.admit("d") == (True, None)  # a healthy host still gets its own
    lanes.done("d", failed=False)
    assert lanes.admit("b") == (False, None)  # but no failing host gets a fourth
    assert lanes.blocked() == {"a", "b", "c"}
    assert lanes.free() == 3


def test_an_open_lane_waits_its_cool_down_then_lets_one_probe_through() -> None:
    clock = Clock()
    lanes = Lanes(LaneConfig(senders=8, per_host=4, failures=2, cool_down=60), clock)
    for _ in range(2):
        assert lanes.admit("dead")[0]
        lanes.done("dead", failed=True)
    assert lanes.admit("dead") == (False, 1060.0)  # open: wait until then
    clock.now = 1060.0
    assert lanes.admit("dead") == (True, None)  # the probe
    assert lanes.admit("dead") == (False, None)  # one at a time
    lanes.done("dead", failed=True)
    assert lanes.admit("dead") == (False, 1120.0)  # a failed probe: another cool-down
    clock.now = 1120.0
    assert lanes.admit("dead") == (True, None)
    lanes.done("dead", failed=None)  # no verdict: still half-open, the next one probes
    assert lanes.admit("dead") == (True, None)
    lanes.done("dead", failed=False)  # answered: closed, the whole share again
    assert [lanes.admit("dead")[0] for _ in range(5)] == [True] * 4 + [False]
