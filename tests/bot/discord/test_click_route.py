"""The board of a person's move goes out on their click's interaction (issue #30).

Discord's global limit (50 requests a second) binds the channel routes, not an interaction's
token: at forty busy tables the digests queued behind it for seconds. The digest that follows
a click is a public follow-up of that click, and is edited (the bots' moves, its controls
removed) through the same token while it lives (``bot/discord_ui/click_route.py``).
"""

from __future__ import annotations

import random
from typing import Any

from tests.bot.discord.conftest import World
from tests.bot.discord.driving import Stats, play_race_turn
from tests.bot.discord.test_thread_digest import (
    assert_one_board_with_controls,
    tock_with_three_bots,
)
from tests.bot.test_two_processes import board_version

FOLLOW_UP = "/webhooks/"


def global_requests(world: World) -> list[tuple[str, str]]:
    """The requests so far on routes bound to Discord's global limit."""
    return [(method, path) for _when, method, path in world.fake.rate_limits.log]


async def tock_played(world: World, seed: int, count: int) -> tuple[int, Any, random.Random, Stats]:
    """Alice and three bots at Tock, after ``count`` of her turns: the table, its thread, and
    what plays on."""
    table_id, thread = await tock_with_three_bots(world, seed=seed)
    rng, stats = random.Random(seed), Stats()
    await turns(world, table_id, thread, rng, stats, count)
    return table_id, thread, rng, stats


async def assert_newest_board_is_current(world: World, table_id: int, thread: Any) -> None:
    """The thread's newest board shows the stored game, and only it has controls."""
    stored = await world.desk.service.get(table_id)
    assert board_version(world.newest_board(thread)) == stored.version
    assert_one_board_with_controls(world, thread)


async def turns(
    world: World, table_id: int, thread: Any, rng: random.Random, stats: Stats, count: int
) -> None:
    """Alice plays ``count`` turns, each delivered before the next."""
    for _ in range(count):
        await play_race_turn(world, table_id, world.alice, thread, rng, stats)
        await world.desk.deliveries_done()


async def test_a_persons_board_goes_out_on_their_click_and_costs_no_global_request(
    world: World,
) -> None:
    # Two turns first: the starting board (posted by the bot, not a click) loses its controls.
    table_id, thread, rng, stats = await tock_played(world, 12, 2)
    world.fake.rate_limits.enable()
    for _ in range(3):
        before = len(global_requests(world))
        moves = len(world.boards(thread))
        await turns(world, table_id, thread, rng, stats, 1)
        # Her move, the three bots' answers told in her digest, the old board's controls
        # gone: none of it waited for the global limit.
        assert global_requests(world)[before:] == []
        assert len(world.boards(thread)) == moves + 1, "one new digest per turn"
    newest = world.newest_board(thread)
    assert not newest.ephemeral
    assert newest in world.fake.messages(thread, visible_to=world.bob), "spectators see it"
    await assert_newest_board_is_current(world, table_id, thread)


async def test_a_board_discord_made_but_answered_with_an_error_is_not_posted_twice(
    world: World,
) -> None:
    table_id, thread, rng, stats = await tock_played(world, 13, 1)
    count = len(world.boards(thread))
    # Discord makes the follow-up, then answers 500: discord.py would send it again.
    world.fake.faults.fail_after_effect("POST", FOLLOW_UP + "*", 500)
    sent = len([r for r in world.fake.requests if r.method == "POST" and FOLLOW_UP in r.path])
    await turns(world, table_id, thread, rng, stats, 1)
    posts = [r for r in world.fake.requests if r.method == "POST" and FOLLOW_UP in r.path]
    assert len(posts) == sent + 1, "the follow-up was not sent again"
    assert len(world.boards(thread)) == count + 1, "one digest for her turn"
    await assert_newest_board_is_current(world, table_id, thread)
    stored = await world.desk.service.get(table_id)
    assert (await world.desk.service.board_of(table_id))[0] == stored.version, "recorded"


async def test_a_digest_whose_click_token_ran_out_is_edited_on_the_threads_route(
    world: World,
) -> None:
    table_id, thread, rng, stats = await tock_played(world, 14, 2)
    old = world.newest_board(thread)
    # Sixteen minutes on: Discord would no longer take the token of the click that posted it
    # (the world fails the test on any request Discord refuses).
    world.clock.advance(16 * 60)
    await turns(world, table_id, thread, rng, stats, 1)
    assert not old.components, "the old board lost its controls all the same"
    on_the_thread = f"/channels/{thread.id}/messages/{old.id}"
    assert any(r.method == "PATCH" and r.path == on_the_thread for r in world.fake.requests)
    await assert_newest_board_is_current(world, table_id, thread)
