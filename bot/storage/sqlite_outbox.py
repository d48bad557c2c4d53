"""The outbox and the reminder claim on SQLite (of :class:`bot.storage.sqlite.SqliteStorage`)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

import aiosqlite

from bot.model.outbox import BoardLease, Intent, OutboxItem
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

# --- the board lease (migration 7): one process at a time posts a table's boards -----------

#: Take (or renew) the posting of a table's boards for ``post_owner`` until ``post_until``
#: unless another owner's lease still runs.
CLAIM_BOARD_POST = (
    "UPDATE tables SET post_owner = ?, post_until = ? "
    "WHERE id = ? AND (post_owner IS NULL OR post_owner = ? OR post_until < ?)"
)
#: Name the digest that the owner's post replaces (deleted once the post is in the thread).
REPLACING_BOARD = "UPDATE tables SET post_replaces = ? WHERE id = ? AND post_owner = ?"
RELEASE_BOARD_POST = (
    "UPDATE tables SET post_owner = NULL, post_replaces = NULL WHERE id = ? AND post_owner = ?"
)
SELECT_BOARD_POST = "SELECT post_owner, post_until, post_replaces FROM tables WHERE id = ?"


def board_post_from_row(row: Sequence[Any] | None) -> BoardLease | None:
    """A :class:`BoardLease` from a row of :data:`SELECT_BOARD_POST` (None: no table)."""
    if row is None:
        return None
    owner, until, replaces = tuple(row)
    return BoardLease(
        None if owner is None else str(owner),
        None if until is None else float(until),
        None if replaces is None else int(replaces),
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

    async def claim_board_post(self, table_id: int, owner: str, now: float, until: float) -> bool:
        """Take (or renew) the posting of a table's boards for ``owner`` until ``until``;
        False while another owner's lease runs at ``now``."""
        async with self._lock:
            cursor = await self.db.execute(CLAIM_BOARD_POST, (owner, until, table_id, owner, now))
        return cursor.rowcount == 1

    async def replacing_board(self, table_id: int, owner: str, message_id: int | None) -> None:
        """Note the digest that ``owner``'s post replaces (None: none)."""
        async with self._lock:
            await self.db.execute(REPLACING_BOARD, (message_id, table_id, owner))

    async def release_board_post(self, table_id: int, owner: str) -> None:
        """``owner`` finished posting the table's board: any process may post the next."""
        async with self._lock:
            await self.db.execute(RELEASE_BOARD_POST, (table_id, owner))

    async def board_post(self, table_id: int) -> BoardLease | None:
        """Who posts the table's boards until when, and the digest being replaced."""
        async with self._lock, self.db.execute(SELECT_BOARD_POST, (table_id,)) as cursor:
            return board_post_from_row(await cursor.fetchone())
