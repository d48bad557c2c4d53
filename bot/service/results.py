"""Results: what the table service keeps of finished games, and the queries about them.

When a commit finishes a game (:meth:`Results.committed`, a commit hook of the store), the
table's public history is rebuilt from the stored log (:mod:`bot.after_game.replay`), its
:class:`~bot.after_game.game_result.GameResult` made and stored with the players' new ratings
in one transaction. A crash between the last move and the result is healed at start-up
(:meth:`Results.recover`); storing a result twice is refused by storage, so it is never rated
twice. Owns the public histories of the last few finished tables (records and replays ask
for them again and again), and answers ``/stats``, ``/leaderboard`` and ``/history``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.after_game.game_result import GameResult, build_result
from bot.after_game.ratings import Rating, rate_result, rebuild
from bot.after_game.records import make_record
from bot.after_game.replay import PublicStep, public_steps
from bot.after_game.standings import HistoryPage, Leaderboard, PlayerStats, user_player
from bot.model.outbox import NOTICE, RESULTS, Intent
from bot.model.table import LogEntry, Phase, TableNotFound, TableRecord, WrongPhase
from bot.service.games import Games
from bot.storage.base import Storage

log = logging.getLogger(__name__)

#: How many finished tables' public histories stay in memory for replays and records.
_HISTORIES_KEPT = 8


class Results:
    """Results, ratings and the queries of ``/stats``, ``/leaderboard`` and ``/history``;
    public histories of finished tables for records and replays."""

    def __init__(self, storage: Storage, games: Games) -> None:
        self._storage = storage
        self._games = games
        self._histories: dict[int, tuple[Mapping[str, Any], tuple[PublicStep, ...]]] = {}

    async def _record_result(self, record: TableRecord) -> GameResult | None:
        """Make and store the result of the finished table ``record`` (once)."""
        entries = await self._storage.load_log(record.id)
        module = self._games.of(record)

        def build() -> GameResult:
            first, steps = public_steps(module, record, entries)
            return build_result(record, first, steps, record.updated_at)

        # Replaying a long game takes a few dozen milliseconds: not on the event loop.
        result = await asyncio.to_thread(build)
        # The results post and the channel's notice are owed from the moment the result is
        # stored, in the same transaction (the outbox): a crash cannot lose nor double them.
        intents = (
            Intent(record.id, record.guild_id, RESULTS, f"results:{record.id}"),
            Intent(record.id, record.guild_id, NOTICE, f"notice:{record.id}"),
        )
        stored = await self._storage.save_result(
            result, functools.partial(rate_result, result), intents
        )
        return result if stored else await self._storage.load_result(record.id)

    async def committed(self, record: TableRecord, entries: Sequence[LogEntry]) -> None:
        """After a commit: the result of a game this commit finished (a commit hook)."""
        if record.phase == Phase.FINISHED and entries:
            await self._finished(record)

    async def _finished(self, record: TableRecord) -> None:
        """The result of a finished game, stored; never its failure."""
        try:
            await self._record_result(record)
        except Exception:  # the game is stored; recover() tries again at start-up
            log.exception("could not store the result of table %s", record.id)

    async def result(self, table_id: int) -> GameResult | None:
        """The result of a finished table (made now if it is missing), else None."""
        found = await self._storage.load_result(table_id)
        if found is not None:
            return found
        record = await self._storage.load_table(table_id)
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
        record = await self._storage.load_table(table_id)
        if record is None:
            raise TableNotFound(table=table_id)
        if record.phase != Phase.FINISHED:
            raise WrongPhase("error.replay_finished_only")
        cached = self._histories.get(table_id)
        if cached is not None:
            return record, cached[0], cached[1]
        entries = await self._storage.load_log(table_id)
        module = self._games.of(record)

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
        return await self._storage.rating_changes(table_id)

    async def recover(self, owns_guild: Callable[[int], bool]) -> int:
        """Store the results of finished tables that have none (of the guilds ``owns_guild``
        accepts); how many were missing."""
        missing = await self._storage.finished_without_result()
        for table_id in missing:
            record = await self._storage.load_table(table_id)
            if record is not None and owns_guild(record.guild_id):
                await self._finished(record)
        return len(missing)

    async def rebuild_ratings(
        self, guild_id: int | None = None
    ) -> dict[tuple[int, str], dict[str, Rating]]:
        """Recompute every rating (of one guild) from the stored results and store them."""
        ratings = rebuild(await self._storage.all_results(guild_id))
        await self._storage.replace_ratings(ratings, guild_id)
        return ratings

    async def leaderboard(
        self, guild_id: int, game: str, user_id: int | None = None, limit: int = 10
    ) -> Leaderboard:
        """The top ``limit`` of ``game`` on the guild, and ``user_id``'s place."""
        self._games.module_or_refuse(game)
        top = await self._storage.leaderboard(guild_id, game, limit)
        mine = None
        if user_id is not None:
            mine = await self._storage.rating(guild_id, game, user_player(user_id))
        return Leaderboard(game, tuple(top), mine)

    async def stats(
        self, guild_id: int, user_id: int, game: str | None = None, recent: int = 5
    ) -> PlayerStats:
        """A member's ratings (in ``game`` or every game) and latest results on the guild."""
        if game is not None:
            self._games.module_or_refuse(game)
        player = user_player(user_id)
        ratings = await self._storage.ratings_of(guild_id, player)
        if game is not None:
            ratings = {g: r for g, r in ratings.items() if g == game}
        latest = await self._storage.history(guild_id, player=player, game=game, limit=recent)
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
            self._games.module_or_refuse(game)
        page = max(0, page)
        player = None if user_id is None else user_player(user_id)
        found = await self._storage.history(
            guild_id, player=player, game=game, limit=per_page + 1, offset=page * per_page
        )
        return HistoryPage(tuple(found[:per_page]), page, len(found) > per_page)
