"""Quotas per client address on what anyone may do without a token: creating a match and
importing one. Counted in this process's memory with the `limits` library (a moving
window: at most N in any window of the period); past a quota the answer is 429 with
`Retry-After`, before the body is read, and nothing is appended. A route whose cost is
known only once it runs (a replay file: served from the cache or written), or that counts
per seat of a match (what a seat writes beside the match's log: its annotations), counts
in a `Quota` of its own, per key (a client address, a match, a match and a seat), and
raises `TooManyRequests`."""

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


class TooManyRequests(DomainError):
    """Past a quota: 429, with `Retry-After` (`retry_after` seconds)."""

    status = 429
    title = "Too many requests"

    def __init__(self, detail: str, *, retry_after: int, rule: str = "core-quotas") -> None:
        super().__init__(detail, rule=rule)
        self.retry_after = retry_after


class Quota:
    """One quota a route counts itself, per key: `rate` in the `limits` notation, or "off";
    `what` names what it counts, in the refusal (which names `rule`)."""

    def __init__(self, rate: str, what: str, rule: str = "core-quotas") -> None:
        self.items = [] if rate.strip().lower() == "off" else list(parse_many(rate))
        self.what, self.rule = what, rule
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def spend(self, *key: str | None) -> None:
        """Count one for `key` (its parts: a client address; a match and a seat; None: not
        counted); TooManyRequests when past the quota, counting nothing."""
        if not key or None in key:
            return
        parts = [str(part) for part in key]
        for item in self.items:
            if not self.limiter.test(item, self.what, *parts):
                wait = _wait(self.limiter, item, self.what, *parts)
                raise TooManyRequests(f"at most {item.amount} {self.what} per "
                                      f"{_period(item)}; try again in {wait} s",
                                      retry_after=wait, rule=self.rule)
        for item in self.items:
            self.limiter.hit(item, self.what, *parts)


def _wait(limiter: MovingWindowRateLimiter, item: RateLimitItem, *keys: str) -> int:
    """Seconds until `item`'s window for `keys` has room again (at least 1)."""
    reset = limiter.get_window_stats(item, *keys).reset_time
    return max(1, math.ceil(reset - time.time()))


def _period(item: RateLimitItem) -> str:
    unit = item.GRANULARITY.name
    return unit if item.multiples == 1 else f"{item.multiples} {unit}s"
