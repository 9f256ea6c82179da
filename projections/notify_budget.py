"""Budgets of outbound notices and registrations: at most so many in any moving window,
per match and per the address its match was created from, counted with the `limits`
library (as `api.quotas` counts anonymous creations). A budget is written in the `limits`
notation ("200/hour;1000/day", several joined by ";"), or "off".

(ours) The counts are kept in the memory of the process that spends them (the one that
runs the outbox, or the API process for registrations): a restart starts them afresh, and
with several processes each one counts what it made. That bounds what a stranger can make
the server send at the cost of no shared counter to keep."""

from __future__ import annotations

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter


def rates(value: str) -> list[RateLimitItem]:
    """The windows of a budget ("off": none)."""
    value = value.strip()
    return [] if value.lower() == "off" else list(parse_many(value))


class Budget:
    """A budget per match and one per creating address."""

    def __init__(self, per_match: str = "off", per_creator: str = "off") -> None:
        self.per = {"match": rates(per_match), "creator": rates(per_creator)}
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def spend(self, match_id: str, creator: str | None) -> bool:
        """Count one against the match's and its creator's budgets if both have room
        (True); else count nothing (False)."""
        keys = {"match": match_id, "creator": creator}
        items = [(item, kind, key) for kind, key in keys.items() if key
                 for item in self.per[kind]]
        if not all(self.limiter.test(item, kind, key) for item, kind, key in items):
            return False
        for item, kind, key in items:
            self.limiter.hit(item, kind, key)
        return True
