"""The turn clock: a reminder at half time, then the automatic action; it survives restarts."""

from __future__ import annotations

import asyncio

from bot.bots.choosers import random_chooser
from bot.model.clock import FakeClock
from bot.service import Phase, TableService
from bot.storage.base import Storage
from tests.bot.conftest import Recorder, load_game

GUILD, CHANNEL, ANN, BOB = 100, 200, 1, 2


async def _timed_table(service: TableService, turn_time: int = 300) -> int:
    effects = await service.create(GUILD, CHANNEL, "toy", ANN, "Ann", turn_time=turn_time)
    table_id = effects.table.id
    await service.join(table_id, BOB, "Bob")
    await service.start_game(table_id, ANN)
    return table_id


async def test_untimed_tables_have_no_deadline(service: TableService) -> None:
    effects = await service.create(GUILD, CHANNEL, "toy", ANN, "Ann")
    await service.join(effects.table.id, BOB, "Bob")
    started = await service.start_game(effects.table.id, ANN)
    assert started.table.deadline is None


async def test_reminder_at_half_time_then_automatic_action(
    service: TableService, clock: FakeClock, recorder: Recorder
) -> None:
    table_id = await _timed_table(service)
    table = await service.get(table_id)
    assert table.deadline == clock.now() + 300
    clock.advance(149)
    await service.run_due()
    assert recorder.effects == []
    clock.advance(1)
    await service.run_due()
    (reminder,) = recorder.effects
    assert reminder.public[0].kind == "reminder"
    assert sorted(reminder.pings) == [ANN, BOB]
    assert {p.kind for p in reminder.private} == {"reminder"}
    version = reminder.table.version
    # Ann picks in time; Bob does not.
    ann = await service.private_info(table_id, ANN)
    await service.act(table_id, ANN, ann.legal_moves[0], version)
    clock.advance(150)
    await service.run_due()
    timeout = recorder.effects[-1]
    assert [p.user_id for p in timeout.private if p.kind == "timeout"] == [BOB]
    log = await service.storage.load_log(table_id)
    assert [(e.kind, e.seat) for e in log] == [("move", 0), ("auto", 1)]
    # A new turn began for Ann with a fresh deadline.
    table = await service.get(table_id)
    assert table.phase == Phase.PLAYING
    assert table.deadline == clock.now() + 300
    assert not table.reminded


async def test_deadlines_survive_a_restart_and_respect_guild_ownership(
    storage: Storage, service: TableService, clock: FakeClock
) -> None:
    table_id = await _timed_table(service)
    clock.advance(400)  # the process was down past the deadline

    others = Recorder()
    foreign = TableService(
        storage,
        clock=clock,
        listener=others,
        choose_bot_move=random_chooser,
        load_game=load_game,
        owns_guild=lambda guild: guild != GUILD,
    )
    await foreign.start()
    await foreign.run_due()
    await foreign.stop()
    assert others.effects == []  # not this process's guild

    mine = Recorder()
    restarted = TableService(
        storage, clock=clock, listener=mine, choose_bot_move=random_chooser, load_game=load_game
    )
    await restarted.start()
    try:
        for _ in range(50):  # the clock loop runs on its own
            if mine.effects:
                break
            await asyncio.sleep(0.01)
        # Past the deadline there is no point in a reminder: the automatic actions come.
        assert [e.public[0].kind for e in mine.effects] == ["action"]
        log = await storage.load_log(table_id)
        assert sorted((e.kind, e.seat) for e in log) == [("auto", 0), ("auto", 1)]
    finally:
        await restarted.stop()


async def test_clock_loop_wakes_when_the_fake_clock_moves(
    service: TableService, clock: FakeClock, recorder: Recorder
) -> None:
    await service.start()
    await _timed_table(service, turn_time=60)
    await asyncio.sleep(0)
    clock.advance(30)
    for _ in range(50):
        if recorder.effects:
            break
        await asyncio.sleep(0.01)
    assert recorder.effects[0].public[0].kind == "reminder"


async def test_three_timeouts_in_a_row_hand_the_seat_to_the_policy(
    service: TableService, clock: FakeClock, recorder: Recorder
) -> None:
    effects = await service.create(GUILD, CHANNEL, "toy", ANN, "Ann", players=3, turn_time=60)
    table_id = effects.table.id
    await service.join(table_id, BOB, "Bob")
    await service.add_bot(table_id, ANN)
    await service.start_game(table_id, ANN)
    for _ in range(30):
        table = await service.get(table_id)
        if table.phase != Phase.PLAYING or any(s.left for s in table.seats):
            break
        # Ann always plays in time; Bob never does.
        ann = await service.private_info(table_id, ANN)
        if ann.to_act:
            await service.act(table_id, ANN, ann.legal_moves[0], ann.table.version)
            continue
        clock.advance(60)
        await service.run_due()
    table = await service.get(table_id)
    bob = next(s for s in table.seats if s.former_user_id == BOB)
    assert bob.left
    log = [(e.kind, e.seat) for e in await service.storage.load_log(table_id)]
    assert log.count(("auto", bob.index)) >= 2
    assert ("leave", bob.index) in log
    texts = [u.message.text("en") for e in recorder.effects for u in e.public]
    assert any("Bob ran out of time too often and left" in t for t in texts)
    # Ann, who always acted, was never counted.
    assert table.extra.get("timeouts", {}).get("0") is None
