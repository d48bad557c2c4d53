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


@dataclass
class Budget:
    """How much a search may do: an iteration cap and a wall-clock upper bound.

    With a cap, a search that finishes within the time is deterministic for its seed; the
    clock only ever cuts a search short (so a slow machine plays weaker, never illegally).
    """

    seconds: float
    iterations: int | None = None
    started: float = field(default_factory=time.perf_counter)

    def time_left(self, reserve: float = 0.0) -> bool:
        """Whether more than ``reserve`` seconds of the wall-clock budget are left."""
        return time.perf_counter() - self.started + reserve < self.seconds

    def allows(self, done: int) -> bool:
        """Whether iteration number ``done`` (0-based) may run."""
        if self.iterations is not None and done >= self.iterations:
            return False
        return done == 0 or self.time_left()
