"""The thread of a game: one digest message per person decision, and pings that help.

Whole games (and short quick ones) are played through the fake Discord; the counts come from
what the fake saw (:mod:`tests.bot.discord.thread_counts`): messages created, image bytes
uploaded, and notifications as Discord gives them (created messages only, under
``allowed_mentions``).
"""

from __future__ import annotations

import asyncio
import random

import pytest

from tests.bot.discord.conftest import World
from tests.bot.discord.driving import (
    Stats,
    greedy_chooser,
    play_race_to_the_end,
    play_race_turn,
    play_tiles_to_the_end,
    to_act,
)
from tests.bot.discord.test_lobby import open_table, start_for_two
from tests.bot.discord.thread_counts import thread_counts
from tests.fakediscord.scripting import ScriptedUser


async def tock_with_three_bots(world: World, seed: int = 11) -> tuple[int, object]:
    """Alice and three bots at a 2v2 Tock table, started; its id and thread."""
    world.bot_brain = greedy_chooser
    world.seeds.append(seed)
    table_id, _lobby = await open_table(world, "tock", players=4, game_type="2v2")
    for _ in range(3):
        await world.alice.click(world.lobby(table_id), label="Add bot")
    await world.alice.click(world.lobby(table_id), label="Start")
    thread = world.thread_of(world.lobby(table_id))
    await world.wait(lambda: world.newest_board(thread))
    return table_id, thread


async def play_some(
    world: World,
    table_id: int,
    thread: object,
    users: list[ScriptedUser],
    rng: random.Random,
    stats: Stats,
    decisions: int,
) -> None:
    """Play until the people made ``decisions`` decisions (or the game ended)."""
    while stats.turns < decisions:
        board = world.newest_board(thread)  # type: ignore[arg-type]
        if "Game over" in board.content:
            return
        for user in to_act(board, users):
            await play_race_turn(world, table_id, user, thread, rng, stats)  # type: ignore[arg-type]


def clicks_answered() -> bool:
    """Whether the bot finished answering every click (discord.py runs each button's
    callback in a task of its own, named after the item)."""
    return not any(
        t.get_name().startswith("discord-ui-dynamic-item") and not t.done()
        for t in asyncio.all_tasks()
    )


def assert_one_board_with_controls(world: World, thread: object) -> None:
    """Exactly one message of the thread carries controls."""
    with_controls = [m for m in world.boards(thread) if m.components]  # type: ignore[arg-type]
    assert len(with_controls) == 1, [m.content for m in with_controls]


async def test_a_round_of_bot_moves_is_one_message_and_the_person_is_not_pinged_again(
    world: World,
) -> None:
    table_id, thread = await tock_with_three_bots(world)
    stats = Stats()
    await play_some(world, table_id, thread, [world.alice], random.Random(3), stats, 6)
    counts = thread_counts(world, thread, [world.alice])  # type: ignore[arg-type]
    print(counts.line("tock 1+3 bots, quick", stats.turns))
    assert counts.messages <= stats.turns + 3
    # Her first turn pings her (no prompt open yet); later ones come right after her own
    # move, with her hand open: the prompt says "your turn", the thread does not ping.
    assert counts.pings["alice"] <= 1
    assert_one_board_with_controls(world, thread)


async def test_a_person_who_waited_a_minute_is_pinged_by_a_created_message(
    world: World,
) -> None:
    world.bot_brain = greedy_chooser
    table_id, thread = await start_for_two(world, "tock", seed=7)
    rng, stats = random.Random(5), Stats()
    users = [world.alice, world.bob]
    # A few quick turns: both keep their hands open and act within the minute.
    while stats.turns < 4:
        for user in to_act(world.newest_board(thread), users):
            await play_race_turn(world, table_id, user, thread, rng, stats)
    before = {u.name: len(world.fake.pings(u)) for u in users}
    mover = to_act(world.newest_board(thread), users)[0]
    other = world.bob if mover is world.alice else world.alice
    # The bot notes the other's last click once it answered it: let it, then the mover
    # thinks for more than a minute; the other one's turn begins after that move.
    await world.wait(clicks_answered, what="(a click still being answered)")
    world.clock.advance(61)
    await play_race_turn(world, table_id, mover, thread, rng, stats)
    await world.wait(lambda: to_act(world.newest_board(thread), users) == [other])
    pings = world.fake.pings(other)
    assert len(pings) == before[other.name] + 1
    newest = world.newest_board(thread)
    assert pings[-1].message_id == newest.id, "the digest created at that moment pinged"
    assert newest.edited_timestamp is None
    assert len(world.fake.pings(mover)) == before[mover.name]
    assert_one_board_with_controls(world, thread)


async def test_the_turn_clocks_reminder_still_pings_even_with_the_hand_open(
    world: World,
) -> None:
    world.bot_brain = greedy_chooser
    world.seeds.append(6)
    table_id, lobby = await open_table(world, "tock", players=2, turn_time=60)
    await world.alice.click(lobby, label="Add bot")
    await world.alice.click(world.lobby(table_id), label="Start")
    thread = world.thread_of(world.lobby(table_id))
    await world.wait(lambda: to_act(world.newest_board(thread), [world.alice]))
    stats = Stats()
    await play_race_turn(world, table_id, world.alice, thread, random.Random(1), stats)
    await world.wait(lambda: to_act(world.newest_board(thread), [world.alice]))
    await world.wait(clicks_answered)
    before = len(world.fake.pings(world.alice))
    world.clock.advance(31)

    def reminded() -> bool:
        return any("Half the turn time is gone" in m.content for m in world.boards(thread))

    await world.wait(reminded)
    reminder = next(m for m in world.boards(thread) if "Half the turn time" in m.content)
    pings = world.fake.pings(world.alice)
    assert len(pings) == before + 1
    assert pings[-1].message_id == reminder.id
    assert_one_board_with_controls(world, thread)


@pytest.mark.slow
async def test_tock_one_person_three_bots_thread_budget(world: World) -> None:
    table_id, thread = await tock_with_three_bots(world)
    stats = Stats()
    end = await play_race_to_the_end(world, table_id, [world.alice], random.Random(3), stats)
    counts = thread_counts(world, thread, [world.alice])  # type: ignore[arg-type]
    print(counts.line("tock 1+3 bots", stats.turns))
    assert "won" in end
    assert counts.messages <= stats.turns + 5
    assert counts.pings["alice"] <= stats.turns
    assert counts.pings["alice"] <= 1, "her hand is open and she always just acted"


@pytest.mark.slow
async def test_dog_two_people_thread_budget(world: World) -> None:
    world.bot_brain = greedy_chooser
    world.seeds.append(13)
    table_id, lobby = await open_table(world, "dog", players=4)
    await world.bob.click(lobby, label="Join")
    for _ in range(2):
        await world.alice.click(world.lobby(table_id), label="Add bot")
    await world.alice.click(world.lobby(table_id), label="Start")
    thread = world.thread_of(world.lobby(table_id))
    stats = Stats()
    users = [world.alice, world.bob]
    end = await play_race_to_the_end(world, table_id, users, random.Random(8), stats)
    counts = thread_counts(world, thread, users)  # type: ignore[arg-type]
    print(counts.line("dog 2+2 bots", stats.turns))
    assert "won" in end
    assert counts.messages <= stats.turns + 5
    assert sum(counts.pings.values()) <= stats.turns


@pytest.mark.slow
async def test_carcassonne_one_person_thread_budget(world: World) -> None:
    world.seeds.append(5)
    table_id, lobby = await open_table(world, "carcassonne", players=2)
    await world.alice.click(lobby, label="Add bot")
    await world.alice.click(world.lobby(table_id), label="Start")
    thread = world.thread_of(world.lobby(table_id))
    stats = Stats()
    end = await play_tiles_to_the_end(world, table_id, [world.alice], random.Random(4), stats)
    counts = thread_counts(world, thread, [world.alice])  # type: ignore[arg-type]
    print(counts.line("carcassonne 1+1 bot", stats.turns))
    assert "won" in end
    assert counts.messages <= stats.turns + 5
    # She places on the board in the thread, each turn within a minute of her last: only her
    # first turn pings her.
    assert counts.pings["alice"] <= 1, counts.line("carcassonne", stats.turns)


@pytest.mark.slow
async def test_forty_busy_tables_stay_within_discords_rate_limits(world: World) -> None:
    """Forty Tock tables (alice and three bots each) played turn about under Discord's
    limits (5 messages per 5 s per channel, 50 requests per second): no 429 storm."""
    tables = []
    for seed in range(40):
        table_id, thread = await tock_with_three_bots(world, seed=seed)
        tables.append((table_id, thread, Stats()))
    world.fake.rate_limits.enable()
    rng = random.Random(2)
    for round_number in range(1, 3):
        for table_id, thread, stats in tables:
            await play_some(world, table_id, thread, [world.alice], rng, stats, round_number)
    limits = world.fake.rate_limits
    print(f"40 tables: {len(limits.exceeded)} 429s, {limits.exceeded_globally} of the global limit")
    # The channel buckets are announced in every answer's headers (discord.py waits by them);
    # the global limit only by a 429, so the publisher paces itself under it
    # (bot.discord_ui.pace): the scripted player acts some twenty times a second.
    assert limits.exceeded == []
    for _table_id, thread, stats in tables:
        counts = thread_counts(world, thread, [world.alice])  # type: ignore[arg-type]
        assert counts.messages <= stats.turns + 3
