"""Quotas per client address on what anyone may do without a token: creating a match and
importing one; and rates per seat of a match on what a seat writes beside the match's log
(its annotations: `SeatRate`). Counted in this process's memory with the `limits` library
(a moving window: at most N in any window of the period); past a quota the answer is 429
with `Retry-After` and nothing is appended (a quota's before the body is read)."""

from __future__ import annotations

import ipaddress
import math
import time

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.responses import JSONResponse
from starlette.types import Scope

from api.problems import problem
from domain.errors import DomainError


def client_key(scope: Scope) -> str | None:
    """Who is counted: the client's IP address (as uvicorn's proxy headers set it, see
    docs/deploy.md); an IPv6 client by its /64, which one host usually has whole. A client
    with no IP address (an in-process caller such as a test client) is not counted: one
    bucket shared by all of them would let one hold back every other."""
    client = scope.get("client")
    try:
        address = ipaddress.ip_address(client[0] if client else "")
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class Quotas:
    """The quotas: `rates` maps (method, path) to a quota in the `limits` notation
    ("30/minute", several joined by ";"; "off" for none). Checked by the one ASGI layer in
    front of the routes (`api.limits.Gate`), before any body is read."""

    def __init__(self, rates: dict[tuple[str, str], str]) -> None:
        self.quotas: dict[tuple[str, str], list[RateLimitItem]] = {
            route: parse_many(rate) for route, rate in rates.items()
            if rate.strip().lower() != "off"}
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def refusal(self, scope: Scope, method: str, path: str) -> JSONResponse | None:
        """The 429 for a request past its quota (None: within it, now counted, or a
        request under no quota)."""
        items = self.quotas.get((method, path))
        who = client_key(scope) if items else None
        if not items or who is None:
            return None
        full = [item for item in items if not self.limiter.test(item, path, who)]
        if full:
            return self._refuse(full[0], path, who)
        for item in items:
            self.limiter.hit(item, path, who)
        return None

    def _refuse(self, item: RateLimitItem, path: str, who: str) -> JSONResponse:
        wait = _wait(self.limiter, item, path, who)
        response = problem(429, "Too many requests",
                           f"at most {item.amount} per {_period(item)} from one address "
                           f"here; try again in {wait} s", code="too-many-requests",
                           instance=path, rule="core-quotas")
        response.headers["Retry-After"] = str(wait)
        return response


class TooManyChanges(DomainError):
    """A seat past its rate (`SeatRate`): 429, `Retry-After` the seconds to wait."""

    status = 429
    title = "Too many requests"

    def __init__(self, detail: str, *, wait: int, rule: str) -> None:
        super().__init__(detail, rule=rule)
        self.retry_after = wait


class SeatRate:
    """A rate per seat of a match ("30/minute;300/hour", or "off"), for `what` a seat
    writes (each request counts, refused ones too: a seat that keeps trying waits)."""

    def __init__(self, rate: str, what: str, rule: str) -> None:
        self.items = [] if rate.strip().lower() == "off" else parse_many(rate)
        self.what, self.rule = what, rule
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def spend(self, match_id: str, seat: str) -> None:
        """Count one for `seat` of the match, or refuse it (nothing counted)."""
        full = [i for i in self.items if not self.limiter.test(i, self.what, match_id, seat)]
        if full:
            wait = _wait(self.limiter, full[0], self.what, match_id, seat)
            raise TooManyChanges(f"a seat makes at most {full[0].amount} {self.what} per "
                                 f"{_period(full[0])} in a match; try again in {wait} s",
                                 wait=wait, rule=self.rule)
        for item in self.items:
            self.limiter.hit(item, self.what, match_id, seat)


def _wait(limiter: MovingWindowRateLimiter, item: RateLimitItem, *keys: str) -> int:
    """Whole seconds until `item`'s window for `keys` has room again (at least 1)."""
    reset = limiter.get_window_stats(item, *keys).reset_time
    return max(1, math.ceil(reset - time.time()))


def _period(item: RateLimitItem) -> str:
    unit = item.GRANULARITY.name
    return unit if item.multiples == 1 else f"{item.multiples} {unit}s"
