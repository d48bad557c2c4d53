"""Exactly one board carries controls, at every moment a reader can see (issue 29): after a
process dies between posting a board and removing the old board's controls, after Discord
refused that removal, and when two processes' retry ticks post one missing board at once.
The retry tick names only boards that are truly missing in its log."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord_ui.app import open_service
from tests.bot.conftest import drop_postgres_database, postgres_or_skip
from tests.bot.discord.conftest import World, posting_outage, running_world
from tests.bot.discord.driving import Stats, hand_of, play_race_turn
from tests.bot.discord.test_refusals import start_tock_against_a_bot
from tests.bot.test_two_processes import board_version
from tests.fakediscord.models import Channel

#: More 503s in a row than the bot tries a request.
OUTAGE = 6
MISSING = "which its thread did not get"


async def forget_board(world: World, table_id: int) -> None:
    """Make the stored record say the thread never got the table's board."""
    storage: Any = world.desk.service.storage  # type: ignore[union-attr]
    async with storage._lock:
        await storage.db.execute("UPDATE tables SET board_version = 0 WHERE id = ?", (table_id,))


def with_controls(world: World, thread: Channel) -> list[int]:
    """The versions of the thread's messages that carry controls (components)."""
    return [board_version(m) for m in world.boards(thread) if m.components]


async def test_a_process_killed_between_the_post_and_the_retire_leaves_one_board_with_controls(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, thread = await start_tock_against_a_bot(world, seed=41)
    publisher = world.desk.publisher  # type: ignore[union-attr]

    async def killed(*_args: object, **_kwargs: object) -> bool:
        raise asyncio.CancelledError  # the delivery ends here, as in a SIGKILL

    monkeypatch.setattr(publisher, "_retire_previous_board", killed)
    service: Any = world.desk.service  # type: ignore[union-attr]
    info = await service.private_info(table_id, world.alice.id)
    effects = await service.act(table_id, world.alice.id, info.legal_moves[0], info.table.version)
    with contextlib.suppress(asyncio.CancelledError):
        await world.desk.deliver(effects)  # type: ignore[union-attr]
    assert len(with_controls(world, thread)) > 1, "the old board kept its controls"
    monkeypatch.undo()

    # The next process's start-up pass alone (its retry ticks are an hour apart) repairs it.
    world.retry_interval = 3600
    await world.restart()
    stored = await world.desk.service.get(table_id)  # type: ignore[union-attr]
    await world.wait(
        lambda: with_controls(world, thread) == [stored.version],
        "(two boards kept their controls after the restart)",
    )
    # The board is recorded once the old controls are gone (a moment after they went).
    service = world.desk.service  # type: ignore[union-attr]
    for _ in range(100):
        if (await service.board_of(table_id))[0] == stored.version:
            break
        await asyncio.sleep(0.02)
    assert (await service.board_of(table_id))[0] == stored.version


async def test_a_refused_retire_leaves_the_board_unrecorded_until_the_tick_retires(
    world: World,
) -> None:
    # Discord refuses to remove the old board's controls: the new board is not recorded (so
    # the retry tick does not take it as delivered) and the next ticks strip them.
    table_id, thread = await start_tock_against_a_bot(world, seed=42)
    world.fake.inject_server_error("PATCH", "/channels/*/messages/*", status=503, times=OUTAGE)
    await play_race_turn(world, table_id, world.alice, thread, random.Random(7), Stats())
    await world.desk.deliveries_done()  # type: ignore[union-attr]
    world.fake.faults.pending.clear()
    stored = await world.desk.service.get(table_id)  # type: ignore[union-attr]
    assert len(with_controls(world, thread)) > 1, "the fault kept the old controls"
    assert (await world.desk.service.board_of(table_id))[0] < stored.version  # type: ignore[union-attr]
    count = len(world.boards(thread))

    await world.desk.redeliver()  # type: ignore[union-attr]
    await world.desk.redeliver()  # type: ignore[union-attr]
    assert with_controls(world, thread) == [stored.version]
    assert len(world.boards(thread)) == count, "the board found in the thread, not posted again"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def db_world(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[World]:
    """The world of :func:`world` over each storage back end."""
    async with running_world(tmp_path) as world:
        if request.param == "sqlite":
            yield world
            return
        url, name = await postgres_or_skip()
        world.database_url = url
        await world.restart()
        try:
            yield world
        finally:
            await world.stop_bot()
            await drop_postgres_database(name)


async def test_two_processes_post_a_missing_board_once(db_world: World) -> None:
    world = db_world
    table_id, thread = await start_tock_against_a_bot(world, seed=43)
    # The board of alice's move is lost to an outage: the thread lacks it.
    stats = Stats()
    await hand_of(world, table_id, world.alice, thread, stats)  # open before Discord fails
    posting_outage(world, OUTAGE)
    await play_race_turn(world, table_id, world.alice, thread, random.Random(8), stats)
    await world.desk.deliveries_done()  # type: ignore[union-attr]
    world.fake.faults.pending.clear()
    stored = await world.desk.service.get(table_id)  # type: ignore[union-attr]
    count = len(world.boards(thread))

    # A second process over the same database, on the same bot account, ticks at the same
    # moment as the first.
    async with open_service(
        world.database_url, renderer=world.renderer, clock=world.clock
    ) as other:
        other.publisher.bot = world.bot
        ids = await asyncio.gather(
            world.desk.publisher.ensure_board(table_id),  # type: ignore[union-attr]
            other.publisher.ensure_board(table_id),
        )
    assert len(world.boards(thread)) == count + 1, "one message for the missing board"
    assert ids[0] == ids[1] == world.boards(thread)[-1].id
    assert with_controls(world, thread) == [stored.version]
    assert await world.desk.service.board_of(table_id) == (stored.version, ids[0])  # type: ignore[union-attr]


async def test_the_retry_tick_names_only_boards_truly_missing(
    world: World, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, thread = await start_tock_against_a_bot(world, seed=44)
    desk: Any = world.desk
    caplog.set_level(logging.INFO, logger="bot.discord_ui.frontdesk")

    # A board on its way: its delivery holds the table's lock while the tick looks.
    async with desk.publisher.lock(table_id):
        await forget_board(world, table_id)  # as if not delivered yet
        for _ in range(3):
            await desk.redeliver()
    # A move committed in another process after the previous tick: its board is on its way.
    await play_race_turn(world, table_id, world.alice, thread, random.Random(9), Stats())
    await desk.deliveries_done()
    await forget_board(world, table_id)
    desk._behind = {}  # the previous tick saw nothing behind
    await desk.redeliver()
    assert not [r for r in caplog.records if MISSING in r.getMessage()], "no board was missing"
    count = len(world.boards(thread))

    # Still behind one tick later: truly missing (the record was lost) — named, and repaired
    # from the thread without a second post.
    await desk.redeliver()
    named = [r for r in caplog.records if MISSING in r.getMessage()]
    assert len(named) == 1
    assert len(world.boards(thread)) == count
    stored = await desk.service.get(table_id)
    assert (await desk.service.board_of(table_id))[0] == stored.version


async def test_the_retry_tick_is_silent_about_a_board_another_process_is_posting(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    table_id, thread = await start_tock_against_a_bot(world, seed=44)
    desk: Any = world.desk
    caplog.set_level(logging.INFO, logger="bot.discord_ui.frontdesk")
    count = len(world.boards(thread))
    await forget_board(world, table_id)
    storage: Any = desk.service.storage
    async with storage._lock:  # another process of the shard holds the table's posts
        await storage.db.execute(
            "UPDATE tables SET post_owner = 'other:1', post_until = 1e12 WHERE id = ?",
            (table_id,),
        )
    for _ in range(3):
        await desk.redeliver()
    assert not [r for r in caplog.records if MISSING in r.getMessage()]
    assert len(world.boards(thread)) == count, "the lease holder posts it, not this process"
