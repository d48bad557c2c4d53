"""The aiosqlite back end: one connection, WAL mode, migrations at start-up."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Sequence
from typing import Any

import aiosqlite

from bot.model.table import LogEntry, Phase, TableRecord
from bot.storage import migrations
from bot.storage.log_rows import (
    APPEND_CHUNK,
    SELECT_CHUNKS,
    chunk_rows,
    entries_from_chunks,
    first_chunk,
)
from bot.storage.rows import (
    BOARD_PHASES,
    INSERT_TABLE,
    SELECT_BOARD,
    SELECT_TABLE,
    SELECT_WITHOUT_BOARD,
    SET_BOARD,
    UPDATE_TABLE,
    board_from_row,
    list_tables_query,
    record_from_row,
    table_values,
    update_values,
)
from bot.storage.sqlite_outbox import SqliteOutboxMixin
from bot.storage.sqlite_results import SqliteResultsMixin
from bot.storage.sqlite_tournaments import SqliteTournamentsMixin


class SqliteStorage(SqliteResultsMixin, SqliteTournamentsMixin, SqliteOutboxMixin):
    """:class:`bot.storage.base.Storage` on an SQLite file (or ``:memory:``).

    One connection serves the whole process; aiosqlite runs it on its own thread, so the event
    loop never blocks on the disk. Pass ``single_writer=False`` when several processes share
    the file. ``synchronous=NORMAL`` with WAL keeps every committed
    transaction across a process crash (only an OS crash could lose the last ones).
    """

    def __init__(self, path: str, *, single_writer: bool = True) -> None:
        self.path = path
        self.single_writer = single_writer
        self._db: aiosqlite.Connection | None = None
        # The one connection is shared by every coroutine: without this lock one coroutine's
        # statements could run inside another's open transaction.
        self._lock = asyncio.Lock()

    @property
    def db(self) -> aiosqlite.Connection:
        """The open connection."""
        if self._db is None:
            raise RuntimeError("storage is not open; call open() first")
        return self._db

    async def open(self) -> None:
        """Connect, switch to WAL and apply pending migrations."""
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        await self.db.execute("PRAGMA journal_mode=WAL")
        await self.db.execute("PRAGMA synchronous=NORMAL")
        await self.db.execute("PRAGMA foreign_keys=ON")
        await self.db.execute("PRAGMA busy_timeout=5000")
        await self._migrate()

    async def _migrate(self) -> None:
        await self.db.execute(migrations.SCHEMA_VERSION_TABLE)
        async with self.db.execute("SELECT MAX(version) FROM schema_version") as cursor:
            row = await cursor.fetchone()
        applied = int(row[0]) if row and row[0] is not None else 0
        for version, statements in migrations.pending(applied):
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                for statement in statements:
                    await self.db.execute(migrations.render(statement, migrations.SQLITE))
                await self.db.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")

    async def close(self) -> None:
        """Close the connection."""
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def create_table(self, record: TableRecord) -> int:
        """Insert a table row and return its id."""
        async with self._lock:
            cursor = await self.db.execute(INSERT_TABLE, table_values(record))
        assert cursor.lastrowid is not None
        return int(cursor.lastrowid)

    async def commit(
        self, record: TableRecord, expected_version: int, entries: Sequence[LogEntry] = ()
    ) -> bool:
        """Append ``entries`` and store ``record`` if the version is still ``expected_version``."""
        params = update_values(record, expected_version)
        rows = chunk_rows(record.id, entries)
        async with self._lock:
            # One hop to the connection's thread for the whole transaction instead of four:
            # the commit is the hot path of every move. aiosqlite has no public way to run a
            # callable on its thread, hence the private ``_execute``.
            return bool(await self.db._execute(self._commit_now, params, rows))

    def _commit_now(self, params: list[Any], rows: list[list[Any]]) -> bool:
        """The transaction of :meth:`commit`, run on the connection's own thread."""
        conn: sqlite3.Connection = self.db._conn
        # BEGIN IMMEDIATE takes the write lock up front, so the version check and the writes
        # are one step even against another process writing the same file.
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute(UPDATE_TABLE, params).rowcount != 1:
                conn.execute("ROLLBACK")
                return False
            if rows:
                conn.executemany(APPEND_CHUNK, rows)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return True

    async def set_thread(self, table_id: int, thread_id: int | None) -> None:
        """Record the table's thread."""
        async with self._lock:
            await self.db.execute(
                "UPDATE tables SET thread_id = ? WHERE id = ?", (thread_id, table_id)
            )

    async def load_table(self, table_id: int) -> TableRecord | None:
        """The table row, or None."""
        async with (
            self._lock,
            self.db.execute(SELECT_TABLE + " WHERE id = ?", (table_id,)) as cursor,
        ):
            row = await cursor.fetchone()
        return None if row is None else record_from_row(tuple(row))

    async def load_version(self, table_id: int) -> int | None:
        """The stored version of the table, or None."""
        async with (
            self._lock,
            self.db.execute("SELECT version FROM tables WHERE id = ?", (table_id,)) as cur,
        ):
            row = await cur.fetchone()
        return None if row is None else int(row[0])

    async def load_log(self, table_id: int, start: int = 0) -> list[LogEntry]:
        """Log entries from ``start`` on."""
        query = (table_id, first_chunk(start))
        async with self._lock, self.db.execute(SELECT_CHUNKS, query) as cursor:
            rows = await cursor.fetchall()
        return entries_from_chunks(rows, start)

    async def list_tables(
        self, guild_id: int, channel_id: int | None = None, active: bool = True
    ) -> list[TableRecord]:
        """Tables of a guild or channel, oldest first."""
        query, params = list_tables_query(guild_id, channel_id, active)
        async with self._lock, self.db.execute(query, params) as cursor:
            rows = await cursor.fetchall()
        return [record_from_row(tuple(row)) for row in rows]

    async def tables_with_deadline(self) -> list[TableRecord]:
        """Tables in play with a running turn clock."""
        query = SELECT_TABLE + " WHERE deadline IS NOT NULL AND phase = ? ORDER BY deadline"
        async with self._lock, self.db.execute(query, (str(Phase.PLAYING),)) as cursor:
            rows = await cursor.fetchall()
        return [record_from_row(tuple(row)) for row in rows]

    async def set_board(self, table_id: int, version: int, message_id: int | None) -> None:
        """Record the newest board the table's thread received."""
        async with self._lock:
            await self.db.execute(SET_BOARD, (version, message_id, table_id, version))

    async def load_board(self, table_id: int) -> tuple[int, int | None] | None:
        """The newest delivered board's version and message id."""
        async with self._lock, self.db.execute(SELECT_BOARD, (table_id,)) as cursor:
            return board_from_row(await cursor.fetchone())

    async def tables_without_board(self) -> list[TableRecord]:
        """Tables whose newest board was never delivered."""
        async with self._lock, self.db.execute(SELECT_WITHOUT_BOARD, BOARD_PHASES) as cursor:
            rows = await cursor.fetchall()
        return [record_from_row(tuple(row)) for row in rows]

    async def save_snapshot(self, table_id: int, log_length: int, position: Any) -> None:
        """Replace the table's snapshot."""
        async with self._lock:
            await self.db.execute(
                "INSERT INTO snapshots (table_id, log_length, position) VALUES (?, ?, ?) "
                "ON CONFLICT (table_id) DO UPDATE SET log_length = excluded.log_length, "
                "position = excluded.position",
                (table_id, log_length, json.dumps(position)),
            )

    async def load_snapshot(self, table_id: int) -> tuple[int, Any] | None:
        """The table's snapshot, or None."""
        query = "SELECT log_length, position FROM snapshots WHERE table_id = ?"
        async with self._lock, self.db.execute(query, (table_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else (int(row[0]), json.loads(row[1]))
