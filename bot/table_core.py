"""How the table service holds a table in memory, replays it and commits it to storage.

A table lives in a :class:`LiveTable` (record, engine state, recent log) rebuilt once from
storage and then kept, so no operation replays the log again. An operation *stages* its
changes in memory and :meth:`TableCore._flush` commits them in one transaction, guarded by
the stored version, before anything is acknowledged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.bots import BotChooser
from bot.clock import Clock
from bot.effects import Effects
from bot.storage.base import Storage
from bot.table_model import (
    IllegalMoveError,
    InvalidTableOptions,
    LogEntry,
    LogKind,
    Phase,
    TableNotFound,
    TableRecord,
    WrongPhase,
    check_table_id,
)

log = logging.getLogger(__name__)


#: An async callable that delivers effects nobody asked for (turn clock, deferred bots).
Listener = Callable[[Effects], Awaitable[None]]
#: Resolves an engine module by game name (``engine.get_game``; tests may pass their own).
GameLoader = Callable[[str], Any]

#: How many of the latest log entries a table keeps in memory to judge buttons' versions.
_RECENT_ENTRIES = 256


def _default_loader(name: str) -> Any:
    from engine import get_game

    return get_game(name)


def apply_entry(module: Any, state: Any, entry: LogEntry) -> Any:
    """The state after one stored log entry (replays, records and results share this)."""
    if entry.kind == LogKind.MOVE:
        assert entry.seat is not None
        return TableCore._apply_move(module, state, entry.seat, entry.text)[0]
    if entry.kind == LogKind.AUTO:
        return module.auto_action(state, entry.seat)
    if entry.kind == LogKind.LEAVE:
        return module.leave(state, entry.seat)
    return state


class Conflict(Exception):
    """Another writer changed the table between our read and our write."""


@dataclass(slots=True)
class LiveTable:
    """A table held in memory: its record, engine state and log."""

    record: TableRecord
    state: Any = None
    #: The latest log entries (enough to judge a button's version) and those not yet stored.
    recent: deque[LogEntry] = field(default_factory=lambda: deque(maxlen=_RECENT_ENTRIES))
    pending: list[LogEntry] = field(default_factory=list)
    #: What each seat last saw privately, to tell when its hand changed or a card arrived.
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


class TableCore:
    """The state every part of :class:`bot.tables.TableService` shares, and how a table is
    loaded into memory, changed there and committed to storage.

    The other parts (lobby, play, bot turns, turn clock, updates) are mixins over this class;
    the methods one part calls in another are declared here for the type checker only.
    """

    storage: Storage
    clock: Clock
    listener: Listener | None
    owns_guild: Callable[[int], bool]
    choose_bot_move: BotChooser
    snapshot_every: int
    require_person: bool
    defer_bots: bool
    defer_slow_bots: bool
    timeouts_before_leave: int
    _load_game: GameLoader
    _modules: dict[str, Any]
    _background: set[asyncio.Task[None]]
    _thinkers: set[int]
    _rethink: set[int]
    _live: dict[int, LiveTable]
    _locks: dict[int, asyncio.Lock]
    _armed: dict[int, float]
    _wake: asyncio.Event
    _clock_task: asyncio.Task[None] | None

    if TYPE_CHECKING:
        # Implemented by the mixins (see bot.tables.TableService's bases).

        def _arm(self, record: TableRecord) -> None: ...

        def _with_clock(
            self, record: TableRecord, module: Any, state: Any, previous: frozenset[int]
        ) -> TableRecord: ...

        def _after_action(
            self,
            record: TableRecord,
            module: Any,
            state: Any,
            version: int,
            previous: frozenset[int],
        ) -> TableRecord: ...

        async def _step(
            self, live: LiveTable, effects: Effects, kind: LogKind, seat: int, move: str = ""
        ) -> None: ...

        async def _follow_up(self, live: LiveTable, effects: Effects) -> None: ...

        async def _advance(
            self, live: LiveTable, effects: Effects, *, limit: int = ...
        ) -> bool: ...

        async def _remove_person(
            self, live: LiveTable, user_id: int, *, kicked: bool, timed_out: bool = False
        ) -> Effects: ...

        def _lobby_teams(self, record: TableRecord) -> list[list[int]] | None: ...

        async def _finished(self, record: TableRecord) -> None: ...

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    def load_game(self, game: str) -> Any:
        """The engine module of ``game`` (looked up once)."""
        module = self._modules.get(game)
        if module is None:
            module = self._modules[game] = self._load_game(game)
        return module

    def _module_or_error(self, game: str) -> Any:
        try:
            return self.load_game(game)
        except (ValueError, ModuleNotFoundError):
            raise InvalidTableOptions("error.no_game", game=game) from None

    def _game(self, live: LiveTable) -> Any:
        return self.load_game(live.record.game)

    async def _load(self, table_id: int) -> LiveTable:
        """The table in memory, re-read if another process changed it since."""
        check_table_id(table_id)
        live = self._live.get(table_id)
        if live is not None and self.storage.single_writer:
            return live
        stored_version = await self.storage.load_version(table_id)
        if stored_version is None:
            self._live.pop(table_id, None)
            raise TableNotFound(table=table_id)
        if live is not None and live.record.version == stored_version:
            return live
        record = await self.storage.load_table(table_id)
        if record is None:
            raise TableNotFound(table=table_id)
        live = LiveTable(record, stored_version=record.version)
        if record.phase != Phase.LOBBY and record.extra.get("started_version") is not None:
            tail, live.state = await self._replay(record)
            live.recent.extend(tail)
        self._live[table_id] = live
        return live

    async def _replay(self, record: TableRecord) -> tuple[list[LogEntry], Any]:
        """Rebuild the engine state from the seed and the log (from a snapshot if any)."""
        module = self.load_game(record.game)
        start = 0
        state = None
        from_position = getattr(module, "from_position", None)
        entries = await self.storage.load_log(record.id)
        if from_position is not None and self.snapshot_every:
            snapshot = await self.storage.load_snapshot(record.id)
            # A position carries no events; replaying at least the last entry restores the
            # events of the last action, which the public view shows.
            if snapshot is not None and snapshot[0] < len(entries):
                start, position = snapshot
                state = from_position(position)
        if state is None:
            start = 0
            state = module.new_game(record.players, record.options, record.seed)
        for entry in entries[start:]:
            state = self._apply_entry(module, state, entry)
        return entries[-_RECENT_ENTRIES:], state

    def _apply_entry(self, module: Any, state: Any, entry: LogEntry) -> Any:
        return apply_entry(module, state, entry)

    @staticmethod
    def _apply_move(module: Any, state: Any, seat: int, text: str) -> tuple[Any, str]:
        """Apply ``text`` for ``seat``; return the new state and the canonical text.

        The legal-move objects of ``seat`` are matched first (they know their seat, which a
        bare exchange pick ``G:Q`` does not); other spellings go through ``parse_move``.
        """
        from engine.protocol import IllegalMove

        legal = module.legal_moves(state, seat)
        for move in legal:
            if str(move) == text:
                return module.apply(state, move), text
        try:
            parsed = module.parse_move(state, text)
        except IllegalMove:
            raise IllegalMoveError("error.illegal", move=text) from None
        if parsed not in legal and module.seats_to_act(state) != frozenset({seat}):
            raise IllegalMoveError("error.illegal_for_you", move=text)
        try:
            return module.apply(state, parsed), str(parsed)
        except IllegalMove:
            raise IllegalMoveError("error.illegal", move=text) from None

    def _stage(
        self, live: LiveTable, record: TableRecord, entries: list[LogEntry], state: Any
    ) -> None:
        """Change the table in memory; :meth:`_flush` commits it before anyone is told."""
        live.record = record.with_changes(
            updated_at=self.clock.now(), log_length=live.record.log_length + len(entries)
        )
        live.pending.extend(entries)
        live.recent.extend(entries)
        live.state = state
        live.dirty = True

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
        if not await self.storage.commit(record, live.stored_version, entries):
            self._live.pop(record.id, None)
            raise Conflict()
        live.stored_version = record.version
        live.pending = []
        live.dirty = False
        if record.phase == Phase.FINISHED and entries:
            await self._finished(record)  # the result and ratings (bot.table_results)
        if record.deadline is not None and record.phase == Phase.PLAYING:
            self._arm(record)
        else:
            self._armed.pop(record.id, None)
        if self.snapshot_every and live.state is not None and entries:
            module = self._game(live)
            length = record.log_length
            crossed = length // self.snapshot_every > (length - len(entries)) // self.snapshot_every
            if crossed and hasattr(module, "from_position"):
                position = module.to_position(live.state)
                await self.storage.save_snapshot(record.id, length, position)

    async def _write(
        self, live: LiveTable, record: TableRecord, entries: list[LogEntry], state: Any
    ) -> None:
        """Stage and commit at once."""
        self._stage(live, record, entries, state)
        await self._flush(live)

    @contextlib.asynccontextmanager
    async def _session(self, table_id: int) -> AsyncIterator[LiveTable]:
        """Lock and load a table for a changing operation; commit what it staged on the way
        out, or forget it (re-read later) if the operation failed half way."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            try:
                yield live
                await self._flush(live)
            except BaseException:
                if live.dirty:
                    self._live.pop(table_id, None)
                raise
            if not live.record.active:
                # Over for good: free the memory; a later look re-reads it from storage.
                self._live.pop(table_id, None)

    @staticmethod
    def _require_phase(record: TableRecord, phase: Phase) -> TableRecord:
        """``record`` if it is in ``phase``; else refuse, saying where the table is (the
        person knows what they asked for)."""
        if record.phase != phase:
            raise WrongPhase(f"error.phase.{record.phase}")
        return record
