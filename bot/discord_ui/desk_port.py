"""What the handler modules may use of the front desk: narrow protocols, not ``FrontDesk``.

The front desk (:mod:`bot.discord_ui.frontdesk`) imports the prompts, hints, ``/move`` and the
after-game pages to dispatch to them; if they imported ``FrontDesk`` back (even only for the
type checker) every one of them would sit in one import circle with it. They type their
``desk`` with the protocols here instead, and ``FrontDesk`` meets them structurally:

* :class:`PlayDesk` — what a click in a private prompt, a hint or ``/move`` uses: the service,
  the renderer, the open hands and ``/move``'s lists, delivering effects, and finding the
  table a command means.
* :class:`CommandDesk` — what the slash commands call (:mod:`bot.discord_ui.commands`,
  :mod:`bot.discord_ui.after_commands`), reached through :func:`desk_of`.

This module imports no other front-end module but the renderer wrapper and the open hands
(which import none), so it can never close a circle.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, cast

import discord

from bot.model.table import DEFAULT_BOT_LEVEL

if TYPE_CHECKING:
    from discord import app_commands

    from bot.discord_ui.open_hands import MoveLists, OpenHands
    from bot.discord_ui.rendering import Renderer
    from bot.model.effects import Effects
    from bot.service import TableService


class PlayDesk(Protocol):
    """The desk as the prompts (race and tile), hints and ``/move`` use it."""

    @property
    def service(self) -> TableService:
        """The table service: every rule, permission and turn check is its."""
        ...

    @property
    def renderer(self) -> Renderer:
        """Draws hands, placements and figure spots off the event loop."""
        ...

    @property
    def hands(self) -> OpenHands:
        """The hands players keep open (edited whenever something changes for them)."""
        ...

    @property
    def move_lists(self) -> MoveLists:
        """The move lists ``/move`` offered lately (its autocomplete)."""
        ...

    async def deliver(self, effects: Effects, *, refresh: bool = True) -> None:
        """Send the public part of ``effects``; then refresh the open hands unless told not."""
        ...

    def deliver_soon(
        self,
        effects: Effects,
        *,
        skip: int | None = None,
        via: discord.Interaction | None = None,
    ) -> None:
        """Send the public part of ``effects`` and refresh the open hands (except ``skip``'s)
        in the background, after the table's earlier deliveries: the clicker's answer does
        not wait for the boards. ``via``: the click that made them (its interaction may
        carry their board, :mod:`bot.discord_ui.click_route`)."""
        ...

    async def refresh_hands(self, effects: Effects, *, skip: int | None = None) -> None:
        """Edit the open hands ``effects`` concern, except ``skip``'s."""
        ...

    async def resolve_table(self, interaction: discord.Interaction, table_id: int | None) -> int:
        """The table a command means: given, this thread's, or the only one here."""
        ...


class AfterCommands(Protocol):
    """The after-game pages the slash commands open (``/stats``, ``/leaderboard``,
    ``/history``)."""

    async def stats(
        self, interaction: discord.Interaction, member: discord.abc.User | None, game: str | None
    ) -> None:
        """``/stats [member] [game]``."""
        ...

    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        """``/leaderboard <game>``."""
        ...

    async def history(
        self, interaction: discord.Interaction, member: discord.abc.User | None, game: str | None
    ) -> None:
        """``/history [member] [game]``."""
        ...


class ReplayCommands(Protocol):
    """The replay viewer as ``/table replay`` opens it."""

    async def open(self, interaction: discord.Interaction, table_id: int) -> None:
        """The first position of a finished table, privately."""
        ...


class CommandDesk(PlayDesk, Protocol):
    """The desk as the slash commands call it (``/move`` hands it on as a :class:`PlayDesk`)."""

    @property
    def after(self) -> AfterCommands:
        """``/stats``, ``/leaderboard``, ``/history``."""
        ...

    @property
    def replays(self) -> ReplayCommands:
        """``/table replay``."""
        ...

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
    ) -> None:
        """``/<game> new``."""
        ...

    async def autocomplete_tables(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The active tables of this channel, for a command's ``table`` option."""
        ...

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
        """``/table <action>``."""
        ...


class _DeskHolder(Protocol):
    """A bot built by :func:`bot.discord_ui.app.create_bot` (``PoeppelBotMixin.desk``)."""

    @property
    def desk(self) -> CommandDesk: ...


def desk_of(interaction: discord.Interaction) -> CommandDesk:
    """The front desk of the bot that received ``interaction``.

    Read through a protocol rather than ``Interaction[PoeppelBot]``: the bot holds whatever
    desk it is given (``Any``), so naming the bot class told the type checker nothing and tied
    the commands to the client module; the protocol says what the commands call.
    """
    return cast("_DeskHolder", interaction.client).desk
