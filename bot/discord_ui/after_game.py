"""After the game, on Discord: the results post, ``/stats``, ``/leaderboard``, ``/history``.

The service decides what a result is and who is rated; this module only asks it and shows the
answer. Command answers are private and in the reader's language; the results post goes to
the table's thread (with the results image) and a short line to its channel, in the server's.

:class:`AfterGame` receives what it uses (the service, the publisher, the renderer, the
replay viewer, and the desk's ``open_lobby`` and ``deliver``) instead of the front desk, which
creates it and dispatches to it: so this module never imports the desk back.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.after_game.records import dumps
from bot.after_game.standings import user_player
from bot.discord_ui.components import button, make_view
from bot.discord_ui.custom_ids import ControlId, control_id
from bot.discord_ui.publisher import Publisher, send_with_retry
from bot.discord_ui.rendering import Renderer
from bot.discord_ui.replay_viewer import ReplayViewer
from bot.discord_ui.replies import answer_click, reply_private
from bot.discord_ui.results_texts import (
    channel_line,
    history_text,
    leaderboard_text,
    result_names,
    results_post,
    stats_text,
)
from bot.discord_ui.season_commands import board_lines, champion_lines
from bot.discord_ui.texts import display_name, seat_names
from bot.discord_ui.translator import locale_of
from bot.model.effects import Effects
from bot.model.table import TableError, TableRecord, reserved_seats
from i18n import t

if TYPE_CHECKING:
    from bot.service import TableService

log = logging.getLogger(__name__)

#: The controls this module answers (custom_id actions).
ACTIONS = frozenset({"hist", "rematch", "replay"})
#: Controls about no table (``/history``'s pages carry table 0 and read only this server).
TABLELESS_ACTIONS = frozenset({"hist"})
#: Discord's upload limit for a bot without a boosted server (10 MiB).
MAX_UPLOAD = 10 * 1024 * 1024
#: Finished tables per page of ``/history``.
PER_PAGE = 5
#: The word a history button carries for "every game".
ALL_GAMES = "all"

#: The desk's ``open_lobby``: post a new table's lobby in a channel and open its thread
#: (channel, table, the server's locale, the user who opened it); None when Discord refused.
OpenLobby = Callable[[Any, TableRecord, str, int], Awaitable[discord.Thread | None]]
#: The desk's ``deliver``: send the public part of effects (and refresh the open hands).
Deliver = Callable[[Effects], Awaitable[None]]


async def _begin(interaction: discord.Interaction) -> int | None:
    """Acknowledge a command privately; its server, or None (answered) outside a server."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    if interaction.guild_id is None:
        await reply_private(interaction, t("desk.server_only", locale_of(interaction)))
    return interaction.guild_id


def _size(file: discord.File) -> int:
    """The bytes of an attachment (its buffer's length)."""
    return len(file.fp.getbuffer()) if isinstance(file.fp, io.BytesIO) else 0


class AfterGame:
    """The front desk's part for finished tables."""

    ACTIONS = ACTIONS
    TABLELESS_ACTIONS = TABLELESS_ACTIONS

    def __init__(
        self,
        service: TableService,
        publisher: Publisher,
        renderer: Renderer,
        replays: ReplayViewer,
        open_lobby: OpenLobby,
        deliver: Deliver,
    ) -> None:
        #: The table service (the desk replaces it when it gets its own: see ``FrontDesk``).
        self.service = service
        self.publisher = publisher
        self.renderer = renderer
        self.replays = replays
        self._open_lobby = open_lobby
        self._deliver = deliver
        self._posting: set[int] = set()  # tables whose results post is on its way

    # --- the results post ------------------------------------------------------------------

    async def post_results(self, table: TableRecord) -> None:
        """Post the results of a table that just finished: the standings and image in its
        thread, a short line in its channel. Never raises: the game is stored anyway, and a
        post that did not reach Discord is tried again at the next start."""
        if table.id in self._posting:
            return
        self._posting.add(table.id)
        try:
            await self._post_results(table)
            await self.service.results_posted(table.id)
        except Exception:
            log.exception("could not post the results of table %s", table.id)
        finally:
            self._posting.discard(table.id)

    async def post_pending(self) -> int:
        """Post the results that an earlier process could not (this process's guilds)."""
        posted = 0
        for table in await self.service.results_to_post():
            await self.post_results(table)
            posted += 1
        return posted

    async def _post_results(self, table: TableRecord) -> None:
        result = await self.service.result(table.id)
        if result is None or table.thread_id is None:
            return
        publisher = self.publisher
        locale = publisher.locale(table)
        kwargs: dict[str, Any] = {
            "content": results_post(result, locale, await self.service.rating_changes(table.id)),
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        image = await self.renderer.results(
            result.to_json(),
            result_names(result, locale),
            filename=f"results-{table.id}.png",
            locale=locale,
        )
        files = [image] if image is not None else []
        _record, first, steps = await self.service.public_history(table.id)
        views = [first, *(step.view for step in steps)]
        names = seat_names(table, first.get("seats") or [], locale)
        animation = await self.renderer.animation(
            views, names, filename=f"summary-{table.id}.gif", locale=locale
        )
        if animation is not None and _size(animation) <= MAX_UPLOAD:
            files.append(animation)
        record = dumps(await self.service.game_record(table.id))
        if len(record) <= MAX_UPLOAD:
            files.append(discord.File(io.BytesIO(record), filename=f"record-{table.id}.json"))
        if files:
            kwargs["files"] = files
        kwargs["view"] = make_view(
            [
                button(
                    t("rematch.button", locale),
                    control_id(table.id, 0, "rematch"),
                    style=discord.ButtonStyle.primary,
                ),
                button(t("rematch.replay_button", locale), control_id(table.id, 0, "replay")),
            ]
        )
        thread = await publisher.channel(table.thread_id)
        await send_with_retry(thread, kwargs)
        channel = await publisher.channel(table.channel_id)
        line = channel_line(result, table.thread_id, locale)
        await send_with_retry(
            channel, {"content": line, "allowed_mentions": discord.AllowedMentions.none()}
        )

    # --- commands ----------------------------------------------------------------------------

    async def stats(
        self, interaction: discord.Interaction, member: discord.abc.User | None, game: str | None
    ) -> None:
        """``/stats [member] [game]``."""
        guild = await _begin(interaction)
        if guild is None:
            return
        locale = locale_of(interaction)
        who = member or interaction.user
        stats = await self.service.stats(guild, who.id, game)
        text = stats_text(stats, who.mention, game, locale)
        # #32: the seasons this member won, below their ratings.
        titles = await self.service.seasons.champions(guild, f"u:{who.id}")
        titles = [b for b in titles if game in (None, b.season.game)]
        if titles:
            text = "\n".join([text, t("season.champions.title_member", locale)])
            text = "\n".join([text, *champion_lines(titles, locale)])
        await reply_private(
            interaction,
            text,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        """``/leaderboard <game>``."""
        guild = await _begin(interaction)
        if guild is None:
            return
        locale = locale_of(interaction)
        try:
            board = await self.service.leaderboard(guild, game, interaction.user.id)
        except TableError:
            await reply_private(interaction, t("results.unknown_game", locale))
            return
        text = leaderboard_text(board, locale)
        # #32: the current season's leaderboard beside the all-time one.
        season = await self.service.seasons.board(guild, game, limit=5)
        if season is not None and not season.over:
            text = "\n".join([text, "", *board_lines(season, locale)])
        await reply_private(
            interaction,
            text,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def history(
        self, interaction: discord.Interaction, member: discord.abc.User | None, game: str | None
    ) -> None:
        """``/history [member] [game]``: the first page, with Older / Newer buttons."""
        if await _begin(interaction) is None:
            return
        text, view = await self._history_page(
            interaction, None if member is None else member.id, game, 0
        )
        await reply_private(
            interaction, text, view=view, allowed_mentions=discord.AllowedMentions.none()
        )

    async def rematch(self, interaction: discord.Interaction, table_id: int) -> None:
        """Rematch: open the new table (lobby and thread) or confirm the clicker's seat."""
        locale = locale_of(interaction)
        user = interaction.user
        effects = await self.service.rematch(table_id, user.id, display_name(user))
        table = effects.table
        if table.thread_id is None:
            channel = await self.publisher.channel(table.channel_id)
            public = self.publisher.locale(table)
            thread = await self._open_lobby(channel, table, public, user.id)
            if thread is None:
                await reply_private(interaction, t("desk.cannot_post", locale))
                return
            kept = sorted(set(reserved_seats(table).values()))
            if kept:
                # The players whose seats are kept hear of it (a ping in the new thread).
                mentions = ", ".join(f"<@{u}>" for u in kept)
                invite = t("rematch.invite", public, mentions=mentions, table=table_id)
                users = discord.AllowedMentions(users=[discord.Object(u) for u in kept])
                await send_with_retry(thread, {"content": invite, "allowed_mentions": users})
            await reply_private(
                interaction,
                t("rematch.opened", locale, table=table.id, thread=thread.mention),
            )
            return
        await self._deliver(effects)  # the lobby shows the confirmed seat
        await reply_private(interaction, t("rematch.confirmed", locale, table=table.id))

    async def _history_page(
        self, interaction: discord.Interaction, user_id: int | None, game: str | None, page: int
    ) -> tuple[str, discord.ui.View]:
        locale = locale_of(interaction)
        guild = interaction.guild_id or 0
        found = await self.service.finished_tables(guild, user_id, game, page, PER_PAGE)
        who = None if user_id is None else f"<@{user_id}>"
        player = None if user_id is None else user_player(user_id)
        text = history_text(found, who, game, player, locale)
        user_arg, game_arg = user_id or 0, game or ALL_GAMES
        items = []
        if found.page > 0:
            newer = control_id(0, 0, "hist", user_arg, game_arg, found.page - 1)
            items.append(button(t("results.newer", locale), newer))
        if found.more:
            older = control_id(0, 0, "hist", user_arg, game_arg, found.page + 1)
            items.append(button(t("results.older", locale), older))
        return text, make_view(items)

    async def on_control(self, interaction: discord.Interaction, control: ControlId) -> None:
        """A click on the results post (Rematch, Replay: deferred privately) or on Older /
        Newer of a ``/history`` answer (deferred as an update of it)."""
        if control.action == "rematch":
            await self.rematch(interaction, control.table)
            return
        if control.action == "replay":
            await self.replays.send_first(interaction, control.table)
            return
        user_id = control.int_arg(0) or None
        game = control.arg(1)
        if game != ALL_GAMES and game not in ("tock", "dog", "carcassonne"):
            await answer_click(
                interaction, t("results.unknown_game", locale_of(interaction)), public=False
            )
            return
        page = control.int_arg(2)
        text, view = await self._history_page(
            interaction, user_id, None if game == ALL_GAMES else game, page
        )
        await interaction.edit_original_response(
            content=text, view=view, allowed_mentions=discord.AllowedMentions.none()
        )
