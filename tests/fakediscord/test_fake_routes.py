"""More routes and checks: auth, unknown routes, DMs, edits, threads, intents, command sync."""

from __future__ import annotations

import io

import aiohttp
import discord
import pytest
from discord.http import Route

from tests.fakediscord import FakeDiscord
from tests.fakediscord.conftest import DemoBot, World, tiny_png
from tests.fakediscord.fixtures import fake_discord  # noqa: F401  (the fixture under test)


async def test_fixture_runs_a_bot(fake_discord: FakeDiscord) -> None:  # noqa: F811
    guild = fake_discord.add_guild("G")
    chan = fake_discord.add_channel(guild, "c")
    user = fake_discord.add_user("u", guild=guild)
    async with fake_discord.running(DemoBot()):
        res = await user.slash(chan, "ping")
    assert res.message.content == "pong"


async def test_unknown_route_is_recorded_with_discords_404(world: World) -> None:
    route = Route("GET", "/guilds/{guild_id}/bans", guild_id=world.guild.id)
    with pytest.raises(discord.NotFound):
        await world.bot.http.request(route)
    assert world.fake.unknown_routes == [("GET", f"/guilds/{world.guild.id}/bans")]
    world.fake.unknown_routes.clear()  # expected here; the fixture asserts there are none


async def test_wrong_token_is_unauthorized(world: World) -> None:
    async with aiohttp.ClientSession() as session:
        headers = {"Authorization": "Bot wrong"}
        async with session.get(f"{world.fake.api_base}/users/@me", headers=headers) as resp:
            assert resp.status == 401
            assert (await resp.json())["message"] == "401: Unauthorized"


async def test_update_callback_on_a_slash_command_is_invalid(world: World) -> None:
    await world.alice.slash(world.chan, "hold", wait=False)
    await world.fake.wait_for(lambda: world.bot.held)
    interaction = world.bot.held[-1]
    url = f"{world.fake.api_base}/interactions/{interaction.id}/{interaction.token}/callback"
    body = {"type": 7, "data": {"content": "x"}}
    async with aiohttp.ClientSession() as session, session.post(url, json=body) as resp:
        assert resp.status == 400
        assert (await resp.json())["code"] == 50035
    # The rejected callback did not acknowledge: a valid one still works.
    await interaction.response.send_message("fine")
    assert world.fake.messages(world.chan)[-1].content == "fine"


async def test_direct_message_to_a_user(world: World) -> None:
    user = await world.bot.fetch_user(world.alice.id)
    await user.send("hi alice")
    dm = next(c for c in world.fake.channels.values() if c.recipient_id == world.alice.id)
    assert [m.content for m in world.fake.messages(dm)] == ["hi alice"]


async def test_bot_edits_and_deletes_its_messages_but_not_others(world: World) -> None:
    channel = world.text_channel()
    mine = await channel.send("draft")
    await mine.edit(content="final")
    assert world.fake.message(mine.id).content == "final"
    theirs = await world.alice.send(world.chan, "alice wrote this")
    other = await channel.fetch_message(theirs.id)
    with pytest.raises(discord.Forbidden) as caught:
        await other.edit(content="hacked")
    assert caught.value.code == 50005
    await mine.delete()
    assert [m.content for m in world.fake.messages(world.chan)] == ["alice wrote this"]


async def test_message_content_needs_the_intent(world: World) -> None:
    seen: list[discord.Message] = []

    async def on_message(message: discord.Message) -> None:
        seen.append(message)

    world.bot.add_listener(on_message)
    await world.alice.send(world.chan, "secret words")
    await world.fake.wait_for(lambda: seen)
    assert seen[0].author.id == world.alice.id
    assert seen[0].content == ""


async def test_locked_archived_thread_rejects_and_lock_needs_manage_threads(world: World) -> None:
    channel = world.text_channel()
    thread = await channel.create_thread(name="t", type=discord.ChannelType.public_thread)
    await thread.send("first")
    await thread.edit(archived=True)
    await thread.send("revives")  # unlocked archived threads unarchive on send
    assert not world.fake.channels[thread.id].archived
    other = await channel.create_thread(name="u", type=discord.ChannelType.public_thread)
    await thread.edit(archived=True, locked=True)  # the bot's role can manage threads
    perms = discord.Permissions(
        view_channel=True,
        send_messages=True,
        send_messages_in_threads=True,
        create_public_threads=True,
    )
    world.fake.set_bot_permissions(world.guild, perms.value)
    with pytest.raises(discord.HTTPException) as caught:
        await thread.send("no")
    assert caught.value.code == 50083
    with pytest.raises(discord.Forbidden) as caught:
        await other.edit(locked=True)
    assert caught.value.code == 50013


async def test_bad_command_definition_fails_the_sync(world: World) -> None:
    route = Route("PUT", "/applications/{app}/commands", app=world.fake.application_id)
    bad = [{"name": "Bad Name", "description": "x", "type": 1}]
    with pytest.raises(discord.HTTPException) as caught:
        await world.bot.http.request(route, json=bad)
    assert caught.value.code == 50035
    assert {c["name"] for c in world.fake.global_commands} >= {"ping", "game"}


async def test_private_thread_is_visible_to_members_and_moderators_only(world: World) -> None:
    mod = world.fake.add_user("mod", guild=world.guild, manage_threads=True)
    thread = await world.text_channel().create_thread(name="secret table")
    await thread.add_user(discord.Object(world.alice.id))
    await thread.send("for members")
    stored = world.fake.channels[thread.id]
    assert [m.content for m in world.alice.messages(stored)] == ["for members"]
    assert [m.content for m in mod.messages(stored)] == ["for members"]
    assert world.bob.messages(stored) == []
    assert world.fake.dm_channel(world.bob) is None


class InviteView(discord.ui.View):
    """A user select answering with the picked member's name."""

    @discord.ui.select(cls=discord.ui.UserSelect, custom_id="invite")
    async def invite(self, interaction: discord.Interaction, select: discord.ui.UserSelect) -> None:
        await interaction.response.send_message(f"invited {select.values[0].name}")


async def test_user_select_carries_resolved_members(world: World) -> None:
    await world.text_channel().send("who?", view=InviteView())
    msg = world.fake.messages(world.chan)[-1]
    res = await world.alice.select(msg, custom_id="invite", values=[world.bob])
    assert res.message.content == "invited bob"


async def test_common_discord_py_calls_are_served(world: World) -> None:
    """A tour of what a typical bot calls; none may hit an unknown route or be rejected."""
    fake, bot = world.fake, world.bot
    await bot.tree.sync(guild=discord.Object(world.guild.id))
    await world.alice.slash(world.chan, "hold", wait=False)
    await fake.wait_for(lambda: bot.held)
    interaction = bot.held[-1]
    await interaction.response.defer(thinking=True)
    png = discord.File(io.BytesIO(tiny_png()), "x.png")
    await interaction.followup.send("first", file=png, wait=True)
    second = await interaction.followup.send("second", wait=True)
    await second.edit(content="second edited")
    text = discord.File(io.BytesIO(b"t"), "t.txt")
    await interaction.edit_original_response(content="original", attachments=[text])
    original = await interaction.original_response()
    assert [a.filename for a in original.attachments] == ["t.txt"]
    await second.delete()
    channel = world.text_channel()
    hello = await channel.send("hello")
    await hello.add_reaction("👍")
    await hello.reply("reply")
    async with channel.typing():
        pass
    assert [m.content async for m in channel.history(limit=10)] == ["reply", "hello", "original"]
    thread = await channel.create_thread(name="pub", type=discord.ChannelType.public_thread)
    await thread.join()
    await thread.add_user(discord.Object(world.alice.id))
    assert len(await thread.fetch_members()) == 2
    await thread.remove_user(discord.Object(world.alice.id))
    await thread.leave()
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    assert (await guild.fetch_member(world.alice.id)).name == "alice"
    fetched = await bot.fetch_channel(thread.id)
    assert isinstance(fetched, discord.Thread)
    assert fetched.name == "pub"
    await thread.delete()
    await interaction.delete_original_response()
    assert fake.unknown_routes == []
    assert fake.rejected == []
    assert [m.content for m in fake.messages(world.chan)] == ["hello", "reply"]


async def test_a_create_with_an_enforced_nonce_returns_the_first_message(world: World) -> None:
    channel = world.bot.get_channel(world.chan.id)
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("results", nonce="o1.abc")  # discord.py enforces a nonce
    again = await channel.send("results", nonce="o1.abc")
    other = await channel.send("results", nonce="o2.abc")
    assert again.id == first.id
    assert [m.content for m in world.fake.messages(world.chan)] == ["results", "results"]
    assert other.id != first.id
    # After "a few minutes" the nonce is forgotten and the same create makes a new message.
    world.fake.clock.advance(world.fake.nonce_window + 1)
    later = await channel.send("results", nonce="o1.abc")
    assert later.id != first.id
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("x", nonce="n" * 26)
    assert refused.value.code == 50035
