"""The table service's facade: everything that happens at a table, with no transport in it.

A front end (Discord, the terminal) turns a person's request into one call of
:class:`TableService` and delivers the :class:`~bot.model.effects.Effects` it returns. The service
validates the request (raising a :class:`~bot.model.table.TableError` whose message the person
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

Parts: this facade composes the parts of :mod:`bot.service` (each owns its state and is
given what it needs through its constructor) and delegates every public method to one of
them; it holds no rule of its own. Front ends call only this. See :mod:`bot.service`.

Commits: an operation stages its actions in memory (a person's move and the bot turns after
it) and commits them in one transaction, with their log entries, before it returns; nothing
is acknowledged before that, so a crash loses only what nobody was told. With
``defer_bots=True`` the bot turns are instead played afterwards in a background task, each
committed and delivered to the listener on its own.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Any

from bot.after_game.game_result import GameResult
from bot.after_game.ratings import Rating
from bot.after_game.replay import PublicStep
from bot.after_game.standings import HistoryPage, Leaderboard, PlayerStats
from bot.bots.choosers import BotChooser, engine_chooser
from bot.model.clock import Clock, SystemClock
from bot.model.effects import Effects, Listener, PrivateInfo
from bot.model.history import HistoryEntry
from bot.model.outbox import BoardLease, Intent, OutboxItem
from bot.model.table import DEFAULT_BOT_LEVEL, TableRecord
from bot.model.table_memory import TableMemory
from bot.service.announce import Announcer
from bot.service.bot_turns import BotTurns
from bot.service.games import GameLoader, Games, default_loader
from bot.service.hints import Hints, TableHint
from bot.service.live import Changes, LiveFeed
from bot.service.lobby import Lobby
from bot.service.outbox import Outbox
from bot.service.play import Play
from bot.service.rematch import Rematch
from bot.service.results import Results
from bot.service.seasons import Seasons
from bot.service.steps import Steps
from bot.service.store import TableStore
from bot.service.tournaments import LaterHook, Tournaments
from bot.service.turn_clock import Schedule, TurnClock
from bot.service.views import Views
from bot.storage.base import Storage


def _every_guild(_guild_id: int) -> bool:
    return True


@contextlib.asynccontextmanager
async def open_tables(database_url: str, **options: Any) -> AsyncIterator[TableService]:
    """Open the storage of ``database_url`` (created and migrated as needed) and a
    :class:`TableService` over it with ``options``; close the storage on the way out.
    Front ends open the service this way and never touch storage themselves."""
    from bot.storage import open_storage

    storage = await open_storage(database_url)
    try:
        yield TableService(storage, **options)
    finally:
        await storage.close()


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
    ``defer_slow_bots=True`` (with a listener) does so only from the first bot whose level the
    chooser marks slow (``slow_levels``: a ``hard`` search) on, one delivery per slow move: a
    person sees their move at once, and quick bots still answer in the same delivery.
    ``timeouts_before_leave``: after this many turn-clock timeouts in a row a person is treated
    as having left (the absent-player policy takes the seat; C-13.8 leaves the count to us);
    0 never does.
    ``turn_time_scale`` multiplies every turn time of the clock (1; tests and demonstrations
    set less to live through a 60 s turn quickly: the tables still offer and show theirs).
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
        load_game: GameLoader = default_loader,
        snapshot_every: int = 200,
        require_person: bool = True,
        defer_bots: bool = False,
        defer_slow_bots: bool = False,
        timeouts_before_leave: int = 3,
        turn_time_scale: float = 1.0,
    ) -> None:
        #: Read-only for callers: tests read logs through it; front ends ask the service.
        self.storage = storage
        self.clock: Clock = clock or SystemClock()
        self.owns_guild: Callable[[int], bool] = owns_guild or _every_guild
        chooser = choose_bot_move or engine_chooser(bot_time_budget)
        # The parts, from the bottom up: each gets the parts it calls, none calls up.
        self._games = games = Games(load_game)
        self._schedule = schedule = Schedule(turn_time_scale)
        self._results = results = Results(storage, games)
        tournament_hook = LaterHook()
        self._changes = changes = Changes()
        self._outbox = Outbox(storage, self.clock)
        # After each commit: the result of a finished game first, then the clock.
        self._store = store = TableStore(
            storage,
            games,
            self.clock,
            snapshot_every=snapshot_every,
            after_commit=(results, schedule, tournament_hook, changes),
        )
        announcer = Announcer(games)
        steps = Steps(store, games, announcer, self.clock, turn_scale=turn_time_scale)
        self._bots = bots = BotTurns(
            store,
            games,
            steps,
            announcer,
            chooser,
            listener=listener,
            defer_bots=defer_bots,
            defer_slow_bots=defer_slow_bots,
        )
        self._lobby = lobby = Lobby(
            store, games, steps, announcer, bots, self.clock, require_person=require_person
        )
        self._rematch = Rematch(store, lobby, announcer)
        #: Tournaments (#32): front ends call this part directly (see bot.service.tournaments).
        self.tournaments = Tournaments(storage, store, games, results, lobby, self.clock)
        tournament_hook.target = self.tournaments
        #: Seasons (#32): a game's leaderboard over a stretch of time.
        self.seasons = Seasons(storage, games, self.clock)
        self._play = Play(store, games, steps, announcer, bots)
        self._views = Views(store, storage, games, announcer, snapshot_every=snapshot_every)
        #: The live board (#33): reader states, moves by click path, replays, changes.
        self.live = LiveFeed(store, self._play, self._views, results, changes)
        self._hints = Hints(
            store, games, search=getattr(chooser, "hint", None), time_budget=bot_time_budget
        )
        self._clock_loop = TurnClock(
            schedule,
            store,
            games,
            steps,
            bots,
            self.clock,
            listener=listener,
            timeouts_before_leave=timeouts_before_leave,
        )

    # --- the process ---------------------------------------------------------------------------

    async def start(self, owns_guild: Callable[[int], bool] | None = None) -> None:
        """Re-arm the turn clocks of this process's guilds, store the results a crash left
        unstored, and start the clock loop. ``owns_guild`` (when given) replaces the one
        of the constructor: a front end knows its guilds only once it is connected."""
        if owns_guild is not None:
            self.owns_guild = owns_guild
        await self.watch_other_processes()
        await self._results.recover(self.owns_guild)
        self._clock_loop.start(await self._store.tables_with_deadline(), self.owns_guild)
        await self.tournaments.start(self.owns_guild)

    async def watch_other_processes(self) -> None:
        """Hear of every other process's commits (a storage shared by several processes,
        PostgreSQL: its change feed), so the live board follows tables moved elsewhere."""
        watch = getattr(self.storage, "watch_changes", None)
        if watch is not None:
            await watch(self._changes.changed)

    async def stop(self) -> None:
        """Stop the bots' background turns and the clock loop (storage stays open; its owner
        closes it)."""
        await self._bots.stop()
        await self._clock_loop.stop()
        await self.tournaments.stop()

    async def idle(self) -> None:
        """Wait until the background bot turns (``defer_bots``) have all been played."""
        await self._bots.idle()
        await self.tournaments.idle()
        await self._bots.idle()

    async def run_due(self) -> None:
        """Deliver every turn-clock event that is due now (tests call it after moving a
        :class:`~bot.model.clock.FakeClock`)."""
        await self._clock_loop.run_due()
        await self.tournaments.run_due()

    def load_game(self, game: str) -> Any:
        """The engine module of ``game`` (looked up once)."""
        return self._games.module(game)

    @property
    def hint_time_budget(self) -> float:
        """Seconds of CPU the ``hard`` bot may think for a hint."""
        return self._hints.time_budget

    @hint_time_budget.setter
    def hint_time_budget(self, seconds: float) -> None:
        self._hints.time_budget = seconds

    # --- the lobby -----------------------------------------------------------------------------

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
        bot_level: str = DEFAULT_BOT_LEVEL,
        hints: bool = False,
        live_watch: bool = False,
    ) -> Effects:
        """Open a table in the lobby phase (see :meth:`bot.service.lobby.Lobby.create`)."""
        return await self._lobby.create(
            guild_id,
            channel_id,
            game,
            host_id,
            host_name,
            players=players,
            options=options,
            turn_time=turn_time,
            absent_policy=absent_policy,
            seed=seed,
            seat_host=seat_host,
            bot_level=bot_level,
            hints=hints,
            live_watch=live_watch,
        )

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
        return await self._lobby.join(table_id, user_id, name, seat=seat, team=team)

    async def add_bot(
        self,
        table_id: int,
        user_id: int,
        level: str | None = None,
        *,
        seat: int | None = None,
        team: int | None = None,
    ) -> Effects:
        """The host puts a bot of ``level`` (default: the table's level) into a free seat."""
        return await self._lobby.add_bot(table_id, user_id, level, seat=seat, team=team)

    async def remove_bot(self, table_id: int, user_id: int, seat: int) -> Effects:
        """The host frees the bot seat at position ``seat``."""
        return await self._lobby.remove_bot(table_id, user_id, seat)

    async def leave(self, table_id: int, user_id: int) -> Effects:
        """Leave a table (in play, the seat goes to the absent-player policy)."""
        return await self._lobby.leave(table_id, user_id)

    async def kick(self, table_id: int, user_id: int, target_user_id: int) -> Effects:
        """The host removes another person, exactly as if they had left."""
        return await self._lobby.kick(table_id, user_id, target_user_id)

    async def abandon(self, table_id: int, user_id: int, *, can_manage: bool = False) -> Effects:
        """End a table without a result (the host, or a member with Manage Threads)."""
        return await self._lobby.abandon(table_id, user_id, can_manage=can_manage)

    async def start_game(self, table_id: int, user_id: int) -> Effects:
        """The host starts the game with the seated players and bots."""
        return await self._lobby.start_game(table_id, user_id)

    async def set_thread(self, table_id: int, thread_id: int | None) -> TableRecord:
        """Remember the thread the front end opened for this table."""
        return await self._lobby.set_thread(table_id, thread_id)

    async def teams(self, table_id: int) -> list[list[int]] | None:
        """The lobby positions of each team (``None`` for a game without teams)."""
        return self._lobby.teams(await self._store.get(table_id))

    async def rematch(self, table_id: int, user_id: int, name: str) -> Effects:
        """Open the rematch of a finished table, or confirm a kept seat there."""
        return await self._rematch.rematch(table_id, user_id, name)

    # --- play ----------------------------------------------------------------------------------

    async def act(self, table_id: int, user_id: int, move: str, expected_version: int) -> Effects:
        """Play ``move`` for the user's seat (``expected_version``: what the button carried),
        then the bot turns and automatic actions that follow."""
        return await self._play.act(table_id, user_id, move, expected_version)

    async def exchange_pick(
        self, table_id: int, user_id: int, card: str, expected_version: int
    ) -> Effects:
        """Pick (or change) the card to pass to your partner (C-10.5)."""
        return await self._play.exchange_pick(table_id, user_id, card, expected_version)

    async def private_info(self, table_id: int, user_id: int) -> PrivateInfo:
        """What ``user_id`` may see at this table: their seat, view and legal moves."""
        return await self._play.private_info(table_id, user_id)

    async def moved_next(self, table_id: int, user_id: int, version: int) -> bool:
        """Whether the action that moved the table on from ``version`` was ``user_id``'s own
        move (a double click's other click stored it, here or in another process)."""
        return await self._play.moved_next(table_id, user_id, version)

    async def hint(self, table_id: int, user_id: int) -> TableHint:
        """The ``hard`` bot's move for ``user_id``'s seat, on a table with hints."""
        return await self._hints.hint(table_id, user_id)

    # --- reading a table ---------------------------------------------------------------------

    async def get(self, table_id: int) -> TableRecord:
        """The table; :class:`~bot.model.table.TableNotFound` if there is none."""
        return await self._store.get(table_id)

    async def list_tables(
        self, guild_id: int, channel_id: int | None = None, active: bool = True
    ) -> list[TableRecord]:
        """Tables of a guild (or one channel), by default only those in lobby or in play."""
        return await self._store.list_tables(guild_id, channel_id, active)

    async def public_view(self, table_id: int) -> dict[str, Any] | None:
        """The spectator view of the game (``None`` before it starts)."""
        return await self._views.public_view(table_id)

    async def current_board(self, table_id: int) -> tuple[TableRecord, dict[str, Any] | None]:
        """The table and its spectator view, read together (``None`` before the start)."""
        return await self._views.current_board(table_id)

    async def history(
        self,
        table_id: int,
        user_id: int | None,
        *,
        last: int | None = None,
        words: bool = True,
    ) -> tuple[TableRecord, list[HistoryEntry]]:
        """The table and its history as ``user_id`` may see it (``None``: a spectator)."""
        return await self._views.history(table_id, user_id, last=last, words=words)

    async def board_of(self, table_id: int) -> tuple[int, int | None]:
        """The version of the newest board the table's thread received, and its message id."""
        return await self._views.board_of(table_id)

    async def board_delivered(self, table_id: int, version: int, message_id: int | None) -> None:
        """Note that the table's thread received its board for ``version``."""
        await self._views.board_delivered(table_id, version, message_id)

    async def tables_without_board(self) -> list[TableRecord]:
        """This process's tables whose thread has not received the board of their version."""
        return await self._views.tables_without_board(self.owns_guild)

    # --- after the game ------------------------------------------------------------------------

    async def result(self, table_id: int) -> GameResult | None:
        """The result of a finished table (made now if it is missing), else None."""
        return await self._results.result(table_id)

    async def public_history(
        self, table_id: int
    ) -> tuple[TableRecord, Mapping[str, Any], tuple[PublicStep, ...]]:
        """A finished table's public history (what records and replays are made of)."""
        return await self._results.public_history(table_id)

    async def game_record(self, table_id: int) -> dict[str, Any]:
        """The downloadable record of a finished table (public information only)."""
        return await self._results.game_record(table_id)

    async def rating_changes(self, table_id: int) -> dict[str, tuple[float, float]]:
        """How a finished table moved its players' ratings: player -> (mu before, after)."""
        return await self._results.rating_changes(table_id)

    async def recover_results(self) -> int:
        """Store the results of this process's finished tables that have none."""
        return await self._results.recover(self.owns_guild)

    # --- the outbox (bot.model.outbox) ------------------------------------------------------

    @property
    def outbox_lease_seconds(self) -> float:
        """How long this process holds a post it is sending (settings may change it)."""
        return self._outbox.lease_seconds

    @outbox_lease_seconds.setter
    def outbox_lease_seconds(self, seconds: float) -> None:
        self._outbox.lease_seconds = seconds

    async def posts_to_send(self) -> list[OutboxItem]:
        """The posts owed about this process's tables (results, notices, invitations) that
        Discord has not taken yet, oldest first."""
        return await self._outbox.pending(self.owns_guild)

    async def owe_posts(self, intents: Sequence[Intent]) -> None:
        """Store posts owed that no table change carries (one per key, ever)."""
        await self._outbox.add(intents)

    async def claim_post(self, item: OutboxItem) -> bool:
        """Take a post for this process to send; False when it is done or another process
        is sending it."""
        return await self._outbox.claim(item)

    async def post_failed(self, item: OutboxItem) -> None:
        """The post did not go out this time: any process may try it again at once."""
        await self._outbox.release(item)

    async def post_sent(self, item: OutboxItem, message_id: int | None) -> None:
        """Discord took the post as ``message_id`` (None: it never will): not sent again."""
        await self._outbox.done(item, message_id)

    # The posting of a table's boards, one process at a time (bot.service.outbox).

    async def claim_board(self, table_id: int) -> bool:
        """Take (or renew) the posting of the table's boards; False while another process
        holds it."""
        return await self._outbox.claim_board(table_id)

    async def replacing_board(self, table_id: int, message_id: int | None) -> None:
        """Note the digest that this process's board post replaces."""
        await self._outbox.replacing_board(table_id, message_id)

    async def release_board(self, table_id: int) -> None:
        """This process finished posting the table's board."""
        await self._outbox.release_board(table_id)

    async def board_lease(self, table_id: int) -> BoardLease:
        """Who posts the table's boards now, until when, replacing which digest."""
        return await self._outbox.board_lease(table_id)

    def board_lease_held_by_other(self, lease: BoardLease) -> bool:
        """Whether ``lease`` is another process's and still runs."""
        return self._outbox.held_by_other(lease)

    async def rebuild_ratings(
        self, guild_id: int | None = None
    ) -> dict[tuple[int, str], dict[str, Rating]]:
        """Recompute every rating (of one guild) from the stored results and store them."""
        return await self._results.rebuild_ratings(guild_id)

    async def leaderboard(
        self, guild_id: int, game: str, user_id: int | None = None, limit: int = 10
    ) -> Leaderboard:
        """The top ``limit`` of ``game`` on the guild, and ``user_id``'s place."""
        return await self._results.leaderboard(guild_id, game, user_id, limit)

    async def stats(
        self, guild_id: int, user_id: int, game: str | None = None, recent: int = 5
    ) -> PlayerStats:
        """A member's ratings (in ``game`` or every game) and latest results on the guild."""
        return await self._results.stats(guild_id, user_id, game, recent)

    async def finished_tables(
        self,
        guild_id: int,
        user_id: int | None = None,
        game: str | None = None,
        page: int = 0,
        per_page: int = 5,
    ) -> HistoryPage:
        """One page of the guild's finished tables (or a member's), newest first."""
        return await self._results.finished_tables(guild_id, user_id, game, page, per_page)

    @property
    def memory(self) -> TableMemory:
        """Which tables are live: front ends register what they keep per table here, and it
        is released when the table is over or idle (:mod:`bot.model.table_memory`)."""
        return self._store.memory

    # --- for tests ---------------------------------------------------------------------------

    @property
    def store(self) -> TableStore:
        """The table store (tests look at what it holds in memory)."""
        return self._store
