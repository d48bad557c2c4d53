"""``/season``: a season of a game on this server, its leaderboard, and its champions.

Thin: the seasons' rules are the service's (:mod:`bot.service.seasons`). Dates are typed as
``YYYY-MM-DD`` (UTC days; the end day is included) and shown as Discord timestamps, which
every reader's client writes in their own language.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import discord
from discord import app_commands

from bot.discord_ui.desk_port import desk_of
from bot.discord_ui.replies import reply_private
from bot.discord_ui.translator import locale_of
from bot.model.table import TableError
from bot.service import SeasonBoard
from i18n import t, tn

GAME_CHOICES = [
    app_commands.Choice(name=name.capitalize(), value=name)
    for name in ("tock", "dog", "carcassonne")
]
DAY = 86400.0

season = app_commands.Group(
    name="season", description="Seasons of a game on this server", guild_only=True
)


def parse_day(text: str) -> float:
    """``2027-01-31`` as seconds since the epoch (the start of that UTC day)."""
    day = dt.date.fromisoformat(text.strip())
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp()


def who(player: str, locale: str) -> str:
    """How a rated player is named: a person by mention, a bot by its level."""
    kind, _, rest = player.partition(":")
    if kind == "u" and rest.isdigit():
        return f"<@{rest}>"
    return t(f"bot_level.{rest}", locale)


def day(moment: float) -> str:
    """A Discord timestamp of a date (each reader's client writes it in their language)."""
    return f"<t:{int(moment)}:D>"


def champion_lines(boards: Sequence[SeasonBoard], locale: str) -> list[str]:
    """One line per ended season and its champion (``/season champions``, ``/stats``)."""
    lines = []
    for board in boards:
        assert board.champion is not None
        lines.append(
            t(
                "season.champions.line",
                locale,
                season=board.season.name,
                game=t(f"game.{board.season.game}", locale),
                name=who(board.champion.player, locale),
            )
        )
    return lines


def board_lines(board: SeasonBoard, locale: str) -> list[str]:
    """A season's title line and its leaderboard (``/season leaderboard``, and beside the
    all-time ``/leaderboard``)."""
    found = board.season
    lines = [
        t(
            "season.board.title",
            locale,
            name=found.name,
            game=t(f"game.{found.game}", locale),
            start=day(found.start_at),
            end=day(found.end_at - DAY),
        )
    ]
    for rank, rating in enumerate(board.top, start=1):
        lines.append(
            tn(
                "season.board.line",
                rating.games,
                locale,
                rank=rank,
                name=who(rating.player, locale),
                rating=f"{rating.ordinal:.1f}",
            )
        )
    if not board.top:
        lines.append(t("season.board.empty", locale))
    if board.champion is not None:
        lines.append(t("season.board.champion", locale, name=who(board.champion.player, locale)))
    return lines


@season.command(name="new", description="Set up a season of a game (Manage Server)")
@app_commands.describe(
    game="which game",
    name="the season's name",
    start="first day, YYYY-MM-DD",
    end="last day, YYYY-MM-DD",
)
@app_commands.choices(game=GAME_CHOICES)
async def season_new(
    interaction: discord.Interaction, game: str, name: str, start: str, end: str
) -> None:
    """Create a season (members who may manage the server)."""
    # Acknowledged before anything is stored: of two processes that got the command (a
    # rolling restart), only the one whose acknowledgement Discord took creates the season.
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale = locale_of(interaction)
    permissions = getattr(interaction, "permissions", None)
    if interaction.guild_id is None or not (permissions and permissions.manage_guild):
        await reply_private(interaction, t("season.error.manage", locale))
        return
    try:
        start_at, end_at = parse_day(start), parse_day(end) + DAY
    except ValueError:
        await reply_private(interaction, t("season.error.date_format", locale))
        return
    try:
        found = await desk_of(interaction).service.seasons.create(
            interaction.guild_id, game, name, start_at, end_at
        )
    except TableError as error:
        await reply_private(interaction, error.text(locale))
        return
    text = t(
        "season.created",
        locale,
        name=found.name,
        game=t(f"game.{game}", locale),
        start=day(found.start_at),
        end=day(found.end_at - DAY),
    )
    await reply_private(interaction, text)


@season.command(name="leaderboard", description="The current season's leaderboard of a game")
@app_commands.describe(game="which game")
@app_commands.choices(game=GAME_CHOICES)
async def season_leaderboard(interaction: discord.Interaction, game: str) -> None:
    """Answer privately with the season's top ten (the all-time one is ``/leaderboard``)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale = locale_of(interaction)
    assert interaction.guild_id is not None
    board = await desk_of(interaction).service.seasons.board(interaction.guild_id, game)
    if board is None:
        await reply_private(interaction, t("season.none", locale, game=t(f"game.{game}", locale)))
        return
    await reply_private(interaction, "\n".join(board_lines(board, locale)))


@season.command(name="champions", description="The champions of the seasons that have ended")
@app_commands.describe(member="only the seasons this member won")
async def season_champions(
    interaction: discord.Interaction, member: discord.Member | None = None
) -> None:
    """Answer privately with every ended season's champion (or a member's titles)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale = locale_of(interaction)
    assert interaction.guild_id is not None
    player = None if member is None else f"u:{member.id}"
    boards = await desk_of(interaction).service.seasons.champions(interaction.guild_id, player)
    if not boards:
        await reply_private(interaction, t("season.champions.none", locale))
        return
    lines = [t("season.champions.title", locale), *champion_lines(boards, locale)]
    await reply_private(interaction, "\n".join(lines))
