"""The storage interface every back end implements (SQLite now, PostgreSQL beside it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from bot.table_model import LogEntry, TableRecord


class Storage(Protocol):
    """Durable tables and their append-only move logs.

    Writes are atomic. :meth:`commit` is the only way a game advances: it appends log entries
    and rewrites the table row in one transaction, but only if the stored version is still
    ``expected_version`` (``UPDATE ... WHERE version = expected``), so two processes can never
    both apply an action to one turn. A commit that returned True is durable: a crash after it
    loses nothing.

    ``single_writer`` is True when this process is the only one writing the database (an
    SQLite file by default); the service then trusts its in-memory copy of a table without
    asking the database for its version first. Writes stay guarded by the version check
    either way.
    """

    single_writer: bool

    async def open(self) -> None:
        """Connect and apply pending schema migrations."""
        ...

    async def close(self) -> None:
        """Close the connection(s)."""
        ...

    async def create_table(self, record: TableRecord) -> int:
        """Insert a new table (its ``id`` is ignored) and return the id it was given."""
        ...

    async def commit(
        self,
        record: TableRecord,
        expected_version: int,
        entries: Sequence[LogEntry] = (),
    ) -> bool:
        """Store ``record`` and append ``entries`` if the stored version is ``expected_version``.

        Returns False (and changes nothing) when another writer got there first.
        """
        ...

    async def set_thread(self, table_id: int, thread_id: int | None) -> None:
        """Record the thread a front end opened for the table (no version change)."""
        ...

    async def load_table(self, table_id: int) -> TableRecord | None:
        """The table row, or None."""
        ...

    async def load_version(self, table_id: int) -> int | None:
        """Just the stored version (cheap check that an in-memory copy is current)."""
        ...

    async def load_log(self, table_id: int, start: int = 0) -> list[LogEntry]:
        """The log entries from index ``start`` on, in order."""
        ...

    async def list_tables(
        self, guild_id: int, channel_id: int | None = None, active: bool = True
    ) -> list[TableRecord]:
        """Tables of a guild (optionally one channel), only lobby/playing ones if ``active``."""
        ...

    async def tables_with_deadline(self) -> list[TableRecord]:
        """Every table in play whose turn clock is running (for re-arming at start-up)."""
        ...

    async def set_board(self, table_id: int, version: int, message_id: int | None) -> None:
        """Record that the table's thread received its board for ``version`` as ``message_id``
        (no version change; an older ``version`` than the one recorded is ignored)."""
        ...

    async def load_board(self, table_id: int) -> tuple[int, int | None] | None:
        """The version of the newest board delivered and its message id, or None (no table)."""
        ...

    async def tables_without_board(self) -> list[TableRecord]:
        """Every table in play or finished, with a thread, whose newest board was never
        delivered (its version is ahead of the recorded board's)."""
        ...

    async def save_snapshot(self, table_id: int, log_length: int, position: Any) -> None:
        """Keep ``position`` (JSON-able) as the state after the first ``log_length`` entries."""
        ...

    async def load_snapshot(self, table_id: int) -> tuple[int, Any] | None:
        """The latest snapshot as ``(log_length, position)``, or None."""
        ...
