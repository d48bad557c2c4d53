"""After the game: the table service's results, ratings, history and stats.

When a commit finishes a game, :meth:`ResultsMixin._record_result` rebuilds the table's public
history from the stored log (:mod:`bot.replay`), makes its :class:`~bot.results.GameResult`
and stores it with the players' new ratings in one transaction. A crash between the last move
and the result is healed at start-up (:meth:`ResultsMixin.recover_results`); storing a result
twice is refused by storage, so it is never rated twice.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.ratings import Rating, rate_result, rebuild
from bot.records import make_record
from bot.replay import PublicStep, public_steps
from bot.results import GameResult, build_result
from bot.table_core import TableCore
from bot.table_model import Phase, TableNotFound, TableRecord, WrongPhase

log = logging.getLogger(__name__)

#: How many finished tables' public histories stay in memory for replays and records.
_HISTORIES_KEPT = 8


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


class ResultsMixin(TableCore):
    """Results, ratings and the queries of ``/stats``, ``/leaderboard`` and ``/history``;
    public histories of finished tables for records and replays."""

    _histories: dict[int, tuple[Mapping[str, Any], tuple[PublicStep, ...]]]

    async def _record_result(self, record: TableRecord) -> GameResult | None:
        """Make and store the result of the finished table ``record`` (once)."""
        entries = await self.storage.load_log(record.id)
        module = self.load_game(record.game)

        def build() -> GameResult:
            first, steps = public_steps(module, record, entries)
            return build_result(record, first, steps, record.updated_at)

        # Replaying a long game takes a few dozen milliseconds: not on the event loop.
        result = await asyncio.to_thread(build)
        stored = await self.storage.save_result(result, functools.partial(rate_result, result))
        return result if stored else await self.storage.load_result(record.id)

    async def _finished(self, record: TableRecord) -> None:
        """Called after the commit that finished a game: its result, never its failure."""
        try:
            await self._record_result(record)
        except Exception:  # the game is stored; recover_results() tries again at start-up
            log.exception("could not store the result of table %s", record.id)

    async def result(self, table_id: int) -> GameResult | None:
        """The result of a finished table (made now if it is missing), else None."""
        found = await self.storage.load_result(table_id)
        if found is not None:
            return found
        record = await self.storage.load_table(table_id)
        if record is None:
            raise TableNotFound(table=table_id)
        if record.phase != Phase.FINISHED:
            return None
        return await self._record_result(record)

    async def public_history(
        self, table_id: int
    ) -> tuple[TableRecord, Mapping[str, Any], tuple[PublicStep, ...]]:
        """A finished table's public history: the table, its first spectator view and every
        step as spectators saw it (what records and replays are made of)."""
        record = await self.storage.load_table(table_id)
        if record is None:
            raise TableNotFound(table=table_id)
        if record.phase != Phase.FINISHED:
            raise WrongPhase("error.replay_finished_only")
        cached = self._histories.get(table_id)
        if cached is not None:
            return record, cached[0], cached[1]
        entries = await self.storage.load_log(table_id)
        module = self.load_game(record.game)

        def build() -> tuple[Mapping[str, Any], tuple[PublicStep, ...]]:
            first, steps = public_steps(module, record, entries)
            return first, tuple(steps)

        first, steps = await asyncio.to_thread(build)
        self._histories[table_id] = (first, steps)
        while len(self._histories) > _HISTORIES_KEPT:
            self._histories.pop(next(iter(self._histories)))
        return record, first, steps

    async def game_record(self, table_id: int) -> dict[str, Any]:
        """The downloadable record of a finished table (public information only)."""
        record, first, steps = await self.public_history(table_id)
        result = await self.result(table_id)
        assert result is not None  # a finished table always gets one
        return make_record(record, first, steps, result)

    async def rating_changes(self, table_id: int) -> dict[str, tuple[float, float]]:
        """How a finished table moved its players' ratings: player -> (mu before, after)."""
        return await self.storage.rating_changes(table_id)

    async def recover_results(self) -> int:
        """Store the results of finished tables that have none; how many there were."""
        missing = await self.storage.finished_without_result()
        for table_id in missing:
            record = await self.storage.load_table(table_id)
            if record is not None and self.owns_guild(record.guild_id):
                await self._finished(record)
        return len(missing)

    async def rebuild_ratings(
        self, guild_id: int | None = None
    ) -> dict[tuple[int, str], dict[str, Rating]]:
        """Recompute every rating (of one guild) from the stored results and store them."""
        ratings = rebuild(await self.storage.all_results(guild_id))
        await self.storage.replace_ratings(ratings, guild_id)
        return ratings

    async def leaderboard(
        self, guild_id: int, game: str, user_id: int | None = None, limit: int = 10
    ) -> Leaderboard:
        """The top ``limit`` of ``game`` on the guild, and ``user_id``'s place."""
        self._module_or_error(game)
        top = await self.storage.leaderboard(guild_id, game, limit)
        mine = None
        if user_id is not None:
            mine = await self.storage.rating(guild_id, game, user_player(user_id))
        return Leaderboard(game, tuple(top), mine)

    async def stats(
        self, guild_id: int, user_id: int, game: str | None = None, recent: int = 5
    ) -> PlayerStats:
        """A member's ratings (in ``game`` or every game) and latest results on the guild."""
        if game is not None:
            self._module_or_error(game)
        player = user_player(user_id)
        ratings = await self.storage.ratings_of(guild_id, player)
        if game is not None:
            ratings = {g: r for g, r in ratings.items() if g == game}
        latest = await self.storage.history(guild_id, player=player, game=game, limit=recent)
        return PlayerStats(player, ratings, tuple(latest))

    async def finished_tables(
        self,
        guild_id: int,
        user_id: int | None = None,
        game: str | None = None,
        page: int = 0,
        per_page: int = 5,
    ) -> HistoryPage:
        """One page of the guild's finished tables (or a member's), newest first."""
        if game is not None:
            self._module_or_error(game)
        page = max(0, page)
        player = None if user_id is None else user_player(user_id)
        found = await self.storage.history(
            guild_id, player=player, game=game, limit=per_page + 1, offset=page * per_page
        )
        return HistoryPage(tuple(found[:per_page]), page, len(found) > per_page)
