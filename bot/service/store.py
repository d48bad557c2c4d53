"""The table store: which tables are in memory, their locks, and every commit.

Owns the live tables (:class:`LiveTable`: record, engine state, recent log, what each seat
last saw privately) and one :class:`asyncio.Lock` per table. A table in the lobby or in play
is rebuilt once from storage and then kept, so no operation replays the log again. Only live
tables are kept (:class:`~bot.model.table_memory.TableMemory` decides, for every per-table
structure of the process): a finished table stays for a short grace after its end, an idle
one goes after a while, at most :data:`CACHE_SIZE` stay, and reading a table that is over
never brings it back into memory. An operation *stages* its changes in memory and
:meth:`TableStore.session` commits them in one transaction, guarded by the stored version,
before anything is acknowledged. After a commit the store tells its
:class:`CommitHook` objects (the result of a finished game, the turn clock's schedule); it
knows neither of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.model.clock import Clock
from bot.model.game_log import apply_entry
from bot.model.table import (
    LogEntry,
    Phase,
    TableNotFound,
    TableRecord,
    WrongPhase,
    check_table_id,
)
from bot.model.table_memory import TableMemory
from bot.service.games import Games
from bot.storage.base import Storage

log = logging.getLogger(__name__)

#: How many of the latest log entries a table keeps in memory to judge buttons' versions.
RECENT_ENTRIES = 256
#: At most this many tables stay in memory (the least recently used go first).
CACHE_SIZE = 2000


class Conflict(Exception):
    """Another writer changed the table between our read and our write."""


class CommitHook(Protocol):
    """Told after every commit that stored something (in the table's lock, in order)."""

    async def committed(self, record: TableRecord, entries: Sequence[LogEntry]) -> None:
        """``record`` is stored, with the log ``entries`` that came with it."""


@dataclass(slots=True)
class LiveTable:
    """A table held in memory: its record, engine state and log."""

    record: TableRecord
    state: Any = None
    #: The latest log entries (enough to judge a button's version) and those not yet stored.
    recent: deque[LogEntry] = field(default_factory=lambda: deque(maxlen=RECENT_ENTRIES))
    pending: list[LogEntry] = field(default_factory=list)
    #: What each seat last saw privately, to tell when its hand changed or a card arrived
    #: (written by the announcer only; it dies with the table's copy in memory).
    last_private: dict[int, tuple[Any, Any]] = field(default_factory=dict)
    #: The version that storage holds; everything beyond is staged in memory and is committed
    #: (in one transaction) before the operation returns its effects.
    stored_version: int = 0
    dirty: bool = False
    #: The spectator view of ``state`` (computed once per state: several updates need it).
    view_of: Any = None
    view: Mapping[str, Any] | None = None

    def public_view(self, module: Any) -> Mapping[str, Any]:
        """``module.view(state, None)``, cached for the current state."""
        if self.view_of is not self.state or self.view is None:
            self.view = module.view(self.state, None)
            self.view_of = self.state
        return self.view


def require_phase(record: TableRecord, phase: Phase) -> TableRecord:
    """``record`` if it is in ``phase``; else refuse, saying where the table is (the person
    knows what they asked for)."""
    if record.phase != phase:
        raise WrongPhase(f"error.phase.{record.phase}")
    return record


class TableStore:
    """Tables in memory over :class:`~bot.storage.base.Storage`: load, stage, commit."""

    def __init__(
        self,
        storage: Storage,
        games: Games,
        clock: Clock,
        *,
        snapshot_every: int = 200,
        after_commit: Sequence[CommitHook] = (),
    ) -> None:
        self._storage = storage
        self._games = games
        self._clock = clock
        self._snapshot_every = snapshot_every
        self._after_commit = tuple(after_commit)
        self._live: OrderedDict[int, LiveTable] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}
        #: Which tables are live: every per-table structure of the process registers here.
        self.memory = TableMemory(clock.now)
        self.memory.register(self)
        self.cache_size = CACHE_SIZE

    # --- reading -----------------------------------------------------------------------------

    def lock(self, table_id: int) -> asyncio.Lock:
        """The table's lock: every operation on one table runs under it, one at a time."""
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    @contextlib.asynccontextmanager
    async def reading(self, table_id: int) -> AsyncIterator[LiveTable]:
        """Lock and load a table for an operation that changes nothing."""
        try:
            async with self.lock(table_id):
                yield await self._load(table_id)
        finally:
            self._drop_lock_unless_live(table_id)

    def _drop_lock_unless_live(self, table_id: int) -> None:
        """A table read but not kept (over, or missing) keeps no lock either."""
        if table_id in self._live or self.memory.is_over(table_id):
            return
        lock = self._locks.get(table_id)
        if lock is not None and not lock.locked() and not getattr(lock, "_waiters", None):
            del self._locks[table_id]

    async def get(self, table_id: int) -> TableRecord:
        """The table's record; :class:`TableNotFound` if there is none."""
        check_table_id(table_id)
        live = self._live.get(table_id)
        if live is not None and self._storage.single_writer:
            return live.record
        return await self.stored(table_id)

    async def stored(self, table_id: int) -> TableRecord:
        """The table's record as storage holds it; :class:`TableNotFound` if there is none."""
        record = await self.find(table_id)
        if record is None:
            raise TableNotFound(table=table_id)
        return record

    async def find(self, table_id: int) -> TableRecord | None:
        """The table's record as storage holds it, or None."""
        return await self._storage.load_table(table_id)

    async def tables_with_deadline(self) -> list[TableRecord]:
        """Every table in play whose turn clock runs, as storage holds it."""
        return await self._storage.tables_with_deadline()

    async def list_tables(
        self, guild_id: int, channel_id: int | None = None, active: bool = True
    ) -> list[TableRecord]:
        """Tables of a guild (or one channel), by default only those in lobby or in play."""
        return await self._storage.list_tables(guild_id, channel_id, active)

    # --- changing ----------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def session(self, table_id: int) -> AsyncIterator[LiveTable]:
        """Lock and load a table for a changing operation; commit what it staged on the way
        out, or forget it (re-read later) if the operation failed half way."""
        try:
            async with self.lock(table_id):
                live = await self._load(table_id)
                try:
                    yield live
                    await self._flush(live)
                except BaseException:
                    if live.dirty:
                        self._live.pop(table_id, None)
                    raise
                if not live.record.active:
                    # Over for good: kept a little for the last prompts' reads, then freed
                    # with everything else of the table; a later look reads it from storage.
                    self.memory.over(table_id)
        finally:
            self._drop_lock_unless_live(table_id)

    async def create(self, record: TableRecord) -> TableRecord:
        """Store a new table (its id is given by storage) and keep it in memory."""
        table_id = await self._storage.create_table(record)
        record = record.with_changes(id=table_id)
        self._keep(LiveTable(record, stored_version=record.version))
        self.memory.touch(table_id)
        return record

    def stage(
        self, live: LiveTable, record: TableRecord, entries: list[LogEntry], state: Any
    ) -> None:
        """Change the table in memory; the session commits it before anyone is told."""
        live.record = record.with_changes(
            updated_at=self._clock.now(), log_length=live.record.log_length + len(entries)
        )
        live.pending.extend(entries)
        live.recent.extend(entries)
        live.state = state
        live.dirty = True

    async def write(
        self, live: LiveTable, record: TableRecord, entries: list[LogEntry], state: Any
    ) -> None:
        """Stage and commit at once."""
        self.stage(live, record, entries, state)
        await self._flush(live)

    async def claim_reminder(self, live: LiveTable) -> TableRecord:
        """Mark the current turn of ``live`` reminded, once across processes (no version
        change, so the board's buttons stay current); :class:`Conflict` (and the copy in
        memory dropped) when another process reminded it first or moved the table on."""
        record = live.record
        if not await self._storage.claim_reminder(record.id, record.version):
            self._live.pop(record.id, None)
            raise Conflict()
        live.record = record.with_changes(reminded=True)
        return live.record

    async def set_thread(self, table_id: int, thread_id: int | None) -> TableRecord:
        """Remember the thread a front end opened for the table (no version change)."""
        async with self.reading(table_id) as live:
            await self._storage.set_thread(table_id, thread_id)
            live.record = live.record.with_changes(thread_id=thread_id)
            return live.record

    def forget(self, table_id: int) -> None:
        """Drop the table from memory (a later look re-reads it from storage)."""
        self._live.pop(table_id, None)

    def release(self, table_id: int) -> bool:
        """Drop the table and its lock (its memory released it); not while it is in use."""
        lock = self._locks.get(table_id)
        if lock is not None and (lock.locked() or getattr(lock, "_waiters", None)):
            return False
        self._locks.pop(table_id, None)
        self._live.pop(table_id, None)
        return True

    def held(self) -> tuple[set[int], set[int]]:
        """The ids of the tables in memory and of those with a lock (tests, bench)."""
        return set(self._live), set(self._locks)

    def cached(self, table_id: int) -> LiveTable | None:
        """The table in memory, if it is (for tests and diagnostics; no lock, no load)."""
        return self._live.get(table_id)

    def clear(self) -> None:
        """Forget every table in memory (as a restart would)."""
        self._live.clear()

    # --- inside ------------------------------------------------------------------------------

    async def _load(self, table_id: int) -> LiveTable:
        """The table in memory, re-read if another process changed it since."""
        check_table_id(table_id)
        live = self._live.get(table_id)
        if live is not None:
            self._live.move_to_end(table_id)
            if not self.memory.is_over(table_id):
                self.memory.touch(table_id)
            if self._storage.single_writer:
                return live
        stored_version = await self._storage.load_version(table_id)
        if stored_version is None:
            self._live.pop(table_id, None)
            raise TableNotFound(table=table_id)
        if live is not None and live.record.version == stored_version:
            return live
        record = await self._storage.load_table(table_id)
        if record is None:
            raise TableNotFound(table=table_id)
        live = LiveTable(record, stored_version=record.version)
        if record.phase != Phase.LOBBY and record.extra.get("started_version") is not None:
            tail, live.state = await self._replay(record)
            live.recent.extend(tail)
        if record.active:
            self._keep(live)
            self.memory.touch(table_id)
        elif table_id not in self._live:
            # Over: read for this once and not kept (the lock goes with the table).
            self.memory.over(table_id)
        else:
            self._live[table_id] = live
        return live

    def _keep(self, live: LiveTable) -> None:
        """Keep ``live`` in memory, dropping the least recently used tables beyond the cap
        (never one in use: its lock is held)."""
        table_id = live.record.id
        self._live[table_id] = live
        self._live.move_to_end(table_id)
        excess = len(self._live) - self.cache_size
        if excess <= 0:
            return
        for old in list(self._live)[:excess]:
            lock = self._locks.get(old)
            if lock is None or not lock.locked():
                del self._live[old]

    async def _replay(self, record: TableRecord) -> tuple[list[LogEntry], Any]:
        """Rebuild the engine state from the seed and the log (from a snapshot if any)."""
        module = self._games.of(record)
        start = 0
        state = None
        from_position = getattr(module, "from_position", None)
        entries = await self._storage.load_log(record.id)
        if from_position is not None and self._snapshot_every:
            snapshot = await self._storage.load_snapshot(record.id)
            # A position carries no events; replaying at least the last entry restores the
            # events of the last action, which the public view shows.
            if snapshot is not None and snapshot[0] < len(entries):
                start, position = snapshot
                state = from_position(position)
        if state is None:
            start = 0
            state = module.new_game(record.players, record.options, record.seed)
        for entry in entries[start:]:
            state = apply_entry(module, state, entry)
        return entries[-RECENT_ENTRIES:], state

    async def _flush(self, live: LiveTable) -> None:
        """Commit everything staged in one transaction, guarded by the stored version.

        One commit per request (a person's move plus the bot turns after it) instead of one
        per action: nothing is acknowledged before this returns, so a crash in between loses
        only what nobody was told.
        """
        if not live.dirty:
            return
        record = live.record
        entries = live.pending
        if not await self._storage.commit(record, live.stored_version, entries):
            self._live.pop(record.id, None)
            raise Conflict()
        live.stored_version = record.version
        live.pending = []
        live.dirty = False
        for hook in self._after_commit:  # the result of a finished game, then the clock
            await hook.committed(record, entries)
        if self._snapshot_every and live.state is not None and entries:
            module = self._games.of(record)
            length = record.log_length
            every = self._snapshot_every
            crossed = length // every > (length - len(entries)) // every
            if crossed and hasattr(module, "from_position"):
                position = module.to_position(live.state)
                await self._storage.save_snapshot(record.id, length, position)
