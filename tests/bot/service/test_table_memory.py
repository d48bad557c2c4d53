"""Only live tables live in memory (issue #37): the table store and every per-table structure
forget a table once it is over (after a short grace) or idle, by one mechanism."""

from __future__ import annotations

import random

from bot.model.clock import FakeClock
from bot.model.table_memory import OVER_GRACE, KeyedLocks, PerTable, TableMemory
from bot.service import Phase, TableService
from tests.bot.service.test_tables_games import _seat, play_to_the_end


def _memory(clock: FakeClock) -> tuple[TableMemory, PerTable[str], KeyedLocks[tuple[int, int]]]:
    memory = TableMemory(clock.now, idle=100.0, grace=10.0)
    games: PerTable[str] = PerTable()
    locks: KeyedLocks[tuple[int, int]] = KeyedLocks(lambda key: key[0])
    memory.register(games, locks)
    return memory, games, locks


def test_a_finished_table_is_released_everywhere_after_its_grace() -> None:
    clock = FakeClock()
    memory, games, locks = _memory(clock)
    games[1] = "tock"
    locks((1, 7))
    memory.over(1)
    clock.advance(5)
    memory.touch(2)
    assert 1 in games
    assert len(locks) == 1
    clock.advance(6)
    memory.touch(2)
    assert 1 not in games
    assert len(locks) == 0
    assert memory.tracked() == 1  # table 2 only


def test_an_idle_table_is_released_and_a_used_one_is_kept() -> None:
    clock = FakeClock()
    memory, games, _locks = _memory(clock)
    games[1] = "dog"  # noted by the part itself: no one touched table 1
    games[2] = "tock"
    for _ in range(5):
        clock.advance(30)
        memory.touch(2)
    assert 1 not in games
    assert 2 in games


async def test_a_held_lock_is_kept_until_it_is_free() -> None:
    clock = FakeClock()
    memory, _games, locks = _memory(clock)
    lock = locks((1, 7))
    async with lock:
        memory.over(1)
        clock.advance(11)
        memory.sweep()
        assert len(locks) == 1  # dropping it would let a second holder in
        assert locks((1, 7)) is lock
    clock.advance(101)
    memory.sweep()
    assert len(locks) == 0


async def _finished_tock(service: TableService) -> int:
    started = await _seat(service, "tock", 2, {}, 1, 11)
    table_id = started.table.id
    await play_to_the_end(service, table_id, 1, random.Random(11))
    assert (await service.get(table_id)).phase == Phase.FINISHED
    return table_id


async def _read_every_path(service: TableService, table_id: int) -> None:
    await service.private_info(table_id, 1)
    await service.private_info(table_id, 2)
    await service.current_board(table_id)
    await service.public_view(table_id)
    await service.history(table_id, 1)
    await service.history(table_id, None, last=5)
    await service.get(table_id)


def _holding(service: TableService, table_id: int) -> list[str]:
    live, locks = service.store.held()
    held = []
    if table_id in live:
        held.append("the store's cache")
    if table_id in locks:
        held.append("the store's locks")
    for part in service.memory.parts:
        if isinstance(part, PerTable) and table_id in part:
            held.append(repr(part))
    return held


async def test_reading_a_finished_table_keeps_nothing_of_it(
    service: TableService, clock: FakeClock
) -> None:
    other = await _seat(service, "tock", 2, {}, 1, 3)  # a table still in play
    table_id = await _finished_tock(service)
    await _read_every_path(service, table_id)  # the last prompt's reads, in the grace
    clock.advance(OVER_GRACE + 1)
    await service.private_info(other.table.id, 1)  # any use sweeps
    assert _holding(service, table_id) == []
    # Reading it later (a replay, an old button) never brings it back into memory.
    await _read_every_path(service, table_id)
    assert table_id not in service.store.held()[0]
    clock.advance(OVER_GRACE + 1)
    await service.private_info(other.table.id, 1)
    assert _holding(service, table_id) == []
    assert service.store.held()[0] == {other.table.id}
    assert service.memory.tracked() == 1


async def test_idle_tables_leave_the_cache_and_come_back_on_use(
    service: TableService, clock: FakeClock
) -> None:
    first = await _seat(service, "dog", 4, {}, 1, 5)
    second = await _seat(service, "tock", 2, {}, 1, 6)
    clock.advance(service.memory.idle + 1)
    await service.private_info(second.table.id, 1)
    assert service.store.held()[0] == {second.table.id}
    info = await service.private_info(first.table.id, 1)  # re-read from storage
    assert info.table.version == first.table.version
    assert first.table.id in service.store.held()[0]


async def test_the_cache_keeps_at_most_its_size(service: TableService) -> None:
    service.store.cache_size = 3
    ids = [(await _seat(service, "tock", 2, {}, 1, seed)).table.id for seed in range(5)]
    assert service.store.held()[0] == set(ids[-3:])
    info = await service.private_info(ids[0], 1)
    assert info.to_act is not None
    assert ids[0] in service.store.held()[0]
