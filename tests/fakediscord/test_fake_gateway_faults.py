"""Gateway resume/shards, and injected rate limits and server errors."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from tests.fakediscord import FakeDiscord
from tests.fakediscord.conftest import World


async def test_rate_limit_is_retried_by_discord_py(world: World) -> None:
    world.fake.inject_rate_limit("POST", "/channels/*/messages", retry_after=0.05, times=2)
    channel = world.text_channel()
    await channel.send("eventually")
    assert world.fake.faults.fired == [("POST", f"/channels/{world.chan.id}/messages", 429)] * 2
    assert [m.content for m in world.fake.messages(world.chan)] == ["eventually"]


async def test_rate_limited_interaction_callback_is_retried(world: World) -> None:
    world.fake.inject_rate_limit("POST", "/interactions/*/callback", retry_after=0.05)
    res = await world.alice.slash(world.chan, "ping")
    assert res.message.content == "pong"
    assert [f[2] for f in world.fake.faults.fired] == [429]


async def test_unretried_server_error_reaches_the_bot(world: World) -> None:
    world.fake.inject_server_error("POST", "/channels/*/messages", status=503)
    channel = world.text_channel()
    with pytest.raises(discord.DiscordServerError) as caught:
        await channel.send("lost")
    assert caught.value.status == 503
    assert world.fake.messages(world.chan) == []


async def test_internal_server_error_is_retried(world: World) -> None:
    # discord.py waits 1 s before retrying a 500: the only sleep in these tests.
    world.fake.inject_server_error("POST", "/channels/*/messages", status=500)
    channel = world.text_channel()
    await channel.send("second try")
    assert [m.content for m in world.fake.messages(world.chan)] == ["second try"]


async def test_forced_reconnect_resumes_and_replays_missed_events(world: World) -> None:
    fake = world.fake
    await fake.force_reconnect()
    late = fake.add_channel(world.guild, "created-while-away")
    await fake.wait_for(lambda: ("RESUME", 0) in fake.gateway.log)
    await fake.wait_for(lambda: world.bot.get_channel(late.id))
    assert [entry for entry in fake.gateway.log if entry[0] == "IDENTIFY"] == [("IDENTIFY", 0)]
    res = await world.alice.slash(world.chan, "ping")
    assert res.message.content == "pong"


async def test_invalidated_session_identifies_again(world: World) -> None:
    fake = world.fake
    await fake.invalidate_sessions()
    await fake.wait_for(lambda: fake.gateway.log.count(("IDENTIFY", 0)) == 2)
    await fake.wait_for(lambda: fake.connected_shards == {0})
    res = await world.alice.slash(world.chan, "ping")
    assert res.message.content == "pong"


class ShardedBot(discord.AutoShardedClient):
    """Two-shard client answering /where with the shard that got the interaction."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(description="Which shard am I on?")
        async def where(interaction: discord.Interaction) -> None:
            assert interaction.guild is not None
            await interaction.response.send_message(f"shard {interaction.guild.shard_id}")

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s pause between shard IDENTIFYs against the fake."""

    async def setup_hook(self) -> None:
        await self.tree.sync()


async def test_two_shards_get_their_own_guilds() -> None:
    async with FakeDiscord(recommended_shards=2) as fake:
        even = fake.add_guild("Even", id=1000 << 22)
        odd = fake.add_guild("Odd", id=1001 << 22)
        chans = {g.id: fake.add_channel(g, "games") for g in (even, odd)}
        users = {g.id: fake.add_user(f"u{g.name}", guild=g) for g in (even, odd)}
        bot = ShardedBot()
        async with fake.running(bot):
            await fake.wait_for(lambda: fake.connected_shards == {0, 1})
            assert bot.shard_count == 2
            shard_of = {g.id: g.shard_id for g in bot.guilds}
            assert shard_of == {even.id: 0, odd.id: 1}
            ready = {s.shard_id: s.backlog[0]["d"]["guilds"] for s in fake.gateway.live_sessions()}
            assert ready == {
                0: [{"id": str(even.id), "unavailable": True}],
                1: [{"id": str(odd.id), "unavailable": True}],
            }
            for guild, expected in ((even, "shard 0"), (odd, "shard 1")):
                res = await users[guild.id].slash(chans[guild.id], "where")
                assert res.message.content == expected
        assert not fake.unknown_routes


async def test_privileged_intents_must_be_granted() -> None:
    intents = discord.Intents.default()
    intents.message_content = True
    async with FakeDiscord() as fake:
        guild = fake.add_guild("G")
        chan = fake.add_channel(guild, "c")
        alice = fake.add_user("alice", guild=guild)
        with pytest.raises(discord.PrivilegedIntentsRequired):
            async with fake.running(discord.Client(intents=intents, guild_ready_timeout=0.05)):
                pass
        fake.privileged_intents = intents.value
        client = discord.Client(intents=intents, guild_ready_timeout=0.05)
        seen: list[str] = []

        @client.event
        async def on_message(message: discord.Message) -> None:
            seen.append(message.content)

        async with fake.running(client):
            await alice.send(chan, "readable with the intent")
            await fake.wait_for(lambda: seen)
        assert seen == ["readable with the intent"]


async def test_dropped_connection_resumes(world: World) -> None:
    fake = world.fake
    await fake.drop_connection()
    await fake.wait_for(lambda: ("RESUME", 0) in fake.gateway.log)
    await fake.wait_for(lambda: fake.connected_shards == {0})
    res = await world.alice.slash(world.chan, "ping")
    assert res.message.content == "pong"
