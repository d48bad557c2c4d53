"""Several shards in one process: each guild is served by its shard."""

from __future__ import annotations

from pathlib import Path

from bot.discord_ui.app import create_bot, open_service
from bot.discord_ui.client import BotConfig, PoeppelShardedBot
from bot.discord_ui.rendering import Renderer
from tests.bot.discord.conftest import private_text
from tests.fakediscord.server import FakeDiscord


async def test_two_shards_serve_their_guilds(tmp_path: Path) -> None:
    async with FakeDiscord(recommended_shards=2) as fake:
        guilds = [fake.add_guild(f"Guild {n}") for n in range(4)]
        channels = [fake.add_channel(g, "games") for g in guilds]
        users = [fake.add_user(f"user{n}", guild=g) for n, g in enumerate(guilds)]
        async with open_service(f"sqlite:///{tmp_path / 's.sqlite3'}", renderer=Renderer()) as desk:
            bot = create_bot(
                desk,
                config=BotConfig(sync_commands=True),
                shard_count=2,
                shard_ids=[0, 1],
                guild_ready_timeout=0.05,
            )
            assert isinstance(bot, PoeppelShardedBot)

            async def no_pause(shard_id: int | None, *, initial: bool = False) -> None:
                return None  # the fake needs no 5 s pause between IDENTIFYs

            bot.before_identify_hook = no_pause  # type: ignore[method-assign]
            async with fake.running(bot):
                await fake.wait_for(lambda: fake.connected_shards == {0, 1})
                for guild, channel, user in zip(guilds, channels, users, strict=True):
                    assert bot.owns_guild(guild.id)
                    seen = bot.get_guild(guild.id)
                    assert seen is not None
                    assert seen.shard_id == (guild.id >> 22) % 2
                    result = await user.slash(channel, "rules", game="tock")
                    assert "Tock" in private_text(result, user)
