"""What every bot shares: levels, seeded randomness and the search budget."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")


def check_level(level: str) -> None:
    """Raise ``ValueError`` unless ``level`` is one of :data:`LEVELS`."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")


def sub_seed(seed: int, *parts: int) -> int:
    """A seed derived from ``seed`` and ``parts``, stable across runs and platforms.

    Python's ``hash`` of tuples is salted per process only for str/bytes, but a small
    explicit mix keeps the derivation obvious and independent of the interpreter.
    """
    value = seed & 0xFFFFFFFFFFFFFFFF
    for part in parts:
        value = (value * 6364136223846793005 + (part & 0xFFFFFFFF) + 1442695040888963407) & (
            0xFFFFFFFFFFFFFFFF
        )
    return value


def rng_for(seed: int, *parts: int) -> random.Random:
    """A generator seeded from ``seed`` and ``parts``."""
    return random.Random(sub_seed(seed, *parts))


#: A search stops at this many times its CPU budget in wall-clock time even if it got less
#: CPU than that (a loaded machine): the player waits at most this much longer.
WALL_FACTOR = 3.0


@dataclass
class Budget:
    """How much a search may do: an iteration cap and a CPU-time upper bound.

    The clock is the CPU time of the searching thread (:func:`time.thread_time`), so a bot
    thinks as well on a busy machine as on an idle one (other threads and processes do not
    eat its budget); the wall clock still stops it at :data:`WALL_FACTOR` times the budget.
    With a cap, a search that finishes within the time is deterministic for its seed; the
    clocks only ever cut a search short (so a slow machine plays weaker, never illegally).
    """

    seconds: float
    iterations: int | None = None
    started: float = field(default_factory=time.thread_time)
    wall_started: float = field(default_factory=time.perf_counter)

    def spent(self) -> float:
        """CPU seconds this search has used so far."""
        return time.thread_time() - self.started

    def time_left(self, reserve: float = 0.0) -> bool:
        """Whether more than ``reserve`` seconds of the budget are left (CPU and wall)."""
        if time.perf_counter() - self.wall_started >= WALL_FACTOR * self.seconds:
            return False
        return self.spent() + reserve < self.seconds

    def allows(self, done: int) -> bool:
        """Whether iteration number ``done`` (0-based) may run."""
        if self.iterations is not None and done >= self.iterations:
            return False
        return done == 0 or self.time_left()
