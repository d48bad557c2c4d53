"""The slash commands about finished games: ``/stats``, ``/leaderboard``, ``/history``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from i18n import t

if TYPE_CHECKING:
    from bot.discord_ui.client import PoeppelBot

    Interaction = discord.Interaction[PoeppelBot]
else:
    Interaction = discord.Interaction

GAME_CHOICES = [
    app_commands.Choice(name=t(f"game.{name}", "en"), value=name)
    for name in ("tock", "dog", "carcassonne")
]


def _after(interaction: Interaction) -> Any:
    return interaction.client.desk.after


@app_commands.command(name="stats", description="Games, wins, rating and recent results")
@app_commands.describe(member="whose statistics (default: yours)", game="only this game")
@app_commands.choices(game=GAME_CHOICES)
@app_commands.guild_only()
async def stats(
    interaction: Interaction, member: discord.Member | None = None, game: str | None = None
) -> None:
    """Answer privately with a member's statistics on this server."""
    await _after(interaction).stats(interaction, member, game)


@app_commands.command(name="leaderboard", description="The best players of a game on this server")
@app_commands.describe(game="which game")
@app_commands.choices(game=GAME_CHOICES)
@app_commands.guild_only()
async def leaderboard(interaction: Interaction, game: str) -> None:
    """Answer privately with the server's top ten and the caller's place."""
    await _after(interaction).leaderboard(interaction, game)


@app_commands.command(name="history", description="The finished tables of this server")
@app_commands.describe(member="only the tables of this member", game="only this game")
@app_commands.choices(game=GAME_CHOICES)
@app_commands.guild_only()
async def history(
    interaction: Interaction, member: discord.Member | None = None, game: str | None = None
) -> None:
    """Answer privately with the newest finished tables, paged."""
    await _after(interaction).history(interaction, member, game)


async def finished_tables(interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
    """The finished tables of this channel (or of the channel a thread belongs to), newest
    first."""
    from bot.discord_ui.translator import locale_of
    from bot.model.table import Phase

    if interaction.guild_id is None or interaction.channel is None:
        return []
    channel = interaction.channel
    channel_id = channel.parent_id if isinstance(channel, discord.Thread) else channel.id
    service = interaction.client.desk.service
    tables = await service.list_tables(interaction.guild_id, channel_id, active=False)
    locale = locale_of(interaction)
    choices = []
    for found in reversed(tables):
        if found.phase is not Phase.FINISHED:
            continue
        name = t("replay.choice", locale, game=t(f"game.{found.game}", locale), table=found.id)
        if not current or current.lower() in name.lower():
            choices.append(app_commands.Choice(name=name[:100], value=found.id))
    return choices[:25]


@app_commands.command(name="replay", description="Step through a finished table, privately")
@app_commands.describe(table="the finished table")
@app_commands.autocomplete(table=finished_tables)
async def replay(interaction: Interaction, table: int) -> None:
    """Open the private replay viewer of a finished table."""
    await interaction.client.desk.replays.open(interaction, table)


AFTER_GAME_COMMANDS = (stats, leaderboard, history)
#: ``/table replay``, a subcommand of the ``/table`` group.
TABLE_REPLAY = replay
