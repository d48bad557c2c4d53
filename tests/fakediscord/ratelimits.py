"""Discord's rate limits, modelled (opt-in): per-channel message buckets and the global limit.

Discord limits each route per *major parameter*: a channel's message creates are one bucket
(5 per 5 s on Discord today), its edits and deletes others, and every bot has a global limit
(50 requests per second; interaction endpoints are exempt). Each answer carries the bucket's
``X-RateLimit-*`` headers, from which discord.py waits before it would overrun a bucket; a
request that overruns one anyway gets a 429 (``retry_after``, behind Google's load balancer
as on Discord) and is counted in :attr:`RateLimits.exceeded`.

Off by default (tests post hundreds of messages per second); turn on with
``fake.rate_limits.enable()``.
"""

from __future__ import annotations

import math
import re
from collections import deque
from dataclasses import dataclass, field

_CHANNEL_MESSAGES = re.compile(r"^/channels/(\d+)/messages(?:/\d+)?$")
#: Interaction endpoints (callbacks, and the webhook routes of interaction tokens) are not
#: bound to the global limit.
_EXEMPT = re.compile(r"^/(interactions|webhooks)/")
_NUMBERS = re.compile(r"\d+")


@dataclass
class Bucket:
    """Requests allowed per window, and the times of the recent ones."""

    limit: int
    window: float
    hits: deque[float] = field(default_factory=deque)

    def _expire(self, now: float) -> None:
        while self.hits and now - self.hits[0] >= self.window:
            self.hits.popleft()

    def retry_after(self, now: float) -> float:
        """Seconds until a request fits (0 when it fits now)."""
        self._expire(now)
        if len(self.hits) < self.limit:
            return 0.0
        return self.window - (now - self.hits[0])

    def take(self, now: float) -> tuple[int, float]:
        """Count a request; (remaining, seconds until the oldest one leaves the window)."""
        self.hits.append(now)
        return self.limit - len(self.hits), self.window - (now - self.hits[0])


@dataclass
class RateLimits:
    """The buckets of the fake's routes; see the module docstring."""

    enabled: bool = False
    per_channel: tuple[int, float] = (5, 5.0)
    global_limit: tuple[int, float] = (50, 1.0)
    buckets: dict[tuple[str, str], Bucket] = field(default_factory=dict)
    #: Requests answered with 429: (method, path).
    exceeded: list[tuple[str, str]] = field(default_factory=list)
    #: How many of those overran the global limit.
    exceeded_globally: int = 0
    #: Every request the limits applied to: (time, method, path).
    log: list[tuple[float, str, str]] = field(default_factory=list)

    def enable(
        self, per_channel: tuple[int, float] = (5, 5.0), global_limit: tuple[int, float] = (50, 1.0)
    ) -> None:
        """Model Discord's limits from now on."""
        self.enabled, self.per_channel, self.global_limit = True, per_channel, global_limit

    def check(self, method: str, path: str, now: float) -> tuple[dict[str, str], float]:
        """The headers for a request, and its ``retry_after`` (0: it may go through)."""
        if not self.enabled or _EXEMPT.match(path):
            return {}, 0.0
        keys: list[tuple[tuple[str, str], tuple[int, float]]] = [
            (("global", ""), self.global_limit)
        ]
        match = _CHANNEL_MESSAGES.match(path)
        if match is not None:
            keys.append(((method, match.group(1)), self.per_channel))
        buckets = [self.buckets.setdefault(key, Bucket(*rule)) for key, rule in keys]
        self.log.append((now, method, path))
        wait = max(b.retry_after(now) for b in buckets)
        route = buckets[-1]
        if wait > 0:
            is_global = buckets[0].retry_after(now) > 0
            self.exceeded.append((method, path))
            self.exceeded_globally += is_global
            return _headers(route, 0, wait, method, path, is_global), wait
        remaining, reset = 0, 0.0
        for bucket in buckets:
            remaining, reset = bucket.take(now)
        return _headers(route, remaining, reset, method, path, False), 0.0


def _headers(
    bucket: Bucket, remaining: int, reset_after: float, method: str, path: str, is_global: bool
) -> dict[str, str]:
    template = _NUMBERS.sub("{id}", path)
    headers = {
        "X-RateLimit-Limit": str(bucket.limit),
        "X-RateLimit-Remaining": str(max(0, remaining)),
        "X-RateLimit-Reset-After": f"{max(0.0, reset_after):.3f}",
        "X-RateLimit-Bucket": f"fake-{method}-{template}",
        "Via": "1.1 google",
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
        headers["X-RateLimit-Scope"] = "global"
    return headers


def too_many(retry_after: float, is_global: bool) -> dict[str, object]:
    """Discord's 429 body."""
    return {
        "message": "You are being rate limited.",
        "retry_after": round(retry_after, 3),
        "global": is_global,
        "code": 0,
    }


def retry_header(retry_after: float) -> str:
    """``Retry-After`` in whole seconds, as Discord sends it."""
    return str(math.ceil(retry_after))
