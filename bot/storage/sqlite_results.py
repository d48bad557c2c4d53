"""Results and ratings on SQLite (a part of :class:`bot.storage.sqlite.SqliteStorage`)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Mapping, Sequence
from typing import Any

import aiosqlite

from bot.after_game.game_result import GameResult
from bot.after_game.ratings import Rating
from bot.model.outbox import Intent
from bot.storage import results_rows as q
from bot.storage.rows import INSERT_OUTBOX, intent_values


class SqliteResultsMixin(q.ResultsReadsMixin):
    """The results half of the SQLite back end (see :class:`bot.storage.base.Storage`)."""

    _lock: asyncio.Lock

    @property
    def db(self) -> aiosqlite.Connection:
        """The open connection (:class:`bot.storage.sqlite.SqliteStorage` provides it)."""
        raise NotImplementedError

    async def _rows(self, query: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        async with self._lock, self.db.execute(query, list(params)) as cursor:
            return [tuple(row) for row in await cursor.fetchall()]

    async def save_result(
        self,
        result: GameResult,
        rate: q.RateFunction | None = None,
        intents: Sequence[Intent] = (),
    ) -> bool:
        """Store ``result`` and, with ``rate``, its players' new ratings, and the posts it
        owes (``intents``) in one transaction.

        False (nothing changed) if the table already has a result.
        """
        async with self._lock:
            return bool(await self.db._execute(self._save_result_now, result, rate, intents))

    def _save_result_now(
        self, result: GameResult, rate: q.RateFunction | None, intents: Sequence[Intent]
    ) -> bool:
        conn: sqlite3.Connection = self.db._conn
        conn.execute("BEGIN IMMEDIATE")  # also orders the ratings of concurrent results
        try:
            cursor = conn.execute(q.INSERT_RESULT, q.result_values(result))
            if cursor.rowcount != 1:
                conn.execute("ROLLBACK")
                return False
            assert cursor.lastrowid is not None
            before: dict[str, Rating] = {}
            after: Mapping[str, Rating] = {}
            if rate is not None and q.players_of(result):
                query, params = q.ratings_of_query(
                    result.guild_id, result.game, q.players_of(result)
                )
                before = {r.player: r for r in map(q.rating_from_row, conn.execute(query, params))}
                after = rate(before)
                conn.executemany(
                    q.UPSERT_RATING, q.all_rating_values({(result.guild_id, result.game): after})
                )
            rows = q.player_rows(result, cursor.lastrowid, before, after)
            conn.executemany(q.INSERT_PLAYER, rows)
            now = time.time()
            conn.executemany(INSERT_OUTBOX, [intent_values(i, now) for i in intents])
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return True

    async def mark_posted(self, table_id: int) -> None:
        """Note that the table's results post reached Discord."""
        async with self._lock:
            await self.db.execute(q.MARK_POSTED, (table_id,))

    async def replace_ratings(
        self, ratings: Mapping[tuple[int, str], Mapping[str, Rating]], guild_id: int | None
    ) -> None:
        """Put ``ratings`` in place of every stored rating (of one guild), atomically."""
        rows = q.all_rating_values(ratings)
        async with self._lock:
            await self.db._execute(self._replace_ratings_now, rows, guild_id)

    def _replace_ratings_now(self, rows: list[list[Any]], guild_id: int | None) -> None:
        conn: sqlite3.Connection = self.db._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            if guild_id is None:
                conn.execute("DELETE FROM ratings")
            else:
                conn.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
            conn.executemany(q.UPSERT_RATING, rows)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
