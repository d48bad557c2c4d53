"""One message and one board image per act: a person's move and the bot turns after it are one
turn digest (bot.discord_ui.digest), its lines in words and one board drawing every move."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.discord.conftest import RecordingRenderer, World, private_text, running_world
from tests.bot.discord.driving import Stats, play_tile_turn, selects
from tests.fakediscord.models import Channel, Message


@pytest.fixture
async def german_server(tmp_path: Path) -> AsyncIterator[tuple[World, RecordingRenderer]]:
    """A German server whose members read English (so private prompts stay English), and the
    record of the boards drawn there."""
    recorder = RecordingRenderer()
    async with running_world(
        tmp_path,
        guild_name="Stammtisch",
        channel_name="spiele",
        guild_locale="de",
        renderer=recorder.renderer(),
    ) as world:
        yield world, recorder


async def start_against_two_bots(world: World, add_bot: str, start: str) -> int:
    """Alice opens a three-player Carcassonne table, adds two bots and starts; the table id."""
    opened = await world.alice.slash(world.channel, "carcassonne new", players=3)
    table_id = int(private_text(opened, world.alice).split("#", 1)[1].split(" ", 1)[0])
    for _ in range(2):
        await world.alice.click(world.lobby(table_id), label=add_bot)
    started = await world.alice.click(world.lobby(table_id), label=start)
    assert "started" in private_text(started, world.alice)
    return table_id


def alices_board(world: World, thread: Channel) -> Message | None:
    """The newest board, once it asks alice to play (the bots before her are done)."""
    boards = world.boards(thread)
    if boards and boards[-1].components and f"<@{world.alice.id}>" in boards[-1].content:
        return boards[-1]
    return None


async def alice_plays_once(
    world: World, recorder: RecordingRenderer, *, labels: tuple[str, str, str]
) -> tuple[list[Message], int]:
    """Alice plays one tile against two bots; the messages of that act and the views drawn."""
    add_bot, start, place = labels
    table_id = await start_against_two_bots(world, add_bot, start)
    thread = world.thread_of(world.lobby(table_id))
    before = await world.wait(lambda: alices_board(world, thread), "alice's first turn")
    posted_before = len(world.boards(thread))
    drawn_before = len(recorder.public_views)

    await play_tile_turn(
        world, table_id, world.alice, thread, random.Random(7), Stats(), label=place
    )
    newest = await world.wait(
        lambda: (b := alices_board(world, thread)) is not None and b.id != before.id and b,
        "the two bot turns after alice's move",
    )
    act = world.boards(thread)[posted_before:]
    # One message for the whole act, with one image: the newest state and every move since.
    assert [m.id for m in act] == [newest.id]
    assert len(newest.files) == 1
    assert len(recorder.public_views) - drawn_before == 1
    assert world.desk is not None
    table = await world.desk.service.get(table_id)
    assert newest.files[0].filename == f"board-{table_id}-{table.version}.png"
    drawn = dict(recorder.public_views[-1])
    recent = drawn.pop("recent")
    assert drawn == await world.desk.service.public_view(table_id)
    assert len(recent) >= 3, "alice's tile and both bots' tiles are drawn"
    assert len(newest.content.splitlines()) >= 4, "each move has its line, then the turn"
    # The newest board carries the controls (the tile's placements: selects, or one button
    # when the tile fits only one way), and names alice.
    controls = [m["custom_id"] for m in selects(newest)] + [b["custom_id"] for b in newest.buttons]
    assert controls
    assert all(":put:" in custom_id for custom_id in controls), controls
    assert f"<@{world.alice.id}>" in newest.content
    return act, table_id


async def test_an_act_and_the_bot_turns_after_it_upload_one_image(world: World) -> None:
    recorder = RecordingRenderer()
    world.renderer = recorder.renderer()
    await world.restart()
    act, _ = await alice_plays_once(world, recorder, labels=("Add bot", "Start", "Place tile"))
    # Alice's move and the turns of both bots (a tile, then a figure or none) are told in words.
    # Carcassonne's sentences name the player themselves: no "alice:" before them.
    assert act[0].content.startswith("alice places a tile with "), act[0].content
    assert any("Bot 2" in m.content for m in act)
    assert any("Bot 3" in m.content for m in act)


async def test_the_moves_told_in_words_follow_the_servers_language(
    german_server: tuple[World, RecordingRenderer],
) -> None:
    world, recorder = german_server
    act, _ = await alice_plays_once(
        world, recorder, labels=("Bot hinzufügen", "Starten", "Karte legen")
    )
    words = act[0].content
    assert words.startswith("alice legt eine Karte mit "), words
    assert " places " not in words
