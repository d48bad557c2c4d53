"""Every results post and channel notice exactly once, however a real bot process is killed.

A finished table is stored (its result and the posts it owes, in one transaction) by a table
service in this process, which posts nothing: as a bot process killed right after the commit
would leave it. Then a real ``python -m bot.cli run`` process (SQLite, and PostgreSQL) against
the fake Discord of this process sends those posts; it is killed with SIGKILL

- right after the commit (it never started sending),
- after Discord took the results post but before the bot heard so (the fake holds its answer),
  restarted within Discord's nonce window, and once more after it,
- after the posts were marked done,

and the test counts the results posts in the table's thread and the notices in its channel.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.bots.choosers import random_chooser
from bot.model.table import Phase
from bot.service import TableService
from bot.storage import open_storage
from tests.bot.test_two_processes import (  # noqa: F401 (postgres_url is a fixture)
    STEP_LIMIT,
    BotProcess,
    guild_on_shard,
    identified,
    postgres_url,
    process_env,
    until,
)
from tests.fakediscord.models import Channel
from tests.fakediscord.server import FakeDiscord


async def store_finished_table(url: str, guild_id: int, channel: Channel, thread: Channel) -> int:
    """A Carcassonne table of two bots played to the end and stored, with its thread; its
    final board counted as delivered (this test is about the posts after it)."""
    storage = await open_storage(url)
    try:
        service = TableService(storage, choose_bot_move=random_chooser, require_person=False)
        created = await service.create(
            guild_id, channel.id, "carcassonne", 1, "P1", players=2, seed=3, seat_host=False
        )
        table_id = created.table.id
        await storage.set_thread(table_id, thread.id)
        await service.add_bot(table_id, 1, "easy")
        await service.add_bot(table_id, 1, "easy")
        effects = await service.start_game(table_id, 1)
        assert effects.table.phase == Phase.FINISHED
        await storage.set_board(table_id, effects.table.version, None)
        assert len(await storage.pending_posts()) == 2  # the results post and the notice
    finally:
        await storage.close()
    return table_id


def results_posts(fake: FakeDiscord, thread: Channel, table_id: int) -> int:
    """The results posts in the thread (the messages with the results image)."""
    return sum(
        1
        for m in fake.messages(thread)
        if any(f.filename == f"results-{table_id}.png" for f in m.files)
    )


def notices(fake: FakeDiscord, channel: Channel) -> int:
    """The bot's messages in the table's channel (only the notice goes there)."""
    return sum(1 for m in fake.messages(channel) if m.author.id == fake.bot_user.id)


async def pending(url: str) -> int:
    """How many posts the database still owes."""
    storage = await open_storage(url)
    try:
        return len(await storage.pending_posts())
    finally:
        await storage.close()


async def all_sent(url: str, process: BotProcess) -> None:
    """Wait until the database owes no post."""
    deadline = asyncio.get_running_loop().time() + STEP_LIMIT
    while await pending(url):
        process.check_alive()
        assert asyncio.get_running_loop().time() < deadline, process.output()
        await asyncio.sleep(0.2)


async def restart(fake: FakeDiscord, process: BotProcess) -> None:
    """SIGKILL the process and start it again; return once it identified."""
    await process.kill()
    starts = identified(fake, 0)
    await process.start()
    await until(lambda: identified(fake, 0) > starts, "identified again", [process])


async def kill_at_each_step(url: str, tmp_path: Path, *, past_nonce_window: bool) -> None:
    async with FakeDiscord() as fake:
        fake.response_window = 15.0
        guild = guild_on_shard(fake, 0, "Kills")
        channel = fake.add_channel(guild, "games")
        thread = fake.add_thread(channel, "table")
        table_id = await store_finished_table(url, guild.id, channel, thread)
        env = {
            **process_env(fake, url),
            "BOARD_RETRY_SECONDS": "1",  # the flush of the outbox runs on these ticks
            "OUTBOX_LEASE_SECONDS": "2",  # a killed process's successor waits this long
            "LOG_LEVEL": "INFO",
        }
        process = BotProcess(0, env, tmp_path)
        # Discord takes the results post, but the bot is killed before it hears so.
        taken = asyncio.Event()
        fake.faults.stall_answer("POST", f"/channels/{thread.id}/messages", taken)
        try:
            # Killed right after the commit: the first process of this test never ran.
            await process.start()
            await until(
                lambda: results_posts(fake, thread, table_id) == 1,
                "the results post reaching the thread",
                [process],
                STEP_LIMIT,
            )
            await restart(fake, process)
            taken.set()
            if past_nonce_window:
                # Longer than Discord keeps the nonce: the bot must find its post by itself.
                fake.clock.advance(fake.nonce_window + 1)
            await all_sent(url, process)
            assert results_posts(fake, thread, table_id) == 1
            assert notices(fake, channel) == 1
            # Killed after the posts were marked done: nothing more goes out.
            await restart(fake, process)
            await asyncio.sleep(3)  # a few flushes (retry ticks of 1 s)
            assert await process.stop() == 0
        finally:
            taken.set()
            await process.stop()
        assert results_posts(fake, thread, table_id) == 1, process.output()
        assert notices(fake, channel) == 1, process.output()
        output = process.output()
        assert "Traceback" not in output, output
        if past_nonce_window:
            assert "was there already" in output, output


@pytest.mark.slow
@pytest.mark.timeout(240)
@pytest.mark.parametrize("past_nonce_window", [False, True], ids=["in-window", "past-window"])
async def test_results_posted_once_across_kills_on_sqlite(
    tmp_path: Path, past_nonce_window: bool
) -> None:
    url = f"sqlite:///{tmp_path / 'poeppel.sqlite3'}"
    await kill_at_each_step(url, tmp_path, past_nonce_window=past_nonce_window)


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.timeout(240)
@pytest.mark.parametrize("past_nonce_window", [False, True], ids=["in-window", "past-window"])
async def test_results_posted_once_across_kills_on_postgres(
    postgres_url: str,  # noqa: F811
    tmp_path: Path,
    past_nonce_window: bool,
) -> None:
    await kill_at_each_step(postgres_url, tmp_path, past_nonce_window=past_nonce_window)
