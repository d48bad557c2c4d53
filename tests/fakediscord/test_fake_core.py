"""The fake speaks enough Discord for a real discord.py bot: connect, commands, components."""

from __future__ import annotations

import discord
import pytest

from tests.fakediscord.conftest import World


async def test_bot_connects_and_sees_its_guild(world: World) -> None:
    guild = world.bot.get_guild(world.guild.id)
    assert guild is not None
    assert guild.preferred_locale == discord.Locale.german
    assert world.text_channel().name == "games"
    assert world.fake.connected_shards == {0}


async def test_slash_command_gets_a_public_answer(world: World) -> None:
    res = await world.alice.slash(world.chan, "ping")
    assert res.response_type == 4
    assert res.message.content == "pong"
    assert not res.ephemeral
    assert world.bob.messages(world.chan)[-1].content == "pong"


async def test_ephemeral_answer_is_seen_only_by_the_user(world: World) -> None:
    res = await world.alice.slash(world.chan, "secret")
    assert res.ephemeral
    assert res.message.content == "psst"
    assert world.alice.messages(world.chan)[-1].content == "psst"
    assert world.bob.messages(world.chan) == []


async def test_subcommand_with_option_and_button_click_updates_the_message(world: World) -> None:
    res = await world.alice.slash(world.chan, "game new", players=4)
    lobby = res.message
    assert lobby.content == "Lobby for 4"
    assert [b["label"] for b in lobby.buttons] == ["Join", "Start"]
    clicked = await world.bob.click(lobby, label="Join")
    assert clicked.response_type == 7
    assert world.fake.message(lobby.id).content == "Players: bob"
    assert world.fake.message(lobby.id).edited_timestamp is not None


async def test_user_cannot_click_a_disabled_button_or_pass_bad_options(world: World) -> None:
    from tests.fakediscord import ScriptError

    res = await world.alice.slash(world.chan, "game new", players=3)
    with pytest.raises(ScriptError, match="disabled"):
        await world.alice.click(res.message, label="Start")
    with pytest.raises(ScriptError, match="outside"):
        await world.alice.slash(world.chan, "game new", players=9)
    with pytest.raises(ScriptError, match="required"):
        await world.alice.slash(world.chan, "game new")
    with pytest.raises(ScriptError, match="not synced"):
        await world.alice.slash(world.chan, "nosuch")


async def test_select_menu_answers_the_picker_only(world: World) -> None:
    res = await world.alice.slash(world.chan, "pick")
    picked = await world.bob.select(res.message, custom_id="pick", values=["3"])
    assert picked.message.content == "picked 3"
    assert picked.visible_to(world.bob) == [picked.message]
    assert picked.visible_to(world.alice) == []


async def test_autocomplete_returns_the_bots_choices(world: World) -> None:
    choices = await world.alice.autocomplete(world.chan, "game join", "table", "b")
    assert choices == [{"name": "beta", "value": "beta"}]
    res = await world.alice.slash(world.chan, "game join", table="beta")
    assert res.message.content == "joined beta"


async def test_modal_is_opened_and_submitted(world: World) -> None:
    opened = await world.alice.slash(world.chan, "form")
    assert opened.response_type == 9
    assert opened.modal is not None
    assert opened.modal["title"] == "Your name"
    submitted = await world.alice.submit_modal(opened, {"name": "Alice"})
    assert submitted.message.content == "hello Alice"


async def test_defer_then_follow_up_fills_the_deferred_message(world: World) -> None:
    res = await world.alice.slash(world.chan, "slowsecret")
    assert res.response_type == 5
    assert [m.content for m in res.messages] == ["done"]
    assert res.ephemeral
    assert world.bob.messages(world.chan) == []


async def test_public_deferral_trap_follow_up_stays_public(world: World) -> None:
    res = await world.alice.slash(world.chan, "slow")
    # On a loaded machine the second follow-up may come after the quiet period: wait for it.
    await world.fake.wait_for(lambda: len(res.messages) == 2, timeout=5, what="(second follow-up)")
    first, second = res.messages
    # The first follow-up asked for ephemeral but filled the public "thinking" message.
    assert first.content == "done"
    assert not first.ephemeral
    assert world.bob.can_see(first)
    # Later follow-ups are real new messages and honour the flag.
    assert second.ephemeral
    assert not world.bob.can_see(second)


async def test_embed_image_attachment_is_not_listed_in_attachments(world: World) -> None:
    res = await world.alice.slash(world.chan, "board")
    msg = res.message
    assert [f.filename for f in msg.attachments] == ["log.txt"]
    assert msg.file("board.png").data[:8] == b"\x89PNG\r\n\x1a\n"
    payload = msg.payload()
    assert payload["embeds"][0]["image"]["url"].startswith(world.fake.url)
    assert payload["embeds"][0]["image"]["width"] == 3
    # The bot can download what it sent, like from Discord's CDN.
    channel = world.text_channel()
    fetched = await channel.fetch_message(msg.id)
    assert [a.filename for a in fetched.attachments] == ["log.txt"]
    assert await fetched.attachments[0].read() == b"log"


async def test_thread_from_a_message_with_a_member_and_a_post(world: World) -> None:
    res = await world.alice.slash(world.chan, "game thread")
    await world.fake.wait_for(lambda: world.fake.threads(world.chan))
    (thread,) = world.fake.threads(world.chan)
    assert thread.id == res.message.id  # Discord gives the thread the starter message's id
    await world.fake.wait_for(lambda: world.fake.messages(thread))
    assert world.alice.messages(thread)[-1].content == "Welcome"
    assert world.alice.id in thread.member_ids
    bot_thread = world.bot.get_channel(thread.id)
    assert isinstance(bot_thread, discord.Thread)
    assert bot_thread.name == "Game 1"


async def test_commands_needing_permissions_are_hidden_from_other_members(world: World) -> None:
    from discord import app_commands

    from tests.fakediscord import ScriptError

    @app_commands.command(description="Moderators only")
    @app_commands.default_permissions(manage_threads=True)
    async def purge(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("purged")

    world.bot.tree.add_command(purge)
    await world.bot.tree.sync()
    with pytest.raises(ScriptError, match="lacks the permissions"):
        await world.alice.slash(world.chan, "purge")
    moderators = world.fake.add_role(
        world.guild, "mods", discord.Permissions(manage_threads=True).value
    )
    world.fake.give_role(world.alice, world.guild, moderators)
    res = await world.alice.slash(world.chan, "purge")
    assert res.message.content == "purged"


async def test_click_settles_after_a_deferred_update_and_a_late_edit(world: World) -> None:
    res = await world.alice.slash(world.chan, "dice")
    rolled = await world.bob.click(res.message, label="Roll")
    assert rolled.response_type == 6
    assert rolled.message.id == res.message.id
    assert rolled.message.content == "rolled 6"
