"""Two processes on one shard (a rolling restart overlaps them): each turn gets one half-time
reminder, never before half the turn time, and one timeout, whichever process acts."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.bots.choosers import random_chooser
from bot.model.clock import FakeClock
from bot.model.table import LogKind
from bot.service import TableService
from bot.storage.base import Storage
from tests.bot.conftest import load_game

GUILD, CHANNEL, ANN, BOB = 100, 200, 1, 2
TURN = 60  # seconds: the shortest turn clock a table offers is longer; the rule is the same


class Timed:
    """A listener noting when (on the fake clock) each reminder and timeout was delivered."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.reminders: list[tuple[float, float]] = []  # (when, the turn's deadline)
        self.timeouts = 0
        self.timed_out_seats = 0

    async def __call__(self, effects: Any) -> None:
        for update in effects.public:
            if update.kind == "reminder":
                assert effects.table.deadline is not None
                self.reminders.append((self.clock.now(), effects.table.deadline))
        seats = sum(1 for p in effects.private if p.kind == "timeout")
        self.timeouts += 1 if seats else 0
        self.timed_out_seats += seats


async def test_two_processes_remind_and_time_out_each_turn_once(any_storage: Storage) -> None:
    any_storage.single_writer = False  # two processes write this database
    clock = FakeClock()
    heard = [Timed(clock), Timed(clock)]
    services = [
        TableService(
            any_storage,
            clock=clock,
            listener=listener,
            choose_bot_move=random_chooser,
            load_game=load_game,
            timeouts_before_leave=0,
        )
        for listener in heard
    ]
    first, second = services
    created = await first.create(GUILD, CHANNEL, "toy", ANN, "Ann", turn_time=TURN)
    table_id = created.table.id
    await first.join(table_id, BOB, "Bob")
    await first.start_game(table_id, ANN)
    await second.start()  # the second process arms the clocks it finds stored
    turns = 4
    for _ in range(turns):
        # Every 5 s of the turn, both processes look at their clocks at the same moment.
        for _step in range(TURN // 5):
            clock.advance(5)
            await asyncio.gather(*(s.run_due() for s in services))
    reminders = heard[0].reminders + heard[1].reminders
    assert len(reminders) == turns, reminders
    assert all(when >= deadline - TURN / 2 for when, deadline in reminders), reminders
    assert heard[0].timeouts + heard[1].timeouts == turns
    autos = [e for e in await any_storage.load_log(table_id) if e.kind == LogKind.AUTO]
    # Every automatic move stored was made (and told) by one process, once.
    assert len(autos) == heard[0].timed_out_seats + heard[1].timed_out_seats
    for service in services:
        await service.stop()


async def test_a_scaled_clock_runs_a_minute_turn_faster_and_the_table_keeps_its_minute(
    any_storage: Storage,
) -> None:
    # TURN_TIME_SCALE (tests only): the clock runs a quarter of the turn; the table offers,
    # stores and shows the 60 s its players chose.
    clock = FakeClock()
    heard = Timed(clock)
    service = TableService(
        any_storage,
        clock=clock,
        listener=heard,
        choose_bot_move=random_chooser,
        load_game=load_game,
        turn_time_scale=0.25,
    )
    created = await service.create(GUILD, CHANNEL, "toy", ANN, "Ann", turn_time=TURN)
    table_id = created.table.id
    await service.join(table_id, BOB, "Bob")
    started = await service.start_game(table_id, ANN)
    assert started.table.turn_time == TURN
    assert started.table.deadline == clock.now() + TURN / 4
    clock.advance(TURN / 8 - 0.5)
    await service.run_due()
    assert not heard.reminders, "no reminder before half the (scaled) turn"
    clock.advance(0.5)
    await service.run_due()
    assert len(heard.reminders) == 1
    clock.advance(TURN / 8)
    await service.run_due()
    assert heard.timeouts == 1
    await service.stop()
