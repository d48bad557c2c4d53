"""The front desk: turns interactions into table-service calls and effects into messages.

It decides nothing about a game: every rule, permission and turn check is the service's; the
desk only acknowledges in time, asks, and shows the answer. Refusals (:class:`TableError`)
are answered privately with the service's sentence.

The desk sits on top of the front end: it creates the publisher, the after-game pages and the
replay viewer, and sends each click to its handler (the race or the Carcassonne prompts, by the
table's game). Nothing it imports imports it back: the handlers see it through the protocols
of :mod:`bot.discord_ui.desk_port`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands

from bot.discord_ui import race_prompts, tile_prompts
from bot.discord_ui.after_game import AfterGame
from bot.discord_ui.click_route import ClickRoute
from bot.discord_ui.components import BOARD_ACTIONS
from bot.discord_ui.custom_ids import BadCustomId, ControlId
from bot.discord_ui.delivery_queue import DeliveryQueue
from bot.discord_ui.hints import hint_text
from bot.discord_ui.live_links import LAUNCH_ACTION, launch
from bot.discord_ui.open_hands import MoveLists, OpenHands
from bot.discord_ui.outbox import OutboxSender
from bot.discord_ui.prompts import InvalidChoice, OutOfDate
from bot.discord_ui.publisher import Publisher, board_link, lobby_text, lobby_view
from bot.discord_ui.rendering import Renderer
from bot.discord_ui.replay_viewer import ACTION as REPLAY_ACTION
from bot.discord_ui.replay_viewer import ReplayViewer
from bot.discord_ui.replies import INTERACTION_ACKNOWLEDGED, answer_click, reply_private
from bot.discord_ui.texts import GAME_TITLES, display_name, seat_name
from bot.discord_ui.tournament_commands import TOURNAMENT_ACTIONS
from bot.discord_ui.tournament_commands import on_click as tournament_click
from bot.discord_ui.translator import guild_locale_of, locale_of
from bot.model.effects import Effects
from bot.model.history import HistoryEntry
from bot.model.table import DEFAULT_BOT_LEVEL, Phase, TableError, TableNotFound, TableRecord
from bot.model.table_memory import PerTable
from i18n import t
from i18n.catalog import use_game_terms
from i18n.history import history_line

if TYPE_CHECKING:
    from discord.ext import commands

    from bot.service import TableService

log = logging.getLogger(__name__)

#: Controls on public messages (lobby, board): answered through an ephemeral deferral.
PUBLIC_ACTIONS = frozenset(
    {"join", "leave", "bot", "botlvl", "start", "hand", "tile", "put", "rematch", "replay"}
)
#: Lobby controls carry no meaningful version.
LOBBY_ACTIONS = frozenset({"join", "leave", "bot", "botlvl", "start"})
#: How many of the newest log entries ``/table log`` shows at most (fewer when their lines
#: would not fit one message of ``MESSAGE_LIMIT`` characters).
LOG_LINES = 40
#: The most characters Discord accepts in one message.
MESSAGE_LIMIT = 2000
#: ``/table board`` posts a table's board at most once in this many seconds; inside the
#: window it answers with a link to the board (anyone may run it, and each post is an image).
REPOST_WINDOW = 30.0
#: Seconds between two looks for boards that could not be posted.
RETRY_INTERVAL = 15.0


def log_text(
    table: TableRecord,
    history: Sequence[HistoryEntry],
    locale: str = "en",
    *,
    notation: bool = False,
    limit: int = MESSAGE_LIMIT,
) -> str:
    """``/table log``'s answer: the newest entries of ``history`` that fit ``limit``
    characters, in words (or in notation when asked), saying how many older ones are left
    out. ``history`` is the reader's, as the service gave it (picks kept secret)."""
    title = t("desk.log_title", locale, table=table.id)
    if not history:
        return f"{title}\n{t('desk.log_empty', locale)}"
    lines = [
        history_line(
            entry, seat_name(table, entry.seat, locale), locale, game=table.game, notation=notation
        )
        for entry in history
    ]
    older = history[0].number - 1  # the entries before the ones the service returned
    for start in range(len(lines)):
        left_out = older + start
        note = [t("desk.log_older", locale, count=left_out)] if left_out else []
        text = "\n".join([title, *note, *lines[start:]])
        if len(text) <= limit:
            return text
    return text[:limit]  # one line longer than a message: unheard of, but never refused


#: Seconds a closing bot waits for the boards of moves it answered (the retry tick of the next
#: start posts whatever did not go out).
DETACH_WAIT = 10.0


class FrontDesk:
    """The bridge between Discord and :class:`bot.service.TableService`."""

    def __init__(self, service: TableService | None, renderer: Renderer | None = None) -> None:
        self.renderer = renderer or Renderer.load()
        self.publisher = Publisher(self.renderer)
        # None only until ``open_service`` wires the service, whose listener this desk is.
        service = cast("TableService", service)
        # The after-game pages and the replay viewer get what they use, not the desk (they
        # would import it back); the service setter below hands them a later service too.
        self.replays = ReplayViewer(service, self.renderer)
        self.after = AfterGame(
            service,
            self.publisher,
            self.renderer,
            self.replays,
            self.open_lobby,
            self._deliver_later,
        )
        #: Sends the posts owed about tables (results, notices, invitations) exactly once.
        self.outbox = OutboxSender(service, self.publisher)
        self.outbox.builders.update(self.after.builders())
        self.after.outbox = self.outbox
        self.service = service
        self.publisher.on_finished = self.after.post_results
        self.bot: commands.Bot | None = None
        #: Seeds for new tables; None lets the service draw a random one. Tests fix it.
        self.seeds: list[int] | None = None
        self._games: PerTable[str] = PerTable()
        self._tasks: set[asyncio.Task[None]] = set()
        #: Each table's deliveries in order, those that queue up merged (see deliver_soon).
        self.deliveries = DeliveryQueue(self._deliver_now)
        #: Posts about changes already answered (run_soon), awaited with the deliveries.
        self._side_posts: set[asyncio.Task[None]] = set()
        #: The hands players keep open, edited whenever something changes for them.
        self.hands = OpenHands(lambda: self.service.clock.now())
        # The thread pings no one whose open hand follows the game and who just acted on it.
        self.publisher.prompt_since = self._hand_since
        self.publisher.now = lambda: self.service.clock.now()
        #: The move lists ``/move`` offered lately (its autocomplete).
        self.move_lists = MoveLists()
        #: Seconds between retry ticks (:meth:`redeliver`).
        self.retry_interval = RETRY_INTERVAL
        #: The clock of ``/table board``'s window (tests move it).
        self.monotonic: Callable[[], float] = time.monotonic
        self._reposted: PerTable[float] = PerTable()
        self._retry_task: asyncio.Task[None] | None = None
        #: The tables the previous retry tick found behind, and their versions (None before
        #: the first tick).
        self._behind: dict[int, int] | None = None

    @property
    def service(self) -> TableService:
        """The table service (the publisher records delivered boards through it)."""
        return self._service

    @service.setter
    def service(self, service: TableService) -> None:
        # ``open_service`` creates the desk before the service (whose listener the desk is):
        # the parts that hold the service get it here.
        self._service = service
        self.publisher.service = service
        self.after.service = service
        self.outbox.service = service
        self.replays.service = service
        # What the desk keeps per table goes when the table is over or idle (issue #37).
        memory = getattr(service, "memory", None)
        if memory is not None:
            memory.register(
                *self.publisher.per_table(),
                self._games,
                self._reposted,
                *self.hands.per_table(),
                self.move_lists,
                self.deliveries,
            )

    def _hand_since(self, table_id: int, user_id: int) -> float | None:
        """When ``user_id`` last acted on their open hand at the table, if it is open."""
        hand = self.hands.live(table_id, user_id)
        return None if hand is None else hand.since

    def game_of(self, table_id: int) -> str | None:
        """The game of a table if this process has seen it (saves a read per click)."""
        return self._games.get(table_id)

    def remember(self, table: TableRecord) -> None:
        """Note a table's game (tables never change game)."""
        self._games[table.id] = table.game

    def seed_for_new_table(self) -> int | None:
        """The seed of the next table (from :attr:`seeds` when a test fixed them)."""
        if self.seeds:
            return self.seeds.pop(0)
        return None

    async def attach(self, bot: commands.Bot) -> None:
        """Called from the bot's ``setup_hook``: remember the bot for posting messages, and
        start the retry ticks that post the boards Discord did not get."""
        self.bot = bot
        self.publisher.bot = bot
        if self._retry_task is None and self.service is not None:
            self._retry_task = asyncio.create_task(self._retry_ticks(), name="board-retry")
        # Results posts an earlier process could not deliver go out once the bot is ready
        # (after the service's start-up, which also makes results a crash left unmade).
        task = asyncio.create_task(self._post_pending_results(bot))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def detach(self) -> None:
        """Called when the bot closes: let the boards of answered moves go out (briefly),
        then stop the retry ticks and the pending results posts."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.deliveries_done(), DETACH_WAIT)
        for pending in list(self._tasks):
            pending.cancel()
        task, self._retry_task = self._retry_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _retry_ticks(self) -> None:
        assert self.bot is not None
        # The first tick runs as soon as the bot is connected: on start, every table of this
        # process whose board a previous process did not post (killed in between) gets it.
        await self.bot.wait_until_ready()
        log.info("ready: posting the boards threads did not get, every %s s", self.retry_interval)
        while True:
            try:
                await self.redeliver()
                await self.outbox.flush()  # posts a failure or a crash left unsent
            except Exception:  # a bug must not end the ticks for good
                log.exception("the retry tick failed")
            await asyncio.sleep(self.retry_interval)

    async def redeliver(self) -> int:
        """Post the board of every table of this process whose thread has not received it;
        return how many tables were brought up to date."""
        try:
            tables = await self.service.tables_without_board()
        except Exception:
            log.warning("could not look for boards to post", exc_info=True)
            return 0
        posted = 0
        # A board on its way is no missing board: its delivery runs (here), or its move came
        # after the previous tick (here or in another process). A board still missing one tick
        # later is; at start-up (the first tick) every one is: the process before was killed.
        seen, self._behind = self._behind, {t.id: t.version for t in tables}
        for table in tables:
            if self.publisher.delivering(table.id) or (
                seen is not None and seen.get(table.id) != table.version
            ):
                continue
            if await self._posted_elsewhere(table.id):
                continue  # another process holds the table's posts: its board is on its way
            log.info("posting the board of table %s, which its thread did not get", table.id)
            try:
                await self.publisher.ensure_board(table.id)
                posted += 1
            except TableError:
                continue  # gone meanwhile
            except discord.HTTPException as error:
                if 400 <= error.status < 500 and error.status != 429:
                    # Discord will never take it (the thread was deleted, the bot may no
                    # longer post there): stop trying, the game itself is stored.
                    log.warning("giving up the board of table %s: %s", table.id, error)
                    await self.service.board_delivered(table.id, table.version, None)
                else:
                    log.warning(
                        "the board of table %s is still not posted (%s); next try in %s s",
                        table.id,
                        error.status,
                        self.retry_interval,
                    )
            except Exception:
                log.exception("posting the missing board of table %s failed", table.id)
        return posted

    async def _posted_elsewhere(self, table_id: int) -> bool:
        """Whether another process holds the posting of the table's boards right now."""
        try:
            lease = await self.service.board_lease(table_id)
        except Exception:  # the database cannot say: the nonce still makes one message
            return False
        return self.service.board_lease_held_by_other(lease)

    async def _post_pending_results(self, bot: commands.Bot) -> None:
        try:
            await bot.wait_until_ready()
            await self.after.post_pending()
        except Exception:
            if not bot.is_closed():  # a bot that stops meanwhile posts them at its next start
                log.exception("posting pending results failed")

    async def on_effects(self, effects: Effects) -> None:
        """The service's listener: effects with no interaction (turn clock, bots after it)."""
        try:
            await self.deliver(effects)
        except Exception:
            log.exception("delivering effects of table %s failed", effects.table.id)

    async def deliver(self, effects: Effects, *, refresh: bool = True) -> None:
        """Send the public part of ``effects`` (after the table's earlier deliveries, see
        :mod:`bot.discord_ui.delivery_queue`) and wait until it went out. The move is already
        stored: a board Discord did not take is posted by the next retry tick (or the next
        click on an old board).

        Then (unless ``refresh`` is False) the open hands of the people concerned are
        brought up to date.
        """
        done = self.deliveries.put(effects, refresh=refresh, wait=True)
        assert done is not None
        await done

    async def _deliver_now(
        self, effects: Effects, refresh: bool, skip: int | None, via: ClickRoute | None
    ) -> None:
        """One delivery of the queue: the boards (through ``via`` where they may), then the
        open hands but ``skip``'s."""
        self.remember(effects.table)
        # This task says the table's messages in its game's words (the open hands too).
        use_game_terms(effects.table.game)
        try:
            await self.publisher.deliver(effects, via=via)
        except discord.HTTPException as error:
            log.warning(
                "delivering effects of table %s failed (%s); the board follows later",
                effects.table.id,
                error.status,
            )
        if refresh:
            await self.refresh_hands(effects, skip=skip)

    def deliver_soon(
        self,
        effects: Effects,
        *,
        skip: int | None = None,
        then: Callable[[], Awaitable[None]] | None = None,
        via: discord.Interaction | None = None,
    ) -> None:
        """Deliver ``effects`` (then refresh the open hands but ``skip``'s, then ``then``) in
        the background: the person who acted is answered as soon as the move is stored, not
        after the board was drawn and posted. The table's queue keeps its deliveries in
        order, and merges those that wait (:mod:`bot.discord_ui.delivery_queue`). ``via``:
        the click that made them, whose interaction may carry their board
        (:mod:`bot.discord_ui.click_route`)."""
        route = ClickRoute.of(via, self.service.clock.now()) if via is not None else None
        self.deliveries.put(effects, skip=skip, then=then, via=route)

    def run_soon(self, work: Callable[[], Awaitable[None]], what: str) -> None:
        """Run ``work`` (posts about a change already stored and answered: a tournament's
        sign-up post, its round's threads) in a task of its own, among the deliveries
        :meth:`deliveries_done` waits for; a failure is logged with ``what``."""

        async def logged() -> None:
            try:
                await work()
            except Exception:
                log.exception("%s failed", what)

        task = asyncio.create_task(logged())
        self._side_posts.add(task)
        task.add_done_callback(self._side_posts.discard)

    async def _deliver_later(self, effects: Effects) -> None:
        """:meth:`deliver_soon` for the after-game pages (a rematch seat confirmed): the
        click is answered without waiting for the lobby's edit."""
        self.deliver_soon(effects)

    async def deliveries_done(self) -> None:
        """Wait until every delivery :meth:`deliver_soon` started has ended (tests look at
        the thread after it; the bot closes after it)."""
        while tasks := [*self.deliveries.tasks(), *self._side_posts]:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def refresh_hands(self, effects: Effects, *, skip: int | None = None) -> None:
        """Edit the open hands ``effects`` concern (see :mod:`bot.discord_ui.open_hands`)."""
        try:
            await race_prompts.refresh_hands(self, effects, skip=skip)
        except Exception:
            log.exception("refreshing the open hands of table %s failed", effects.table.id)

    # --- commands --------------------------------------------------------------------------

    async def new_table(
        self,
        interaction: discord.Interaction,
        game: str,
        players: int,
        options: Mapping[str, Any],
        turn_time: int,
        hints: bool = False,
        *,
        bot_level: str = DEFAULT_BOT_LEVEL,
        live_watch: bool = False,
    ) -> None:
        """``/<game> new``: create the table, post its lobby and open its thread; its bots
        play at ``bot_level`` unless the host adds one of another level; ``live_watch`` lets
        anyone with the link watch its live board (#33)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        channel = interaction.channel
        locale, public = locale_of(interaction), guild_locale_of(interaction)
        if interaction.guild_id is None or channel is None:
            await reply_private(interaction, t("desk.server_only", locale))
            return
        if isinstance(channel, discord.Thread):
            await reply_private(interaction, t("desk.not_in_thread", locale))
            return
        try:
            effects = await self.service.create(
                interaction.guild_id,
                channel.id,
                game,
                interaction.user.id,
                display_name(interaction.user),
                players=players,
                options=engine_options(game, options),
                turn_time=turn_time,
                seed=self.seed_for_new_table(),
                hints=hints,
                bot_level=bot_level,
                live_watch=live_watch,
            )
        except TableError as error:
            await reply_private(interaction, error.text(locale))
            return
        table: TableRecord = effects.table
        thread = await self.open_lobby(channel, table, public, interaction.user.id)
        if thread is None:
            await reply_private(interaction, t("desk.cannot_post", locale))
            return
        await reply_private(
            interaction, t("desk.opened", locale, table=table.id, thread=thread.mention)
        )

    async def open_lobby(
        self, channel: Any, table: TableRecord, public: str, user_id: int
    ) -> discord.Thread | None:
        """Post a new table's lobby in ``channel`` and open its thread; None (and the table
        abandoned) when Discord refuses."""
        self.remember(table)
        try:
            lobby = await channel.send(
                lobby_text(table, public),
                view=lobby_view(table, public) or discord.utils.MISSING,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            game = GAME_TITLES.get(table.game, table.game)
            title = t("desk.thread_title", public, game=game, table=table.id)
            thread: discord.Thread = await lobby.create_thread(
                name=title, auto_archive_duration=1440
            )
        except discord.HTTPException as error:
            log.warning("could not open the lobby/thread of table %s: %s", table.id, error)
            await self.service.abandon(table.id, user_id, can_manage=True)
            return None
        await self.service.set_thread(table.id, thread.id)
        await thread.send(
            t("desk.thread_first", public, table=table.id),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        return thread

    async def autocomplete_tables(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The active tables of this channel (or of the channel a thread belongs to)."""
        if interaction.guild_id is None or interaction.channel is None:
            return []
        channel = interaction.channel
        channel_id = channel.parent_id if isinstance(channel, discord.Thread) else channel.id
        tables = await self.service.list_tables(interaction.guild_id, channel_id, active=True)
        choices = []
        for table in tables:
            host = seat_name(table, 0) if table.seats else "?"
            name = t(
                "desk.autocomplete",
                locale_of(interaction),
                table=table.id,
                game=GAME_TITLES.get(table.game, table.game),
                phase=t(f"phase.{table.phase}", locale_of(interaction)),
                host=host,
            )
            if current and current.lower() not in name.lower():
                continue
            choices.append(app_commands.Choice(name=name[:100], value=table.id))
        return choices[:25]

    async def resolve_table(self, interaction: discord.Interaction, table_id: int | None) -> int:
        """The table a command means (see :meth:`_resolve_table`)."""
        return await self._resolve_table(interaction, table_id)

    async def _resolve_table(self, interaction: discord.Interaction, table_id: int | None) -> int:
        """The table a ``/table`` command means: given, this thread's, or the only one here.

        A table number of another server means no table: its seats, moves and board are
        nobody's business here.
        """
        channel = interaction.channel
        guild_id = interaction.guild_id or 0
        if table_id is not None:
            await self._of_this_server(interaction, table_id)
            return table_id
        if isinstance(channel, discord.Thread):
            for table in await self.service.list_tables(guild_id, channel.parent_id, active=False):
                if table.thread_id == channel.id:
                    use_game_terms(table.game)
                    return int(table.id)
        channel_id = channel.id if channel is not None else None
        tables = await self.service.list_tables(guild_id, channel_id, active=True)
        if len(tables) == 1:
            use_game_terms(tables[0].game)
            return int(tables[0].id)
        if not tables:
            raise TableError("desk.no_table_here")
        raise TableError("desk.several_tables")

    async def _of_this_server(self, interaction: discord.Interaction, table_id: int) -> None:
        """Refuse a table of another server as if it did not exist (a typed number or a
        crafted custom_id must not reach another server's table)."""
        table = await self.service.get(table_id)
        if table.guild_id != (interaction.guild_id or 0):
            raise TableNotFound(table=table_id)
        # The rest of this interaction's task says the table's messages in its game's words.
        use_game_terms(table.game)

    async def table_command(
        self,
        interaction: discord.Interaction,
        action: str,
        table_id: int | None,
        *,
        member: discord.Member | None = None,
        team: int | None = None,
        notation: bool = False,
    ) -> None:
        """``/table <action>``: every answer is private; public changes go to lobby/thread.
        ``notation``: ``/table log`` in notation instead of words."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = interaction.user
        locale = locale_of(interaction)
        try:
            tid = await self._resolve_table(interaction, table_id)
            if action == "join":
                effects = await self.service.join(
                    tid, user.id, display_name(user), team=None if team is None else team - 1
                )
                answer = t("desk.joined", locale)
            elif action == "leave":
                effects = await self.service.leave(tid, user.id)
                answer = t("desk.left", locale)
            elif action == "start":
                effects = await self.service.start_game(tid, user.id)
                answer = t("desk.started", locale)
            elif action == "abandon":
                effects = await self.service.abandon(
                    tid, user.id, can_manage=_can_manage(interaction)
                )
                answer = t("desk.abandoned", locale)
            elif action == "kick":
                assert member is not None
                effects = await self.service.kick(tid, user.id, member.id)
                answer = t("desk.kicked", locale, name=display_name(member))
            elif action == "status":
                await reply_private(interaction, await self._status_text(tid, locale))
                return
            elif action == "board":
                await self._repost_board(interaction, tid, locale)
                return
            elif action == "log":
                text = await self._log_text(tid, user.id, locale, notation=notation)
                await reply_private(interaction, text)
                return
            elif action == "hint":
                await reply_private(interaction, await hint_text(self, tid, user.id, locale))
                return
            else:  # pragma: no cover - the command list is fixed
                raise TableError("cmd.error.failed")
        except TableError as error:
            await reply_private(interaction, error.text(locale))
            return
        except Exception:
            log.exception("/table %s failed", action)
            await reply_private(interaction, t("desk.something_wrong", locale))
            return
        then = None
        if action in ("leave", "kick") and effects.table.phase is Phase.PLAYING:
            # The lobby lists who plays; a seat handed to a bot or the rules shows there.
            table = effects.table
            then = functools.partial(self.publisher.refresh_lobby, table)
        # Answers first: the change is stored; its public posts follow in the background.
        self.deliver_soon(effects, then=then)
        await reply_private(interaction, answer)

    async def _status_text(self, table_id: int, locale: str = "en") -> str:
        table = await self.service.get(table_id)
        return lobby_text(table, locale)

    async def _log_text(
        self, table_id: int, user_id: int, locale: str = "en", *, notation: bool = False
    ) -> str:
        """The newest moves as ``user_id`` may see them (the service keeps picks secret), in
        words, or in notation when asked."""
        table, history = await self.service.history(
            table_id, user_id, last=LOG_LINES, words=not notation
        )
        return log_text(table, history, locale, notation=notation)

    async def _repost_board(
        self, interaction: discord.Interaction, table_id: int, locale: str = "en"
    ) -> None:
        table = await self.service.get(table_id)
        if table.phase is not Phase.PLAYING:
            raise TableError("desk.not_playing")
        # A missing board is posted whatever the window; a present one at most every
        # REPOST_WINDOW seconds (anyone may ask, and each post is a full image).
        version, newest = await self.service.board_of(table_id)
        now = self.monotonic()
        recent = now - self._reposted.get(table_id, -REPOST_WINDOW) < REPOST_WINDOW
        if version >= table.version and newest is not None and recent:
            link = board_link(table, newest)
            await reply_private(interaction, t("robust.board_recent", locale, link=link))
            return
        posted = await self.publisher.repost_board(table_id)
        self._reposted[table_id] = now
        if posted is None:
            await reply_private(interaction, t("desk.board_posted", locale))
            return
        link = board_link(table, posted)
        await reply_private(interaction, t("robust.board_posted", locale, link=link))

    async def _newest_board(self, table_id: int) -> tuple[TableRecord, int] | None:
        """The table and its newest board's message id, after posting that board if the
        thread never received it; None when there is no board (or Discord is down)."""
        try:
            if self.deliveries.under_way(table_id):
                # The delivery under way posts the newest board: a click must not wait for
                # it (behind Discord's pace that can take seconds), the recorded one answers.
                newest = (await self.service.board_of(table_id))[1]
            else:
                newest = await self.publisher.ensure_board(table_id)
            table = await self.service.get(table_id)
        except TableError:
            return None
        except discord.HTTPException as error:
            log.warning("could not post the newest board of table %s (%s)", table_id, error.status)
            return None
        return None if newest is None else (table, newest)

    async def newest_board_text(
        self, table_id: int, locale: str, clicked: int | None = None
    ) -> str:
        """The answer to a click on an old board: the board moved on, here is the newest
        (posted first if the thread never received it)."""
        try:
            await self.service.get(table_id)
        except TableNotFound:
            return t("error.invalid_control", locale)  # a crafted id: no such board
        except TableError:
            pass
        found = await self._newest_board(table_id)
        if found is None or found[1] == clicked:
            return t("error.out_of_date", locale)
        table, newest = found
        return t("robust.board_moved", locale, link=board_link(table, newest))

    async def on_old_board(self, interaction: discord.Interaction, control: ControlId) -> None:
        """A click on a board control that is no longer on its message (the controls were
        removed when a newer board came): point at the newest board."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = locale_of(interaction)
        try:
            await self._of_this_server(interaction, control.table)
        except TableError:
            await reply_private(interaction, t("error.invalid_control", locale))
            return
        await reply_private(interaction, await self.newest_board_text(control.table, locale))

    # --- components -----------------------------------------------------------------------

    async def _launch_activity(self, interaction: discord.Interaction, control: ControlId) -> None:
        """Open the live board's Activity, for a table of this server while it is served."""
        try:
            await self._of_this_server(interaction, control.table)
        except TableError as error:
            await reply_private(interaction, error.text(locale_of(interaction)))
            return
        if self.publisher.live is None or not self.publisher.live.activity:
            await reply_private(interaction, t("error.invalid_control", locale_of(interaction)))
            return
        await launch(interaction, self.publisher.live, control.table)

    async def on_control(
        self, interaction: discord.Interaction, control: ControlId, values: list[str]
    ) -> None:
        """A click on one of our buttons or selects."""
        if control.action == LAUNCH_ACTION:  # the live board's Activity (#33): answered first
            await self._launch_activity(interaction, control)
            return
        if control.action in TOURNAMENT_ACTIONS:  # a tournament's sign-up post (#32)
            await tournament_click(self, interaction, control)
            return
        public = control.action in PUBLIC_ACTIONS
        message = interaction.message
        if not public and (message is None or not message.flags.ephemeral):
            # A prompt's control updates its own private message in place; on a public
            # message (only a crafted one can carry it) that edit would be public.
            await reply_private(interaction, t("error.invalid_control", locale_of(interaction)))
            return
        # Acknowledge first: storage and rendering can take longer than Discord's 3 s. Clicks
        # on public messages get an *ephemeral* deferral so every answer to them is private;
        # clicks in a private prompt update that prompt in place.
        try:
            if public:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
        except discord.HTTPException as error:
            if error.code != INTERACTION_ACKNOWLEDGED:
                raise
            # Two processes got the click (they overlap during a rolling restart): the other
            # one answers it. Expected, so one line, no traceback.
            log.info("click %s was acknowledged by another process", interaction.id)
            return
        try:
            if control.action not in self.after.TABLELESS_ACTIONS:
                await self._of_this_server(interaction, control.table)
            if control.action in BOARD_ACTIONS and message is not None:
                # Any click on a board that is not the newest (anyone's: spectators too)
                # points at the newest, posting it first if the thread never got it.
                found = await self._newest_board(control.table)
                if found is not None and found[1] != message.id:
                    link = board_link(found[0], found[1])
                    text = t("robust.board_moved", locale_of(interaction), link=link)
                    await reply_private(interaction, text)
                    return
            if control.action in LOBBY_ACTIONS:
                await self._lobby_action(interaction, control, values)
            elif control.action in self.after.ACTIONS:
                await self.after.on_control(interaction, control)
            elif control.action == REPLAY_ACTION:
                await self.replays.on_control(interaction, control)
            else:
                await self._play_control(interaction, control, values)
        except TableError as error:
            locale = locale_of(interaction)
            await answer_click(interaction, error.text(locale), public=public)
        except InvalidChoice:
            await answer_click(
                interaction, t("robust.invalid_choice", locale_of(interaction)), public=public
            )
        except OutOfDate:
            clicked = interaction.message.id if interaction.message is not None else None
            text = await self.newest_board_text(control.table, locale_of(interaction), clicked)
            await answer_click(interaction, text, public=public)
        except BadCustomId:
            # A crafted custom_id (its arguments are read only now): bad input, not a bug.
            log.info("refused the malformed control %s", control)
            await answer_click(
                interaction, t("error.invalid_control", locale_of(interaction)), public=public
            )
        except Exception:
            # A bug must still end in an answer, not in an eternal "thinking…".
            log.exception("control %s failed", control)
            await answer_click(
                interaction, t("desk.something_wrong", locale_of(interaction)), public=public
            )

    async def _play_control(
        self, interaction: discord.Interaction, control: ControlId, values: list[str]
    ) -> None:
        """A play control goes to the race or the Carcassonne prompts, by the table's game
        (remembered when this process has seen the table: a click saves a read)."""
        game = self.game_of(control.table) or (await self.service.get(control.table)).game
        if game == "carcassonne":
            await tile_prompts.handle(self, interaction, control, values)
        else:
            await race_prompts.handle(self, interaction, control, values)

    async def _lobby_action(
        self, interaction: discord.Interaction, control: ControlId, values: list[str]
    ) -> None:
        user = interaction.user
        tid = control.table
        locale = locale_of(interaction)
        if (await self.service.get(tid)).phase is not Phase.LOBBY:
            # The lobby's buttons go when the game starts; one clicked later (a stale client,
            # a crafted id) must not act on the game: "Leave" would give up a seat in play.
            await reply_private(interaction, t("robust.lobby_closed", locale))
            return
        if control.action == "join":
            effects = await self.service.join(tid, user.id, display_name(user))
            answer = t("lobby.joined", locale)
        elif control.action == "leave":
            effects = await self.service.leave(tid, user.id)
            answer = t("desk.left", locale)
        elif control.action in ("bot", "botlvl"):
            # "Add bot" adds one of the table's level; the select, one of the level picked.
            level = values[0] if control.action == "botlvl" and values else None
            effects = await self.service.add_bot(tid, user.id, level)
            answer = t("lobby.bot_joined", locale)
        else:
            effects = await self.service.start_game(tid, user.id)
            answer = t("desk.started", locale)
        self.deliver_soon(effects)  # answers first: the lobby and the board follow
        await reply_private(interaction, answer)


def engine_options(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The command's options under the names the game's engine declares.

    The commands offer every option of the rules; an engine that names one differently (or
    does not have it) is matched by its ``OPTIONS`` so a table can always be created.
    """
    from engine import get_game

    try:
        specs = {spec.name: spec for spec in get_game(game).OPTIONS}
    except ImportError:
        return dict(options)
    aliases = {"game_type": ("game_type", "teams", "mode", "type"), "preset": ("preset", "ruleset")}
    result: dict[str, Any] = {}
    for key, value in options.items():
        for name in aliases.get(key, (key,)):
            if name in specs:
                result[name] = value
                break
    return result


def _can_manage(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions and permissions.manage_threads)
