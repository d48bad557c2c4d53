"""The asyncpg back end (``DATABASE_URL=postgresql://...``), for several processes at once.

It runs the same migrations (:mod:`bot.storage.migrations`) and the same queries
(:mod:`bot.storage.rows`, renumbered to ``$n``) as SQLite.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Sequence
from typing import Any

import asyncpg

from bot.model.table import LogEntry, Phase, TableRecord
from bot.storage import migrations
from bot.storage.log_rows import (
    APPEND_CHUNK,
    SELECT_CHUNKS,
    chunk_rows,
    entries_from_chunks,
    first_chunk,
)
from bot.storage.postgres_outbox import PostgresOutboxMixin
from bot.storage.postgres_results import PostgresResultsMixin
from bot.storage.postgres_tournaments import PostgresTournamentsMixin
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
    numbered,
    record_from_row,
    table_values,
    update_values,
)

#: Serialises schema migrations of processes starting at the same moment.
_MIGRATION_LOCK = 0x706F6570  # "poep"
#: The NOTIFY channel on which every commit of a table says ``<table id>:<version>``.
CHANGES_CHANNEL = "poeppel_tables"

log = logging.getLogger(__name__)


def _nobody(_table: int, _version: int) -> None:
    """Nobody listens to table changes yet."""


class PostgresStorage(PostgresResultsMixin, PostgresTournamentsMixin, PostgresOutboxMixin):
    """:class:`bot.storage.base.Storage` on PostgreSQL through an asyncpg pool."""

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10) -> None:
        self.url = url
        self.single_writer = False  # several processes share one PostgreSQL database
        self.min_size = min_size
        self.max_size = max_size
        self._pool: asyncpg.Pool | None = None
        #: The connection that listens to other processes' commits (see watch_changes).
        self._listening: asyncpg.Connection | None = None
        self._changed: Callable[[int, int], None] = _nobody
        self._relisten: asyncio.Task[None] | None = None

    @property
    def pool(self) -> asyncpg.Pool:
        """The open pool."""
        if self._pool is None:
            raise RuntimeError("storage is not open; call open() first")
        return self._pool

    async def open(self) -> None:
        """Create the pool and apply pending migrations."""
        self._pool = await asyncpg.create_pool(
            self.url, min_size=self.min_size, max_size=self.max_size
        )
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            await conn.execute(migrations.SCHEMA_VERSION_TABLE)
            applied = await conn.fetchval("SELECT MAX(version) FROM schema_version") or 0
            for version, statements in migrations.pending(int(applied)):
                for statement in statements:
                    await conn.execute(migrations.render(statement, migrations.POSTGRES))
                await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", version)

    async def watch_changes(self, changed: Callable[[int, int], None]) -> None:
        """Call ``changed(table_id, version)`` after every commit of a table by any process
        sharing the database (this one's too), over ``LISTEN`` on a connection of its own.
        Should that connection drop, it is opened again (after 1, 2, 5, then every 10 s)
        and ``changed(0, 0)`` says that any table may have changed meanwhile."""
        if self._listening is not None:
            return
        self._changed = changed
        await self._listen()

    async def _listen(self) -> None:
        changed = self._changed

        def on_notify(_conn: Any, _pid: int, _channel: str, payload: str) -> None:
            table, _, version = payload.partition(":")
            try:
                changed(int(table), int(version))
            except ValueError:
                log.warning("a table change said %r", payload)

        def on_lost(_conn: Any) -> None:
            if self._listening is not None and self._pool is not None:
                self._listening = None
                self._relisten = asyncio.get_running_loop().create_task(self._listen_again())

        connection = await asyncpg.connect(self.url)
        await connection.add_listener(CHANGES_CHANNEL, on_notify)
        connection.add_termination_listener(on_lost)
        self._listening = connection

    async def _listen_again(self) -> None:
        for pause in (1.0, 2.0, 5.0, *([10.0] * 10_000)):
            await asyncio.sleep(pause)
            if self._pool is None:
                return  # closed meanwhile
            try:
                await self._listen()
            except (OSError, asyncpg.PostgresError) as error:
                log.warning("listening to table changes again failed: %s", error)
                continue
            self._changed(0, 0)  # what was committed while nobody listened
            return

    async def close(self) -> None:
        """Close the pool (and the connection that listens to changes)."""
        if self._relisten is not None:
            self._relisten.cancel()
            self._relisten = None
        listening, self._listening = self._listening, None  # closed on purpose: not again
        if listening is not None:
            with contextlib.suppress(Exception):
                await listening.close()
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def create_table(self, record: TableRecord) -> int:
        """Insert a table row and return its id."""
        query = numbered(INSERT_TABLE) + " RETURNING id"
        return int(await self.pool.fetchval(query, *table_values(record)))

    async def commit(
        self, record: TableRecord, expected_version: int, entries: Sequence[LogEntry] = ()
    ) -> bool:
        """Append ``entries`` and store ``record`` if the version is still ``expected_version``."""
        async with self.pool.acquire() as conn, conn.transaction():
            status = await conn.execute(
                numbered(UPDATE_TABLE), *update_values(record, expected_version)
            )
            if status != "UPDATE 1":
                # Raising rolls the transaction back; nothing was written anyway.
                return False
            if entries:
                await conn.executemany(numbered(APPEND_CHUNK), chunk_rows(record.id, entries))
            # Told to every listening process when (and only if) the transaction commits.
            await conn.execute(
                "SELECT pg_notify($1, $2)", CHANGES_CHANNEL, f"{record.id}:{record.version}"
            )
        return True

    async def set_thread(self, table_id: int, thread_id: int | None) -> None:
        """Record the table's thread."""
        await self.pool.execute(
            "UPDATE tables SET thread_id = $1 WHERE id = $2", thread_id, table_id
        )

    async def load_table(self, table_id: int) -> TableRecord | None:
        """The table row, or None."""
        row = await self.pool.fetchrow(SELECT_TABLE + " WHERE id = $1", table_id)
        return None if row is None else record_from_row(tuple(row.values()))

    async def load_version(self, table_id: int) -> int | None:
        """The stored version of the table, or None."""
        value = await self.pool.fetchval("SELECT version FROM tables WHERE id = $1", table_id)
        return None if value is None else int(value)

    async def load_log(self, table_id: int, start: int = 0) -> list[LogEntry]:
        """Log entries from ``start`` on."""
        rows = await self.pool.fetch(numbered(SELECT_CHUNKS), table_id, first_chunk(start))
        return entries_from_chunks((tuple(row.values()) for row in rows), start)

    async def list_tables(
        self, guild_id: int, channel_id: int | None = None, active: bool = True
    ) -> list[TableRecord]:
        """Tables of a guild or channel, oldest first."""
        query, params = list_tables_query(guild_id, channel_id, active)
        rows = await self.pool.fetch(numbered(query), *params)
        return [record_from_row(tuple(row.values())) for row in rows]

    async def tables_with_deadline(self) -> list[TableRecord]:
        """Tables in play with a running turn clock."""
        query = SELECT_TABLE + " WHERE deadline IS NOT NULL AND phase = $1 ORDER BY deadline"
        rows = await self.pool.fetch(query, str(Phase.PLAYING))
        return [record_from_row(tuple(row.values())) for row in rows]

    async def set_board(self, table_id: int, version: int, message_id: int | None) -> None:
        """Record the newest board the table's thread received."""
        await self.pool.execute(numbered(SET_BOARD), version, message_id, table_id, version)

    async def load_board(self, table_id: int) -> tuple[int, int | None] | None:
        """The newest delivered board's version and message id."""
        return board_from_row(await self.pool.fetchrow(numbered(SELECT_BOARD), table_id))

    async def tables_without_board(self) -> list[TableRecord]:
        """Tables whose newest board was never delivered."""
        rows = await self.pool.fetch(numbered(SELECT_WITHOUT_BOARD), *BOARD_PHASES)
        return [record_from_row(tuple(row.values())) for row in rows]

    async def save_snapshot(self, table_id: int, log_length: int, position: Any) -> None:
        """Replace the table's snapshot."""
        await self.pool.execute(
            "INSERT INTO snapshots (table_id, log_length, position) VALUES ($1, $2, $3) "
            "ON CONFLICT (table_id) DO UPDATE SET log_length = excluded.log_length, "
            "position = excluded.position",
            table_id,
            log_length,
            json.dumps(position),
        )

    async def load_snapshot(self, table_id: int) -> tuple[int, Any] | None:
        """The table's snapshot, or None."""
        row = await self.pool.fetchrow(
            "SELECT log_length, position FROM snapshots WHERE table_id = $1", table_id
        )
        return None if row is None else (int(row[0]), json.loads(row[1]))
