"""Bot levels at a table: the host's choice, the table's default, the seat a person leaves, and
when the moves of slow (searching) bots are delivered."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from bot.bots.choosers import random_chooser
from bot.model.clock import FakeClock
from bot.model.table import DEFAULT_BOT_LEVEL, LogKind, bot_level_of
from bot.service import InvalidTableOptions, Phase, TableService
from bot.storage.base import Storage
from tests.bot.conftest import Recorder, load_game

GUILD, CHANNEL = 100, 200
ANN, BOB = 1, 2


class SlowHardBots:
    """An async chooser whose ``hard`` bots think until told to answer (a search in a pool)."""

    slow_levels = frozenset({"hard"})

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.answer = asyncio.Event()

    async def __call__(
        self, game: str, view: Mapping[str, Any], level: str, legal: Sequence[str], seed: int
    ) -> str:
        self.asked.append(level)
        if level == "hard":
            await self.answer.wait()
        return random_chooser(game, view, level, legal, seed)


def _service(storage: Storage, **options: Any) -> TableService:
    options.setdefault("choose_bot_move", random_chooser)
    return TableService(storage, load_game=load_game, **options)


async def test_bots_added_without_a_level_play_at_the_tables_level(storage: Storage) -> None:
    svc = _service(storage)
    created = await svc.create(GUILD, CHANNEL, "toy", ANN, "Ann", players=3, bot_level="hard")
    table_id = created.table.id
    assert created.table.bot_level == "hard"
    await svc.add_bot(table_id, ANN)
    await svc.add_bot(table_id, ANN, "easy")
    table = await _service(storage).get(table_id)  # as stored
    assert [s.bot_level for s in table.seats] == [None, "hard", "easy"]
    assert [s.bot_number for s in table.seats[1:]] == [2, 3]
    assert table.bot_level == "hard"


async def test_a_table_opened_without_a_level_has_normal_bots(storage: Storage) -> None:
    svc = _service(storage)
    table = (await svc.create(GUILD, CHANNEL, "toy", ANN, "Ann")).table
    assert table.bot_level == DEFAULT_BOT_LEVEL == "normal"
    # Tables stored before tables had a level read as normal too.
    assert bot_level_of(table.with_changes(extra={})) == "normal"


@pytest.mark.parametrize("level", ["medium", "HARD", "", "hard "])
async def test_an_unknown_bot_level_is_refused_and_changes_nothing(
    storage: Storage, level: str
) -> None:
    svc = _service(storage)
    with pytest.raises(InvalidTableOptions, match="bot level must be one of easy, normal and hard"):
        await svc.create(GUILD, CHANNEL, "toy", ANN, "Ann", bot_level=level)
    table_id = (await svc.create(GUILD, CHANNEL, "toy", ANN, "Ann", players=3)).table.id
    before = await storage.load_table(table_id)
    with pytest.raises(InvalidTableOptions):
        await svc.add_bot(table_id, ANN, level)
    assert await storage.load_table(table_id) == before


async def test_the_seat_of_a_person_who_leaves_goes_to_a_bot_of_the_tables_level(
    storage: Storage,
) -> None:
    svc = _service(storage)
    table_id = (
        await svc.create(
            GUILD, CHANNEL, "toy", ANN, "Ann", players=3, absent_policy="bot", bot_level="easy"
        )
    ).table.id
    await svc.join(table_id, BOB, "Bob")
    await svc.add_bot(table_id, ANN, "hard")
    await svc.start_game(table_id, ANN)
    await svc.leave(table_id, BOB)
    table = await svc.get(table_id)
    bob = next(s for s in table.seats if s.former_user_id == BOB)
    assert bob.bot_level == "easy"


async def test_a_persons_move_is_answered_before_the_hard_bots_after_it_think(
    storage: Storage, recorder: Recorder
) -> None:
    brain = SlowHardBots()
    svc = _service(storage, listener=recorder, choose_bot_move=brain, defer_slow_bots=True)
    table_id = (
        await svc.create(GUILD, CHANNEL, "toy", ANN, "Ann", players=3, bot_level="hard")
    ).table.id
    await svc.add_bot(table_id, ANN, "normal")
    await svc.add_bot(table_id, ANN)  # hard
    started = await svc.start_game(table_id, ANN)
    # The quick bot's exchange pick is in the answer; the hard bot's comes when it is found.
    assert [u.message.text("en") for u in started.public[1:]] == ["Bot 2 chose a card to pass."]
    await asyncio.sleep(0.01)
    assert brain.asked == ["normal", "hard"]
    assert recorder.effects == []
    brain.answer.set()
    await svc.idle()
    told = [e.public[0].message.text("en") for e in recorder.effects]
    assert told == ["Bot 3 chose a card to pass."]
    # A whole game goes on like this, and every action is stored once.
    for _ in range(200):
        table = await svc.get(table_id)
        if table.phase is not Phase.PLAYING:
            break
        info = await svc.private_info(table_id, ANN)
        if info.to_act:
            await svc.act(table_id, ANN, info.legal_moves[0], info.table.version)
        await svc.idle()
    assert (await svc.get(table_id)).phase is Phase.FINISHED
    log = await storage.load_log(table_id)
    assert [e.index for e in log] == list(range(len(log)))
    assert "easy" not in brain.asked
    await svc.stop()


async def test_a_table_answers_its_people_while_a_hard_bot_thinks(
    storage: Storage, recorder: Recorder
) -> None:
    brain = SlowHardBots()
    svc = _service(storage, listener=recorder, choose_bot_move=brain, defer_slow_bots=True)
    table_id = (
        await svc.create(GUILD, CHANNEL, "toy", ANN, "Ann", players=2, bot_level="hard")
    ).table.id
    await svc.add_bot(table_id, ANN)
    await svc.start_game(table_id, ANN)  # an exchange: Ann and the bot pick at once
    await asyncio.sleep(0.01)
    assert brain.asked == ["hard"]  # the bot is thinking...
    # ... and Ann is answered meanwhile: her hand, and her pick.
    info = await asyncio.wait_for(svc.private_info(table_id, ANN), 5)
    picked = await asyncio.wait_for(
        svc.act(table_id, ANN, info.legal_moves[0], info.table.version), 5
    )
    assert picked.table.version > info.table.version
    brain.answer.set()
    await svc.idle()
    # The bot's move was found for a position that changed: it thought again, and played;
    # that was the only move thought in vain (one thinker per table).
    assert brain.asked[:2] == ["hard", "hard"]
    log = await storage.load_log(table_id)
    assert [e.seat for e in log[:2]] == [0, 1]
    assert len([e for e in log if e.seat == 1]) == len(brain.asked) - 1
    await svc.stop()


async def test_a_timeout_does_not_hold_the_clock_while_a_hard_bot_thinks(
    storage: Storage, recorder: Recorder
) -> None:
    clock = FakeClock()
    brain = SlowHardBots()
    svc = _service(
        storage, clock=clock, listener=recorder, choose_bot_move=brain, defer_slow_bots=True
    )
    table_id = (
        await svc.create(
            GUILD, CHANNEL, "toy", ANN, "Ann", players=2, turn_time=60, bot_level="hard"
        )
    ).table.id
    await svc.add_bot(table_id, ANN)
    await svc.start_game(table_id, ANN)
    clock.advance(61)
    # Ann's time ran out: her automatic action is taken at once, whatever the bot is doing
    # (every other table's clock waits for this call).
    await asyncio.wait_for(svc.run_due(), 5)
    log = await storage.load_log(table_id)
    assert [(e.kind, e.seat) for e in log] == [(LogKind.AUTO, 0)]
    brain.answer.set()
    await svc.idle()
    log = await storage.load_log(table_id)
    assert (LogKind.MOVE, 1) in [(e.kind, e.seat) for e in log]
    await svc.stop()
