"""A rolling restart: two real ``poeppel run`` processes on one shard, over one PostgreSQL
database, both getting every event of the guild, while a Tock and a Carcassonne table run
their 60 s turn clocks and nobody at them moves.

What the players see in the thread: each turn gets exactly one half-time reminder, never
before half the turn time, and exactly one timeout (its automatic action, said once), whichever
process acts, while the two overlap and after the old one stops.

The turn clocks run at ``TURN_TIME_SCALE`` (a setting for tests: the tables offer, store and
show their 60 s; the clocks of both processes run a fifth of it), so the claim's two minutes
of overlap take 24 s.
"""

from __future__ import annotations

import asyncio
import bisect
import datetime as dt
import os
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.discord_ui.app import open_service
from bot.discord_ui.rendering import Renderer
from bot.model.table import LogKind
from tests.bot.discord.test_lobby import open_table
from tests.bot.test_two_processes import (
    START_LIMIT,
    BotProcess,
    guild_on_shard,
    identified,
    make_world,
    postgres_url,  # noqa: F401 - the fixture
    process_env,
    until,
)
from tests.fakediscord.server import FakeDiscord

#: A table's turn time as its players chose it, and how fast the processes' clocks run it
#: (OVERLAP_TURN_TIME_SCALE=1 runs the whole two minutes, by hand).
TURN = 60
SCALE = float(os.environ.get("OVERLAP_TURN_TIME_SCALE", "0.2"))
#: The claim: two processes overlap for two minutes of these turn clocks.
OVERLAP = 120 * SCALE
REMINDER = "Half the turn time is gone"
TIMEOUTS = ("did not act in time", "ran out of time too often")


def posted_at(timestamp: str) -> float:
    """A fake Discord message's timestamp as wall time."""
    return dt.datetime.fromisoformat(timestamp).timestamp()


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.timeout(int(120 + 900 * SCALE))
async def test_two_processes_on_one_shard_remind_and_time_out_each_turn_once(
    postgres_url: str,  # noqa: F811 - the fixture
    tmp_path: Path,
) -> None:
    async with (
        FakeDiscord() as fake,
        open_service(postgres_url, renderer=Renderer()) as observer,
    ):
        fake.response_window = 15.0  # real processes on a busy machine; not what this is about
        world = make_world(fake, guild_on_shard(fake, 0, "Overlap"), observer, postgres_url, "")
        env = {**process_env(fake, postgres_url), "TURN_TIME_SCALE": str(SCALE)}
        old = BotProcess(0, env, tmp_path, name="old")
        new = BotProcess(0, {**env, "SYNC_COMMANDS": "false"}, tmp_path, name="new")
        processes = [old, new]
        storage = observer.service.storage
        deadlines: dict[int, set[float]] = {}
        running = [old]
        threads: dict[int, Any] = {}
        try:
            await old.start()
            await until(
                lambda: fake.global_commands and identified(fake, 0),
                "the old process connected and the commands synced",
                processes,
            )
            tables = []
            for game in ("tock", "carcassonne"):
                # Three people: nobody times out three turns in a row (and leaves) meanwhile.
                table_id, lobby = await open_table(world, game, players=3, turn_time=TURN)
                await world.bob.click(lobby, label="Join")
                await world.carol.click(world.lobby(table_id), label="Join")
                await world.alice.click(world.lobby(table_id), label="Start")
                tables.append(table_id)
                deadlines[table_id] = set()
                threads[table_id] = world.thread_of(world.lobby(table_id))

            async def watch(seconds: float) -> None:
                """Note every deadline the tables' clocks run to (polled from storage)."""
                end = time.monotonic() + seconds
                while time.monotonic() < end:
                    for process in running:
                        process.check_alive()
                    for table_id in tables:
                        record = await storage.load_table(table_id)
                        assert record is not None
                        if record.deadline is not None:
                            deadlines[table_id].add(record.deadline)
                    await asyncio.sleep(0.1)

            # The new process of the rolling restart connects to the same shard.
            await new.start()
            running.append(new)
            starting = asyncio.create_task(watch(START_LIMIT))
            await until(lambda: identified(fake, 0) == 2, "the new process connected", processes)
            starting.cancel()
            watching = asyncio.create_task(watch(OVERLAP))
            # The people only look meanwhile: every command reaches both processes, and is
            # answered once, by the one whose acknowledgement Discord took.
            for table_id in tables:
                choices = await world.alice.autocomplete(world.channel, "table status", "table", "")
                assert table_id in [c["value"] for c in choices], choices
                status = await world.alice.slash(
                    world.channel, "table status", table=table_id, wait=False
                )
                await until(lambda: "alice" in status.text, "the status", processes)  # noqa: B023
                await status.settled()
                assert len(status.messages) == 1, status.messages
            await watching
            # The old process stops; the new one goes on alone for a turn.
            running.remove(old)
            assert await old.stop() == 0
            await watch(TURN * SCALE + 2)
            watched_until = time.time()
            assert await new.stop() == 0
        finally:
            await asyncio.gather(*(p.stop() for p in processes))

        for process in processes:
            output = process.output()
            assert "Traceback" not in output, output
            assert " ERROR " not in output, output

        half = TURN * SCALE / 2
        for table_id in tables:
            said = world.boards(threads[table_id])
            # The turns that ran out while we watched, with time to have said so.
            ended = sorted(d for d in deadlines[table_id] if d < watched_until - 3)
            assert len(ended) >= 3, f"table {table_id}: only {len(ended)} turns ran out"
            every = sorted(deadlines[table_id])
            reminders: Counter[float] = Counter()
            for message in said:
                if REMINDER not in message.text:
                    continue
                when = posted_at(message.timestamp)
                later = bisect.bisect_right(every, when)
                if later == len(every):
                    continue  # for a turn that began as we stopped watching
                turn = every[later]  # the deadline it was for
                assert when >= turn - half, f"a reminder {turn - when:.1f} s before the deadline"
                reminders[turn] += 1
            assert [reminders[d] for d in ended] == [1] * len(ended), (table_id, reminders)
            timeouts = sum(m.text.count(words) for m in said for words in TIMEOUTS)
            log = await storage.load_log(table_id)
            autos = [e for e in log if e.kind == LogKind.AUTO]
            # One automatic action per turn that ran out (and maybe the one of a turn that ran
            # out as we stopped watching), each said once in the thread.
            assert len(ended) <= len(autos) <= len(ended) + 1, (len(ended), len(autos))
            assert timeouts == len(autos), [m.text for m in said]
