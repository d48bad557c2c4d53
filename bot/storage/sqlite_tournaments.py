"""Tournaments on SQLite (a part of :class:`bot.storage.sqlite.SqliteStorage`)."""

from __future__ import annotations

import asyncio
import sqlite3

import aiosqlite

from bot.model.table import TableRecord
from bot.storage import tournament_rows as q
from bot.storage.rows import INSERT_TABLE, table_values
from bot.tournament.record import TournamentRecord
from bot.tournament.season import Season


class SqliteTournamentsMixin:
    """The tournaments part of the SQLite back end (see :class:`bot.storage.base.Storage`)."""

    _lock: asyncio.Lock

    @property
    def db(self) -> aiosqlite.Connection:
        """The open connection (:class:`bot.storage.sqlite.SqliteStorage` provides it)."""
        raise NotImplementedError

    async def create_tournament(self, record: TournamentRecord) -> int:
        """Insert a tournament and return its id."""
        async with self._lock:
            cursor = await self.db.execute(q.INSERT, q.values(record))
        assert cursor.lastrowid is not None
        return int(cursor.lastrowid)

    async def load_tournament(self, tournament_id: int) -> TournamentRecord | None:
        """The tournament, or None."""
        async with self._lock, self.db.execute(q.SELECT + " WHERE id = ?", (tournament_id,)) as c:
            row = await c.fetchone()
        return None if row is None else q.from_row(tuple(row))

    async def save_tournament(self, record: TournamentRecord, expected_version: int) -> bool:
        """Store ``record`` if the stored version is still ``expected_version``."""
        async with self._lock:
            cursor = await self.db.execute(q.UPDATE, q.update_values(record, expected_version))
        return cursor.rowcount == 1

    async def list_tournaments(
        self, guild_id: int | None = None, active: bool = True
    ) -> list[TournamentRecord]:
        """Tournaments of a guild (or every guild), oldest first."""
        query, params = q.list_query(guild_id, active)
        async with self._lock, self.db.execute(query, params) as cursor:
            rows = await cursor.fetchall()
        return [q.from_row(tuple(row)) for row in rows]

    async def create_tournament_table(
        self, record: TableRecord, tournament_id: int, round_number: int, slot: int
    ) -> tuple[int, bool]:
        """The table of a tournament's round and slot: inserted with its link in one
        transaction, or the one already linked. Returns (table id, created)."""
        async with self._lock:
            found: tuple[int, bool] = await self.db._execute(
                self._create_linked_now, record, tournament_id, round_number, slot
            )
        return found

    def _create_linked_now(
        self, record: TableRecord, tournament_id: int, round_number: int, slot: int
    ) -> tuple[int, bool]:
        conn: sqlite3.Connection = self.db._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            row = conn.execute(q.SELECT_LINK, (tournament_id, round_number, slot)).fetchone()
            if row is not None:
                conn.execute("ROLLBACK")
                return int(row[0]), False
            cursor = conn.execute(INSERT_TABLE, table_values(record))
            assert cursor.lastrowid is not None
            conn.execute(q.INSERT_LINK, (tournament_id, round_number, slot, cursor.lastrowid))
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return int(cursor.lastrowid), True

    async def tournament_tables(self, tournament_id: int) -> dict[tuple[int, int], int]:
        """The tables a tournament opened: (round, slot) -> table id."""
        async with self._lock, self.db.execute(q.SELECT_LINKS, (tournament_id,)) as cursor:
            rows = await cursor.fetchall()
        return {(int(r[0]), int(r[1])): int(r[2]) for r in rows}

    async def create_season(self, season: Season) -> int:
        """Insert a season and return its id."""
        async with self._lock:
            cursor = await self.db.execute(q.INSERT_SEASON, q.season_values(season))
        assert cursor.lastrowid is not None
        return int(cursor.lastrowid)

    async def list_seasons(self, guild_id: int, game: str | None = None) -> list[Season]:
        """A guild's seasons (of one game), oldest first."""
        query, params = q.seasons_query(guild_id, game)
        async with self._lock, self.db.execute(query, params) as cursor:
            rows = await cursor.fetchall()
        return [q.season_from_row(tuple(row)) for row in rows]
