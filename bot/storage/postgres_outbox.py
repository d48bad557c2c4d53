"""The outbox and the reminder claim on PostgreSQL (a part of
:class:`bot.storage.postgres.PostgresStorage`)."""

from __future__ import annotations

import time
from collections.abc import Sequence

import asyncpg

from bot.model.outbox import BoardLease, Intent, OutboxItem
from bot.storage.rows import (
    CLAIM_OUTBOX,
    CLAIM_REMINDER,
    DONE_OUTBOX,
    INSERT_OUTBOX,
    RELEASE_OUTBOX,
    SELECT_OUTBOX,
    intent_values,
    numbered,
    outbox_from_row,
)
from bot.storage.sqlite_outbox import (
    CLAIM_BOARD_POST,
    RELEASE_BOARD_POST,
    REPLACING_BOARD,
    SELECT_BOARD_POST,
    board_post_from_row,
)


class PostgresOutboxMixin:
    """The outbox half of the PostgreSQL back end (see :class:`bot.storage.base.Storage`)."""

    pool: asyncpg.Pool

    async def add_intents(self, intents: Sequence[Intent]) -> None:
        """Store posts owed (one per key, ever)."""
        if not intents:
            return
        now = time.time()
        await self.pool.executemany(
            numbered(INSERT_OUTBOX), [intent_values(i, now) for i in intents]
        )

    async def pending_posts(self) -> list[OutboxItem]:
        """Every post not marked done, oldest first."""
        rows = await self.pool.fetch(SELECT_OUTBOX)
        return [outbox_from_row(tuple(row.values())) for row in rows]

    async def claim_post(self, item_id: int, owner: str, now: float, until: float) -> bool:
        """Take a pending post for ``owner`` until ``until`` (False: done, or another's lease
        still runs at ``now``)."""
        status = await self.pool.execute(numbered(CLAIM_OUTBOX), owner, until, item_id, owner, now)
        return bool(status == "UPDATE 1")

    async def post_done(self, item_id: int, message_id: int | None) -> None:
        """Mark a post done: Discord took it as ``message_id`` (None: it never will)."""
        await self.pool.execute(numbered(DONE_OUTBOX), message_id, item_id)

    async def release_post(self, item_id: int, owner: str) -> None:
        """Give up ``owner``'s lease of a post that did not go out (any process may try)."""
        await self.pool.execute(numbered(RELEASE_OUTBOX), item_id, owner)

    async def claim_reminder(self, table_id: int, version: int) -> bool:
        """Note that the turn of ``version`` was reminded; False if it was already (by
        another process) or the table moved on."""
        status = await self.pool.execute(numbered(CLAIM_REMINDER), table_id, version)
        return bool(status == "UPDATE 1")

    async def claim_board_post(self, table_id: int, owner: str, now: float, until: float) -> bool:
        """Take (or renew) the posting of a table's boards for ``owner`` until ``until``;
        False while another owner's lease runs at ``now``."""
        status = await self.pool.execute(
            numbered(CLAIM_BOARD_POST), owner, until, table_id, owner, now
        )
        return bool(status == "UPDATE 1")

    async def replacing_board(self, table_id: int, owner: str, message_id: int | None) -> None:
        """Note the digest that ``owner``'s post replaces (None: none)."""
        await self.pool.execute(numbered(REPLACING_BOARD), message_id, table_id, owner)

    async def release_board_post(self, table_id: int, owner: str) -> None:
        """``owner`` finished posting the table's board: any process may post the next."""
        await self.pool.execute(numbered(RELEASE_BOARD_POST), table_id, owner)

    async def board_post(self, table_id: int) -> BoardLease | None:
        """Who posts the table's boards until when, and the digest being replaced."""
        return board_post_from_row(await self.pool.fetchrow(numbered(SELECT_BOARD_POST), table_id))
