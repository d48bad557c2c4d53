"""Seasons: a game's leaderboard over a stretch of time, beside the all-time one.

A season is only its dates: its leaderboard is the ratings rebuilt from the rated results of
that game on that server finished within the season (the same rating model as the all-time
leaderboard, started afresh). A season's champion is the top of its leaderboard once it has
ended.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.after_game.ratings import Rating, rebuild
from bot.model.clock import Clock
from bot.model.table import TableError
from bot.service.games import Games
from bot.storage.base import Storage
from bot.tournament.season import Season

#: The longest season (a year and a bit): a leaderboard is rebuilt from its results.
LONGEST = 400 * 86400


class SeasonError(TableError):
    """A season request the service refuses."""

    default_key = "season.error.dates"


@dataclass(frozen=True, slots=True)
class SeasonBoard:
    """A season and its leaderboard (best first); ``over`` once it has ended."""

    season: Season
    top: tuple[Rating, ...]
    over: bool

    @property
    def champion(self) -> Rating | None:
        """The season's champion, once it is over (None before, or without a game)."""
        return self.top[0] if self.over and self.top else None


class Seasons:
    """Seasons of many guilds (see the module docstring)."""

    def __init__(self, storage: Storage, games: Games, clock: Clock) -> None:
        self._storage = storage
        self._games = games
        self._clock = clock

    async def create(
        self, guild_id: int, game: str, name: str, start_at: float, end_at: float
    ) -> Season:
        """Add a season of ``game`` (it must end after it starts, within ~13 months, and
        overlap no other season of the game)."""
        self._games.module_or_refuse(game)
        if not start_at < end_at <= start_at + LONGEST:
            raise SeasonError("season.error.dates")
        for other in await self._storage.list_seasons(guild_id, game):
            if other.start_at < end_at and start_at < other.end_at:
                raise SeasonError("season.error.overlap", name=other.name)
        season = Season(0, guild_id, game, name.strip()[:60] or game, start_at, end_at)
        season_id = await self._storage.create_season(season)
        return Season(season_id, guild_id, game, season.name, start_at, end_at)

    async def of_guild(self, guild_id: int, game: str | None = None) -> list[Season]:
        """A guild's seasons (of one game), oldest first."""
        return await self._storage.list_seasons(guild_id, game)

    async def board(self, guild_id: int, game: str, limit: int = 10) -> SeasonBoard | None:
        """The current season of ``game`` (else the latest one) and its leaderboard."""
        seasons = await self._storage.list_seasons(guild_id, game)
        if not seasons:
            return None
        now = self._clock.now()
        current = [s for s in seasons if s.holds(now)]
        started = [s for s in seasons if s.start_at <= now]
        season = (current or started or seasons)[-1]
        return await self._board(season, limit)

    async def _board(self, season: Season, limit: int) -> SeasonBoard:
        results = [
            r
            for r in await self._storage.all_results(season.guild_id)
            if r.game == season.game and r.rated and season.holds(r.finished_at)
        ]
        ratings = rebuild(results).get((season.guild_id, season.game), {})
        top = sorted(ratings.values(), key=lambda r: (-r.ordinal, r.player))[:limit]
        return SeasonBoard(season, tuple(top), self._clock.now() >= season.end_at)

    async def champions(self, guild_id: int, player: str | None = None) -> list[SeasonBoard]:
        """The ended seasons of a guild with their champion (only those ``player`` won)."""
        found = []
        now = self._clock.now()
        for season in await self._storage.list_seasons(guild_id):
            if season.end_at > now:
                continue
            board = await self._board(season, 1)
            if board.champion is not None and player in (None, board.champion.player):
                found.append(board)
        return found
