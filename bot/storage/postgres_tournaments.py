"""Tournaments on PostgreSQL (a part of :class:`bot.storage.postgres.PostgresStorage`)."""

from __future__ import annotations

import asyncpg

from bot.model.table import TableRecord
from bot.storage import tournament_rows as q
from bot.storage.rows import INSERT_TABLE, numbered, table_values
from bot.tournament.record import TournamentRecord
from bot.tournament.season import Season


class PostgresTournamentsMixin:
    """The tournaments part of the PostgreSQL back end (see :class:`bot.storage.base.Storage`)."""

    pool: asyncpg.Pool

    async def create_tournament(self, record: TournamentRecord) -> int:
        """Insert a tournament and return its id."""
        return int(
            await self.pool.fetchval(numbered(q.INSERT) + " RETURNING id", *q.values(record))
        )

    async def load_tournament(self, tournament_id: int) -> TournamentRecord | None:
        """The tournament, or None."""
        row = await self.pool.fetchrow(q.SELECT + " WHERE id = $1", tournament_id)
        return None if row is None else q.from_row(tuple(row.values()))

    async def save_tournament(self, record: TournamentRecord, expected_version: int) -> bool:
        """Store ``record`` if the stored version is still ``expected_version``."""
        status = await self.pool.execute(
            numbered(q.UPDATE), *q.update_values(record, expected_version)
        )
        return bool(status == "UPDATE 1")

    async def list_tournaments(
        self, guild_id: int | None = None, active: bool = True
    ) -> list[TournamentRecord]:
        """Tournaments of a guild (or every guild), oldest first."""
        query, params = q.list_query(guild_id, active)
        rows = await self.pool.fetch(numbered(query), *params)
        return [q.from_row(tuple(row.values())) for row in rows]

    async def create_tournament_table(
        self, record: TableRecord, tournament_id: int, round_number: int, slot: int
    ) -> tuple[int, bool]:
        """The table of a tournament's round and slot: inserted with its link in one
        transaction, or the one already linked. Returns (table id, created)."""
        async with self.pool.acquire() as conn, conn.transaction():
            # Two processes opening the same slot: the second waits here, then finds the link.
            await conn.execute(
                "SELECT pg_advisory_xact_lock($1)",
                (tournament_id * 1009 + round_number) % (1 << 62),
            )
            found = await conn.fetchval(numbered(q.SELECT_LINK), tournament_id, round_number, slot)
            if found is not None:
                return int(found), False
            table_id = await conn.fetchval(
                numbered(INSERT_TABLE) + " RETURNING id", *table_values(record)
            )
            await conn.execute(numbered(q.INSERT_LINK), tournament_id, round_number, slot, table_id)
        return int(table_id), True

    async def tournament_tables(self, tournament_id: int) -> dict[tuple[int, int], int]:
        """The tables a tournament opened: (round, slot) -> table id."""
        rows = await self.pool.fetch(numbered(q.SELECT_LINKS), tournament_id)
        return {(int(r[0]), int(r[1])): int(r[2]) for r in rows}

    async def create_season(self, season: Season) -> int:
        """Insert a season and return its id."""
        query = numbered(q.INSERT_SEASON) + " RETURNING id"
        return int(await self.pool.fetchval(query, *q.season_values(season)))

    async def list_seasons(self, guild_id: int, game: str | None = None) -> list[Season]:
        """A guild's seasons (of one game), oldest first."""
        query, params = q.seasons_query(guild_id, game)
        rows = await self.pool.fetch(numbered(query), *params)
        return [q.season_from_row(tuple(row.values())) for row in rows]
