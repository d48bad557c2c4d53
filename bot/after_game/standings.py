"""The pages of ``/leaderboard``, ``/stats`` and ``/history``: ratings and results as a
reader asks for them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.after_game.game_result import GameResult
from bot.after_game.ratings import Rating


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """The top of a game's ratings on a server, and the asker's own place (if rated)."""

    game: str
    top: tuple[Rating, ...]
    mine: tuple[int, Rating] | None = None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's ratings per game on a server and their latest results there."""

    player: str
    ratings: Mapping[str, Rating]
    recent: tuple[GameResult, ...]


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """One page of finished tables, newest first; ``more`` when an older page exists."""

    results: tuple[GameResult, ...]
    page: int
    more: bool


def user_player(user_id: int) -> str:
    """The rating key of a person."""
    return f"u:{user_id}"
