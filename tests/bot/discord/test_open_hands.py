"""A hand that stays open: the same private message follows the game for as long as Discord
lets the bot edit it (15 minutes after the player's last click on it)."""

from __future__ import annotations

import random

from tests.bot.discord.clicks import clicks_of
from tests.bot.discord.conftest import World
from tests.bot.discord.driving import Stats, current, play_race_turn, to_act
from tests.bot.discord.test_lobby import start_for_two


async def start_tock_for_two(world: World) -> tuple[int, object]:
    """Alice and bob at a two-player Tock table; its id and thread."""
    return await start_for_two(world, "tock", seed=21)


async def play_until_both_have_played(world: World, table_id: int, thread: object) -> Stats:
    stats, rng = Stats(), random.Random(5)
    played: set[int] = set()
    while len(played) < 2:
        user = to_act(world.newest_board(thread), [world.alice, world.bob])[0]
        await play_race_turn(world, table_id, user, thread, rng, stats)
        played.add(user.id)
    return stats


async def test_the_hand_refreshes_itself_when_the_turn_comes_back(world: World) -> None:
    table_id, thread = await start_tock_for_two(world)
    stats = await play_until_both_have_played(world, table_id, thread)
    user = to_act(world.newest_board(thread), [world.alice, world.bob])[0]
    hand = stats.hands[user.id]
    version = (await world.desk.service.private_info(table_id, user.id)).table.version
    clicks = clicks_of(world.fake, user)
    # Nobody clicked anything of this player's since their last move, yet the hand shows
    # the new turn: its controls carry the current version, and it says whose turn it is.
    await world.wait(lambda: current(hand, version), "the hand was brought up to date")
    assert clicks_of(world.fake, user) == clicks
    assert "Your turn" in hand.content or "discard" in hand.content or "fold" in hand.content
    assert hand.ephemeral
    assert hand.files, "the hand image is drawn again"
    # The next move takes no "Show my hand".
    before = len(stats.log.decisions)
    await play_race_turn(world, table_id, user, thread, random.Random(1), stats)
    assert stats.hands[user.id].id == hand.id, "the same message, not a new one"
    assert stats.log.decisions[before].clicks <= 2


async def test_after_fifteen_minutes_the_boards_button_opens_a_fresh_hand(world: World) -> None:
    table_id, thread = await start_tock_for_two(world)
    stats = await play_until_both_have_played(world, table_id, thread)
    user = to_act(world.newest_board(thread), [world.alice, world.bob])[0]
    other = world.bob if user is world.alice else world.alice
    mine, theirs = stats.hands[user.id], stats.hands[other.id]
    version = (await world.desk.service.private_info(table_id, user.id)).table.version
    await world.wait(lambda: current(mine, version), "the bot is done with the last move")
    # No edit of either hand may be under way when the clock jumps: a real edit takes a moment,
    # never sixteen minutes.
    await world.wait(lambda: not world.desk.hands.busy(), "no hand is being edited")
    # Sixteen minutes pass. A click on a hand still works (it brings a fresh token) ...
    world.fake.clock.advance(16 * 60)
    world.clock.advance(16 * 60)
    await play_race_turn(world, table_id, user, thread, random.Random(2), stats)
    assert stats.hands[user.id].id == mine.id
    # ... but the other hand's token is too old for the bot to edit it: the bot does not try
    # (Discord would refuse, and the world fixture fails on any refused request) ...
    version = (await world.desk.service.private_info(table_id, other.id)).table.version
    assert not current(theirs, version)
    # ... and that player's next move starts from the board's button, with a fresh hand.
    before = clicks_of(world.fake, other)
    await play_race_turn(world, table_id, other, thread, random.Random(3), stats)
    assert stats.hands[other.id].id != theirs.id
    assert clicks_of(world.fake, other) - before <= 3
    assert not world.fake.rejected
