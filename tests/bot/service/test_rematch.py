"""Rematch: same options and seats, kept seats confirmed with one click, bots keep theirs."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.bots.choosers import random_chooser
from bot.model.table import CannotStart, NotSeated, Phase, TableFull, WrongPhase, reserved_seats
from bot.service import TableService
from bot.storage.base import Storage
from tests.bot.conftest import load_game
from tests.bot.service.test_tables_games import GUILD, play_to_the_end, play_whole_game


async def test_a_rematch_keeps_options_and_seats_until_everyone_confirms(
    service: TableService,
) -> None:
    options = {"river": True}
    table_id, _e, _s = await play_whole_game(service, "carcassonne", 3, options, 2, 4)
    old = await service.get(table_id)
    with pytest.raises(NotSeated):
        await service.rematch(table_id, 99, "Stranger")
    opened = await service.rematch(table_id, 2, "P2")
    new = opened.table
    assert new.id != table_id
    assert new.phase == Phase.LOBBY
    assert new.options == old.options
    assert new.host_id == 2
    assert [s.bot_level for s in new.seats] == [s.bot_level for s in old.seats]
    assert new.seats[1].user_id == 2  # where P2 sat
    assert reserved_seats(new) == {0: 1}
    with pytest.raises(TableFull):
        await service.join(new.id, 3, "P3")  # the last free seat is kept for P1
    with pytest.raises(CannotStart):
        await service.start_game(new.id, 2)
    again = await service.rematch(table_id, 1, "P1")  # one click confirms
    assert again.table.id == new.id
    assert again.table.seats[0].user_id == 1
    assert reserved_seats(again.table) == {}
    same = await service.rematch(table_id, 1, "P1")  # a second click changes nothing
    assert same.table.version == again.table.version
    started = await service.start_game(new.id, 2)
    assert started.table.phase == Phase.PLAYING


async def test_the_host_may_fill_kept_seats_with_bots(service: TableService) -> None:
    table_id, _e, _s = await play_whole_game(service, "tock", 4, {"game_type": "2v2"}, 2, 6)
    opened = await service.rematch(table_id, 1, "P1")
    new = opened.table
    assert list(reserved_seats(new).values()) == [2]
    await service.add_bot(new.id, 1, "hard")
    filled = await service.get(new.id)
    assert reserved_seats(filled) == {}
    started = await service.start_game(new.id, 1)
    assert started.table.phase == Phase.PLAYING
    late = await service.rematch(table_id, 2, "P2")  # the rematch is under way: a new one
    assert late.table.id not in (table_id, new.id)


async def test_only_a_finished_table_has_a_rematch(service: TableService) -> None:
    created = await service.create(GUILD, 8, "dog", 1, "P1", seed=1)
    with pytest.raises(WrongPhase):
        await service.rematch(created.table.id, 1, "P1")


async def test_two_rematch_clicks_at_once_open_one_rematch(any_storage: Storage) -> None:
    # Two people ask at the same moment, served by two processes over one database (a rolling
    # restart) or by one: one rematch opens, and the other person is seated at it.
    any_storage.single_writer = False
    first, second = (
        TableService(any_storage, choose_bot_move=random_chooser, load_game=load_game)
        for _ in range(2)
    )
    table_id, _e, _s = await play_whole_game(first, "toy", 2, {}, 2, 5)
    for asked in ((first, second), (first, first)):
        opened = await asyncio.gather(
            asked[0].rematch(table_id, 1, "P1"), asked[1].rematch(table_id, 2, "P2")
        )
        ids = {effects.table.id for effects in opened}
        assert len(ids) == 1, "one rematch for both clicks"
        rematch = await first.get(ids.pop())
        assert {s.user_id for s in rematch.seats} == {1, 2}
        assert reserved_seats(rematch) == {}
        lobbies = [
            t
            for t in await first.list_tables(rematch.guild_id, rematch.channel_id)
            if t.extra.get("rematch_of") == table_id and t.id != rematch.id
        ]
        assert not lobbies, "no second rematch lobby"
        # The next pair of clicks comes once this rematch is played (a new one then).
        await first.start_game(rematch.id, rematch.host_id)
        await play_to_the_end(first, rematch.id, 2, random.Random(6))
        table_id = rematch.id
