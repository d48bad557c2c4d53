"""Time for the turn clock, injectable so tests never sleep for real."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    """A source of wall time (seconds since the epoch) that can be slept on."""

    def now(self) -> float:
        """The current time in seconds since the epoch."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (or until the clock is moved past that point)."""
        ...


class SystemClock:
    """The real clock: deadlines survive restarts because they are wall times."""

    def now(self) -> float:
        """``time.time()``."""
        return time.time()

    async def sleep(self, seconds: float) -> None:
        """``asyncio.sleep``."""
        await asyncio.sleep(max(0.0, seconds))


class FakeClock:
    """A clock that only moves when a test calls :meth:`advance`."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        """The fake current time."""
        return self._now

    async def sleep(self, seconds: float) -> None:
        """Wait until :meth:`advance` moves the clock ``seconds`` on."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self._now + seconds, future))
        await future

    def advance(self, seconds: float) -> None:
        """Move the clock on and wake every sleeper whose time has come."""
        self._now += seconds
        waiting = []
        for wake_at, future in self._sleepers:
            if wake_at <= self._now:
                if not future.done():
                    future.set_result(None)
            else:
                waiting.append((wake_at, future))
        self._sleepers = waiting
