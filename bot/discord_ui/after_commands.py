"""The slash commands about finished games: ``/stats``, ``/leaderboard``, ``/history``, and
``/table replay``.

Like :mod:`bot.discord_ui.commands` (which registers them), they read the bot's desk with
:func:`bot.discord_ui.desk_port.desk_of` and import neither the desk nor the client.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_ui.desk_port import AfterCommands, desk_of
from bot.discord_ui.translator import locale_of
from bot.model.table import Phase
from i18n import t

GAME_CHOICES = [
    app_commands.Choice(name=t(f"game.{name}", "en"), value=name)
    for name in ("tock", "dog", "carcassonne")
]


def _after(interaction: discord.Interaction) -> AfterCommands:
    return desk_of(interaction).after


@app_commands.command(name="stats", description="Games, wins, rating and recent results")
@app_commands.describe(member="whose statistics (default: yours)", game="only this game")
@app_commands.choices(game=GAME_CHOICES)
@app_commands.guild_only()
async def stats(
    interaction: discord.Interaction, member: discord.Member | None = None, game: str | None = None
) -> None:
    """Answer privately with a member's statistics on this server."""
    await _after(interaction).stats(interaction, member, game)


@app_commands.command(name="leaderboard", description="The best players of a game on this server")
@app_commands.describe(game="which game")
@app_commands.choices(game=GAME_CHOICES)
@app_commands.guild_only()
async def leaderboard(interaction: discord.Interaction, game: str) -> None:
    """Answer privately with the server's top ten and the caller's place."""
    await _after(interaction).leaderboard(interaction, game)


@app_commands.command(name="history", description="The finished tables of this server")
@app_commands.describe(member="only the tables of this member", game="only this game")
@app_commands.choices(game=GAME_CHOICES)
@app_commands.guild_only()
async def history(
    interaction: discord.Interaction, member: discord.Member | None = None, game: str | None = None
) -> None:
    """Answer privately with the newest finished tables, paged."""
    await _after(interaction).history(interaction, member, game)


async def finished_tables(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """The finished tables of this channel (or of the channel a thread belongs to), newest
    first."""
    if interaction.guild_id is None or interaction.channel is None:
        return []
    channel = interaction.channel
    channel_id = channel.parent_id if isinstance(channel, discord.Thread) else channel.id
    service = desk_of(interaction).service
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
async def replay(interaction: discord.Interaction, table: int) -> None:
    """Open the private replay viewer of a finished table."""
    await desk_of(interaction).replays.open(interaction, table)


AFTER_GAME_COMMANDS = (stats, leaderboard, history)
#: ``/table replay``, a subcommand of the ``/table`` group.
TABLE_REPLAY = replay
