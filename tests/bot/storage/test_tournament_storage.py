"""Tournament storage on both back ends: round trips, guarded writes, one table per slot."""

from __future__ import annotations

import asyncio

from bot.model.table import Seat, TableRecord
from bot.storage.base import Storage
from bot.tournament import Entrant, Format, Settings, Tournament, next_round
from bot.tournament.record import TournamentPhase, TournamentRecord


def _tournament() -> TournamentRecord:
    entrants = tuple(Entrant(f"u:{2**60 + i}", f"P{i}", (2**60 + i,), 25.0 - i) for i in range(3))
    state = Tournament(Settings(Format.SWISS, rounds=2), entrants)
    return TournamentRecord(
        id=0,
        guild_id=2**61,
        channel_id=7,
        host_id=2**60,
        game="carcassonne",
        state=state,
        setup={"turn_time": 60, "options": {"river": True}},
        created_at=1.0,
        updated_at=1.0,
    )


def _table(host: int) -> TableRecord:
    return TableRecord(
        id=0,
        guild_id=2**61,
        channel_id=7,
        game="carcassonne",
        options={},
        seed=1,
        host_id=host,
        seats=(Seat(0, user_id=host, name="A"), Seat(1, bot_level="easy")),
        players=2,
        version=1,
    )


async def test_a_tournament_round_trips_and_writes_are_guarded(any_storage: Storage) -> None:
    tid = await any_storage.create_tournament(_tournament())
    loaded = await any_storage.load_tournament(tid)
    assert loaded == _tournament().with_changes(id=tid)
    first = next_round(loaded.state)
    assert first is not None
    new = loaded.with_changes(
        state=loaded.state.with_round(first), phase=TournamentPhase.RUNNING, version=2
    )
    assert await any_storage.save_tournament(new, 1) is True
    # A second writer that read version 1 (a restarted process, another shard) loses.
    assert await any_storage.save_tournament(new.with_changes(setup={}), 1) is False
    assert await any_storage.load_tournament(tid) == new
    assert [t.id for t in await any_storage.list_tournaments(2**61)] == [tid]
    done = new.with_changes(phase=TournamentPhase.FINISHED, version=3)
    assert await any_storage.save_tournament(done, 2)
    assert await any_storage.list_tournaments(2**61) == []
    assert [t.id for t in await any_storage.list_tournaments(2**61, active=False)] == [tid]


async def test_a_slot_gets_one_table_even_when_opened_twice_at_once(any_storage: Storage) -> None:
    tid = await any_storage.create_tournament(_tournament())
    results = await asyncio.gather(
        *(any_storage.create_tournament_table(_table(2**60), tid, 1, 0) for _ in range(4))
    )
    ids = {table_id for table_id, _ in results}
    assert len(ids) == 1
    assert sum(created for _, created in results) == 1
    other, created = await any_storage.create_tournament_table(_table(2**60), tid, 1, 1)
    assert created
    assert other not in ids
    assert await any_storage.tournament_tables(tid) == {(1, 0): ids.pop(), (1, 1): other}


async def test_seasons_round_trip(any_storage: Storage) -> None:
    from bot.tournament.season import Season

    winter = Season(0, 2**61, "dog", "Winter", 1000.0, 2000.0)
    spring = Season(0, 2**61, "tock", "Spring", 2000.0, 3000.0)
    first = await any_storage.create_season(winter)
    second = await any_storage.create_season(spring)
    assert await any_storage.list_seasons(2**61, "dog") == [
        Season(first, 2**61, "dog", "Winter", 1000.0, 2000.0)
    ]
    assert [s.id for s in await any_storage.list_seasons(2**61)] == [first, second]
    assert await any_storage.list_seasons(5) == []
