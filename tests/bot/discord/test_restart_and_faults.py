"""A restart in the middle of a game, and Discord errors during a move."""

from __future__ import annotations

import random

import pytest

from tests.bot.discord.conftest import World, private_text
from tests.bot.discord.driving import Stats, find, hand_of, open_prompt, play_race_turn, press
from tests.bot.discord.test_refusals import start_tock_against_a_bot
from tests.fakediscord.models import iter_components


async def test_old_buttons_work_after_a_restart_and_stale_ones_are_refused(world: World) -> None:
    table_id, thread = await start_tock_against_a_bot(world, seed=33)
    board = world.newest_board(thread)
    prompt = await open_prompt(world, world.alice, board, "Show my hand")
    spare = await open_prompt(world, world.alice, board, "Show my hand")

    await world.restart()

    # The prompt opened before the restart still plays: its custom_ids carry everything.
    card = next(b for b in prompt.buttons if not b.get("disabled"))
    await press(world, world.alice, prompt, card["custom_id"])
    if not prompt.content.startswith("You played"):  # the card has several moves
        move = next(c for c in iter_components(prompt.components) if ":m" in c["custom_id"])
        if move.get("type") == 3:
            value = move["options"][0]["value"]
            await press(world, world.alice, prompt, move["custom_id"], [value])
        else:
            await press(world, world.alice, prompt, move["custom_id"])
    assert prompt.content.startswith("You played"), prompt.content
    newest = world.newest_board(thread)
    assert newest.id != board.id
    # The new process found the board of the old one and took its controls away.
    assert not board.buttons
    # The other prompt from before the move is stale now: refused privately.
    card = next(b for b in spare.buttons if not b.get("disabled"))
    await press(world, world.alice, spare, card["custom_id"])
    assert "out of date" in spare.content
    assert spare.ephemeral
    # The newest board works.
    fresh = await world.alice.click(newest, label="Show my hand")
    assert "out of date" not in private_text(fresh, world.alice)
    log = await world.desk.service.storage.load_log(table_id)
    assert [e.seat for e in log].count(0) == 1


async def test_rate_limits_and_server_errors_during_a_move(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    table_id, thread = await start_tock_against_a_bot(world, seed=34)
    before = len(await world.desk.service.storage.load_log(table_id))
    boards_before = len(world.boards(thread))
    stats = Stats()
    await hand_of(world, table_id, world.alice, thread, stats)
    # The board's follow-up fails (it goes to the thread instead); there a 5xx, then a storm
    # of 429s: discord.py gives up after five tries, the bot tries again.
    world.fake.inject_server_error("POST", "/webhooks/*", status=500, times=1)
    world.fake.inject_server_error("POST", "/channels/*/messages", status=500, times=1)
    world.fake.inject_rate_limit("POST", "/channels/*/messages", retry_after=0.05, times=5)
    world.fake.inject_rate_limit("PATCH", "/webhooks/*", retry_after=0.05, times=2)
    await play_race_turn(world, table_id, world.alice, thread, random.Random(2), stats)
    log = await world.desk.service.storage.load_log(table_id)
    alice_moves = [e for e in log[before:] if e.seat == 0]
    assert len(alice_moves) == 1, "the move is stored exactly once"
    await world.wait(lambda: len(world.boards(thread)) > boards_before)
    assert f"<@{world.alice.id}>" in world.boards(thread)[-1].content or "Game over" in (
        world.boards(thread)[-1].content
    )
    assert find(world.newest_board(thread), ":hand")
    assert "trying again" in caplog.text, "the bot itself retried after discord.py gave up"
    posted = [r for r in world.fake.requests if r.method == "POST" and r.status == 200]
    assert posted, "the board was posted"
