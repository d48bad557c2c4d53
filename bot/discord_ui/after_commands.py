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


AFTER_GAME_COMMANDS = (stats, leaderboard, history)
