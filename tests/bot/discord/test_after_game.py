"""After the game, end to end: two whole games of each game, then the results posts,
``/stats``, ``/leaderboard`` and ``/history`` (paged), and ratings that rebuild identically."""

from __future__ import annotations

import random

import pytest

from bot.discord_ui.rendering import Renderer
from bot.discord_ui.results_texts import seat_label
from renderer import render_results
from tests.bot.discord.conftest import RecordingRenderer, World, private_text
from tests.bot.discord.driving import (
    Stats,
    greedy_chooser,
    play_race_to_the_end,
    play_tiles_to_the_end,
)
from tests.bot.discord.secrecy import scan_public
from tests.bot.discord.test_lobby import open_table
from tests.fakediscord.models import Message


async def play_table(world: World, game: str, seed: int) -> int:
    """One whole table of ``game`` through buttons: Tock alice against a bot, Dog alice and
    bob with two bots, Carcassonne alice against bob. Returns the table id."""
    world.seeds.append(seed)
    rng = random.Random(seed)
    if game == "tock":
        table_id, lobby = await open_table(world, "tock", players=2)
        await world.alice.click(lobby, label="Add bot")
        users = [world.alice]
    elif game == "dog":
        table_id, lobby = await open_table(world, "dog", players=4)
        await world.bob.click(lobby, label="Join")
        await world.alice.click(world.lobby(table_id), label="Add bot")
        await world.alice.click(world.lobby(table_id), label="Add bot")
        users = [world.alice, world.bob]
    else:
        table_id, lobby = await open_table(world, "carcassonne", players=2)
        await world.bob.click(lobby, label="Join")
        users = [world.alice, world.bob]
    await world.alice.click(world.lobby(table_id), label="Start")
    if game == "carcassonne":
        end = await play_tiles_to_the_end(world, table_id, users, rng, Stats())
    else:
        end = await play_race_to_the_end(world, table_id, users, rng, Stats())
    assert "won" in end
    return table_id


def results_post(world: World, table_id: int) -> Message:
    thread = world.thread_of(world.lobby(table_id))
    for message in world.boards(thread):
        if any(f.filename == f"results-{table_id}.png" for f in message.files):
            return message
    raise AssertionError("no results post")


@pytest.mark.slow
async def test_two_games_of_each_then_results_stats_leaderboard_and_history(
    world: World,
) -> None:
    world.bot_brain = greedy_chooser
    # Boards by a fast stand-in (hundreds of them); the results images are real.
    recorder = RecordingRenderer()
    stand_in = recorder.renderer()
    world.renderer = Renderer(
        render_board=stand_in.render_board,
        render_hand=stand_in.render_hand,
        render_results=render_results,
    )
    await world.restart()
    service = world.desk.service
    tables: dict[str, list[int]] = {}
    guild = world.guild.id
    for game in ("tock", "dog", "carcassonne"):
        for seed in (3, 4):
            before = {r.player: r.mu for r in await service.storage.leaderboard(guild, game, 50)}
            table_id = await play_table(world, game, seed)
            tables.setdefault(game, []).append(table_id)
            after = {r.player: r.mu for r in await service.storage.leaderboard(guild, game, 50)}
            result = await service.result(table_id)
            assert result is not None
            worst = max(s.place for s in result.seats)
            for seat in result.seats:
                assert seat.player is not None
                if len({s.place for s in result.seats if s.player == seat.player}) > 1:
                    continue  # one bot level on both sides
                old = before.get(seat.player, 25.0)
                if seat.place == 1:
                    assert after[seat.player] > old, "the winners go up"
                elif seat.place == worst:
                    assert after[seat.player] < old, "the losers go down"
    for ids in tables.values():
        for table_id in ids:
            result = await service.result(table_id)
            assert result is not None
            post = results_post(world, table_id)
            assert "final standings" in post.content
            assert "Ratings: " in post.content  # how the table moved each rating
            first = post.content.splitlines()[1]
            assert first.startswith("1. ")
            for winner in (s for s in result.seats if s.place == 1):
                assert seat_label(winner, "en") in first
            image = post.file(f"results-{table_id}.png").data
            assert image.startswith(b"\x89PNG")
        line = [m for m in world.fake.messages(world.channel) if "is over" in m.content]
        assert any(f"#{ids[-1]}" in m.content for m in line)
    scan_public(world)

    # /stats: alice played all six tables.
    stats = private_text(await world.alice.slash(world.channel, "stats"), world.alice)
    assert "Tock: rating" in stats
    assert "2 games" in stats
    assert f"#{tables['carcassonne'][-1]}" in stats  # the newest table first
    bob_dog = await world.alice.slash(world.channel, "stats", member=world.bob, game="dog")
    text = private_text(bob_dog, world.alice)
    assert "Dog: rating" in text
    assert "Tock" not in text
    carol = private_text(await world.carol.slash(world.channel, "stats"), world.carol)
    assert "not finished a game" in carol

    # /leaderboard: the top and the caller's place.
    board = private_text(
        await world.bob.slash(world.channel, "leaderboard", game="carcassonne"), world.bob
    )
    assert "Carcassonne leaderboard" in board
    assert f"<@{world.alice.id}>" in board
    assert "Your place:" in board
    ranks = await service.leaderboard(guild, "carcassonne", world.bob.id)
    assert ranks.mine is not None
    assert board.index(f"<@{ranks.top[0].player[2:]}>") < board.index("Your place:")
    nobody = private_text(
        await world.carol.slash(world.channel, "leaderboard", game="tock"), world.carol
    )
    assert "no rating" in nobody
    assert "Bot (" in nobody  # bots are rated per level

    # /history: newest first, five a page, then Older.
    result = await world.alice.slash(world.channel, "history")
    first = result.visible_to(world.alice)[-1]
    everything = [i for ids in tables.values() for i in ids]
    newest = sorted(everything, reverse=True)
    assert first.content.index(f"#{newest[0]} ") < first.content.index(f"#{newest[4]} ")
    assert f"#{newest[5]} " not in first.content
    await world.alice.click(first, label="Older")
    await world.wait(lambda: f"#{newest[5]} " in first.content, "(older page)")
    assert f"#{newest[0]} " not in first.content
    assert [b["label"] for b in first.buttons] == ["Newer"]
    mine = private_text(
        await world.bob.slash(world.channel, "history", member=world.bob, game="tock"),
        world.bob,
    )
    assert "No finished tables" in mine  # bob played no Tock

    # The ratings rebuild to the same values from the stored results.
    before = {g: await service.storage.leaderboard(guild, g, 50) for g in tables}
    await service.rebuild_ratings(guild)
    assert {g: await service.storage.leaderboard(guild, g, 50) for g in tables} == before
