"""Storage of results and ratings in both back ends, and the migration from the first schema."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from bot.after_game.game_result import GameResult, SeatResult
from bot.after_game.ratings import Rating, rate_result
from bot.model.table import Phase, Seat, TableRecord
from bot.storage import migrations, open_storage
from bot.storage.base import Storage
from tests.bot.conftest import drop_postgres_database, postgres_or_skip

GUILD = 5


def _result(table_id: int, game: str, order: list[int], guild: int = GUILD) -> GameResult:
    """Users ``order[0]`` (first), ``order[1]`` ... of a free-for-all."""
    seats = tuple(
        SeatResult(seat, f"P{user}", place, f"u:{user}", user_id=user)
        for place, (seat, user) in enumerate(enumerate(order), start=1)
    )
    return GameResult(table_id, guild, 8, game, {}, float(table_id), seats, (0,))


async def _table(storage: Storage, guild: int = GUILD) -> int:
    record = TableRecord(0, guild, 8, "tock", {}, 1, 1, (Seat(0, user_id=1),), Phase.FINISHED)
    return await storage.create_table(record)


async def test_results_history_and_leaderboard(any_storage: Storage) -> None:
    results = []
    for n in range(7):
        table_id = await _table(any_storage)
        game = "tock" if n % 2 == 0 else "dog"
        result = _result(table_id, game, [1, 2, 3] if n != 4 else [3, 2, 1])
        assert await any_storage.save_result(result, lambda b, r=result: rate_result(r, b))
        results.append(result)
    # A second result for a table is refused, and rates nothing.
    again = results[0]
    assert not await any_storage.save_result(again, lambda b: rate_result(again, b))
    newest = await any_storage.history(GUILD, limit=3)
    assert [r.table_id for r in newest] == [r.table_id for r in results[::-1][:3]]
    page2 = await any_storage.history(GUILD, limit=3, offset=3)
    assert [r.table_id for r in page2] == [r.table_id for r in results[::-1][3:6]]
    tock = await any_storage.history(GUILD, player="u:2", game="tock", limit=10)
    assert [r.table_id for r in tock] == [r.table_id for r in results[::-2]]
    assert await any_storage.history(GUILD + 1) == []
    top = await any_storage.leaderboard(GUILD, "tock")
    assert next(r.player for r in top) == "u:1"
    assert top[0].games == 4
    assert top[0].wins == 3
    assert [r.ordinal for r in top] == sorted((r.ordinal for r in top), reverse=True)
    place = await any_storage.rating(GUILD, "tock", "u:3")
    assert place is not None
    assert place[0] == 3
    assert await any_storage.rating(GUILD, "tock", "u:99") is None
    mine = await any_storage.ratings_of(GUILD, "u:2")
    assert set(mine) == {"tock", "dog"}
    stored = await any_storage.load_result(results[2].table_id)
    assert stored == results[2]
    assert [r.table_id for r in await any_storage.all_results()] == [r.table_id for r in results]
    await any_storage.replace_ratings(
        {(GUILD, "dog"): {"u:9": Rating("u:9", 30.0, 2.0, 1, 1)}}, GUILD
    )
    assert await any_storage.leaderboard(GUILD, "tock") == []
    assert [r.player for r in await any_storage.leaderboard(GUILD, "dog")] == ["u:9"]


#: The migration that brings results and ratings; a database of the schema before it is one
#: every earlier release left behind.
RESULTS_MIGRATION = 3
PREVIOUS = [(v, stmts) for v, stmts in migrations.MIGRATIONS if v < RESULTS_MIGRATION]


def _first_schema(path: Path) -> None:
    """A database exactly as the previous schema (before results) left it, with a table."""
    conn = sqlite3.connect(path)
    conn.execute(migrations.SCHEMA_VERSION_TABLE)
    for version, statements in PREVIOUS:
        for statement in statements:
            conn.execute(migrations.render(statement, migrations.SQLITE))
        conn.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
    conn.execute(
        "INSERT INTO tables (guild_id, channel_id, game, options, seed, host_id, seats, players,"
        " phase, version, turn_time, absent_policy, reminded, log_length, winners, extra,"
        " created_at, updated_at) VALUES (1, 2, 'dog', '{}', 3, 4, ?, 4, 'finished', 9, 0,"
        " 'auto', 0, 0, '[0, 2]', '{}', 1.0, 2.0)",
        (json.dumps([Seat(0, user_id=4, name="Ann").to_json()]),),
    )
    conn.commit()
    conn.close()


async def test_the_migration_keeps_every_table_of_the_previous_schema(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    _first_schema(path)
    storage = await open_storage(f"sqlite:///{path}")
    try:
        table = await storage.load_table(1)
        assert table is not None
        assert table.game == "dog"
        assert table.winners == (0, 2)
        assert await storage.finished_without_result() == [1]
        assert await storage.leaderboard(1, "dog") == []
    finally:
        await storage.close()
    conn = sqlite3.connect(path)
    versions = [v for (v,) in conn.execute("SELECT version FROM schema_version ORDER BY version")]
    indexes = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    conn.close()
    assert versions == [v for v, _ in migrations.MIGRATIONS]
    assert {"results_by_guild", "result_players_by_player", "ratings_by_ordinal"} <= indexes


async def test_the_migration_on_postgres_keeps_every_table() -> None:
    import asyncpg

    url, name = await postgres_or_skip()
    try:
        conn = await asyncpg.connect(url)
        await conn.execute(migrations.SCHEMA_VERSION_TABLE)
        for version, statements in PREVIOUS:
            for statement in statements:
                await conn.execute(migrations.render(statement, migrations.POSTGRES))
            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", version)
        await conn.execute(
            "INSERT INTO tables (guild_id, channel_id, game, options, seed, host_id, seats,"
            " players, phase, version, turn_time, absent_policy, reminded, log_length, winners,"
            " extra, created_at, updated_at) VALUES (1, 2, 'dog', '{}', 3, 4, '[]', 4,"
            " 'finished', 9, 0, 'auto', 0, 0, '[0, 2]', '{}', 1.0, 2.0)"
        )
        await conn.close()
        storage = await open_storage(url)
        try:
            table = await storage.load_table(1)
            assert table is not None
            assert table.winners == (0, 2)
            assert await storage.finished_without_result() == [1]
        finally:
            await storage.close()
    finally:
        await drop_postgres_database(name)
