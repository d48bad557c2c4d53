"""Fault injection: queued 429s and 5xx answers for chosen routes."""

from __future__ import annotations

import asyncio
import fnmatch
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: A further condition on a request, on its path and its payload (e.g. only the posts that
#: make a public message in one thread, whichever route they take: FakeDiscord.posts_in).
Only = Callable[[str, Any], bool]


@dataclass
class Fault:
    """One canned error answer for requests matching `method` and the glob `path`.

    `path` is matched against the path after `/api/v10`, e.g. "/channels/*/messages" or
    "/interactions/*"; `*` matches across slashes (fnmatch semantics).
    """

    method: str
    path: str
    status: int
    body: dict[str, Any] | str
    headers: dict[str, str] = field(default_factory=dict)
    #: When set, the request hangs until the event is set, then gets the error (a Discord
    #: that stalls: lets a test kill the bot while it waits for its post).
    hold: asyncio.Event | None = None
    #: Only the requests this also accepts (None: every one the method and path match).
    only: Only | None = None

    def matches(self, method: str, path: str, payload: Any = None) -> bool:
        """Whether this fault applies to a request."""
        return (
            self.method in ("*", method)
            and fnmatch.fnmatchcase(path, self.path)
            and (self.only is None or self.only(path, payload))
        )


def rate_limit(
    method: str, path: str, retry_after: float = 0.05, *, is_global: bool = False
) -> Fault:
    """A 429 as Discord sends it behind Google's load balancer (discord.py checks `Via`)."""
    headers = {
        "Retry-After": str(math.ceil(retry_after)),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Bucket": "fakebucket" + str(abs(hash(path)) % 10_000),
        "X-RateLimit-Scope": "global" if is_global else "user",
        "Via": "1.1 google",
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    body = {
        "message": "You are being rate limited.",
        "retry_after": retry_after,
        "global": is_global,
        "code": 0,
    }
    return Fault(method, path, 429, body, headers)


def server_error(method: str, path: str, status: int = 500) -> Fault:
    """A 5xx answer (discord.py retries 500/502/504/524 after 1 s and raises on others)."""
    body: dict[str, Any] | str = (
        {"message": "500: Internal Server Error", "code": 0}
        if status == 500
        else "<html><body>upstream error</body></html>"
    )
    return Fault(method, path, status, body)


class FaultQueue:
    """FIFO of faults; each matching request consumes the first fault that matches it."""

    def __init__(self) -> None:
        self.pending: list[Fault] = []
        self.fired: list[tuple[str, str, int]] = []
        self.stalls: list[tuple[str, str, asyncio.Event, Only | None]] = []
        #: Requests that take effect and are then answered with a 5xx: (method, glob, status).
        self.after_effect: list[tuple[str, str, int]] = []

    def add(self, fault: Fault, times: int = 1) -> None:
        """Queue `fault` for the next `times` matching requests."""
        self.pending += [fault] * times

    def stall_answer(
        self, method: str, path: str, until: asyncio.Event, only: Only | None = None
    ) -> None:
        """Let the next matching request take effect, but hold its answer until ``until`` is
        set: the bot can be killed after Discord did what it asked and before it heard so."""
        self.stalls.append((method, path, until, only))

    def fail_after_effect(self, method: str, path: str, status: int = 500) -> None:
        """Let the next matching request take effect, then answer it with ``status``: Discord
        made the message but the bot hears of a server error (a retry would make two)."""
        self.after_effect.append((method, path, status))

    def take_after_effect(self, method: str, path: str) -> Fault | None:
        """The error that answers this request after it took effect (:meth:`fail_after_effect`)."""
        for i, (m, glob, status) in enumerate(self.after_effect):
            if m in ("*", method) and fnmatch.fnmatchcase(path, glob):
                del self.after_effect[i]
                self.fired.append((method, path, status))
                return server_error(method, path, status)
        return None

    def take_stall(self, method: str, path: str, payload: Any = None) -> asyncio.Event | None:
        """The event holding this request's answer (:meth:`stall_answer`), if any."""
        for i, (m, glob, until, only) in enumerate(self.stalls):
            if m in ("*", method) and fnmatch.fnmatchcase(path, glob):
                if only is not None and not only(path, payload):
                    continue
                del self.stalls[i]
                return until
        return None

    def take(self, method: str, path: str, payload: Any = None) -> Fault | None:
        """Pop the first fault matching this request, if any."""
        for i, fault in enumerate(self.pending):
            if fault.matches(method, path, payload):
                del self.pending[i]
                self.fired.append((method, path, fault.status))
                return fault
        return None
