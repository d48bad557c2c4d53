"""Dog played to the end through buttons only, with a scan of everything public."""

from __future__ import annotations

import random

import pytest

from tests.bot.discord.clicks import assert_two_clicks
from tests.bot.discord.conftest import RecordingRenderer, World
from tests.bot.discord.driving import Stats, greedy_chooser, play_race_to_the_end
from tests.bot.discord.secrecy import scan_public
from tests.bot.discord.test_lobby import open_table


@pytest.mark.slow
async def test_dog_four_players_two_bots_to_the_end(world: World) -> None:
    world.bot_brain = greedy_chooser
    # Hundreds of boards: a recording stand-in keeps the play-out fast (the real renderer
    # draws every board in the other tests).
    recorder = RecordingRenderer()
    world.renderer = recorder.renderer()
    await world.restart()
    world.seeds.append(8)
    table_id, lobby = await open_table(world, "dog", players=4)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(world.lobby(table_id), label="Add bot")
    await world.alice.click(world.lobby(table_id), label="Add bot")
    await world.alice.click(world.lobby(table_id), label="Start")
    stats = Stats()
    end = await play_race_to_the_end(
        world, table_id, [world.alice, world.bob], random.Random(5), stats
    )
    print(f"dog: {stats.turns} turns, {stats.picks} picks, {stats.jokers} jokers")
    print(stats.log.summary("dog"))
    assert_two_clicks(stats.log)
    assert "won" in end
    assert stats.received > 0, "after an exchange the hand shows the card received"
    assert stats.picks > 0, "Dog has an exchange after every deal"
    assert scan_public(world) > stats.turns // 2
    assert len(recorder.public_views) > stats.turns // 2
    for view in recorder.public_views:
        assert view["viewer"] is None
        assert "hand" not in view
        assert "hands" not in view
        assert "exchange" not in view
