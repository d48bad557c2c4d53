"""What storage keeps of a tournament: where it runs, its phase and version, its setup and its
pure state (:class:`~bot.tournament.model.Tournament`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any

from bot.tournament.model import Tournament


class TournamentPhase(enum.StrEnum):
    """Where a tournament is in its life."""

    SIGNUP = "signup"  # the sign-up post takes Join / Leave
    CLOSED = "closed"  # sign-up closed, waiting for the start
    RUNNING = "running"  # rounds open by themselves
    PAUSED = "paused"  # the host paused: the next round waits
    FINISHED = "finished"
    CANCELLED = "cancelled"


#: The phases in which a tournament still needs its owner process.
ACTIVE_TOURNAMENT_PHASES: tuple[str, ...] = (
    str(TournamentPhase.SIGNUP),
    str(TournamentPhase.CLOSED),
    str(TournamentPhase.RUNNING),
    str(TournamentPhase.PAUSED),
)


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A stored tournament. ``version`` grows by one on every change; storage refuses a write
    whose expected version is not the stored one, so a round is recorded once even when two
    processes (or a restarted one) try. ``setup`` holds the game options, turn clock, bots
    allowed, start time, team sign-ups waiting for a partner and the sign-up post's id."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    game: str
    state: Tournament
    phase: TournamentPhase = TournamentPhase.SIGNUP
    version: int = 1
    setup: dict[str, Any] = field(default_factory=dict)
    created_at: float = 0.0
    updated_at: float = 0.0

    def with_changes(self, **changes: Any) -> TournamentRecord:
        """A copy with ``changes`` applied."""
        return replace(self, **changes)

    @property
    def active(self) -> bool:
        """True until the tournament is finished or cancelled."""
        return str(self.phase) in ACTIVE_TOURNAMENT_PHASES
