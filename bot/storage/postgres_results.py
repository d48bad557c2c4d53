"""Results and ratings on PostgreSQL (a part of :class:`bot.storage.postgres.PostgresStorage`)."""

from __future__ import annotations

import time
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

import asyncpg

from bot.after_game.game_result import GameResult
from bot.after_game.ratings import Rating
from bot.model.outbox import Intent
from bot.storage import results_rows as q
from bot.storage.rows import INSERT_OUTBOX, intent_values, numbered


def _rating_lock(guild_id: int, game: str) -> int:
    """The advisory lock that orders the results of one game on one guild across processes."""
    return (guild_id * 31 + zlib.crc32(game.encode())) % (1 << 62)


class PostgresResultsMixin(q.ResultsReadsMixin):
    """The results half of the PostgreSQL back end (see :class:`bot.storage.base.Storage`)."""

    pool: asyncpg.Pool

    async def _rows(self, query: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        return [tuple(row.values()) for row in await self.pool.fetch(numbered(query), *params)]

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
        async with self.pool.acquire() as conn, conn.transaction():
            # Results of one guild's game are rated one after the other, in id order.
            await conn.execute(
                "SELECT pg_advisory_xact_lock($1)", _rating_lock(result.guild_id, result.game)
            )
            result_id = await conn.fetchval(
                numbered(q.INSERT_RESULT) + " RETURNING id", *q.result_values(result)
            )
            if result_id is None:
                return False
            players = q.players_of(result)
            before: dict[str, Rating] = {}
            after: Mapping[str, Rating] = {}
            if rate is not None and players:
                query, params = q.ratings_of_query(result.guild_id, result.game, players)
                rows = await conn.fetch(numbered(query), *params)
                before = {r.player: r for r in (q.rating_from_row(tuple(x.values())) for x in rows)}
                after = rate(before)
                values = q.all_rating_values({(result.guild_id, result.game): after})
                await conn.executemany(numbered(q.UPSERT_RATING), values)
            await conn.executemany(
                numbered(q.INSERT_PLAYER), q.player_rows(result, result_id, before, after)
            )
            if intents:
                now = time.time()
                await conn.executemany(
                    numbered(INSERT_OUTBOX), [intent_values(i, now) for i in intents]
                )
        return True

    async def mark_posted(self, table_id: int) -> None:
        """Note that the table's results post reached Discord."""
        await self.pool.execute(numbered(q.MARK_POSTED), table_id)

    async def replace_ratings(
        self, ratings: Mapping[tuple[int, str], Mapping[str, Rating]], guild_id: int | None
    ) -> None:
        """Put ``ratings`` in place of every stored rating (of one guild), atomically."""
        rows = q.all_rating_values(ratings)
        async with self.pool.acquire() as conn, conn.transaction():
            if guild_id is None:
                await conn.execute("DELETE FROM ratings")
            else:
                await conn.execute("DELETE FROM ratings WHERE guild_id = $1", guild_id)
            if rows:
                await conn.executemany(numbered(q.UPSERT_RATING), rows)
