"""A season: a stretch of time over which a server ranks one game on its own leaderboard,
beside the all-time one. Plain data; the service computes its leaderboard from the results
finished within it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Season:
    """One season of ``game`` on a guild, from ``start_at`` (included) to ``end_at``
    (excluded), in seconds since the epoch."""

    id: int
    guild_id: int
    game: str
    name: str
    start_at: float
    end_at: float

    def holds(self, moment: float) -> bool:
        """Whether ``moment`` falls within the season."""
        return self.start_at <= moment < self.end_at
