"""Notifications as Discord gives them: created messages only, under allowed_mentions and
SUPPRESS_NOTIFICATIONS; an edit that adds a mention pings nobody."""

from __future__ import annotations

import discord

from tests.fakediscord.conftest import World


async def test_a_created_message_pings_only_the_allowed_mentions(world: World) -> None:
    channel = world.text_channel()
    both = f"<@{world.alice.id}> <@{world.bob.id}>"
    await channel.send(
        both, allowed_mentions=discord.AllowedMentions(users=[discord.Object(world.alice.id)])
    )
    assert [n.user_id for n in world.fake.notifications] == [world.alice.id]
    await channel.send(both, allowed_mentions=discord.AllowedMentions.none())
    assert len(world.fake.notifications) == 1
    await channel.send(both, silent=True)
    assert len(world.fake.notifications) == 1, "SUPPRESS_NOTIFICATIONS leaves a badge only"
    await channel.send(both)
    assert len(world.fake.pings(world.bob)) == 1


async def test_an_edit_that_adds_a_mention_pings_nobody(world: World) -> None:
    channel = world.text_channel()
    message = await channel.send("the board")
    await message.edit(
        content=f"<@{world.alice.id}> your turn",
        allowed_mentions=discord.AllowedMentions(users=True),
    )
    assert world.fake.pings(world.alice) == []


async def test_a_mention_in_a_layout_text_display_pings(world: World) -> None:
    channel = world.text_channel()
    view = discord.ui.LayoutView()
    view.add_item(discord.ui.Container(discord.ui.TextDisplay(f"<@{world.bob.id}> to play")))
    await channel.send(
        view=view, allowed_mentions=discord.AllowedMentions(users=[discord.Object(world.bob.id)])
    )
    assert [n.user_id for n in world.fake.pings(world.bob, world.chan)] == [world.bob.id]
    assert world.fake.pings(world.alice) == []
