"""The compact move log's migration keeps every stored game (issue #37): on a database written
by the code before it (``data/old_log.sqlite3``, made by ``data/make_old_log_db.py``), every
table's log, record, result and replay is the same after the migration, in both back ends,
and a game in play goes on."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.after_game.replay import public_steps
from bot.bots.choosers import random_chooser
from bot.model.table import LogEntry, LogKind, Phase
from bot.service import TableService
from bot.service.games import Games, default_loader
from bot.storage import migrations, open_storage
from bot.storage.base import Storage
from bot.storage.rows import SELECT_TABLE, record_from_row
from tests.bot.conftest import drop_postgres_database, postgres_or_skip

OLD = Path(__file__).parent / "data" / "old_log.sqlite3"
#: The tables (and their columns) the old database holds, in an order foreign keys accept.
COPIED = ("tables", "moves", "snapshots", "results", "result_players", "ratings")


def _old() -> dict[str, Any]:
    """What the old database holds: records, logs and results, read with plain SQL."""
    conn = sqlite3.connect(f"file:{OLD}?immutable=1", uri=True)  # never written to
    try:
        assert conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] == 3
        records = {row[0]: record_from_row(row) for row in conn.execute(SELECT_TABLE)}
        logs: dict[int, list[LogEntry]] = {table_id: [] for table_id in records}
        query = "SELECT table_id, idx, kind, seat, text, version FROM moves ORDER BY table_id, idx"
        for table_id, idx, kind, seat, text, version in conn.execute(query):
            logs[table_id].append(LogEntry(idx, LogKind(kind), seat, text, version))
        results = dict(conn.execute("SELECT table_id, summary FROM results").fetchall())
    finally:
        conn.close()
    return {"records": records, "logs": logs, "results": results}


async def _check(storage: Storage, old: dict[str, Any], *, replays: bool = True) -> None:
    """Every table as before; with ``replays``, every finished game's replay too (the same
    log gives the same replay: the other back end's test need not spend the time again)."""
    games = Games(default_loader)
    finished = 0
    for table_id, record in old["records"].items():
        assert await storage.load_table(table_id) == record
        log = await storage.load_log(table_id)
        assert log == old["logs"][table_id]
        assert await storage.load_log(table_id, 37) == old["logs"][table_id][37:]
        if record.phase == Phase.FINISHED:
            finished += 1
            result = await storage.load_result(table_id)
            assert result is not None
            # As the old row reads (the result's JSON may have grown fields since).
            stored = type(result).from_json(_json(old["results"][table_id]))
            assert result.to_json() == stored.to_json()
            if replays:
                module = games.of(record)
                before = _replay(module, record, old["logs"][table_id])
                assert _replay(module, record, log) == before
    assert finished == 5
    # The game in play goes on: its next entries join the migrated ones.
    service = TableService(storage, choose_bot_move=random_chooser)
    playing = next(r for r in old["records"].values() if r.phase == Phase.PLAYING)
    host = playing.seats[0].user_id
    info = await service.private_info(playing.id, host)
    await service.act(playing.id, host, info.legal_moves[0], info.table.version)
    log = await storage.load_log(playing.id)
    assert log[: playing.log_length] == old["logs"][playing.id]
    assert len(log) > playing.log_length
    assert [e.index for e in log] == list(range(len(log)))
    await service.stop()


def _replay(module: Any, record: Any, log: list[LogEntry]) -> tuple[Any, list[Any]]:
    first, steps = public_steps(module, record, log)
    return first, list(steps)


def _json(summary: str) -> Any:
    import json

    return json.loads(summary)


async def test_sqlite_migration_keeps_every_game(tmp_path: Path) -> None:
    old = _old()
    path = tmp_path / "tables.sqlite3"
    shutil.copy(OLD, path)
    storage = await open_storage(f"sqlite:///{path}")
    try:
        await _check(storage, old)
    finally:
        await storage.close()


@pytest.mark.postgres
async def test_postgres_migration_keeps_every_game() -> None:
    import asyncpg

    old = _old()
    url, name = await postgres_or_skip()
    try:
        conn = await asyncpg.connect(url)
        source = sqlite3.connect(OLD)
        try:
            await conn.execute(migrations.SCHEMA_VERSION_TABLE)
            for version, statements in migrations.MIGRATIONS[:3]:
                for statement in statements:
                    await conn.execute(migrations.render(statement, migrations.POSTGRES))
                await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", version)
            for table in COPIED:
                cursor = source.execute(f"SELECT * FROM {table}")
                columns = [d[0] for d in cursor.description]
                rows = cursor.fetchall()
                if rows:
                    await conn.copy_records_to_table(table, records=rows, columns=columns)
            await conn.execute("SELECT setval('tables_id_seq', (SELECT MAX(id) FROM tables))")
            await conn.execute("SELECT setval('results_id_seq', (SELECT MAX(id) FROM results))")
        finally:
            source.close()
            await conn.close()
        storage = await open_storage(url)
        try:
            await _check(storage, old, replays=False)
        finally:
            await storage.close()
    finally:
        await drop_postgres_database(name)
