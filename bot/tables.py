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
exchange every seat's button stays valid until that seat itself picks.

Commits: an operation stages its actions in memory (a person's move and the bot turns after
it) and commits them in one transaction, with their log entries, before it returns; nothing
is acknowledged before that, so a crash loses only what nobody was told. With
``defer_bots=True`` the bot turns are instead played afterwards in a background task, each
committed and delivered to the listener on its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.bots import BotChooser, engine_chooser, is_instant
from bot.clock import Clock, SystemClock
from bot.effects import Effects, PrivateInfo, PrivateUpdate, PublicUpdate
from bot.storage.base import Storage
from bot.table_model import (
    ABSENT_BOT_LEVEL,
    ABSENT_POLICIES,
    BOT_LEVELS,
    TURN_TIMES,
    AlreadySeated,
    BadSeat,
    CannotStart,
    IllegalMoveError,
    InvalidTableOptions,
    LogEntry,
    LogKind,
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
)

__all__ = [
    "ABSENT_POLICIES",
    "BOT_LEVELS",
    "TURN_TIMES",
    "AlreadySeated",
    "BadSeat",
    "CannotStart",
    "Effects",
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
    "TableNotFound",
    "TableRecord",
    "TableService",
    "WrongPhase",
]

log = logging.getLogger(__name__)

#: An async callable that delivers effects nobody asked for (turn clock, deferred bots).
Listener = Callable[[Effects], Awaitable[None]]
#: Resolves an engine module by game name (``engine.get_game``; tests may pass their own).
GameLoader = Callable[[str], Any]

#: Moves whose text must never appear in public: the secret exchange pick (C-10.5). Beyond
#: these, any decision taken while several seats decide at once is treated as secret.
_SECRET_PREFIXES: dict[str, tuple[str, ...]] = {"tock": ("G:",), "dog": ("G:",)}
#: A safety net: no single request runs more automatic actions than this.
_MAX_CHAINED_ACTIONS = 5_000
#: How many of the latest log entries a table keeps in memory to judge buttons' versions.
_RECENT_ENTRIES = 256
#: How often (seconds) the clock loop wakes even with nothing due, to notice clock jumps.
_CLOCK_POLL = 30.0


def _default_loader(name: str) -> Any:
    from engine import get_game

    return get_game(name)


class _Conflict(Exception):
    """Another writer changed the table between our read and our write."""


@dataclass(slots=True)
class _Live:
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


class TableService:
    """Creates and runs tables for many guilds in one process. See the module docstring.

    ``storage`` must be open. ``clock`` gives wall time for the turn clock. ``listener``
    receives the effects of turn-clock events (reminders, timeouts and the bot turns after
    them). ``owns_guild`` tells :meth:`start` which guilds' clocks this process arms.
    ``choose_bot_move`` picks bot moves (default: ``engine.bots`` with ``bot_time_budget``).
    ``require_person=False`` lets a game of bots only start (the terminal's demo mode).
    ``defer_bots=True`` (with a listener) returns a person's action at once and plays the bot
    turns after it in the background, delivering each to the listener as it happens; by
    default they are played before returning and come back in the same :class:`Effects`.
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
        timeouts_before_leave: int = 3,
    ) -> None:
        self.storage = storage
        self.clock: Clock = clock or SystemClock()
        self.listener = listener
        self.owns_guild = owns_guild or (lambda _guild: True)
        self.choose_bot_move = choose_bot_move or engine_chooser(bot_time_budget)
        self._load_game = load_game
        self._modules: dict[str, Any] = {}
        self.snapshot_every = snapshot_every
        self.require_person = require_person
        self.defer_bots = defer_bots
        self.timeouts_before_leave = timeouts_before_leave
        self._background: set[asyncio.Task[None]] = set()
        self._live: dict[int, _Live] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._armed: dict[int, float] = {}  # table id -> next clock event (reminder or timeout)
        self._wake = asyncio.Event()
        self._clock_task: asyncio.Task[None] | None = None

    # --- life cycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """Re-arm the turn clocks of this process's guilds and start the clock loop."""
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

    # --- queries ---------------------------------------------------------------------------

    async def get(self, table_id: int) -> TableRecord:
        """The table; :class:`TableNotFound` if there is none."""
        live = self._live.get(table_id)
        if live is not None and self.storage.single_writer:
            return live.record
        record = await self.storage.load_table(table_id)
        if record is None:
            raise TableNotFound(f"There is no table {table_id}.")
        return record

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
            legal = tuple(self._legal_texts(live, seat.index)) if to_act else ()
            return PrivateInfo(
                live.record,
                seat.index,
                game.view(live.state, seat.index),
                legal,
                to_act,
                labels=self._labels(live, legal),
                seven_starts=self._seven_starts(live, seat.index) if to_act else {},
            )

    async def teams(self, table_id: int) -> list[list[int]] | None:
        """The lobby positions of each team (``None`` for a game without teams)."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            return self._lobby_teams(live.record)

    # --- lobby -----------------------------------------------------------------------------

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        game: str,
        host_id: int,
        host_name: str,
        *,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        turn_time: int = 0,
        absent_policy: str = "auto",
        seed: int | None = None,
        seat_host: bool = True,
    ) -> Effects:
        """Open a table in the lobby phase, with the host in seat 0 (unless ``seat_host``).

        ``players`` is the number of seats (default: the game's largest count that is at most
        4). Raises :class:`InvalidTableOptions` naming a bad game, option, player count, turn
        time or absent policy.
        """
        module = self._module_or_error(game)
        counts = tuple(module.PLAYER_COUNTS)
        if players is None:
            players = max((c for c in counts if c <= 4), default=min(counts))
        if players not in counts:
            allowed = ", ".join(str(c) for c in counts)
            raise InvalidTableOptions(f"{game} is played by {allowed} players, not {players}.")
        from engine.protocol import InvalidOptions, validate_options

        try:
            checked = validate_options(module.OPTIONS, options)
            # Some options only fit some player counts (a 2v2 needs 4 players): ask the engine.
            module.new_game(players, checked, 0)
        except InvalidOptions as error:
            raise InvalidTableOptions(f"Invalid option: {error}") from None
        if turn_time not in TURN_TIMES:
            allowed = ", ".join(str(t) for t in TURN_TIMES)
            raise InvalidTableOptions(f"turn time must be one of {allowed} seconds (0 = off).")
        if absent_policy not in ABSENT_POLICIES:
            raise InvalidTableOptions(
                f"absent-player policy must be one of {', '.join(ABSENT_POLICIES)}."
            )
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        now = self.clock.now()
        seats = [Seat(i) for i in range(players)]
        if seat_host:
            seats[0] = Seat(0, user_id=host_id, name=host_name)
        record = TableRecord(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            game=game,
            options=checked,
            seed=seed,
            host_id=host_id,
            seats=tuple(seats),
            players=players,
            turn_time=turn_time,
            absent_policy=absent_policy,
            version=1,
            created_at=now,
            updated_at=now,
        )
        table_id = await self.storage.create_table(record)
        record = record.with_changes(id=table_id)
        self._live[table_id] = _Live(record, stored_version=record.version)
        text = f"{host_name} opened a {game} table for {players} players."
        return Effects(record, [self._lobby_update(record, "created", text)])

    async def join(
        self,
        table_id: int,
        user_id: int,
        name: str,
        *,
        seat: int | None = None,
        team: int | None = None,
    ) -> Effects:
        """Take a free seat (a chosen ``seat`` position, or any free seat of ``team``)."""
        async with self._session(table_id) as live:
            record = self._require_phase(live.record, Phase.LOBBY, "join")
            if record.seat_of(user_id) is not None:
                raise AlreadySeated("You already have a seat at this table.")
            index = self._free_position(record, seat, team)
            seats = list(record.seats)
            seats[index] = Seat(index, user_id=user_id, name=name)
            record = await self._commit_lobby(live, seats)
            text = f"{name} joined (seat {index + 1})."
            return Effects(record, [self._lobby_update(record, "lobby", text)])

    async def add_bot(
        self,
        table_id: int,
        user_id: int,
        level: str = "normal",
        *,
        seat: int | None = None,
        team: int | None = None,
    ) -> Effects:
        """The host puts a bot of ``level`` (easy, normal, hard) into a free seat."""
        if level not in BOT_LEVELS:
            raise InvalidTableOptions(f"bot level must be one of {', '.join(BOT_LEVELS)}.")
        async with self._session(table_id) as live:
            record = self._require_phase(live.record, Phase.LOBBY, "add a bot")
            self._require_host(record, user_id)
            index = self._free_position(record, seat, team)
            seats = list(record.seats)
            seats[index] = Seat(index, name=f"Bot {index + 1} ({level})", bot_level=level)
            record = await self._commit_lobby(live, seats)
            text = f"A {level} bot took seat {index + 1}."
            return Effects(record, [self._lobby_update(record, "lobby", text)])

    async def remove_bot(self, table_id: int, user_id: int, seat: int) -> Effects:
        """The host frees the bot seat at position ``seat``."""
        async with self._session(table_id) as live:
            record = self._require_phase(live.record, Phase.LOBBY, "remove a bot")
            self._require_host(record, user_id)
            if not 0 <= seat < len(record.seats) or not record.seats[seat].is_bot:
                raise BadSeat(f"Seat {seat + 1} is not a bot seat.")
            seats = list(record.seats)
            seats[seat] = Seat(seat)
            record = await self._commit_lobby(live, seats)
            text = f"The bot left seat {seat + 1}."
            return Effects(record, [self._lobby_update(record, "lobby", text)])

    async def leave(self, table_id: int, user_id: int) -> Effects:
        """Leave a table: in the lobby the seat is freed (the host's role passes on, and an
        empty lobby is abandoned); in play the seat goes to the absent-player policy."""
        async with self._session(table_id) as live:
            return await self._remove_person(live, user_id, kicked=False)

    async def kick(self, table_id: int, user_id: int, target_user_id: int) -> Effects:
        """The host removes another person, exactly as if they had left."""
        async with self._session(table_id) as live:
            self._require_host(live.record, user_id)
            if target_user_id == user_id:
                raise BadSeat("You cannot kick yourself; use leave.")
            return await self._remove_person(live, target_user_id, kicked=True)

    async def set_thread(self, table_id: int, thread_id: int | None) -> TableRecord:
        """Remember the thread the front end opened for this table."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            await self.storage.set_thread(table_id, thread_id)
            live.record = live.record.with_changes(thread_id=thread_id)
            return live.record

    async def abandon(self, table_id: int, user_id: int, *, can_manage: bool = False) -> Effects:
        """End a table without a result (the host, or a member with Manage Threads)."""
        async with self._session(table_id) as live:
            record = live.record
            if not record.active:
                raise WrongPhase("This table is already over.")
            if user_id != record.host_id and not can_manage:
                raise NotHost("Only the host or a moderator can abandon this table.")
            return await self._abandon(live, "The table was abandoned.")

    async def start_game(self, table_id: int, user_id: int) -> Effects:
        """The host starts the game with the seated players and bots.

        Every seat must be filled, except in games without teams, where the game starts with
        the seats taken if that number of players is allowed.
        """
        async with self._session(table_id) as live:
            record = self._require_phase(live.record, Phase.LOBBY, "start")
            self._require_host(record, user_id)
            module = self.load_game(record.game)
            taken = [s for s in record.seats if s.user_id is not None or s.is_bot]
            players = len(taken)
            if players < len(record.seats) and self._lobby_teams(record) is not None:
                raise CannotStart(
                    f"All {len(record.seats)} seats must be taken in a team game "
                    f"({players} are); add bots to fill them."
                )
            if players not in module.PLAYER_COUNTS:
                allowed = ", ".join(str(c) for c in module.PLAYER_COUNTS)
                raise CannotStart(f"{record.game} needs {allowed} players; {players} are seated.")
            if self.require_person and not any(s.user_id is not None for s in taken):
                raise CannotStart("At least one person must play.")
            from engine.protocol import InvalidOptions

            try:
                state = module.new_game(players, record.options, record.seed)
            except InvalidOptions as error:
                raise CannotStart(f"These options do not fit {players} players: {error}") from None
            engine_seats = list(module.view(state, None)["seats"])
            seats = tuple(
                Seat(
                    engine_seats[i],
                    user_id=s.user_id,
                    name=s.name,
                    bot_level=s.bot_level,
                )
                for i, s in enumerate(taken)
            )
            new = record.with_changes(
                seats=seats,
                players=players,
                phase=Phase.PLAYING,
                version=record.version + 1,
                extra={**record.extra, "started_version": record.version + 1},
            )
            new = self._with_clock(new, module, state, previous=frozenset())
            self._stage(live, new, [], state)
            effects = Effects(new)
            view = module.view(state, None)
            effects.public.append(
                PublicUpdate(
                    table_id,
                    "started",
                    f"The game of {record.game} begins.",
                    new.version,
                    view,
                    tuple(view["to_act"]),
                )
            )
            self._private_updates(live, effects, actor=None, previous=frozenset())
            await self._follow_up(live, effects)
            return effects

    # --- play ------------------------------------------------------------------------------

    async def act(self, table_id: int, user_id: int, move: str, expected_version: int) -> Effects:
        """Play ``move`` (a full move, one segment of a pending 7, a figure action, an exchange
        pick) for the user's seat, then the bot turns and automatic actions that follow.

        ``expected_version`` is the version the button or prompt carried.
        """
        for _attempt in range(3):
            try:
                async with self._session(table_id) as live:
                    return await self._act(live, user_id, move.strip(), expected_version)
            except _Conflict:
                continue  # another process wrote first: re-read and judge again
        raise StaleVersion()

    async def exchange_pick(
        self, table_id: int, user_id: int, card: str, expected_version: int
    ) -> Effects:
        """Pick the card to pass to your partner (race games' exchange, C-10.5)."""
        return await self.act(table_id, user_id, f"G:{card.strip()}", expected_version)

    async def run_due(self) -> None:
        """Deliver every turn-clock event that is due now (reminders and timeouts).

        The clock loop calls this; tests call it after moving a :class:`FakeClock`.
        """
        now = self.clock.now()
        for table_id, when in sorted(self._armed.items(), key=lambda item: item[1]):
            if when > now:
                continue
            try:
                effects = await self._clock_event(table_id, now)
            except TableError:
                self._armed.pop(table_id, None)
                continue
            except _Conflict:
                # Another process moved the table on: arm whatever deadline it stored.
                record = await self.storage.load_table(table_id)
                if record is not None and record.deadline is not None and record.active:
                    self._arm(record)
                continue
            except Exception:  # one broken table must not stop the others' clocks
                log.exception("turn clock of table %s failed", table_id)
                continue
            if effects is not None and self.listener is not None:
                await self.listener(effects)

    # --- internals: loading and writing ------------------------------------------------------

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
            raise InvalidTableOptions(f"There is no game called {game!r}.") from None

    def _game(self, live: _Live) -> Any:
        return self.load_game(live.record.game)

    async def _load(self, table_id: int) -> _Live:
        """The table in memory, re-read if another process changed it since."""
        live = self._live.get(table_id)
        if live is not None and self.storage.single_writer:
            return live
        stored_version = await self.storage.load_version(table_id)
        if stored_version is None:
            self._live.pop(table_id, None)
            raise TableNotFound(f"There is no table {table_id}.")
        if live is not None and live.record.version == stored_version:
            return live
        record = await self.storage.load_table(table_id)
        if record is None:
            raise TableNotFound(f"There is no table {table_id}.")
        live = _Live(record, stored_version=record.version)
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
        if entry.kind == LogKind.MOVE:
            assert entry.seat is not None
            return self._apply_move(module, state, entry.seat, entry.text)[0]
        if entry.kind == LogKind.AUTO:
            return module.auto_action(state, entry.seat)
        if entry.kind == LogKind.LEAVE:
            return module.leave(state, entry.seat)
        return state

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
            if parsed not in legal and module.seats_to_act(state) != frozenset({seat}):
                raise IllegalMove(f"{text} is not a legal move for you now.")
            return module.apply(state, parsed), str(parsed)
        except IllegalMove as error:
            raise IllegalMoveError(str(error) or f"{text} is not a legal move.") from None

    def _stage(self, live: _Live, record: TableRecord, entries: list[LogEntry], state: Any) -> None:
        """Change the table in memory; :meth:`_flush` commits it before anyone is told."""
        live.record = record.with_changes(
            updated_at=self.clock.now(), log_length=live.record.log_length + len(entries)
        )
        live.pending.extend(entries)
        live.recent.extend(entries)
        live.state = state
        live.dirty = True

    async def _flush(self, live: _Live) -> None:
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
            raise _Conflict()
        live.stored_version = record.version
        live.pending = []
        live.dirty = False
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
        self, live: _Live, record: TableRecord, entries: list[LogEntry], state: Any
    ) -> None:
        """Stage and commit at once."""
        self._stage(live, record, entries, state)
        await self._flush(live)

    @contextlib.asynccontextmanager
    async def _session(self, table_id: int) -> AsyncIterator[_Live]:
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

    async def _commit_lobby(
        self, live: _Live, seats: Sequence[Seat], **changes: Any
    ) -> TableRecord:
        record = live.record.with_changes(
            seats=tuple(seats), version=live.record.version + 1, **changes
        )
        try:
            await self._write(live, record, [], None)
        except _Conflict:
            self._live.pop(record.id, None)
            raise TableError("The table changed at the same moment; please try again.") from None
        return live.record

    # --- internals: validation ---------------------------------------------------------------

    @staticmethod
    def _require_phase(record: TableRecord, phase: Phase, what: str) -> TableRecord:
        if record.phase != phase:
            where = {
                Phase.LOBBY: "still in its lobby",
                Phase.PLAYING: "already being played",
                Phase.FINISHED: "finished",
                Phase.ABANDONED: "abandoned",
            }[record.phase]
            raise WrongPhase(f"You cannot {what} now: this table is {where}.")
        return record

    @staticmethod
    def _require_host(record: TableRecord, user_id: int) -> None:
        if user_id != record.host_id:
            raise NotHost("Only the host of this table can do that.")

    def _lobby_teams(self, record: TableRecord) -> list[list[int]] | None:
        """Teams as lobby positions, from a trial game (``None`` if the game has none)."""
        module = self.load_game(record.game)
        try:
            view = module.view(module.new_game(len(record.seats), record.options, 0), None)
        except Exception:
            return None
        teams = view.get("teams")
        if not teams:
            return None
        position = {seat: i for i, seat in enumerate(view["seats"])}
        return [sorted(position[s] for s in team) for team in teams]

    def _free_position(self, record: TableRecord, seat: int | None, team: int | None) -> int:
        free = [s.index for s in record.seats if s.user_id is None and not s.is_bot]
        if seat is not None:
            if not 0 <= seat < len(record.seats):
                raise BadSeat(f"There is no seat {seat + 1}; seats are 1 to {len(record.seats)}.")
            if seat not in free:
                raise TableFull(f"Seat {seat + 1} is taken.")
            return seat
        if team is not None:
            teams = self._lobby_teams(record)
            if teams is None:
                raise BadSeat("This game has no teams.")
            if not 0 <= team < len(teams):
                raise BadSeat(f"There is no team {team + 1}; teams are 1 to {len(teams)}.")
            free = [p for p in free if p in teams[team]]
            if not free:
                raise TableFull(f"Team {team + 1} is full.")
        if not free:
            raise TableFull("This table is full.")
        return free[0]

    def _check_version(self, live: _Live, seat: int, expected: int) -> None:
        """Stale if the version is from before the start or this seat has acted since."""
        record = live.record
        if expected > record.version or expected < record.extra.get("started_version", 0):
            raise StaleVersion()
        for entry in reversed(live.recent):
            if entry.version <= expected:
                return
            if entry.seat == seat and entry.kind in (LogKind.MOVE, LogKind.AUTO):
                raise StaleVersion()
        if len(live.recent) == live.recent.maxlen:
            raise StaleVersion()  # older than anything kept in memory: surely over

    # --- internals: acting -------------------------------------------------------------------

    async def _act(self, live: _Live, user_id: int, move: str, expected: int) -> Effects:
        record = live.record
        seat = record.seat_of(user_id)
        if seat is None or seat.left:
            raise NotSeated("You are not playing at this table.")
        self._require_phase(record, Phase.PLAYING, "move")
        self._check_version(live, seat.index, expected)
        module = self._game(live)
        if seat.index not in module.seats_to_act(live.state):
            raise NotYourTurn("It is not your turn.")
        if not move:
            raise IllegalMoveError("Say which move to play.")
        effects = Effects(record)
        await self._step(live, effects, LogKind.MOVE, seat.index, move)
        missed = record.extra.get("timeouts", {})
        if str(seat.index) in missed:
            # The person is back: only timeouts in a row count. (Staged with the move.)
            rest = {k: v for k, v in missed.items() if k != str(seat.index)}
            live.record = live.record.with_changes(extra={**live.record.extra, "timeouts": rest})
        await self._follow_up(live, effects)
        return effects

    async def _step(
        self, live: _Live, effects: Effects, kind: LogKind, seat: int, move: str = ""
    ) -> None:
        """Apply one logged action, commit it, and add its updates to ``effects``."""
        module = self._game(live)
        before = frozenset(module.seats_to_act(live.state))
        secret = self._is_secret(live, before)
        if kind == LogKind.MOVE:
            state, text = self._apply_move(module, live.state, seat, move)
        elif kind == LogKind.AUTO:
            state, text = module.auto_action(live.state, seat), ""
        else:
            state, text = module.leave(live.state, seat), ""
        version = live.record.version + 1
        entry = LogEntry(live.record.log_length, kind, seat, text, version)
        record = self._after_action(live.record, module, state, version, before)
        self._stage(live, record, [entry], state)
        effects.table = live.record
        self._public_action(live, effects, kind, seat, text, secret=secret)
        self._private_updates(live, effects, actor=seat, previous=before)

    def _after_action(
        self,
        record: TableRecord,
        module: Any,
        state: Any,
        version: int,
        previous: frozenset[int],
    ) -> TableRecord:
        outcome = module.outcome(state)
        if outcome is not None:
            return record.with_changes(
                version=version,
                phase=Phase.FINISHED,
                winners=tuple(outcome.winners),
                deadline=None,
                reminded=False,
            )
        return self._with_clock(record.with_changes(version=version), module, state, previous)

    def _with_clock(
        self, record: TableRecord, module: Any, state: Any, previous: frozenset[int]
    ) -> TableRecord:
        """Set the turn clock: a new deadline when a person newly owes a decision; kept while
        the same people still owe theirs (exchange picks, a 7's segments, a figure)."""
        if not record.turn_time:
            return record
        humans = {s.index for s in record.seats if s.is_human}
        owing = frozenset(module.seats_to_act(state)) & humans
        if not owing:
            return record.with_changes(deadline=None, reminded=False)
        if record.deadline is not None and owing <= (previous & humans):
            return record
        return record.with_changes(deadline=self.clock.now() + record.turn_time, reminded=False)

    async def _follow_up(self, live: _Live, effects: Effects) -> None:
        """Run the bot turns and automatic actions after an operation: now (into ``effects``),
        or, with ``defer_bots``, in a background task that delivers each to the listener."""
        if not (self.defer_bots and self.listener is not None):
            await self._advance(live, effects)
            return
        task = asyncio.create_task(self._advance_later(live.record.id))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _advance_later(self, table_id: int) -> None:
        """Play the pending bot turns one at a time, each committed and delivered on its own,
        so other requests at this table can come in between."""
        assert self.listener is not None
        more = True
        while more:
            try:
                async with self._session(table_id) as live:
                    effects = Effects(live.record)
                    more = await self._advance(live, effects, limit=1)
            except _Conflict:
                continue
            except Exception:
                log.exception("bot turns at table %s failed", table_id)
                return
            if effects.public or effects.private:
                await self.listener(effects)

    async def idle(self) -> None:
        """Wait until the background bot turns (``defer_bots``) have all been played."""
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

    async def _advance(
        self, live: _Live, effects: Effects, *, limit: int = _MAX_CHAINED_ACTIONS
    ) -> bool:
        """Play what nobody needs to be asked for: left seats' automatic actions and bot turns,
        until a person owes a decision or the game is over (then return False), or until
        ``limit`` actions were played (then return True: more may follow)."""
        module = self._game(live)
        for _ in range(limit):
            record = live.record
            if record.phase != Phase.PLAYING:
                return False
            to_act = sorted(module.seats_to_act(live.state))
            by_index = {s.index: s for s in record.seats}
            left = [s for s in to_act if by_index[s].left]
            if left:
                await self._step(live, effects, LogKind.AUTO, left[0])
                continue
            bots = [s for s in to_act if by_index[s].is_bot]
            if not bots:
                return False
            seat = bots[0]
            legal = self._legal_texts(live, seat)
            view = module.view(live.state, seat)
            level = by_index[seat].bot_level or ABSENT_BOT_LEVEL
            bot_seed = (record.seed * 1_000_003 + record.version * 101 + seat) % (1 << 63)
            args = (record.game, view, level, legal, bot_seed)
            if is_instant(self.choose_bot_move):
                text = self.choose_bot_move(*args)
            else:
                # A thinking bot must never block the other tables.
                text = await asyncio.to_thread(self.choose_bot_move, *args)
            try:
                await self._step(live, effects, LogKind.MOVE, seat, text)
            except IllegalMoveError:
                log.warning("bot at table %s chose illegal %r; random move", record.id, text)
                fallback = random.Random(bot_seed).choice(legal)
                await self._step(live, effects, LogKind.MOVE, seat, fallback)
        if limit == _MAX_CHAINED_ACTIONS:
            log.error("table %s: too many automatic actions in a row", live.record.id)
        return True

    def _legal_texts(self, live: _Live, seat: int) -> list[str]:
        return [str(m) for m in self._game(live).legal_moves(live.state, seat)]

    def _labels(self, live: _Live, legal: Sequence[str]) -> tuple[str, ...]:
        describe = getattr(self._game(live), "describe_move", None)
        if describe is None:
            return tuple(legal)
        labels = []
        for text in legal:
            try:
                labels.append(str(describe(live.state, text)))
            except Exception:  # words are a nicety; the move text always works
                labels.append(text)
        return tuple(labels)

    def _seven_starts(self, live: _Live, seat: int) -> dict[str, tuple[str, ...]]:
        """The first segments of a split 7 per 7-like card in the seat's hand, if any."""
        module = self._game(live)
        seven_starts = getattr(module, "seven_starts", None)
        if seven_starts is None:
            return {}
        hand = module.view(live.state, seat).get("hand") or []
        result: dict[str, tuple[str, ...]] = {}
        for card in sorted({c for c in hand if c in ("7", "X")}):
            try:
                starts = seven_starts(live.state, card)
            except Exception:  # the engine refuses (e.g. single-7 tables): nothing to offer
                continue
            if starts:
                result[card] = tuple(str(s) for s in starts)
        return result

    async def _remove_person(
        self, live: _Live, user_id: int, *, kicked: bool, timed_out: bool = False
    ) -> Effects:
        record = live.record
        seat = record.seat_of(user_id)
        if not record.active:
            raise WrongPhase("This table is already over.")
        if seat is None or seat.left:
            raise NotSeated(
                "That person has no seat at this table."
                if kicked
                else "You have no seat at this table."
            )
        verb = "was removed from" if kicked else "left"
        if timed_out:
            verb = "ran out of time too often and left"
        if record.phase == Phase.LOBBY:
            seats = list(record.seats)
            seats[seat.index] = Seat(seat.index)
            people = [s for s in seats if s.user_id is not None]
            if not people:
                return await self._abandon(live, f"{seat.name} {verb} and the table is empty.")
            host = record.host_id
            text = f"{seat.name} {verb} the table."
            if host == user_id:
                host = people[0].user_id or host
                text += f" {people[0].name} is the host now."
            record = await self._commit_lobby(live, seats, host_id=host)
            return Effects(record, [self._lobby_update(record, "lobby", text)])
        # In play: hand the seat to the engine (auto) or to a bot.
        remaining = [s for s in record.seats if s.is_human and s.user_id != user_id]
        if not remaining:
            return await self._abandon(live, f"{seat.name} {verb} and no person is left playing.")
        effects = Effects(record)
        seats = list(record.seats)
        position = seats.index(seat)
        module = self._game(live)
        before = frozenset(module.seats_to_act(live.state))
        version = record.version + 1
        if record.absent_policy == "bot":
            seats[position] = Seat(
                seat.index,
                name=f"{seat.name} (bot)",
                bot_level=ABSENT_BOT_LEVEL,
                former_user_id=user_id,
            )
            entry = LogEntry(record.log_length, LogKind.BOT, seat.index, "", version)
            state = live.state
            text = f"{seat.name} {verb} the game; a bot plays their seat now."
        else:
            seats[position] = Seat(seat.index, name=seat.name, left=True, former_user_id=user_id)
            entry = LogEntry(record.log_length, LogKind.LEAVE, seat.index, "", version)
            state = module.leave(live.state, seat.index)
            text = f"{seat.name} {verb} the game; their seat plays automatically now."
        host = record.host_id
        if host == user_id:
            host = remaining[0].user_id or host
            text += f" {remaining[0].name} is the host now."
        new = self._after_action(
            record.with_changes(seats=tuple(seats), host_id=host), module, state, version, before
        )
        self._stage(live, new, [entry], state)
        effects.table = live.record
        view = live.public_view(module)
        effects.public.append(
            PublicUpdate(
                record.id,
                "action",
                text,
                new.version,
                view,
                tuple(view["to_act"]),
                actor=seat.index,
                events=self._public_events(state) if entry.kind == LogKind.LEAVE else (),
                finished=new.phase == Phase.FINISHED,
                winners=new.winners,
            )
        )
        self._private_updates(live, effects, actor=seat.index, previous=before)
        await self._follow_up(live, effects)
        return effects

    async def _abandon(self, live: _Live, text: str) -> Effects:
        record = live.record.with_changes(
            phase=Phase.ABANDONED, version=live.record.version + 1, deadline=None, reminded=False
        )
        await self._write(live, record, [], live.state)
        self._live.pop(record.id, None)
        return Effects(record, [self._lobby_update(record, "abandoned", text)])

    # --- internals: effects ------------------------------------------------------------------

    def _lobby_update(self, record: TableRecord, kind: str, text: str) -> PublicUpdate:
        return PublicUpdate(record.id, kind, text, record.version)

    @staticmethod
    def _public_events(state: Any) -> tuple[Mapping[str, Any], ...]:
        events = getattr(state, "events", ()) or ()
        return tuple(e.to_json() for e in events if getattr(e, "public", True))

    def _seat_name(self, record: TableRecord, seat: int) -> str:
        for s in record.seats:
            if s.index == seat:
                return s.name or f"Seat {seat}"
        return f"Seat {seat}"

    def _is_secret(self, live: _Live, to_act: frozenset[int]) -> bool:
        """Whether a decision taken now must stay secret: during an exchange phase, or
        whenever several seats decide at once."""
        if len(to_act) > 1:
            return True
        return live.public_view(self._game(live)).get("phase") == "exchange"

    def _public_action(
        self,
        live: _Live,
        effects: Effects,
        kind: LogKind,
        seat: int,
        text: str,
        *,
        secret: bool,
    ) -> None:
        record = live.record
        module = self._game(live)
        view = live.public_view(module)
        events = self._public_events(live.state)
        name = self._seat_name(record, seat)
        secret = secret or text.startswith(_SECRET_PREFIXES.get(record.game, ()))
        if kind == LogKind.AUTO:
            words = f"{name} did not act in time; the automatic action was taken."
            if any(s.index == seat and s.left for s in record.seats):
                words = f"Automatic action for {name}."
        elif secret:
            words = f"{name} chose a card to pass."
        else:
            words = f"{name} played {text}."
        details = " ".join(str(e["text"]) for e in events if e.get("text"))
        if details and kind == LogKind.MOVE and not secret:
            words = f"{name}: {details}"  # the engine's own words already name the move
        elif details:
            words = f"{words} {details}"
        finished = record.phase == Phase.FINISHED
        if finished:
            winners = ", ".join(self._seat_name(record, w) for w in record.winners)
            words += f" Game over: {winners} won." if winners else " Game over."
        effects.public.append(
            PublicUpdate(
                record.id,
                "finished" if finished else "action",
                words,
                record.version,
                view,
                tuple(view["to_act"]),
                actor=seat,
                move=None if secret or kind != LogKind.MOVE else text,
                events=events,
                finished=finished,
                winners=record.winners,
            )
        )

    def _private_updates(
        self, live: _Live, effects: Effects, *, actor: int | None, previous: frozenset[int]
    ) -> None:
        """Tell each person what changed for them: their hand, a received card, private
        events, and that they owe a decision (with a ping when it is newly theirs)."""
        record = live.record
        module = self._game(live)
        to_act = frozenset(module.seats_to_act(live.state)) if record.phase == Phase.PLAYING else ()
        events = getattr(live.state, "events", ()) or ()
        for seat in record.seats:
            if not seat.is_human or seat.user_id is None:
                continue
            view = module.view(live.state, seat.index)
            hand = tuple(view.get("hand") or ())
            received = view.get("received")
            old = live.last_private.get(seat.index)
            live.last_private[seat.index] = (hand, received)
            base = (record.id, seat.user_id, seat.index)
            if old is not None and received is not None and old[1] != received:
                effects.private.append(
                    PrivateUpdate(
                        *base,
                        "received",
                        f"Your partner passed you {received}.",
                        record.version,
                        view,
                    )
                )
            for event in events:
                if not getattr(event, "public", True) and event.seat == seat.index and event.text:
                    effects.private.append(
                        PrivateUpdate(*base, "event", event.text, record.version, view)
                    )
            if seat.index in to_act and (seat.index not in previous or seat.index == actor):
                legal = tuple(self._legal_texts(live, seat.index))
                effects.private.append(
                    PrivateUpdate(
                        *base, "your_turn", "It is your turn.", record.version, view, legal
                    )
                )
                if seat.index not in previous and seat.user_id not in effects.pings:
                    effects.pings.append(seat.user_id)
            elif old is None or old[0] != hand:
                effects.private.append(
                    PrivateUpdate(*base, "hand", "Your hand changed.", record.version, view)
                )

    # --- internals: the turn clock -----------------------------------------------------------

    def _arm(self, record: TableRecord) -> None:
        assert record.deadline is not None
        when = record.deadline
        if not record.reminded:
            when = record.deadline - record.turn_time / 2
        self._armed[record.id] = when
        self._wake.set()

    async def _clock_loop(self) -> None:
        while True:
            self._wake.clear()
            now = self.clock.now()
            delay = min([*(w - now for w in self._armed.values()), _CLOCK_POLL])
            if delay > 0:
                sleeper = asyncio.ensure_future(self.clock.sleep(delay))
                waker = asyncio.ensure_future(self._wake.wait())
                await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
                sleeper.cancel()
                waker.cancel()
            try:
                await self.run_due()
            except Exception:  # a failing table must not stop every other table's clock
                log.exception("turn clock failed")

    async def _clock_event(self, table_id: int, now: float) -> Effects | None:
        self._armed.pop(table_id, None)
        async with self._session(table_id) as live:
            record = live.record
            if record.phase != Phase.PLAYING or record.deadline is None:
                return None
            module = self._game(live)
            humans = {s.index: s for s in record.seats if s.is_human}
            owing = sorted(set(module.seats_to_act(live.state)) & set(humans))
            if now < record.deadline:
                if record.reminded:
                    self._arm(record)
                    return None
                new = record.with_changes(reminded=True)
                await self._write(live, new, [], live.state)
                left = int(record.deadline - now)
                effects = Effects(live.record)
                effects.public.append(
                    PublicUpdate(
                        table_id,
                        "reminder",
                        f"Half the turn time is gone ({left} s left).",
                        new.version,
                        to_act=tuple(owing),
                    )
                )
                for seat in owing:
                    user = humans[seat].user_id
                    assert user is not None
                    effects.pings.append(user)
                    effects.private.append(
                        PrivateUpdate(
                            table_id,
                            user,
                            seat,
                            "reminder",
                            f"Your turn: {left} seconds left.",
                            new.version,
                        )
                    )
                return effects
            effects = Effects(record)
            for seat in owing:
                if live.record.phase != Phase.PLAYING:
                    break
                if seat not in module.seats_to_act(live.state):
                    continue
                user = humans[seat].user_id
                assert user is not None
                missed = dict(live.record.extra.get("timeouts", {}))
                missed[str(seat)] = missed.get(str(seat), 0) + 1
                if self.timeouts_before_leave and missed[str(seat)] >= self.timeouts_before_leave:
                    # Away for good, it seems: the seat goes to the absent-player policy.
                    removed = await self._remove_person(live, user, kicked=False, timed_out=True)
                    effects.extend(removed)
                    continue
                await self._step(live, effects, LogKind.AUTO, seat)
                extra = {**live.record.extra, "timeouts": missed}
                live.record = live.record.with_changes(extra=extra)
                effects.private.append(
                    PrivateUpdate(
                        table_id,
                        user,
                        seat,
                        "timeout",
                        "Your time ran out; the automatic action was taken.",
                        live.record.version,
                    )
                )
            if live.record.phase == Phase.PLAYING and (live.record.deadline or now + 1) <= now:
                # The same person still owes a decision (or nobody does): restart the clock.
                cleared = live.record.with_changes(deadline=None, reminded=False)
                fresh = self._with_clock(cleared, module, live.state, frozenset())
                await self._write(live, fresh, [], live.state)
            await self._advance(live, effects)
            return effects
