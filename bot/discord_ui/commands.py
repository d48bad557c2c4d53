"""The slash commands: ``/tock new``, ``/dog new``, ``/carcassonne new``, ``/table``, ``/rules``.

Each command only reads its options and hands them to the front desk of the bot, which talks
to the table service. The desk is read with :func:`bot.discord_ui.desk_port.desk_of` and seen
as a :class:`~bot.discord_ui.desk_port.CommandDesk`: this module imports neither the desk nor
the client (the bot's builder, :func:`bot.discord_ui.app.create_bot`, registers the commands).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.discord_ui.after_commands import AFTER_GAME_COMMANDS, TABLE_REPLAY
from bot.discord_ui.desk_port import desk_of
from bot.discord_ui.logs import quiet_refused_acknowledgements
from bot.discord_ui.replies import acknowledged_elsewhere, reply_private
from bot.discord_ui.season_commands import season
from bot.discord_ui.tournament_commands import tournament
from bot.discord_ui.translator import locale_of
from bot.discord_ui.typed_moves import autocomplete, play_typed
from bot.model.table import BOT_LEVELS, DEFAULT_BOT_LEVEL
from i18n import rules_games, rules_page, t
from i18n.rules import RULES_TOPICS

log = logging.getLogger(__name__)

TURN_TIME_CHOICES = [
    app_commands.Choice(name="no clock", value=0),
    app_commands.Choice(name="1 minute", value=60),
    app_commands.Choice(name="2 minutes", value=120),
    app_commands.Choice(name="5 minutes", value=300),
    app_commands.Choice(name="10 minutes", value=600),
    app_commands.Choice(name="1 hour", value=3600),
    app_commands.Choice(name="1 day", value=86400),
]
BOT_LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in BOT_LEVELS]
_BOT_LEVEL_HELP = "how well the bots play (Add bot, and the seat of a player who leaves)"
_WATCH_LIVE_HELP = "anyone with the link may watch the live board, also outside this server"


# --- /tock, /dog, /carcassonne -----------------------------------------------------------------

tock = app_commands.Group(name="tock", description="Tock: race your pawns home", guild_only=True)
dog = app_commands.Group(name="dog", description="Dog: the Swiss race game", guild_only=True)
carcassonne = app_commands.Group(
    name="carcassonne", description="Carcassonne: tiles, cities, roads", guild_only=True
)


@tock.command(name="new", description="Open a Tock table in this channel")
@app_commands.describe(
    players="how many players (2-6)",
    game_type="free-for-all, or teams of two (4 players: 2v2, 6 players: 2v2v2)",
    seven="split the 7 over several pawns, or move one pawn only",
    quick_start="every player starts with one pawn on the board",
    variant5="the 5 may move any pawn",
    turn_time="time per turn before the game acts for an absent player",
    bot_level=_BOT_LEVEL_HELP,
    hints="let players ask the bot for a move (the game is not rated)",
    watch_live=_WATCH_LIVE_HELP,
)
@app_commands.choices(  # type: ignore[misc]
    game_type=[
        app_commands.Choice(name="free-for-all", value="ffa"),
        app_commands.Choice(name="2 vs 2", value="2v2"),
        app_commands.Choice(name="2 vs 2 vs 2", value="2v2v2"),
    ],
    seven=[
        app_commands.Choice(name="split", value="split"),
        app_commands.Choice(name="single", value="single"),
    ],
    turn_time=TURN_TIME_CHOICES,
    bot_level=BOT_LEVEL_CHOICES,
)
async def tock_new(
    interaction: discord.Interaction,
    players: app_commands.Range[int, 2, 6] = 4,
    game_type: str = "ffa",
    seven: str = "split",
    quick_start: bool = False,
    variant5: bool = False,
    turn_time: int = 0,
    bot_level: str = DEFAULT_BOT_LEVEL,
    hints: bool = False,
    watch_live: bool = False,
) -> None:
    """Open a Tock table."""
    options = {
        "game_type": game_type,
        "seven": seven,
        "quick_start": quick_start,
        "variant5": variant5,
    }
    await desk_of(interaction).new_table(
        interaction,
        "tock",
        players,
        options,
        turn_time,
        hints,
        bot_level=bot_level,
        live_watch=watch_live,
    )


@dog.command(name="new", description="Open a Dog table in this channel")
@app_commands.describe(
    players="4 or 6 players, always in teams",
    ruleset="bsw (the BrettspielWelt rules) or braendi (official Brändi Dog)",
    turn_time="time per turn before the game acts for an absent player",
    bot_level=_BOT_LEVEL_HELP,
    hints="let players ask the bot for a move (the game is not rated)",
    watch_live=_WATCH_LIVE_HELP,
)
@app_commands.choices(  # type: ignore[misc]
    players=[app_commands.Choice(name="4", value=4), app_commands.Choice(name="6", value=6)],
    ruleset=[
        app_commands.Choice(name="bsw", value="bsw"),
        app_commands.Choice(name="braendi", value="braendi"),
    ],
    turn_time=TURN_TIME_CHOICES,
    bot_level=BOT_LEVEL_CHOICES,
)
async def dog_new(
    interaction: discord.Interaction,
    players: int = 4,
    ruleset: str = "bsw",
    turn_time: int = 0,
    bot_level: str = DEFAULT_BOT_LEVEL,
    hints: bool = False,
    watch_live: bool = False,
) -> None:
    """Open a Dog table."""
    options = {"preset": ruleset}
    await desk_of(interaction).new_table(
        interaction,
        "dog",
        players,
        options,
        turn_time,
        hints,
        bot_level=bot_level,
        live_watch=watch_live,
    )


@carcassonne.command(name="new", description="Open a Carcassonne table in this channel")
@app_commands.describe(
    players="how many players (2-6)",
    farms="how farms score at the end (third edition, first, second, or no farm scoring)",
    small_cities="two-tile cities score 2 points instead of 4",
    river="start with the River expansion",
    inns_cathedrals="the Inns & Cathedrals expansion: off, its tiles only, or in full",
    traders_builders="the Traders & Builders expansion: off, its tiles only, or in full",
    turn_time="time per turn before the game acts for an absent player",
    bot_level=_BOT_LEVEL_HELP,
    hints="let players ask the bot for a move (the game is not rated)",
    watch_live=_WATCH_LIVE_HELP,
)
@app_commands.choices(  # type: ignore[misc]
    farms=[app_commands.Choice(name=v, value=v) for v in ("third", "first", "second", "off")],
    inns_cathedrals=[app_commands.Choice(name=v, value=v) for v in ("off", "tiles", "full")],
    traders_builders=[app_commands.Choice(name=v, value=v) for v in ("off", "tiles", "full")],
    turn_time=TURN_TIME_CHOICES,
    bot_level=BOT_LEVEL_CHOICES,
)
async def carcassonne_new(
    interaction: discord.Interaction,
    players: app_commands.Range[int, 2, 6] = 2,
    farms: str = "third",
    small_cities: bool = False,
    river: bool = False,
    inns_cathedrals: str = "off",
    traders_builders: str = "off",
    turn_time: int = 0,
    bot_level: str = DEFAULT_BOT_LEVEL,
    hints: bool = False,
    watch_live: bool = False,
) -> None:
    """Open a Carcassonne table."""
    options = {
        "farms": farms,
        "small_cities": small_cities,
        "river": river,
        "inns_cathedrals": inns_cathedrals,
        "traders_builders": traders_builders,
    }
    await desk_of(interaction).new_table(
        interaction,
        "carcassonne",
        players,
        options,
        turn_time,
        hints,
        bot_level=bot_level,
        live_watch=watch_live,
    )


# --- /table ------------------------------------------------------------------------------------

table = app_commands.Group(
    name="table", description="Join and run the tables here", guild_only=True
)


async def table_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """The tables open in this channel (or its parent, inside a table's thread)."""
    return await desk_of(interaction).autocomplete_tables(interaction, current)


_TABLE_HELP = "the table (defaults to the one of this thread, or the only one here)"


def _table_command(name: str, description: str) -> Any:
    async def callback(interaction: discord.Interaction, table: int | None = None) -> None:
        await desk_of(interaction).table_command(interaction, name, table)

    callback.__name__ = f"table_{name}"
    app_commands.describe(table=_TABLE_HELP)(callback)
    app_commands.autocomplete(table=table_autocomplete)(callback)
    return app_commands.Command(name=name, description=description, callback=callback)


for _name, _description in (
    ("leave", "Give up your seat (in a game, a bot or the game moves for you)"),
    ("start", "Start the game (host only)"),
    ("abandon", "End the table for everyone (host or Manage Threads)"),
    ("status", "Show the seats and whose turn it is"),
    ("board", "Post the current board again"),
    ("hint", "Ask the bot what to play (tables with hints only)"),
):
    table.add_command(_table_command(_name, _description))


@table.command(name="join", description="Take a free seat at a table")
@app_commands.describe(table=_TABLE_HELP, team="the team to sit in (team games: 1, 2 or 3)")
@app_commands.autocomplete(table=table_autocomplete)
async def table_join(
    interaction: discord.Interaction,
    table: int | None = None,
    team: app_commands.Range[int, 1, 3] | None = None,
) -> None:
    """Take a seat, in ``team`` if given."""
    await desk_of(interaction).table_command(interaction, "join", table, team=team)


@table.command(name="log", description="The moves played so far")
@app_commands.describe(table=_TABLE_HELP, notation="show the moves in notation instead of words")
@app_commands.autocomplete(table=table_autocomplete)
async def table_log(
    interaction: discord.Interaction, table: int | None = None, notation: bool = False
) -> None:
    """The newest moves in words, or in notation when asked."""
    await desk_of(interaction).table_command(interaction, "log", table, notation=notation)


@table.command(name="kick", description="Remove a player from your table (host only)")
@app_commands.describe(member="the player to remove", table=_TABLE_HELP)
@app_commands.autocomplete(table=table_autocomplete)
async def table_kick(
    interaction: discord.Interaction, member: discord.Member, table: int | None = None
) -> None:
    """Remove ``member`` from the table."""
    await desk_of(interaction).table_command(interaction, "kick", table, member=member)


# --- /move ------------------------------------------------------------------------------------


async def move_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The caller's own legal moves, in words (only the caller sees them)."""
    return await autocomplete(desk_of(interaction), interaction, current)


@app_commands.command(name="move", description="Play a move by typing it")
@app_commands.describe(
    move="your move: start typing, the list shows your legal moves", table=_TABLE_HELP
)
@app_commands.autocomplete(move=move_autocomplete, table=table_autocomplete)
@app_commands.guild_only()
async def move(interaction: discord.Interaction, move: str, table: int | None = None) -> None:
    """Play ``move`` at the table of this thread (or ``table``)."""
    await play_typed(desk_of(interaction), interaction, move, table)


# --- /rules ------------------------------------------------------------------------------------


#: Every topic of any game, in a stable order: Discord's choices are the same for all games,
#: and a topic a game lacks is answered with the list of the topics it has.
_ALL_TOPICS = list(dict.fromkeys(topic for topics in RULES_TOPICS.values() for topic in topics))


@app_commands.command(name="rules", description="A short summary of a game's rules")
@app_commands.describe(game="the game", topic="the part of the rules (default: an overview)")
@app_commands.choices(
    game=[app_commands.Choice(name=t(f"game.{name}", "en"), value=name) for name in rules_games()],
    topic=[app_commands.Choice(name=t(f"rules.topic.{tp}", "en"), value=tp) for tp in _ALL_TOPICS],
)
async def rules(interaction: discord.Interaction, game: str, topic: str | None = None) -> None:
    """Answer with the rules of ``game`` on ``topic``, privately, in the reader's language."""
    text = rules_page(game, topic, locale_of(interaction))
    await interaction.response.send_message(text, ephemeral=True)


def register_commands(tree: app_commands.CommandTree[Any]) -> None:
    """Add every Pöppel command to ``tree``."""
    table.add_command(TABLE_REPLAY, override=True)
    command: Any
    for command in (
        tock,
        dog,
        carcassonne,
        table,
        move,
        rules,
        *AFTER_GAME_COMMANDS,
        tournament,
        season,
    ):
        tree.add_command(command, override=True)
    tree.on_error = on_app_command_error  # type: ignore[method-assign]
    # discord.py logs a refused autocomplete answer itself: one INFO line when another
    # process answered it (a rolling restart), not an ERROR.
    quiet_refused_acknowledgements()


async def on_app_command_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    """Answer a failed command privately instead of leaving it unanswered."""
    if acknowledged_elsewhere(error):
        # Both processes of a rolling restart got the command; the other one answers it.
        # Expected, so one line, no traceback (and no answer of ours on top of theirs).
        log.info("command %s was acknowledged by another process", interaction.id)
        return
    log.exception("command failed", exc_info=error)
    locale = locale_of(interaction)
    text = t("cmd.error.failed", locale)
    if isinstance(error, app_commands.CheckFailure):
        text = str(error) or t("cmd.error.not_here", locale)
    await reply_private(interaction, text)
