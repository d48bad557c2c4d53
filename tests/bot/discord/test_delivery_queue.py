"""A table's deliveries go out in order, one at a time, and those that queue up behind the one
under way are sent together (the thread catches up in one post instead of falling behind)."""

from __future__ import annotations

import asyncio
import threading

from bot.discord_ui.delivery_queue import DeliveryQueue
from bot.model.effects import Effects, PublicUpdate
from bot.model.table import TableRecord
from i18n.message import msg
from tests.bot.discord.conftest import World
from tests.bot.discord.test_lobby import start_for_two


def _effects(table_id: int, version: int) -> Effects:
    table = TableRecord(
        id=table_id, guild_id=1, channel_id=2, game="tock", options={}, seed=0, host_id=3,
        seats=(), version=version,
    )  # fmt: skip
    update = PublicUpdate(table_id, "action", msg("board.caption"), version, by_person=True)
    return Effects(table, [update])


async def test_deliveries_waiting_behind_one_under_way_are_sent_together_in_order() -> None:
    released = asyncio.Event()
    sent: list[tuple[int, list[int], bool, int | None]] = []

    async def send(effects: Effects, refresh: bool, skip: int | None, via: object) -> None:
        sent.append((effects.table.id, [u.version for u in effects.public], refresh, skip))
        await released.wait()

    queue = DeliveryQueue(send)
    queue.put(_effects(1, 1), skip=7)
    await asyncio.sleep(0)  # table 1's first delivery is under way
    assert queue.under_way(1)
    queue.put(_effects(1, 2), skip=7)
    done = queue.put(_effects(1, 3), refresh=True, wait=True)
    queue.put(_effects(2, 1), skip=8)
    released.set()
    assert done is not None
    await done
    await asyncio.gather(*queue.tasks())
    assert sent == [
        (1, [1], True, 7),
        (2, [1], True, 8),  # another table does not wait for table 1
        (1, [2, 3], True, None),  # merged: the versions in order; two skips, so none
    ]
    assert queue.merged == 1
    assert not queue.under_way(1)
    assert queue.release(1)


async def test_a_failed_delivery_does_not_stop_the_next_one() -> None:
    sent: list[int] = []

    async def send(effects: Effects, refresh: bool, skip: int | None, via: object) -> None:
        sent.append(effects.table.version)
        if effects.table.version == 1:
            raise RuntimeError("Discord is down")

    queue = DeliveryQueue(send)
    first = queue.put(_effects(1, 1), wait=True)
    assert first is not None
    await first
    second = queue.put(_effects(1, 2), wait=True)
    assert second is not None
    await second
    assert sent == [1, 2]


async def test_moves_that_waited_for_the_thread_are_told_in_one_digest(
    world: World, board_gate: threading.Event
) -> None:
    gate = board_gate
    gate.set()  # the first board
    table_id, thread = await start_for_two(world, "tock", seed=21)
    await world.desk.deliveries_done()
    service = world.desk.service
    users = {world.alice.id: world.alice, world.bob.id: world.bob}
    posted = len(world.boards(thread))
    gate.clear()  # the next board cannot be drawn: the moves after it wait for the thread
    played = 0
    while played < 3:
        table = await service.get(table_id)
        seat_users = [s.user_id for s in table.seats if s.user_id in users]
        for user_id in seat_users:
            info = await service.private_info(table_id, user_id)
            if info.to_act:
                effects = await service.act(
                    table_id, user_id, info.legal_moves[0], info.table.version
                )
                world.desk.deliver_soon(effects, skip=user_id)
                played += 1
                await asyncio.sleep(0.05)  # the first delivery is under way, the rest wait
                break
    gate.set()
    await world.desk.deliveries_done()
    boards = world.boards(thread)[posted:]
    assert len(boards) == 2, [b.text for b in boards]  # the first move's, then one for both
    assert world.desk.deliveries.merged >= 1
    assert world.newest_board(thread).id == boards[-1].id
