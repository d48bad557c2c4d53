"""A table moved by another process: the socket served here still follows it (the storage's
change feed, PostgreSQL LISTEN/NOTIFY)."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.bots.choosers import random_chooser
from bot.service import TableService
from bot.storage import open_storage
from tests.bot.conftest import drop_postgres_database, load_game, postgres_or_skip
from tests.web.live import live_server

# A fresh database each (and a reconnect pause): longer than a quick test may take.
pytestmark = [pytest.mark.postgres, pytest.mark.slow]


async def test_a_move_in_another_process_reaches_this_processs_sockets() -> None:
    url, name = await postgres_or_skip()
    here_storage = await open_storage(url)
    there_storage = await open_storage(url)
    here = TableService(here_storage, choose_bot_move=random_chooser, load_game=load_game)
    there = TableService(there_storage, choose_bot_move=random_chooser, load_game=load_game)
    try:
        await here.watch_other_processes()
        effects = await there.create(7, 8, "tock", 100, "Ann", players=2, seed=3, live_watch=True)
        table = effects.table.id
        await there.add_bot(table, 100)
        await there.start_game(table, 100)
        async with live_server(here) as live, live.page() as page:
            await page.hello(table)
            state = await page.next("state")
            info = await there.private_info(table, 100)
            await there.act(table, 100, info.legal_moves[0], info.table.version)
            moved = await page.state_at(state["version"] + 1, wait=5.0)
            assert moved["version"] == (await there.get(table)).version
    finally:
        await here.stop()
        await there.stop()
        await here_storage.close()
        await there_storage.close()
        await drop_postgres_database(name)


async def test_the_change_feed_comes_back_after_its_connection_dropped() -> None:
    url, name = await postgres_or_skip()
    storage = await open_storage(url)
    heard: list[tuple[int, int]] = []
    try:
        await storage.watch_changes(lambda table, version: heard.append((table, version)))  # type: ignore[attr-defined]
        # The server ends the listening connection (a restart, a network cut).
        admin = await asyncpg.connect(url)
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"
        )
        for _ in range(100):
            if (0, 0) in heard:
                break
            await asyncio.sleep(0.05)
        assert (0, 0) in heard, "listening again, it says any table may have changed"
        await admin.execute("SELECT pg_notify('poeppel_tables', '5:9')")
        await admin.close()
        for _ in range(100):
            if (5, 9) in heard:
                break
            await asyncio.sleep(0.05)
        assert (5, 9) in heard
    finally:
        await storage.close()
        await drop_postgres_database(name)
