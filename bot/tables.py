"""The table service: everything that happens at a table, with no transport in it.

A front end (Discord, the terminal) turns a person's request into one call of
:class:`TableService` and delivers the :class:`~bot.effects.Effects` it returns. The service
validates the request (raising a :class:`~bot.table_model.TableError` whose message the person
can read), asks the engine, commits the result to storage *before* returning, then plays the
bot turns and automatic actions that follow.

Concurrency: one :class:`asyncio.Lock` per table serialises operations inside a process, and
the storage's optimistic ``version`` check refuses a second write to the same turn from another
process; the loser re-reads the table and is told "That turn is over." when its decision was
already taken.

Versions: a table's ``version`` grows by one on every change (lobby change, start, each logged
action). A button carries the version it was drawn at; :meth:`TableService.act` refuses it
(:class:`StaleVersion`) when the same seat has acted (or been acted for) since, or the game
started since. Other seats' actions in between do not make it stale, so in a simultaneous
exchange every seat's button stays valid until that seat itself picks. A seat that picked
may change its pick while the exchange is open (C-10.5) with a button drawn after its pick.

Parts: this module is the public entry point and holds the queries; the operations live in
mixins with their own modules: :mod:`bot.table_lobby` (seats, start, leave),
:mod:`bot.table_play` (moves and picks), :mod:`bot.bot_turns` (bots and left seats),
:mod:`bot.turn_clock` (deadlines), :mod:`bot.table_updates` (effects and secrecy) over
:mod:`bot.table_core` (tables in memory, replay, commits). What a reader may see of a table's
history is decided in :mod:`bot.table_history` (:meth:`TableService.history`).

Commits: an operation stages its actions in memory (a person's move and the bot turns after
it) and commits them in one transaction, with their log entries, before it returns; nothing
is acknowledged before that, so a crash loses only what nobody was told. With
``defer_bots=True`` the bot turns are instead played afterwards in a background task, each
committed and delivered to the listener on its own.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from bot.bot_turns import BotTurnsMixin
from bot.bots import BotChooser, engine_chooser
from bot.clock import Clock, SystemClock
from bot.effects import Effects, PrivateInfo, PrivateUpdate, PublicUpdate
from bot.replay import entry_events
from bot.storage.base import Storage
from bot.table_core import GameLoader, Listener, LiveTable, _default_loader
from bot.table_hints import HintsMixin, HintsOff, TableHint
from bot.table_history import EventFacts, HistoryEntry, partners_of, reader_history
from bot.table_model import (
    ABSENT_POLICIES,
    BOT_LEVELS,
    TURN_TIMES,
    AlreadySeated,
    BadSeat,
    CannotStart,
    IllegalMoveError,
    InvalidTableOptions,
    NotHost,
    NotSeated,
    NotYourTurn,
    Phase,
    Seat,
    StaleVersion,
    TableError,
    TableFull,
    TableNotFound,
    TableRecord,
    WrongPhase,
    check_table_id,
)
from bot.table_play import PlayMixin
from bot.table_rematch import RematchMixin
from bot.table_results import ResultsMixin
from bot.turn_clock import TurnClockMixin

__all__ = [
    "ABSENT_POLICIES",
    "BOT_LEVELS",
    "TURN_TIMES",
    "AlreadySeated",
    "BadSeat",
    "CannotStart",
    "Effects",
    "HintsOff",
    "HistoryEntry",
    "IllegalMoveError",
    "InvalidTableOptions",
    "Listener",
    "NotHost",
    "NotSeated",
    "NotYourTurn",
    "Phase",
    "PrivateInfo",
    "PrivateUpdate",
    "PublicUpdate",
    "Seat",
    "StaleVersion",
    "TableError",
    "TableFull",
    "TableHint",
    "TableNotFound",
    "TableRecord",
    "TableService",
    "WrongPhase",
]


class TableService(
    RematchMixin, PlayMixin, BotTurnsMixin, TurnClockMixin, HintsMixin, ResultsMixin
):
    """Creates and runs tables for many guilds in one process. See the module docstring.

    ``storage`` must be open. ``clock`` gives wall time for the turn clock. ``listener``
    receives the effects of turn-clock events (reminders, timeouts and the bot turns after
    them). ``owns_guild`` tells :meth:`start` which guilds' clocks this process arms.
    ``choose_bot_move`` picks bot moves (default: ``engine.bots`` with ``bot_time_budget``).
    ``require_person=False`` lets a game of bots only start (the terminal's demo mode).
    ``defer_bots=True`` (with a listener) returns a person's action at once and plays the bot
    turns after it in the background, delivering each to the listener as it happens; by
    default they are played before returning and come back in the same :class:`Effects`.
    ``defer_slow_bots=True`` (with a listener) does so only from the first bot whose level the
    chooser marks slow (``slow_levels``: a ``hard`` search) on, one delivery per slow move: a
    person sees their move at once, and quick bots still answer in the same delivery.
    ``timeouts_before_leave``: after this many turn-clock timeouts in a row a person is treated
    as having left (the absent-player policy takes the seat; C-13.8 leaves the count to us);
    0 never does.
    ``snapshot_every`` > 0 keeps a ``to_position`` snapshot every that many log entries, for
    engines that can load one (``from_position``), so a cold load replays only the tail.
    """

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Clock | None = None,
        listener: Listener | None = None,
        owns_guild: Callable[[int], bool] | None = None,
        choose_bot_move: BotChooser | None = None,
        bot_time_budget: float = 1.0,
        load_game: GameLoader = _default_loader,
        snapshot_every: int = 200,
        require_person: bool = True,
        defer_bots: bool = False,
        defer_slow_bots: bool = False,
        timeouts_before_leave: int = 3,
    ) -> None:
        self.storage = storage
        self.clock: Clock = clock or SystemClock()
        self.listener = listener
        self.owns_guild = owns_guild or (lambda _guild: True)
        self.choose_bot_move = choose_bot_move or engine_chooser(bot_time_budget)
        self.hint_time_budget = bot_time_budget
        self._load_game = load_game
        self._modules: dict[str, Any] = {}
        self.snapshot_every = snapshot_every
        self.require_person = require_person
        self.defer_bots = defer_bots
        self.defer_slow_bots = defer_slow_bots
        self.timeouts_before_leave = timeouts_before_leave
        self._background: set[asyncio.Task[None]] = set()
        self._thinkers: set[int] = set()  # tables whose slow bots think in the background
        self._rethink: set[int] = set()  # ... and that changed since their thinker last looked
        self._live: dict[int, LiveTable] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._armed: dict[int, float] = {}  # table id -> next clock event (reminder or timeout)
        self._wake = asyncio.Event()
        self._clock_task: asyncio.Task[None] | None = None
        self._histories = {}  # finished tables' public histories (bot.table_results)

    async def start(self, owns_guild: Callable[[int], bool] | None = None) -> None:
        """Re-arm the turn clocks of this process's guilds, store the results a crash left
        unstored, and start the clock loop. ``owns_guild`` (when given) replaces the one
        of the constructor: a front end knows its guilds only once it is connected."""
        if owns_guild is not None:
            self.owns_guild = owns_guild
        await self.recover_results()
        for record in await self.storage.tables_with_deadline():
            if self.owns_guild(record.guild_id):
                self._arm(record)
        if self._clock_task is None:
            self._clock_task = asyncio.create_task(self._clock_loop(), name="turn-clock")

    async def stop(self) -> None:
        """Stop the clock loop (storage stays open; its owner closes it)."""
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        if self._clock_task is not None:
            self._clock_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._clock_task
            self._clock_task = None

    async def results_to_post(self) -> list[TableRecord]:
        """This process's finished tables whose results post has not reached their thread
        yet, oldest first (a crash or a refused post left them)."""
        found: list[TableRecord] = []
        for table_id in await self.storage.unposted_results():
            record = await self.storage.load_table(table_id)
            if record is not None and self.owns_guild(record.guild_id):
                found.append(record)
        return found

    async def results_posted(self, table_id: int) -> None:
        """Note that the table's results post reached its thread (it is not posted again)."""
        await self.storage.mark_posted(check_table_id(table_id))

    async def get(self, table_id: int) -> TableRecord:
        """The table; :class:`TableNotFound` if there is none."""
        check_table_id(table_id)
        live = self._live.get(table_id)
        if live is not None and self.storage.single_writer:
            return live.record
        record = await self.storage.load_table(table_id)
        if record is None:
            raise TableNotFound(table=table_id)
        return record

    async def board_of(self, table_id: int) -> tuple[int, int | None]:
        """The version of the newest board the table's thread received, and its message id
        (``(0, None)`` before any board); :class:`TableNotFound` if there is no table."""
        board = await self.storage.load_board(check_table_id(table_id))
        if board is None:
            raise TableNotFound(table=table_id)
        return board

    async def board_delivered(self, table_id: int, version: int, message_id: int | None) -> None:
        """Note that the table's thread received its board for ``version`` (no version change;
        a front end calls it after posting, so a missing board can be posted again later)."""
        await self.storage.set_board(check_table_id(table_id), version, message_id)

    async def tables_without_board(self) -> list[TableRecord]:
        """This process's tables whose thread has not received the board of their version."""
        return [r for r in await self.storage.tables_without_board() if self.owns_guild(r.guild_id)]

    async def list_tables(
        self, guild_id: int, channel_id: int | None = None, active: bool = True
    ) -> list[TableRecord]:
        """Tables of a guild (or one channel), by default only those in lobby or in play."""
        return await self.storage.list_tables(guild_id, channel_id, active)

    async def public_view(self, table_id: int) -> dict[str, Any] | None:
        """The spectator view of the game (``None`` before it starts)."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            if live.state is None:
                return None
            return dict(live.public_view(self._game(live)))

    async def current_board(self, table_id: int) -> tuple[TableRecord, dict[str, Any] | None]:
        """The table and its spectator view, read together (``None`` before the start)."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            if live.state is None:
                return live.record, None
            return live.record, dict(live.public_view(self._game(live)))

    async def private_info(self, table_id: int, user_id: int) -> PrivateInfo:
        """What ``user_id`` may see at this table: their seat, view and legal moves."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            seat = live.record.seat_of(user_id)
            if seat is None or live.state is None:
                view = None
                if live.state is not None:
                    view = live.public_view(self._game(live))
                return PrivateInfo(live.record, None if seat is None else seat.index, view)
            game = self._game(live)
            to_act = (
                seat.index in game.seats_to_act(live.state) and live.record.phase == Phase.PLAYING
            )
            legal: tuple[str, ...] = ()
            if to_act or self._may_change_pick(live, seat.index):
                legal = tuple(self._legal_texts(live, seat.index))
            view = game.view(live.state, seat.index)
            pick = view.get("my_pick") if view.get("phase") == "exchange" else None
            return PrivateInfo(
                live.record,
                seat.index,
                view,
                legal,
                to_act,
                labels=self._labels(live, seat.index, legal),
                seven_starts=self._seven_starts(live, seat.index) if to_act else {},
                pick=None if pick is None else str(pick),
                stuck=self._stuck_now(live, seat.index, legal) if to_act else None,
            )

    def _stuck_now(
        self, live: LiveTable, seat: int, legal: tuple[str, ...]
    ) -> dict[str, Any] | None:
        """Why ``seat`` must discard or fold now (the engine's facts), when its only moves are
        a fold or discards without a ban; None otherwise (the engine is not asked then)."""
        explain = getattr(self._game(live), "stuck_reason", None)
        if explain is None or not legal:
            return None
        if legal != ("F",) and not all(m.endswith(":D") for m in legal):
            return None
        facts: dict[str, Any] | None = explain(live.state, seat)
        return facts

    async def history(
        self,
        table_id: int,
        user_id: int | None,
        *,
        last: int | None = None,
        words: bool = True,
    ) -> tuple[TableRecord, list[HistoryEntry]]:
        """The table and its history as ``user_id`` may see it (``None``: a spectator).

        What a reader may know of each entry is decided in :mod:`bot.table_history`: picks
        stay secret (C-10.5) during the game and after it. Front ends, records and replays
        read a table's log only through this.

        ``last``: only the newest ``last`` entries (all when ``None``). ``words``: with each
        returned entry's public events, the facts its sentences are made of; they come from
        replaying the log, so a reader who wants notation only should say so.
        """
        async with self._lock(table_id):
            live = await self._load(table_id)
            record = live.record
            entries = await self.storage.load_log(table_id)
            seat = None if user_id is None else record.seat_of(user_id)
            reader = None if seat is None else seat.index
            partners: dict[int, int] = {}
            exchange_open = False
            board = None
            if live.state is not None:
                view = live.public_view(self._game(live))
                partners = partners_of(view.get("teams"))
                exchange_open = view.get("phase") == "exchange"
                # A race board's size lets places be said from a pawn's start; it never
                # changes in a game (Carcassonne's board is no help to its sentences).
                board = view.get("board") if record.game != "carcassonne" else None
            start = 0 if last is None else max(0, len(entries) - last)
            replay = words and live.state is not None and start < len(entries)
            snapshot = None
            if replay and self.snapshot_every:
                snapshot = await self.storage.load_snapshot(table_id)
        told: dict[int, tuple[EventFacts, ...]] = {}
        if replay:
            # Replaying a long game takes up to a few hundred milliseconds: not on the event
            # loop, and not holding the table (the entries, record and snapshot are ours).
            module = self.load_game(record.game)
            told = await asyncio.to_thread(entry_events, module, record, entries, start, snapshot)
        history = reader_history(
            record.game,
            entries,
            reader,
            partners=partners,
            exchange_open=exchange_open,
            told=told,
            board=board,
            names=self._event_names(record),
        )
        return record, history[start:]

    async def teams(self, table_id: int) -> list[list[int]] | None:
        """The lobby positions of each team (``None`` for a game without teams)."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            return self._lobby_teams(live.record)
