"""The Discord client: a ``commands.Bot`` that is handed its resources and wires them up."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import commands

log = logging.getLogger(__name__)


def bot_intents() -> discord.Intents:
    """The intents Pöppel needs: guilds only, nothing privileged.

    Slash commands and components arrive as interactions whatever the intents; guilds gives the
    channel and thread cache the bot posts into.
    """
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


@dataclass(frozen=True, slots=True)
class BotConfig:
    """How the bot behaves at start: command sync and the development guild."""

    sync_commands: bool = False
    dev_guild_id: int | None = None


class PoeppelBotMixin:
    """Behaviour shared by the single-process bot and the sharded bot.

    The bot receives its resources (the table service and the renderer functions, wrapped in a
    :class:`bot.discord_ui.frontdesk.FrontDesk`) in its constructor; ``setup_hook`` registers the
    persistent components and syncs the commands only when asked. The slash commands are added
    to the tree by whoever builds the bot (:func:`bot.discord_ui.app.create_bot`): the commands
    reach the bot's desk, so the client must not import them.
    """

    desk: Any
    config: BotConfig

    def _init_poeppel(self, desk: Any, config: BotConfig) -> None:
        self.desk = desk
        self.config = config

    async def setup_hook(self) -> None:
        from bot.discord_ui.components import TableControl
        from bot.discord_ui.translator import PoeppelTranslator

        bot: commands.Bot = self  # type: ignore[assignment]
        bot.add_dynamic_items(TableControl)
        # Command names, descriptions and choices in German and Hungarian (i18n).
        await bot.tree.set_translator(PoeppelTranslator())
        await self.desk.attach(bot)
        if self.config.sync_commands:
            await sync_tree(bot, self.config.dev_guild_id)

    async def close(self) -> None:
        # Stop re-posting boards before the connection (and then the storage) goes away.
        await self.desk.detach()
        await super().close()  # type: ignore[misc]

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # A component whose custom_id matches none of our templates (a crafted id, or one from
        # another bot version) would otherwise end as Discord's silent "This interaction failed".
        from bot.discord_ui.components import answer_unknown_component

        await answer_unknown_component(interaction)


async def sync_tree(bot: commands.Bot, dev_guild_id: int | None) -> int:
    """Sync the slash commands: to the development guild if given (instant), else globally."""
    if dev_guild_id is not None:
        guild = discord.Object(id=dev_guild_id)
        bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
        log.info("synced %d commands to the development guild %s", len(synced), dev_guild_id)
    else:
        count = await sync_global(bot)
        log.info("synced %d commands globally", count)
        return count
    return len(synced)


#: The application command type of an Activity's Entry Point command (PRIMARY_ENTRY_POINT).
ENTRY_POINT = 4
#: The fields of a stored command that describe it (the rest Discord fills in).
_COMMAND_FIELDS = (
    "id",
    "type",
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "handler",
    "integration_types",
    "contexts",
    "default_member_permissions",
    "nsfw",
)


async def sync_global(bot: commands.Bot) -> int:
    """Sync the global commands, keeping the Entry Point command.

    Enabling Activities (the live board, #33) makes Discord create an Entry Point command
    ("Launch"); a bulk overwrite that leaves it out fails (error 50240), and discord.py cannot
    express that command type (discord.py #9996). So the tree's commands are sent together
    with the Entry Point command as Discord stored it; without one, the tree syncs as usual.
    """
    tree = bot.tree
    app_id = bot.application_id
    if app_id is None:
        raise discord.app_commands.MissingApplicationID()
    stored = await bot.http.get_global_commands(app_id)
    kept = [
        {key: value for key, value in command.items() if key in _COMMAND_FIELDS}
        for command in stored
        if int(command.get("type", 1)) == ENTRY_POINT
    ]
    if not kept:
        return len(await tree.sync())
    ours = tree.get_commands(guild=None)
    translator = tree.translator
    if translator is not None:
        payload = [await command.get_translated_payload(tree, translator) for command in ours]
    else:
        payload = [command.to_dict(tree) for command in ours]
    await bot.http.bulk_upsert_global_commands(app_id, payload=[*payload, *kept])
    return len(payload)


class PoeppelBot(PoeppelBotMixin, commands.Bot):
    """The bot for a single process holding every shard Discord gives it."""

    def __init__(self, desk: Any, config: BotConfig | None = None, **options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=bot_intents(),
            **options,
        )
        self._init_poeppel(desk, config or BotConfig())


class PoeppelShardedBot(PoeppelBotMixin, commands.AutoShardedBot):
    """The bot for one process among several, owning the shard ids it is given."""

    def __init__(
        self,
        desk: Any,
        config: BotConfig | None = None,
        *,
        shard_count: int,
        shard_ids: list[int] | None = None,
        **options: Any,
    ) -> None:
        if shard_ids is not None:
            options["shard_ids"] = shard_ids
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=bot_intents(),
            shard_count=shard_count,
            **options,
        )
        self._init_poeppel(desk, config or BotConfig())

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process serves ``guild_id`` (Discord's routing by shard)."""
        shard = (guild_id >> 22) % (self.shard_count or 1)
        return self.shard_ids is None or shard in self.shard_ids
