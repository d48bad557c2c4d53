"""Views: what a reader may see of a table, read without changing it.

The spectator view, the current board, the table's history as one reader may know it (picks
stay secret, C-10.5: :mod:`bot.model.history` decides), and which board each thread has.
Front ends, records and replays read a table's log only through here. Owns nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot.after_game.replay import entry_events
from bot.model.history import EventFacts, HistoryEntry, partners_of, reader_history
from bot.model.table import TableNotFound, TableRecord, check_table_id
from bot.service.announce import Announcer
from bot.service.games import Games
from bot.service.store import TableStore
from bot.storage.base import Storage


class Views:
    """Read-only questions about a table: its views, its history, its board messages."""

    def __init__(
        self,
        store: TableStore,
        storage: Storage,
        games: Games,
        announcer: Announcer,
        *,
        snapshot_every: int = 200,
    ) -> None:
        self._store = store
        self._storage = storage
        self._games = games
        self._announcer = announcer
        # Replays for the history start from the stored snapshot when the store keeps them.
        self._snapshots = snapshot_every

    async def public_view(self, table_id: int) -> dict[str, Any] | None:
        """The spectator view of the game (``None`` before it starts)."""
        async with self._store.reading(table_id) as live:
            if live.state is None:
                return None
            return dict(live.public_view(self._games.of(live.record)))

    async def current_board(self, table_id: int) -> tuple[TableRecord, dict[str, Any] | None]:
        """The table and its spectator view, read together (``None`` before the start)."""
        async with self._store.reading(table_id) as live:
            if live.state is None:
                return live.record, None
            return live.record, dict(live.public_view(self._games.of(live.record)))

    async def history(
        self,
        table_id: int,
        user_id: int | None,
        *,
        last: int | None = None,
        words: bool = True,
    ) -> tuple[TableRecord, list[HistoryEntry]]:
        """The table and its history as ``user_id`` may see it (``None``: a spectator).

        What a reader may know of each entry is decided in :mod:`bot.model.history`: picks
        stay secret (C-10.5) during the game and after it. Front ends, records and replays
        read a table's log only through this.

        ``last``: only the newest ``last`` entries (all when ``None``). ``words``: with each
        returned entry's public events, the facts its sentences are made of; they come from
        replaying the log, so a reader who wants notation only should say so.
        """
        async with self._store.reading(table_id) as live:
            record = live.record
            entries = await self._storage.load_log(table_id)
            seat = None if user_id is None else record.seat_of(user_id)
            reader = None if seat is None else seat.index
            partners: dict[int, int] = {}
            exchange_open = False
            board = None
            if live.state is not None:
                view = live.public_view(self._games.of(live.record))
                partners = partners_of(view.get("teams"))
                exchange_open = view.get("phase") == "exchange"
                # A race board's size lets places be said from a pawn's start; it never
                # changes in a game (Carcassonne's board is no help to its sentences).
                board = view.get("board") if record.game != "carcassonne" else None
            start = 0 if last is None else max(0, len(entries) - last)
            replay = words and live.state is not None and start < len(entries)
            snapshot = None
            if replay and self._snapshots:
                snapshot = await self._storage.load_snapshot(table_id)
        told: dict[int, tuple[EventFacts, ...]] = {}
        if replay:
            # Replaying a long game takes up to a few hundred milliseconds: not on the event
            # loop, and not holding the table (the entries, record and snapshot are ours).
            module = self._games.of(record)
            told = await asyncio.to_thread(entry_events, module, record, entries, start, snapshot)
        history = reader_history(
            record.game,
            entries,
            reader,
            partners=partners,
            exchange_open=exchange_open,
            told=told,
            board=board,
            names=self._announcer.event_names(record),
        )
        return record, history[start:]

    async def board_of(self, table_id: int) -> tuple[int, int | None]:
        """The version of the newest board the table's thread received, and its message id
        (``(0, None)`` before any board); :class:`TableNotFound` if there is no table."""
        board = await self._storage.load_board(check_table_id(table_id))
        if board is None:
            raise TableNotFound(table=table_id)
        return board

    async def board_delivered(self, table_id: int, version: int, message_id: int | None) -> None:
        """Note that the table's thread received its board for ``version`` (no version change;
        a front end calls it after posting, so a missing board can be posted again later)."""
        await self._storage.set_board(check_table_id(table_id), version, message_id)

    async def tables_without_board(self, owns_guild: Callable[[int], bool]) -> list[TableRecord]:
        """The tables of the guilds ``owns_guild`` accepts whose thread has not received the
        board of their version."""
        return [r for r in await self._storage.tables_without_board() if owns_guild(r.guild_id)]
