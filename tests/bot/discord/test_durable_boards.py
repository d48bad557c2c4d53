"""Durable boards: a board Discord did not take is posted later by itself, an old board points
at the newest, and ``/table board`` cannot flood a thread."""

from __future__ import annotations

import asyncio
import random

import pytest

from tests.bot.discord.conftest import World, posting_outage, private_text
from tests.bot.discord.driving import Stats, hand_of, play_race_turn
from tests.bot.discord.test_fuzz_interactions import is_error
from tests.bot.discord.test_refusals import start_tock_against_a_bot
from tests.bot.test_two_processes import board_version
from tests.fakediscord.models import Channel, Message

#: More 503s in a row than a post is tried (discord.py gives up on a 503 at once; the bot
#: tries four times).
OUTAGE = 6


def boards_with_controls(world: World, thread: Channel) -> list[Message]:
    """The board messages of a thread that still carry buttons."""
    return [m for m in world.boards(thread) if m.buttons]


def link_to(thread: Channel, message: Message) -> str:
    """The end of a link to ``message`` (``…/<thread>/<message>``)."""
    return f"/{thread.id}/{message.id}"


async def test_a_board_lost_to_an_outage_is_posted_by_the_next_retry_tick(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    world.retry_interval = 0.3
    await world.restart()
    table_id, thread = await start_tock_against_a_bot(world, seed=34)
    stats = Stats()
    await hand_of(world, table_id, world.alice, thread, stats)  # open before Discord fails
    posting_outage(world, OUTAGE)
    await play_race_turn(world, table_id, world.alice, thread, random.Random(2), stats)
    stored = await world.desk.service.get(table_id)

    # Nobody types anything: the retry tick posts the board of the stored game, and the
    # old board's controls go (just after the new board is up).
    await world.wait(
        lambda: [board_version(b) for b in boards_with_controls(world, thread)] == [stored.version],
        "(the missing board was never posted, or two boards kept controls)",
    )
    assert ("POST", f"/channels/{thread.id}/messages", 503) in world.fake.faults.fired
    # The game goes on from the recovered board.
    await play_race_turn(world, table_id, world.alice, thread, random.Random(3), Stats())
    assert (await world.desk.service.get(table_id)).version > stored.version
    assert not [r for r in caplog.records if is_error(r)], "an outage is no error of the bot's"


async def test_a_click_on_the_old_board_posts_the_missing_one_and_links_to_it(
    world: World,
) -> None:
    world.retry_interval = 3600  # no retry tick during the test: the click must do it
    await world.restart()
    table_id, thread = await start_tock_against_a_bot(world, seed=35)
    old = world.newest_board(thread)
    stats = Stats()
    await hand_of(world, table_id, world.alice, thread, stats)  # open before Discord fails
    posting_outage(world, OUTAGE)
    await play_race_turn(world, table_id, world.alice, thread, random.Random(2), stats)
    stored = await world.desk.service.get(table_id)
    assert world.newest_board(thread).id == old.id, "the outage kept the new board out"

    result = await world.bob.click(old, label="Show my hand")  # anyone may click it
    answer = private_text(result, world.bob)
    newest = world.boards(thread)[-1]
    assert newest.id != old.id
    assert board_version(newest) == stored.version
    assert "moved on" in answer
    assert answer.endswith(link_to(thread, newest)), answer
    await world.wait(lambda: boards_with_controls(world, thread) == [newest])


async def test_a_button_left_on_a_removed_board_says_the_board_moved_on(world: World) -> None:
    table_id, thread = await start_tock_against_a_bot(world, seed=36)
    old = world.newest_board(thread)
    stale_id = old.buttons[0]["custom_id"]
    await play_race_turn(world, table_id, world.alice, thread, random.Random(1), Stats())
    newest = world.newest_board(thread)
    assert not old.buttons, "the old board lost its controls"
    # A client that still shows the old button (it had not refreshed the message) clicks it.
    data = {"custom_id": stale_id, "component_type": 2}
    result = await world.alice._interact(3, thread, data, message=old, wait=True, timeout=5)
    answer = private_text(result, world.alice)
    assert "old version" not in answer
    assert "moved on" in answer
    assert answer.endswith(link_to(thread, newest)), answer


async def test_table_board_reposts_at_most_once_per_table_every_30_seconds(world: World) -> None:
    table_id, thread = await start_tock_against_a_bot(world, seed=37)
    now = [1000.0]
    world.desk.monotonic = lambda: now[0]  # type: ignore[union-attr]
    count = len(world.boards(thread))

    first = await world.bob.slash(world.channel, "table board", table=table_id)
    assert len(world.boards(thread)) == count + 1
    posted = world.boards(thread)[-1]
    assert private_text(first, world.bob).endswith(link_to(thread, posted))

    now[0] += 29
    for user in (world.alice, world.bob, world.carol):
        again = await user.slash(world.channel, "table board", table=table_id)
        text = private_text(again, user)
        assert "moments ago" in text
        assert text.endswith(link_to(thread, posted)), "a link to the current board"
    assert len(world.boards(thread)) == count + 1, "no new image inside the window"

    now[0] += 2
    await world.alice.slash(world.channel, "table board", table=table_id)
    assert len(world.boards(thread)) == count + 2
    await world.wait(lambda: boards_with_controls(world, thread) == [world.boards(thread)[-1]])


@pytest.mark.parametrize("restart", [True, False], ids=["next process", "same process"])
async def test_a_board_posted_but_not_recorded_is_recorded_not_posted_twice(
    world: World, monkeypatch: pytest.MonkeyPatch, restart: bool
) -> None:
    # Recording a posted board fails (or the process dies right after posting it): the next
    # retry tick, in this process or the next one, takes the table as lacking its board, finds
    # it in the thread and records it: no second copy, exactly one board with controls.
    table_id, thread = await start_tock_against_a_bot(world, seed=38)
    service = world.desk.service  # type: ignore[union-attr]

    async def lost(*_args: object) -> None:
        raise OSError("the process died here")

    monkeypatch.setattr(service, "board_delivered", lost)
    await play_race_turn(world, table_id, world.alice, thread, random.Random(4), Stats())
    stored = await service.get(table_id)
    assert (await service.board_of(table_id))[0] < stored.version, "not recorded"
    monkeypatch.undo()
    posted = world.boards(thread)[-1]
    count = len(world.boards(thread))
    if restart:
        world.retry_interval = 0.3
        await world.restart()
    else:
        # The next retry tick takes the board as on its way; the one after, as missing.
        await world.desk.redeliver()  # type: ignore[union-attr]
        await world.desk.redeliver()  # type: ignore[union-attr]
    new_service = world.desk.service  # type: ignore[union-attr]
    # The new process finds that board in the thread and records it instead of posting twice.
    for _ in range(200):
        if (await new_service.board_of(table_id))[0] == stored.version:
            break
        await asyncio.sleep(0.02)
    assert await new_service.board_of(table_id) == (stored.version, posted.id)
    assert len(world.boards(thread)) == count, "no second copy of the board"
    assert [board_version(b) for b in boards_with_controls(world, thread)] == [stored.version]


async def test_a_delivery_beaten_by_the_retry_tick_tells_the_move_and_leaves_the_controls(
    world: World,
) -> None:
    # Between a move's commit and its delivery, the retry tick (or a click on an old board)
    # may post the table's board first. The delivery then only tells the move in words, in
    # that board's digest: no second message, no second image, and the controls stay there.
    table_id, thread = await start_tock_against_a_bot(world, seed=39)
    publisher = world.desk.publisher  # type: ignore[union-attr]
    board = world.newest_board(thread)
    count, image = len(world.boards(thread)), board.files[0].id
    publisher._posted[table_id] = 10**6  # as if that board were the move's, posted already
    await play_race_turn(world, table_id, world.alice, thread, random.Random(5), Stats())
    await world.wait(lambda: board.content.startswith("alice: "))
    assert len(world.boards(thread)) == count, "no message of its own"
    assert [f.id for f in board.files] == [image], "no second image"
    assert boards_with_controls(world, thread) == [board], "the controls stay where they are"
