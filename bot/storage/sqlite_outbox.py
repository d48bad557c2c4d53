"""The outbox and the reminder claim on SQLite (of :class:`bot.storage.sqlite.SqliteStorage`)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

import aiosqlite

from bot.model.outbox import Intent, OutboxItem
from bot.storage.rows import (
    CLAIM_OUTBOX,
    CLAIM_REMINDER,
    DONE_OUTBOX,
    INSERT_OUTBOX,
    RELEASE_OUTBOX,
    SELECT_OUTBOX,
    intent_values,
    outbox_from_row,
)


class SqliteOutboxMixin:
    """The outbox half of the SQLite back end (see :class:`bot.storage.base.Storage`)."""

    _lock: asyncio.Lock

    @property
    def db(self) -> aiosqlite.Connection:
        """The open connection (:class:`bot.storage.sqlite.SqliteStorage` provides it)."""
        raise NotImplementedError

    async def add_intents(self, intents: Sequence[Intent]) -> None:
        """Store posts owed (one per key, ever)."""
        if not intents:
            return
        now = time.time()
        async with self._lock:
            await self.db.executemany(INSERT_OUTBOX, [intent_values(i, now) for i in intents])

    async def pending_posts(self) -> list[OutboxItem]:
        """Every post not marked done, oldest first."""
        async with self._lock, self.db.execute(SELECT_OUTBOX) as cursor:
            return [outbox_from_row(tuple(row)) for row in await cursor.fetchall()]

    async def claim_post(self, item_id: int, owner: str, now: float, until: float) -> bool:
        """Take a pending post for ``owner`` until ``until`` (False: done, or another's lease
        still runs at ``now``)."""
        async with self._lock:
            cursor = await self.db.execute(CLAIM_OUTBOX, (owner, until, item_id, owner, now))
        return cursor.rowcount == 1

    async def post_done(self, item_id: int, message_id: int | None) -> None:
        """Mark a post done: Discord took it as ``message_id`` (None: it never will)."""
        async with self._lock:
            await self.db.execute(DONE_OUTBOX, (message_id, item_id))

    async def release_post(self, item_id: int, owner: str) -> None:
        """Give up ``owner``'s lease of a post that did not go out (any process may try)."""
        async with self._lock:
            await self.db.execute(RELEASE_OUTBOX, (item_id, owner))

    async def claim_reminder(self, table_id: int, version: int) -> bool:
        """Note that the turn of ``version`` was reminded; False if it was already (by
        another process) or the table moved on."""
        async with self._lock:
            cursor = await self.db.execute(CLAIM_REMINDER, (table_id, version))
        return cursor.rowcount == 1
