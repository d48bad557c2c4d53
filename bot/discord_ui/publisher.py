"""Delivering the service's public updates: the lobby message and the boards in the thread.

One lock per table keeps a table's messages in order even when a person's move and the turn
clock's automatic action arrive together. The moves go out as turn digests
(:mod:`bot.discord_ui.digest`): one message per person decision, its lines in words and one
board drawing every move since (edited while slow bots' moves arrive, re-posted at the bottom
when someone's turn begins who must be pinged). The newest digest carries the controls; the
previous board's controls are removed so nobody clicks an old one by mistake (a click on an old
board would still be refused as out of date). Reminders are messages of their own that ping.

Boards go through the outbox of issue #29 (:mod:`bot.model.outbox`): the table's stored
version ahead of its recorded board is the post owed. A message that first shows a version's
board carries that version's nonce (:func:`board_nonce`); edits and posts happen while this
process holds the table's posting lease (:meth:`TableService.claim_board`), so two processes
overlapping on a shard never both post; a board is recorded only after Discord took it and the
old controls are gone. After a crash :meth:`Publisher.ensure_board` finds a board Discord took
in the thread (and deletes the digest that a re-post replaced) instead of posting it again.

The digest that follows a person's click goes out as a follow-up of that click, and is edited
through the same interaction token while it lives (:mod:`bot.discord_ui.click_route`): those
routes are outside Discord's global rate limit, which the channel routes share.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_ui import digest
from bot.discord_ui import tile_words as carcassonne
from bot.discord_ui.click_route import ClickRoute
from bot.discord_ui.components import button, make_view, select
from bot.discord_ui.custom_ids import control_id
from bot.discord_ui.live_links import LiveLinks
from bot.discord_ui.pace import Pace
from bot.discord_ui.rendering import Renderer
from bot.discord_ui.texts import lobby_text, mention, seat_name, seat_names
from bot.discord_ui.translator import guild_locale_of
from bot.model.effects import Effects, PublicUpdate
from bot.model.outbox import board_nonce
from bot.model.table import BOT_LEVELS, Phase, TableRecord
from bot.model.table_memory import KeyedLocks, PerTable, Releasable
from bot.model.turn_words import turn_status
from i18n import t
from i18n.catalog import game_terms
from i18n.message import msg

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)

LOBBY_KINDS = frozenset({"created", "lobby"})
#: Games whose players decide with the controls of the board in the thread (not a private
#: prompt): who acted there within the last minute is watching the thread, and is not pinged.
DECIDED_ON_THE_BOARD = frozenset({"carcassonne"})


def lobby_view(table: TableRecord, locale: str = "en") -> discord.ui.View | None:
    """Join / Leave / Add bot (of the table's level) / Start, and a bot of another level,
    while the table is in its lobby."""
    if table.phase is not Phase.LOBBY:
        return None
    levels = [(t(f"lobby.add_bot_option.{level}", locale), level) for level in BOT_LEVELS]
    return make_view(
        [
            button(
                t("lobby.join", locale),
                control_id(table.id, 0, "join"),
                style=discord.ButtonStyle.primary,
                row=0,
            ),
            button(t("lobby.leave", locale), control_id(table.id, 0, "leave"), row=0),
            button(t("lobby.add_bot", locale), control_id(table.id, 0, "bot"), row=0),
            button(
                t("lobby.start", locale),
                control_id(table.id, 0, "start"),
                style=discord.ButtonStyle.success,
                row=0,
            ),
            select(
                control_id(table.id, 0, "botlvl"),
                levels,
                placeholder=t("lobby.add_bot_level", locale),
                row=1,
            ),
        ]
    )


def board_view(
    table: TableRecord,
    version: int,
    view: Any,
    locale: str = "en",
    placements: Sequence[discord.ui.Item[Any]] | None = None,
    live: LiveLinks | None = None,
) -> discord.ui.View | None:
    """The controls of the newest board: "Show my hand" (race); in Carcassonne the public
    ``placements`` selects when given, else "Place tile"; and the live board's buttons when
    ``live`` (#33)."""
    if table.phase is not Phase.PLAYING:
        return None
    made = _board_controls(table, version, locale, placements)
    if live is not None:
        live.add_to(made, table, locale)
    return made


def _board_controls(
    table: TableRecord,
    version: int,
    locale: str,
    placements: Sequence[discord.ui.Item[Any]] | None,
) -> discord.ui.View:
    if table.game == "carcassonne" and placements:
        return make_view(placements)
    if table.game == "carcassonne":
        return make_view(
            [
                button(
                    t("board.place_tile", locale),
                    control_id(table.id, version, "tile"),
                    style=discord.ButtonStyle.primary,
                )
            ]
        )
    return make_view(
        [
            button(
                t("board.show_hand", locale),
                control_id(table.id, version, "hand"),
                style=discord.ButtonStyle.primary,
            )
        ]
    )


def turn_line(
    table: TableRecord, update: PublicUpdate, locale: str = "en"
) -> tuple[str, list[int]]:
    """Whose turn it is in words, and the user ids to mention (only those to act)."""
    users: list[int] = []

    def who(seat: int) -> str:
        text, user = mention(table, seat, locale)
        if user is not None:
            users.append(user)
        return text

    line = turn_status(
        table,
        update.view,
        update.to_act,
        update.winners or table.winners,
        locale,
        who,
        finished=update.finished,
    )
    return line, users


def update_text(table: TableRecord, update: PublicUpdate, locale: str) -> str:
    """What the service says about ``update``, in ``locale`` (it hands over keys and
    parameters, never finished sentences)."""
    return update.message.text(locale)


def drawable(update: PublicUpdate) -> bool:
    """Whether ``update`` has a board to draw (a reminder points back at the last one)."""
    return update.view is not None and update.kind != "reminder"


#: Extra attempts at posting a board after discord.py gave up (it already retries 429s and
#: some 5xx itself); the move is stored, so the board must reach the thread.
POST_ATTEMPTS = 4
#: How many recent thread messages to search for an old board after a restart.
HISTORY_SCAN = 15
#: Seconds between two looks at a table whose boards another process is posting.
LEASE_POLL = 0.2

__all__ = ["Publisher", "board_nonce", "board_view", "lobby_view", "send_with_retry"]


async def send_with_retry(channel: Any, kwargs: dict[str, Any]) -> discord.Message:
    """``channel.send(**kwargs)``, tried again after a Discord server error or rate limit."""
    for attempt in range(POST_ATTEMPTS):
        try:
            return await channel.send(**kwargs)  # type: ignore[no-any-return]
        except discord.HTTPException as error:
            if (error.status < 500 and error.status != 429) or attempt == POST_ATTEMPTS - 1:
                raise
            log.warning("posting to %s failed (%s); trying again", channel.id, error.status)
            for file in kwargs.get("files", []):
                file.reset()
            await asyncio.sleep(0.5 * (attempt + 1))
    raise AssertionError("unreachable")


def board_link(table: TableRecord, message_id: int) -> str:
    """The link that opens a board message of ``table`` in Discord."""
    return f"https://discord.com/channels/{table.guild_id}/{table.thread_id}/{message_id}"


class Publisher:
    """Posts and edits the public messages of tables.

    Delivery is durable: after posting a table's newest board the publisher tells the service
    which version the thread received (:meth:`TableService.board_delivered`). A board that
    could not be posted (Discord down longer than the retries, the process killed between the
    commit and the post) is posted by :meth:`ensure_board`, which the front desk calls on every
    retry tick, at start for every table of the process, and when someone clicks an old board.
    """

    def __init__(self, renderer: Renderer, service: Any = None) -> None:
        self.renderer = renderer
        self.service = service
        self.bot: commands.Bot | None = None
        # Per table, released with the table (bot.model.table_memory; the desk registers them).
        self._locks: KeyedLocks[int] = KeyedLocks()
        #: The newest board message of each table (in memory; after a restart the thread's
        #: recent history is searched once instead).
        self._last_board: PerTable[Any] = PerTable()
        #: Tables whose thread history was searched for a board left by an earlier process.
        self._scanned: PerTable[bool] = PerTable()
        #: Old boards whose controls Discord did not let us remove yet (tried again).
        self._stale: PerTable[list[Any]] = PerTable()
        #: The newest version whose board this process posted, per table: a delivery that
        #: lost the race to :meth:`ensure_board` (which posted its board already) only tells.
        self._posted: PerTable[int] = PerTable()
        #: Called once a delivery finished a game (the results post, bot.discord_ui.after_game).
        self.on_finished: Callable[[TableRecord], Awaitable[None]] | None = None
        #: Each table's current turn digest (bot.discord_ui.digest), in memory.
        self._digests: PerTable[digest.Digest] = PerTable()
        #: The users each table's newest digest names as owing a decision.
        self._waiting: PerTable[frozenset[int]] = PerTable()
        #: When each person last took a decision at the table (from the updates delivered).
        self._acted: PerTable[dict[int, float]] = PerTable()
        #: When the user last acted on an open prompt of the table that follows the game
        #: (``prompt_since(table_id, user_id)``, None without one); set by the front desk.
        self.prompt_since: Callable[[int, int], float | None] | None = None
        #: Keeps the publisher under Discord's global rate limit (bot.discord_ui.pace).
        self.pace = Pace()
        #: Per table: the digests this process posted as a click's follow-up, by message id,
        #: with the click's route (edited through it while its token lives).
        self._routes: PerTable[dict[int, ClickRoute]] = PerTable()
        #: The live board's buttons on each board (#33), when the bot serves it.
        self.live: LiveLinks | None = None
        #: The time ``prompt_since`` is measured in (the service's clock).
        self.now: Callable[[], float] = time.time

    def per_table(self) -> tuple[Releasable, ...]:
        """What the publisher keeps per table (for the tables' memory to release)."""
        return (
            self._locks,
            self._last_board,
            self._scanned,
            self._stale,
            self._posted,
            self._digests,
            self._waiting,
            self._acted,
            self._routes,
        )

    def lock(self, table_id: int) -> asyncio.Lock:
        """The lock that orders one table's messages."""
        return self._locks(table_id)

    def delivering(self, table_id: int) -> bool:
        """Whether one of the table's messages is being posted or edited right now."""
        return self._locks(table_id).locked()

    async def channel(self, channel_id: int) -> Any:
        """A channel or thread by id, from the cache or from Discord."""
        assert self.bot is not None
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        return channel

    async def deliver(self, effects: Effects, *, via: ClickRoute | None = None) -> None:
        """Send every public update of ``effects``, in order: the moves as turn digests
        (:mod:`bot.discord_ui.digest`), reminders as messages of their own. A new digest goes
        out through ``via`` (the click that made the moves) when it serves the thread."""
        if not effects.public:
            return
        table = effects.table
        async with self.lock(table.id):
            lobby_changed = any(
                u.kind in LOBBY_KINDS or u.kind in ("started", "abandoned", "finished")
                for u in effects.public
            )
            boards = [u for u in effects.public if u.kind not in LOBBY_KINDS]
            self._note_decisions(table, boards)
            with game_terms(table.game):
                groups = digest.groups(u for u in boards if u.kind != "reminder")
                if len(groups) > 1 and all(group[0].by_person for group in groups[1:]):
                    # Decisions that waited for the thread together (a busy process merged
                    # the deliveries, bot.discord_ui.delivery_queue) are told in one digest:
                    # the thread catches up in one post instead of one behind the other.
                    groups = [[update for group in groups for update in group]]
                for group in groups:
                    await self._deliver_group(table, group, via=via)
                for update in boards:
                    if update.kind == "reminder":
                        await self._post_update_words(table, update, last=True, draw=False)
            if lobby_changed:
                await self.refresh_lobby(table)
            if self.on_finished is not None and any(u.finished for u in boards):
                await self.on_finished(table)

    def _note_decisions(self, table: TableRecord, updates: Sequence[PublicUpdate]) -> None:
        """Remember when each person took a decision at ``table`` (the thread does not ping
        someone who is playing along)."""
        if table.game not in DECIDED_ON_THE_BOARD:
            return
        for update in updates:
            if update.by_person and update.actor is not None:
                user = table.seats[update.actor].user_id
                if user is not None:
                    self._acted.setdefault(table.id, {})[user] = self.now()

    def _recently_prompted(self, table_id: int) -> Callable[[int], bool]:
        """Whether a user is playing along: their open prompt follows the game and they acted
        on it within the last minute (the prompt says "your turn"), or they took a decision
        on the table's board within the last minute (Carcassonne's controls are on the board
        in the thread, where the new digest appears below their own move). Then the thread
        does not ping them."""

        def recent(user_id: int) -> bool:
            now = self.now()
            acted = self._acted.get(table_id, {}).get(user_id)
            if acted is not None and now - acted < digest.QUIET_AFTER_ACTING:
                return True
            if self.prompt_since is None:
                return False
            since = self.prompt_since(table_id, user_id)
            return since is not None and now - since < digest.QUIET_AFTER_ACTING

        return recent

    async def _deliver_group(
        self,
        table: TableRecord,
        group: list[PublicUpdate],
        *,
        nonce: str | None = None,
        via: ClickRoute | None = None,
    ) -> int | None:
        """Tell ``group`` in the table's digest: a new message when it begins one (or the
        table has none in this process), else the current digest edited; re-posted at the
        bottom instead when someone's turn begins who must be pinged (an edit never pings).
        A new message carries ``nonce`` when given (Discord then makes one message for every
        post with it). Return the digest's message id (None without a thread)."""
        if table.thread_id is None:
            return None
        current = self._digests.get(table.id)
        if current is not None and await self._newer_elsewhere(table.id) is not None:
            # Another process posted a newer board since this one's digest (two processes
            # overlap on the shard): that digest is no longer the table's newest message.
            current = None
        # Its board is in the thread already (ensure_board posted a newer one first): the
        # moves join that digest before it (without one in this process: in words only).
        told = group[-1].kind != "board" and group[-1].version <= self._posted.get(table.id, -1)
        if told and (current is None or not current.updates):
            for update in group:
                await self._post_update_words(table, update, last=False, draw=False)
            return None
        fresh = not told and (
            current is None
            or group[-1].kind == "board"  # the board asked for again: a digest of its own
            or (digest.starts_digest(group[0]) and not digest.continues(current, group[0]))
        )
        if fresh or current is None:
            updates = list(group)
        elif told:
            updates = [*group, *current.updates]
        else:
            updates = [*current.updates, *group]
        newest = updates[-1]
        thread = await self.channel(table.thread_id)
        locale = self.locale(table)
        turn, users = turn_line(table, newest, locale)
        note = t("hint.board", locale) if table.hints and newest.to_act else ""
        # A board asked for again says so only while it tells no move.
        lines = [update_text(table, u, locale) for u in updates if u.kind != "board"]
        lines = lines or [update_text(table, newest, locale)]
        text = digest.fit_lines([*lines, turn, note]) or "\u200b"
        due = digest.due_pings(
            users,
            self._waiting.get(table.id, ()),
            digest.turns_ended(table, group),
            self._recently_prompted(table.id),
        )
        placements, controls = await self._placements(table, newest, locale)
        files = (
            []  # the board in the thread is newer than these moves: it stays
            if told
            else await self._digest_image(table, updates, newest, locale, placements, controls)
        )
        placements_view = board_view(
            table, newest.version, newest.view, locale, controls, self.live
        )
        kwargs: dict[str, Any] = {
            "content": text,
            "allowed_mentions": discord.AllowedMentions(
                users=[discord.Object(u) for u in due], roles=False, everyone=False
            ),
            "view": placements_view,
        }
        if nonce is None and newest.kind != "board":
            # Every message that first shows a version's board carries that version's nonce:
            # a re-send (a retry, the retry tick of this or another process after a crash)
            # makes no second message. ``/table board`` asks for a new message on purpose.
            nonce = board_nonce(table.id, newest.version)
        if not await self._claim(table.id, wait=True):
            log.info("another process posts the boards of table %s: it posts this one", table.id)
            return None
        try:
            # Holding the lease, the recorded board cannot change: a newer one posted by another
            # process meanwhile is retired with this process's own, and no old digest edited.
            elsewhere = await self._newer_elsewhere(table.id)
            return await self._post_digest(
                table,
                thread,
                current,
                updates,
                newest,
                users,
                kwargs,
                files,
                nonce,
                fresh=fresh or elsewhere is not None,
                elsewhere=elsewhere,
                via=via,
            )
        finally:
            await self._release(table.id)

    async def _newer_elsewhere(self, table_id: int) -> int | None:
        """The recorded board of the table when another process posted it after this one's
        newest (None: this process's board is the newest one recorded)."""
        if self.service is None:
            return None
        try:
            version, message_id = await self.service.board_of(table_id)
        except Exception:
            log.info("could not read the recorded board of table %s", table_id, exc_info=True)
            return None
        if message_id is None or version <= self._posted.get(table_id, -1):
            return None
        return int(message_id)

    async def _post_digest(
        self,
        table: TableRecord,
        thread: Any,
        current: digest.Digest | None,
        updates: list[PublicUpdate],
        newest: PublicUpdate,
        users: list[int],
        kwargs: dict[str, Any],
        files: list[discord.File],
        nonce: str | None,
        *,
        fresh: bool,
        elsewhere: int | None = None,
        via: ClickRoute | None = None,
    ) -> int:
        """Edit the current digest or post a new one (see :meth:`_deliver_group`), with this
        process holding the posting of the table's boards; the digest's message id."""
        due = [u.id for u in kwargs["allowed_mentions"].users]
        placements_view = kwargs["view"]
        message_id: int | None = None
        if not fresh and not due and current is not None:
            message_id = await self._edit_digest(
                table.id, thread, current.message_id, kwargs, files
            )
        replaced = None if fresh or current is None else current.message_id
        retired = True
        if message_id is not None and table.id in self._stale:
            # An old board kept its controls at the last post: the edit records this board
            # only once they are gone.
            retired = await self._retire_previous_board(table.id, thread, keep=message_id)
        if message_id is None:
            if files:
                kwargs["files"] = files
            if kwargs["view"] is None:
                del kwargs["view"]
            if nonce is not None:
                kwargs["nonce"] = nonce
            if replaced is not None:
                # Whoever finds this post in the thread after a crash deletes the old digest.
                await self._replacing(table.id, replaced)
            message_id = await self._post_new(table, thread, kwargs, newest.version, via)
            left = []
            if elsewhere is not None:
                # The newest board, posted by another process: its controls go too.
                left.append(thread.get_partial_message(elsewhere))
            deleted = None
            if replaced is not None:
                if await self._delete(thread, table.id, replaced):
                    deleted = replaced
                else:
                    left.append(thread.get_partial_message(replaced))  # its controls go at least
            # The old controls go BEFORE the new board is recorded: a process killed in
            # between leaves the board unrecorded, and the next retry tick (in whichever
            # process) finds it in the thread, strips the old controls and records it.
            retired = await self._retire_previous_board(
                table.id, thread, keep=message_id, also=left, deleted=deleted
            )
        self._digests[table.id] = digest.Digest(message_id, list(updates))
        self._waiting[table.id] = frozenset(users)
        self._posted[table.id] = max(newest.version, self._posted.get(table.id, -1))
        if retired or placements_view is None:
            await self._record_board(table.id, newest.version, message_id)
        # else an old board kept its controls: left unrecorded, the retry tick strips them.
        if placements_view is not None:
            self._last_board[table.id] = thread.get_partial_message(message_id)
        else:
            self._last_board.pop(table.id, None)
        return message_id

    async def _digest_image(
        self,
        table: TableRecord,
        updates: Sequence[PublicUpdate],
        newest: PublicUpdate,
        locale: str,
        placements: Mapping[tuple[int, int], list[int]],
        controls: Sequence[discord.ui.Item[Any]] | None,
    ) -> list[discord.File]:
        """The digest's board: every move since it began (the placement numbers when the
        board offers a tile's placements)."""
        view = digest.drawn_view(updates)
        drawn = digest.drawn_update(updates)
        if view is None or drawn is None:
            return []
        names = seat_names(table, view.get("seats") or [], locale)
        filename = f"board-{table.id}-{drawn.version}.png"
        image = None
        if drawn is newest and controls:
            image = await self.renderer.placements(
                view, placements, names=names, filename=filename, locale=locale
            )
        if image is None:
            image = await self.renderer.board(
                view, names, filename=filename, locale=locale, whole=drawn.kind == "board"
            )
        return [image] if image is not None else []

    async def _post_new(
        self,
        table: TableRecord,
        thread: Any,
        kwargs: dict[str, Any],
        version: int,
        via: ClickRoute | None,
    ) -> int:
        """Post a digest: as a follow-up of the click ``via`` when it serves the thread (no
        global rate limit), else in the thread with its nonce. A follow-up that failed is
        looked for in the thread before the post goes out again (it has no nonce)."""
        if via is not None and via.serves(thread.id, self.now()):
            sent = {key: value for key, value in kwargs.items() if key != "nonce"}
            try:
                followed = await via.webhook.send(wait=True, **sent)
            except discord.HTTPException as error:
                log.info("the follow-up board of table %s failed (%s)", table.id, error.status)
                if error.status >= 500:  # Discord may have made it all the same
                    found = await self._boards_of_version(thread, table, version)
                    if found:
                        return int(found[0].id)
                for file in kwargs.get("files", []):
                    file.reset()
            else:
                assert followed is not None  # an application webhook always waits
                routes = self._routes.setdefault(table.id, {})
                now = self.now()
                for old in [m for m, route in routes.items() if not route.serves(thread.id, now)]:
                    del routes[old]  # its token is out: those messages use the channel
                routes[followed.id] = via
                return int(followed.id)
        await self.pace.turn()
        message = await send_with_retry(thread, kwargs)
        return int(message.id)

    def _route_of(
        self, table_id: int, thread: Any, message_id: int, *, forget: bool = False
    ) -> ClickRoute | None:
        """The click whose token may still edit or delete ``message_id`` (None: the channel's
        route); ``forget``: the message is edited no more after this."""
        routes = self._routes.get(table_id, {})
        route = routes.pop(message_id, None) if forget else routes.get(message_id)
        return route if route is not None and route.serves(thread.id, self.now()) else None

    async def _edit_message(self, table_id: int, thread: Any, message_id: int, **edit: Any) -> None:
        """Edit one of the table's messages: through the click that posted it while its token
        lives (outside the global limit), else on the channel's route, in the pace."""
        route = self._route_of(table_id, thread, message_id)
        if route is not None:
            try:
                await route.webhook.edit_message(message_id, **edit)
                return
            except discord.HTTPException as error:
                # The token is gone sooner than thought, or Discord refused: the channel's
                # route can still edit the bot's own message.
                log.info("editing through a click failed at table %s (%s)", table_id, error.status)
                self._route_of(table_id, thread, message_id, forget=True)
                for file in edit.get("attachments", []):
                    if isinstance(file, discord.File):
                        file.reset()
        await self.pace.turn()
        await thread.get_partial_message(message_id).edit(**edit)

    async def _edit_digest(
        self,
        table_id: int,
        thread: Any,
        message_id: int,
        kwargs: dict[str, Any],
        files: list[discord.File],
    ) -> int | None:
        """Edit the digest in place (its new board replaces the old attachment); None when
        Discord no longer has it (it is posted anew)."""
        edit = dict(kwargs)
        if files:
            edit["attachments"] = files
        try:
            await self._edit_message(table_id, thread, message_id, **edit)
        except discord.NotFound:
            return None
        for file in files:
            file.reset()
        return message_id

    async def _delete(self, thread: Any, table_id: int, message_id: int) -> bool:
        """Delete the digest that a re-post at the bottom replaces; False if it stays."""
        if getattr(self._last_board.get(table_id), "id", None) == message_id:
            self._last_board.pop(table_id, None)
        route = self._route_of(table_id, thread, message_id, forget=True)
        try:
            if route is not None:
                try:
                    await route.webhook.delete_message(message_id)
                    return True
                except discord.HTTPException:
                    pass  # the channel's route below
            await self.pace.turn()
            await thread.get_partial_message(message_id).delete()
        except discord.NotFound:
            return True
        except discord.HTTPException:
            log.info("could not delete the replaced digest of table %s", table_id)
            return False
        return True

    def locale(self, table: TableRecord) -> str:
        """The language of a table's public messages: its server's preferred locale."""
        guild = self.bot.get_guild(table.guild_id) if self.bot is not None else None
        return guild_locale_of(guild)

    async def refresh_lobby(self, table: TableRecord) -> None:
        """Edit the lobby message to the table's current seats and state."""
        if table.thread_id is None:
            return
        locale = self.locale(table)
        try:
            channel = await self.channel(table.channel_id)
            message = channel.get_partial_message(table.thread_id)
            await message.edit(content=lobby_text(table, locale), view=lobby_view(table, locale))
        except discord.HTTPException:
            log.warning("could not update the lobby of table %s", table.id, exc_info=True)

    async def _post_update_words(
        self, table: TableRecord, update: PublicUpdate, *, last: bool, draw: bool
    ) -> int | None:
        if table.thread_id is None:
            return None
        thread = await self.channel(table.thread_id)
        locale = self.locale(table)
        turn, users = turn_line(table, update, locale) if last else ("", [])
        note = t("hint.board", locale) if last and table.hints and update.to_act else ""
        text = "\n".join(p for p in (update_text(table, update, locale), turn, note) if p)
        files: list[discord.File] = []
        placements, controls = await self._placements(table, update, locale) if last else ({}, None)
        if draw and update.view is not None and drawable(update):
            names = seat_names(table, update.view.get("seats") or [], locale)
            filename = f"board-{table.id}-{update.version}.png"
            image = None
            if controls:
                # The placement choice is on this board: its image numbers the cells.
                image = await self.renderer.placements(
                    update.view, placements, names=names, filename=filename, locale=locale
                )
            if image is None:
                # /table board asks for the board again: the whole map, not the window.
                image = await self.renderer.board(
                    update.view,
                    names,
                    filename=filename,
                    locale=locale,
                    whole=update.kind == "board",
                )
            if image is not None:
                files.append(image)
        # A reminder pings and points back at the board, which keeps the only controls.
        board = last and update.kind != "reminder"
        view = (
            board_view(table, update.version, update.view, locale, controls, self.live)
            if board
            else None
        )
        kwargs: dict[str, Any] = {
            "content": text[:2000] or "\u200b",
            "allowed_mentions": discord.AllowedMentions(
                users=[discord.Object(u) for u in users], roles=False, everyone=False
            ),
        }
        if files:
            kwargs["files"] = files
        if view is not None:
            kwargs["view"] = view
        if update.kind != "reminder":
            # The words of one update: a re-send (discord.py's retry of a lost answer) makes
            # no second message. (A reminder is claimed in storage before it is sent.)
            kwargs["nonce"] = f"w{table.id}.{update.version}"
        await self.pace.turn()
        message = await send_with_retry(thread, kwargs)
        if update.kind == "reminder" or not last:
            # A reminder, or the words of an update before the delivery's newest board, leaves
            # the controls where they are (on the board they belong to until the newest comes).
            return int(message.id)
        self._posted[table.id] = max(update.version, self._posted.get(table.id, -1))
        # Old controls first, then the record (see _deliver_group).
        if await self._retire_previous_board(table.id, thread, keep=message.id) or view is None:
            await self._record_board(table.id, update.version, message.id)
        if view is not None:
            self._last_board[table.id] = thread.get_partial_message(message.id)
        return int(message.id)

    async def _claim(self, table_id: int, *, wait: bool) -> bool:
        """Take the posting of the table's boards for this process (one process at a time,
        :meth:`TableService.claim_board`); ``wait``: while another process posts one, at most
        as long as its lease. True without a service, or when the database cannot say (the
        posts' nonces still make one message of two)."""
        if self.service is None:
            return True
        deadline = time.monotonic() + float(getattr(self.service, "outbox_lease_seconds", 0))
        while True:
            try:
                if await self.service.claim_board(table_id):
                    return True
            except Exception:
                log.warning("could not lease the boards of table %s", table_id, exc_info=True)
                return True
            if not wait or time.monotonic() >= deadline:
                return False
            await asyncio.sleep(LEASE_POLL)

    async def _release(self, table_id: int) -> None:
        if self.service is None:
            return
        try:
            await self.service.release_board(table_id)
        except Exception:  # the lease runs out by itself
            log.info("could not release the boards of table %s", table_id, exc_info=True)

    async def _replacing(self, table_id: int, message_id: int) -> None:
        if self.service is None:
            return
        try:
            await self.service.replacing_board(table_id, message_id)
        except Exception:  # at worst the old digest stays after a crash
            log.info("could not note the digest replaced at table %s", table_id, exc_info=True)

    async def _record_board(self, table_id: int, version: int, message_id: int) -> None:
        if self.service is None:
            return
        try:
            await self.service.board_delivered(table_id, version, message_id)
        except Exception:
            # The board is in the thread; at worst it is posted once more later.
            log.warning("could not record the board of table %s", table_id, exc_info=True)

    async def _placements(
        self, table: TableRecord, update: PublicUpdate, locale: str
    ) -> tuple[dict[tuple[int, int], list[int]], list[discord.ui.Item[Any]] | None]:
        """Carcassonne, a tile to place: its placements and the board's selects for them."""
        if table.game != "carcassonne" or update.view is None or update.finished:
            return {}, None
        try:
            placements = await asyncio.to_thread(carcassonne.public_placements, update.view)
        except Exception:
            log.exception("no placements for the board of table %s", table.id)
            return {}, None
        order = self.renderer.order(placements)
        try:  # what each placement does, for the options' descriptions (#36)
            effects = await asyncio.to_thread(carcassonne.placement_effects_of, update.view)
        except Exception:
            log.exception("no placement effects for the board of table %s", table.id)
            effects = None
        to_act = list(update.view.get("to_act") or ())
        controls = carcassonne.placement_controls(
            table.id,
            update.version,
            placements,
            order,
            locale,
            effects=effects,
            me=int(to_act[0]) if to_act else None,
            names={s.index: seat_name(table, s.index, locale) for s in table.seats},
        )
        return placements, controls

    async def _retire_previous_board(
        self,
        table_id: int,
        thread: Any,
        *,
        keep: int,
        also: Sequence[Any] = (),
        scan: bool = False,
        deleted: int | None = None,
    ) -> bool:
        """Remove the controls of the table's boards before ``keep`` (and of ``also``): the
        one this process knows, else (first time here, or ``scan``) those of the thread's
        recent history and the recorded one. False if one of them kept its controls."""
        previous = self._last_board.pop(table_id, None)
        stale = [*self._stale.pop(table_id, []), *also]
        if previous is not None and not scan:
            stale.append(previous)
        elif table_id in self._scanned and not scan:
            pass
        else:
            # First board of this table since the process started: the previous one was
            # posted by an earlier process; find it in the thread's recent history, and the
            # one recorded as the newest (older than that history when many lines followed).
            self._scanned[table_id] = True
            stale += await self._boards_with_controls(thread, keep)
            if previous is not None and all(m.id != previous.id for m in stale):
                stale.append(previous)
            recorded = await self._recorded_board(table_id)
            if recorded not in (None, keep) and all(m.id != recorded for m in stale):
                stale.append(thread.get_partial_message(recorded))
        kept = []
        done = {keep, deleted}
        for message in stale:
            if message.id in done:
                continue
            done.add(message.id)
            try:
                await self._edit_message(table_id, thread, message.id, view=None)
                self._route_of(table_id, thread, message.id, forget=True)  # never edited again
            except discord.NotFound:
                pass  # deleted: no controls left to click
            except discord.HTTPException:
                log.info("could not remove the controls of an old board of table %s", table_id)
                kept.append(message)
        if kept:
            self._stale[table_id] = kept
        return not kept

    async def _recorded_board(self, table_id: int) -> int | None:
        if self.service is None:
            return None
        try:
            _version, message_id = await self.service.board_of(table_id)
        except Exception:
            log.info("could not read the recorded board of table %s", table_id, exc_info=True)
            return None
        return None if message_id is None else int(message_id)

    async def _boards_with_controls(self, thread: Any, keep: int) -> list[Any]:
        assert self.bot is not None
        assert self.bot.user is not None
        found = []
        mine = self.bot.user.id
        try:
            async for message in thread.history(limit=HISTORY_SCAN):
                if message.id != keep and message.author.id == mine and message.components:
                    found.append(message)
        except discord.HTTPException:
            log.info("could not read the history of thread %s", thread.id)
        return found

    async def repost_board(self, table_id: int) -> int | None:
        """Post the current board again (``/table board``) with the controls; its message id."""
        async with self.lock(table_id):
            return await self._post_current(table_id)

    async def ensure_board(self, table_id: int) -> int | None:
        """Post the current board if the thread has not received it yet; return the id of the
        table's newest board message (None when it has none)."""
        newest, behind = await self._board_state(table_id)
        if not behind:
            return newest  # the usual case: no need to wait for a delivery in progress
        async with self.lock(table_id):
            newest, behind = await self._board_state(table_id)  # that delivery may have done it
            if not behind:
                return newest
            # One process at a time posts a table's boards: another one's delivery or retry
            # tick may be posting this board right now (its lease; a killed process's runs
            # out). Its post carries the version's nonce too: Discord makes one message.
            if not await self._claim(table_id, wait=True):
                return newest
            try:
                newest, behind = await self._board_state(table_id)  # the other one posted it
                if not behind:
                    return newest
                found = await self._unrecorded_board(table_id)
                if found is not None:
                    return found
                return await self._post_current(table_id, once=True)
            finally:
                await self._release(table_id)

    async def _unrecorded_board(self, table_id: int) -> int | None:
        """A board of the current version already in the thread (a process died after posting
        it, before recording it): record it rather than post it twice. Its id, or None."""
        table = await self.service.get(table_id)
        if table.thread_id is None or table.phase not in (Phase.PLAYING, Phase.FINISHED):
            return None
        thread = await self.channel(table.thread_id)
        found = await self._boards_of_version(thread, table)
        if not found:
            return None
        message = found[0]  # the newest message showing the current version
        self._posted[table_id] = table.version
        lease = await self.service.board_lease(table_id)
        deleted = None
        # A re-post at the bottom reached the thread, the digest it replaces did not go: it
        # goes now (its lines are in the re-post).
        replaced = lease.replaces
        if replaced not in (None, message.id) and await self._delete(thread, table_id, replaced):
            deleted = replaced
        # Posted by a process that died (or failed) before retiring the boards before it and
        # recording it: strip every other board's controls first, then record.
        retired = await self._retire_previous_board(
            table_id, thread, keep=message.id, scan=True, deleted=deleted
        )
        if retired:
            await self._record_board(table_id, table.version, message.id)
        if message.components:
            self._last_board[table_id] = thread.get_partial_message(message.id)
        # Its lines are not known here: the next moves begin a digest of their own rather
        # than edit this one down to their lines only.
        self._digests.pop(table_id, None)
        return int(message.id)

    async def _boards_of_version(
        self, thread: Any, table: TableRecord, version: int | None = None
    ) -> list[Any]:
        """The bot's recent messages in ``thread`` that show the board of ``version`` (the
        table's current one by default), by their controls or the name of their board image
        (a finished game's last digest has no controls), newest first."""
        assert self.bot is not None
        assert self.bot.user is not None
        version = table.version if version is None else version
        wanted = control_id(table.id, version, "")
        image = f"board-{table.id}-{version}.png"
        found = []
        try:
            async for message in thread.history(limit=HISTORY_SCAN):
                if message.author.id != self.bot.user.id:
                    continue
                ids = [
                    str(getattr(c, "custom_id", None))
                    for row in message.components
                    for c in getattr(row, "children", ())
                ]
                names = [getattr(a, "filename", "") for a in message.attachments]
                if any(i.startswith(wanted) for i in ids) or image in names:
                    found.append(message)
        except discord.HTTPException:
            log.info("could not read the history of thread %s", thread.id)
        return found

    async def _board_state(self, table_id: int) -> tuple[int | None, bool]:
        """The newest board's message id, and whether the thread lacks the current one."""
        version, message_id = await self.service.board_of(table_id)
        table = await self.service.get(table_id)
        behind = (
            version < table.version
            and table.thread_id is not None
            and table.phase in (Phase.PLAYING, Phase.FINISHED)
        )
        return message_id, behind

    async def _post_current(self, table_id: int, *, once: bool = False) -> int | None:
        """Post the stored position as the table's newest board (call with the lock held);
        ``once``: with its version's nonce, so that Discord makes one message of every such
        post (a retry tick in another process at the same moment)."""
        table, view = await self.service.current_board(table_id)
        update = PublicUpdate(
            table_id=table.id,
            kind="board",
            message=msg("board.caption"),
            version=table.version,
            view=view,
            to_act=tuple((view or {}).get("to_act") or ()),
            finished=table.phase is Phase.FINISHED,
            winners=table.winners,
        )
        nonce = board_nonce(table.id, table.version) if once else None
        with game_terms(table.game):
            return await self._deliver_group(table, [update], nonce=nonce)
