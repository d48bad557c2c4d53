"""Boards and turn digests through the outbox (issue #29): a board owed is posted once, by one
process at a time, and found rather than posted again after a crash.

The intent to post a table's board is its stored version ahead of the board recorded; these
tests take the bot through the crashes a real process can have (Discord took the post, the
record was lost) and the overlaps of two processes (one holds the table's posting lease).
"""

from __future__ import annotations

import asyncio
import random
import re
import socket
import sys
import time
from typing import Any

import pytest

from bot.discord_ui.publisher import board_view
from bot.model.table import Phase
from bot.service.outbox import gone
from tests.bot.discord.conftest import World
from tests.bot.discord.driving import Stats, play_race_turn
from tests.bot.discord.test_board_controls import forget_board, with_controls
from tests.bot.discord.test_refusals import start_tock_against_a_bot
from tests.fakediscord.models import Channel

BOARD_FILE = re.compile(r"^board-(\d+)-(\d+)\.png$")


def board_messages(world: World, thread: Channel, table_id: int) -> list[int]:
    """The ids of the bot's messages in ``thread`` that show one of the table's boards."""
    return [
        m.id
        for m in world.boards(thread)
        if any(
            (found := BOARD_FILE.match(f.filename)) and int(found.group(1)) == table_id
            for f in m.files
        )
    ]


async def until_recorded(world: World, table_id: int, version: int) -> tuple[int, int | None]:
    """Wait for the (new) process to record the board of ``version``; return the record."""
    service: Any = world.desk.service  # type: ignore[union-attr]
    for _ in range(300):
        recorded = await service.board_of(table_id)
        if recorded[0] >= version:
            return recorded  # type: ignore[no-any-return]
        await asyncio.sleep(0.02)
    raise AssertionError("the board was never recorded")


async def finished_bot_table(world: World) -> tuple[int, Channel, Any]:
    """A Carcassonne table of two bots with its thread, played to the end by its start (the
    effects not delivered yet)."""
    service: Any = world.desk.service  # type: ignore[union-attr]
    service._lobby._require_person = False  # a game of bots only, as the terminal's demo
    created = await service.create(
        world.guild.id,
        world.channel.id,
        "carcassonne",
        world.alice.id,
        "alice",
        players=2,
        seed=3,
        seat_host=False,
    )
    table_id = created.table.id
    thread = world.fake.add_thread(world.channel, "bots")
    await service.set_thread(table_id, thread.id)
    await service.add_bot(table_id, world.alice.id, "easy")
    await service.add_bot(table_id, world.alice.id, "easy")
    effects = await service.start_game(table_id, world.alice.id)
    assert effects.table.phase is Phase.FINISHED
    return table_id, thread, effects


@pytest.mark.parametrize("past_nonce_window", [False, True], ids=["in-window", "past-window"])
async def test_a_finished_games_last_digest_is_not_posted_again_after_a_crash(
    world: World, monkeypatch: pytest.MonkeyPatch, past_nonce_window: bool
) -> None:
    # The last digest of a game carries no controls. Discord took it, the process died before
    # recording it: the next process finds it (by its nonce within Discord's window, by its
    # board image after) instead of posting a second "Game over".
    table_id, thread, effects = await finished_bot_table(world)
    service: Any = world.desk.service  # type: ignore[union-attr]

    async def lost(*_args: object) -> None:
        raise OSError("the process died here")

    async def unchanged(*_args: object) -> None:
        pass  # the lobby message of a table opened without one (not this test's business)

    monkeypatch.setattr(service, "board_delivered", lost)
    monkeypatch.setattr(world.desk.publisher, "refresh_lobby", unchanged)  # type: ignore[union-attr]
    await world.desk.deliver(effects)  # type: ignore[union-attr]
    monkeypatch.undo()
    posted = board_messages(world, thread, table_id)
    assert len(posted) == 1
    assert (await service.board_of(table_id))[0] < effects.table.version, "not recorded"
    if past_nonce_window:
        world.fake.clock.advance(world.fake.nonce_window + 1)
    world.retry_interval = 0.3
    await world.restart()
    recorded = await until_recorded(world, table_id, effects.table.version)
    assert recorded == (effects.table.version, posted[0])
    assert board_messages(world, thread, table_id) == posted, "no second copy of the last board"


async def test_a_replaced_digest_left_by_a_crash_goes_when_its_repost_is_found(
    world: World,
) -> None:
    # A digest re-posted at the bottom (to ping) reached the thread; the process died before
    # deleting the digest it replaces and recording the new one. The next tick finds the
    # re-post, deletes the old digest (its lines are in the re-post) and records the re-post.
    table_id, thread = await start_tock_against_a_bot(world, seed=51)
    desk: Any = world.desk
    service, storage = desk.service, desk.service.storage
    old = world.newest_board(thread)
    stored = await service.get(table_id)
    # The dead process's lease (run out) names the digest its post replaces.
    now = service.clock.now()
    assert await storage.claim_board_post(table_id, "dead", now - 60, now - 30)
    await storage.replacing_board(table_id, "dead", old.id)
    # Its re-post, as Discord took it (the current version's controls).
    channel = await desk.publisher.channel(thread.id)
    _table, position = await service.current_board(table_id)
    repost = await channel.send(
        content=old.content,
        view=board_view(stored, stored.version, position),
    )
    await forget_board(world, table_id)  # its record was lost with the process
    desk._behind = {table_id: stored.version}  # the previous tick saw it behind already
    await desk.redeliver()
    assert old.deleted, "the replaced digest went"
    assert await service.board_of(table_id) == (stored.version, repost.id)
    assert with_controls(world, thread) == [stored.version]
    assert (await storage.board_post(table_id)).owner is None, "the lease was released"


async def test_a_board_another_process_is_posting_is_left_to_it(world: World) -> None:
    # Two processes on one shard (a rolling restart): the other one holds the posting of this
    # table's boards. This process's retry tick does not post; the other's lease runs out
    # unfinished (it died): the tick posts the board, once.
    table_id, thread = await start_tock_against_a_bot(world, seed=52)
    desk: Any = world.desk
    service, storage = desk.service, desk.service.storage
    service.outbox_lease_seconds = 0.2  # how long this process waits for the other one
    now = service.clock.now()
    assert await storage.claim_board_post(table_id, "other", now, now + 30)
    await forget_board(world, table_id)
    count = len(world.boards(thread))
    desk._behind = None  # as at start-up: every table behind is missing
    await desk.redeliver()
    assert len(world.boards(thread)) == count, "the other process posts it"
    world.clock.advance(31)  # its lease ran out: it died
    desk._behind = None
    await desk.redeliver()
    stored = await service.get(table_id)
    assert len(world.boards(thread)) == count, "the board in the thread is found, not posted"
    assert (await service.board_of(table_id))[0] == stored.version
    assert with_controls(world, thread) == [stored.version]


async def test_a_delivery_waits_for_the_other_process_and_posts_its_digest_once(
    world: World,
) -> None:
    # The other process is posting this table's board when alice's move is stored here: the
    # digest of her move waits until the other one is done, then goes out (once).
    table_id, thread = await start_tock_against_a_bot(world, seed=53)
    desk: Any = world.desk
    service, storage = desk.service, desk.service.storage
    now = service.clock.now()
    assert await storage.claim_board_post(table_id, "other", now, now + 30)
    count = len(world.boards(thread))
    world.fake.after_settle = []  # the answer comes at once; the board waits
    turn = asyncio.create_task(
        play_race_turn(world, table_id, world.alice, thread, random.Random(6), Stats())
    )
    await asyncio.sleep(0.5)
    assert len(world.boards(thread)) == count, "nothing posted while the other one posts"
    await storage.release_board_post(table_id, "other")
    await turn
    await desk.deliveries_done()
    stored = await service.get(table_id)
    assert len(world.boards(thread)) == count + 1
    assert with_controls(world, thread) == [stored.version]
    assert (await service.board_of(table_id))[0] == stored.version


async def test_the_lease_of_a_killed_process_of_this_machine_is_taken_over_at_once(
    world: World,
) -> None:
    # A process of this machine that holds the posting lease was killed (SIGKILL: it released
    # nothing). Its successor does not wait for the lease to run out: that process is gone.
    table_id, thread = await start_tock_against_a_bot(world, seed=54)
    desk: Any = world.desk
    service, storage = desk.service, desk.service.storage
    ended = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
    await ended.wait()
    dead = f"{socket.gethostname()}:{ended.pid}-0badc0de"
    now = service.clock.now()
    assert await storage.claim_board_post(table_id, dead, now, now + 30)
    service.outbox_lease_seconds = 30  # waiting for it would show
    await forget_board(world, table_id)
    desk._behind = None  # the start-up pass
    started = time.monotonic()
    await desk.redeliver()
    assert time.monotonic() - started < 5
    stored = await service.get(table_id)
    assert (await service.board_of(table_id))[0] == stored.version
    assert with_controls(world, thread) == [stored.version]
    # A live process's lease (this one's sibling service, or another machine's) is waited for.
    for alive in (service._outbox.owner, "elsewhere:1-0badc0de"):
        assert not gone(alive)
