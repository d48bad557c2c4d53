"""A process-wide pace for the publisher's requests, under Discord's global rate limit.

Discord allows a bot about 50 requests per second across every route (interaction endpoints
apart) and tells of that limit only with a 429; discord.py paces each route's bucket from the
headers but learns of the global one only from the 429 itself. Many busy tables posting and
editing their digests at once could run into it; the publisher therefore takes its turn here
before each thread post, edit or delete, at a rate a little under the limit. Idle most of the
time: a wait happens only in a burst.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable

#: Requests per second the publisher allows itself (Discord's global limit is 50; the rest
#: of the bot needs a share too).
RATE = 40


class Pace:
    """At most ``rate`` turns in any second (a sliding window)."""

    def __init__(self, rate: int = RATE, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self._clock = clock
        self._recent: deque[float] = deque()
        self._lock = asyncio.Lock()

    async def turn(self) -> None:
        """Wait until one more request fits in the window, and count it."""
        async with self._lock:
            while True:
                now = self._clock()
                while self._recent and now - self._recent[0] >= 1.0:
                    self._recent.popleft()
                if len(self._recent) < self.rate:
                    self._recent.append(now)
                    return
                await asyncio.sleep(1.0 - (now - self._recent[0]))
