"""Storage back ends: tables and logs survive, versions guard writes, migrations run once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.model.table import LogEntry, LogKind, Phase, Seat, TableRecord
from bot.storage import make_storage, open_storage
from bot.storage.base import Storage
from bot.storage.migrations import MIGRATIONS


def _record(guild: int = 1, channel: int = 10, **changes: object) -> TableRecord:
    record = TableRecord(
        id=0,
        guild_id=guild,
        channel_id=channel,
        game="tock",
        options={"seven": "split"},
        seed=2**62 + 5,
        host_id=2**60 + 1,  # Discord snowflakes need 64 bits
        seats=(Seat(0, user_id=2**60 + 1, name="Ann"), Seat(1, bot_level="hard", name="Bot")),
        players=2,
        version=1,
        created_at=1.5,
        updated_at=1.5,
    )
    return record.with_changes(**changes)


async def test_a_table_round_trips_with_64_bit_ids(any_storage: Storage) -> None:
    table_id = await any_storage.create_table(_record())
    loaded = await any_storage.load_table(table_id)
    assert loaded == _record().with_changes(id=table_id)
    assert await any_storage.load_version(table_id) == 1
    assert await any_storage.load_table(table_id + 1000) is None


async def test_commit_appends_the_log_only_at_the_expected_version(any_storage: Storage) -> None:
    table_id = await any_storage.create_table(_record())
    record = _record(id=table_id, phase=Phase.PLAYING, version=2, log_length=1)
    first = [LogEntry(0, LogKind.MOVE, 0, "K:E", 2)]
    assert await any_storage.commit(record, 1, first) is True
    # A second writer that read version 1 loses and writes nothing.
    rival = record.with_changes(version=2, log_length=1)
    assert await any_storage.commit(rival, 1, [LogEntry(0, LogKind.MOVE, 1, "A:E", 2)]) is False
    assert await any_storage.load_log(table_id) == first
    second = [LogEntry(1, LogKind.AUTO, 1, "", 3), LogEntry(2, LogKind.LEAVE, 1, "", 4)]
    assert await any_storage.commit(record.with_changes(version=4, log_length=3), 2, second)
    assert await any_storage.load_log(table_id) == first + second
    assert await any_storage.load_log(table_id, start=2) == second[1:]
    loaded = await any_storage.load_table(table_id)
    assert loaded is not None
    assert (loaded.version, loaded.phase, loaded.log_length) == (4, Phase.PLAYING, 3)


async def test_concurrent_commits_on_one_version_let_exactly_one_through(
    any_storage: Storage,
) -> None:
    table_id = await any_storage.create_table(_record())
    attempts = [
        any_storage.commit(
            _record(id=table_id, version=2), 1, [LogEntry(0, LogKind.MOVE, 0, f"m{i}", 2)]
        )
        for i in range(12)
    ]
    results = await asyncio.gather(*attempts)
    assert results.count(True) == 1
    assert len(await any_storage.load_log(table_id)) == 1


async def test_listing_by_guild_channel_and_activity(any_storage: Storage) -> None:
    a = await any_storage.create_table(_record(guild=1, channel=10))
    b = await any_storage.create_table(_record(guild=1, channel=11))
    c = await any_storage.create_table(_record(guild=1, channel=10, phase=Phase.FINISHED))
    await any_storage.create_table(_record(guild=2, channel=10))
    assert [t.id for t in await any_storage.list_tables(1)] == [a, b]
    assert [t.id for t in await any_storage.list_tables(1, 10)] == [a]
    assert [t.id for t in await any_storage.list_tables(1, 10, active=False)] == [a, c]


async def test_deadlines_threads_and_snapshots(any_storage: Storage) -> None:
    timed = await any_storage.create_table(
        _record(phase=Phase.PLAYING, deadline=1_800_000_300.0, turn_time=300)
    )
    await any_storage.create_table(_record(phase=Phase.PLAYING))
    await any_storage.create_table(_record(phase=Phase.FINISHED, deadline=5.0))
    assert [t.id for t in await any_storage.tables_with_deadline()] == [timed]
    await any_storage.set_thread(timed, 2**61)
    loaded = await any_storage.load_table(timed)
    assert loaded is not None
    assert (loaded.thread_id, loaded.version) == (2**61, 1)
    assert await any_storage.load_snapshot(timed) is None
    await any_storage.save_snapshot(timed, 10, {"a": [1, 2]})
    await any_storage.save_snapshot(timed, 20, {"a": [3]})
    assert await any_storage.load_snapshot(timed) == (20, {"a": [3]})


async def test_sqlite_file_keeps_data_and_migrates_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'p.sqlite3'}"
    store = await open_storage(url)
    table_id = await store.create_table(_record())
    await store.close()
    store = await open_storage(url)  # a restart: migrations must not run again
    try:
        assert (await store.load_table(table_id)) is not None
        db = store.db  # type: ignore[attr-defined]
        async with db.execute("SELECT version FROM schema_version") as cursor:
            versions = [row[0] for row in await cursor.fetchall()]
        assert versions == [v for v, _ in MIGRATIONS]
        async with db.execute("PRAGMA journal_mode") as cursor:
            assert (await cursor.fetchone())[0] == "wal"
    finally:
        await store.close()


def test_database_urls_choose_the_back_end() -> None:
    assert type(make_storage(":memory:")).__name__ == "SqliteStorage"
    assert make_storage("sqlite:///data/p.sqlite3").path == "data/p.sqlite3"  # type: ignore[attr-defined]
    assert type(make_storage("postgresql://u@h/db")).__name__ == "PostgresStorage"
    with pytest.raises(ValueError, match="unsupported DATABASE_URL"):
        make_storage("mysql://nope")


async def test_the_board_a_thread_received_is_recorded(any_storage: Storage) -> None:
    playing = await any_storage.create_table(_record(phase=Phase.PLAYING, version=5))
    await any_storage.create_table(_record(phase=Phase.PLAYING, version=3))  # no thread
    lobby = await any_storage.create_table(_record(phase=Phase.LOBBY, version=3))
    for table_id in (playing, lobby):
        await any_storage.set_thread(table_id, 2**61 + table_id)
    # A new table in play has had no board yet; a lobby shows none, nor a table without thread.
    assert await any_storage.load_board(playing) == (0, None)
    assert [t.id for t in await any_storage.tables_without_board()] == [playing]
    await any_storage.set_board(playing, 5, 2**62 + 1)
    assert await any_storage.load_board(playing) == (5, 2**62 + 1)
    assert await any_storage.tables_without_board() == []
    await any_storage.set_board(playing, 4, 7)  # an older board, recorded late: ignored
    assert await any_storage.load_board(playing) == (5, 2**62 + 1)
    # The game moves on (a commit) and its board has not been posted yet.
    record = await any_storage.load_table(playing)
    assert record is not None
    assert await any_storage.commit(record.with_changes(version=6), 5)
    assert [t.id for t in await any_storage.tables_without_board()] == [playing]
    assert await any_storage.load_board(playing + 1000) is None


@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
async def test_the_migration_takes_existing_tables_as_delivered(
    backend: str, tmp_path: Path
) -> None:
    from bot.storage import migrations
    from bot.storage.rows import INSERT_TABLE, numbered, table_values
    from tests.bot.conftest import drop_postgres_database, postgres_or_skip

    first = MIGRATIONS[0]
    row = table_values(_record(phase=Phase.PLAYING, version=9, thread_id=77))
    if backend == "sqlite":
        import sqlite3

        url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
        conn = sqlite3.connect(tmp_path / "old.sqlite3")
        conn.execute(migrations.SCHEMA_VERSION_TABLE)
        for statement in first[1]:
            conn.execute(migrations.render(statement, migrations.SQLITE))
        conn.execute("INSERT INTO schema_version (version) VALUES (1)")
        conn.execute(INSERT_TABLE, row)
        conn.commit()
        conn.close()
        name = None
    else:
        import asyncpg

        url, name = await postgres_or_skip()
        pg = await asyncpg.connect(url)
        await pg.execute(migrations.SCHEMA_VERSION_TABLE)
        for statement in first[1]:
            await pg.execute(migrations.render(statement, migrations.POSTGRES))
        await pg.execute("INSERT INTO schema_version (version) VALUES (1)")
        await pg.execute(numbered(INSERT_TABLE), *row)
        await pg.close()
    store = await open_storage(url)  # migrates the schema of the previous release
    try:
        (table,) = await store.list_tables(1)
        assert table.version == 9
        assert await store.load_board(table.id) == (9, None)
        assert await store.tables_without_board() == [], "no flood of boards after an upgrade"
    finally:
        await store.close()
        if name is not None:
            await drop_postgres_database(name)
