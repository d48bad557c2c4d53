"""A bot process killed (SIGKILL) between committing a move and posting its board: the next
process posts the board by itself, on start, and exactly one board carries the controls.

The bot is a real ``python -m bot.cli run`` process over PostgreSQL, talking to the fake
Discord of this process (as in :mod:`tests.bot.test_two_processes`). The fake holds the
bot's first post after alice's move — the move is committed by then — and the test kills the
process while it waits. Nobody types a command afterwards.

``python -m bench.kills`` repeats it 30 times and prints how often the thread's newest board
matched the stored game within one retry tick of the restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import statistics
import time
from pathlib import Path

import pytest

from bot.discord_ui.app import open_service
from bot.discord_ui.rendering import Renderer
from tests.bot.discord.driving import Stats, play_race_turn
from tests.bot.test_two_processes import (  # noqa: F401 (postgres_url is a fixture)
    STEP_LIMIT,
    BotProcess,
    Game,
    ProcessWorld,
    board_version,
    check_log,
    guild_on_shard,
    identified,
    make_world,
    postgres_url,
    process_env,
    until,
)
from tests.fakediscord.faults import Fault
from tests.fakediscord.server import FakeDiscord

#: The bot's retry tick in these processes (seconds): the default of BOARD_RETRY_SECONDS. A
#: board back sooner than this after the restart was posted by the start-up pass.
RETRY_SECONDS = 15.0


def boards_with_controls(world: ProcessWorld, thread: object) -> list[int]:
    """The versions of the boards in the thread that carry controls."""
    return [board_version(m) for m in world.boards(thread) if m.buttons]  # type: ignore[arg-type]


async def kill_once(
    fake: FakeDiscord, world: ProcessWorld, process: BotProcess, game: Game, rng: random.Random
) -> float:
    """Alice moves, the bot is killed while its post hangs, and a new process starts; return
    the seconds from its IDENTIFY until the thread showed the stored game."""
    storage = world.desk.service.storage  # type: ignore[union-attr]
    thread = game.thread()
    before = await storage.load_table(game.table_id)
    hold = asyncio.Event()
    fired = len(fake.faults.fired)
    stall = {"message": "stalled", "code": 0}
    # The thread's new public messages, on its route or as a click's follow-up.
    fake.inject_fault(Fault("POST", "*", 503, stall, hold=hold, only=fake.posts_in(thread.id)))
    turn = asyncio.create_task(
        play_race_turn(world, game.table_id, world.alice, thread, rng, Stats())
    )
    await until(
        lambda: len(fake.faults.fired) > fired or turn.done(),
        "the bot posting after the move",
        [process],
        STEP_LIMIT,
    )
    await process.kill()
    hold.set()
    turn.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await turn
    fake.faults.pending.clear()
    stored = await storage.load_table(game.table_id)
    assert stored.version > before.version, "the move was committed before the post"

    starts = identified(fake, 0)
    await process.start()
    await until(lambda: identified(fake, 0) > starts, "identified again", [process])
    ready = time.monotonic()
    await until(
        lambda: boards_with_controls(world, thread) == [stored.version],
        "the newest board showing the stored game (and only it with controls)",
        [process],
        STEP_LIMIT,
    )
    return time.monotonic() - ready


async def kill_between_commit_and_post(
    database_url: str, tmp_path: Path, kills: int, retry_seconds: float = RETRY_SECONDS
) -> list[float]:
    """Kill the bot ``kills`` times between a commit and its post (:func:`kill_once`); return
    the recovery times. Then the game goes on from the recovered board."""
    recoveries: list[float] = []
    async with (
        FakeDiscord() as fake,
        open_service(database_url, renderer=Renderer()) as observer,
    ):
        fake.response_window = 15.0  # real processes on a busy machine
        world = make_world(fake, guild_on_shard(fake, 0, "Crashes"), observer, database_url, "k")
        env = {
            **process_env(fake, database_url),
            "BOARD_RETRY_SECONDS": str(retry_seconds),
            "LOG_LEVEL": "INFO",
        }
        process = BotProcess(0, env, tmp_path)
        storage = observer.service.storage
        try:
            await process.start()
            await until(lambda: identified(fake, 0) == 1, "the bot connected", [process])
            game = Game(world)
            await game.open()
            rng = random.Random(8)
            for _ in range(kills):
                if game.over():
                    break
                recoveries.append(await kill_once(fake, world, process, game, rng))
            # The game goes on from the recovered board, nobody having typed a command.
            version = game.version()
            if not game.over():
                await play_race_turn(world, game.table_id, world.alice, game.thread(), rng, Stats())
                await until(
                    lambda: game.over() or game.version() > version, "a board after", [process]
                )
            assert await process.stop() == 0
        finally:
            await process.stop()
        output = process.output()
        assert "Traceback" not in output, output
        record = await storage.load_table(game.table_id)
        assert record is not None
        check_log(record, await storage.load_log(game.table_id), set())
    return recoveries


def report(recoveries: list[float], retry_seconds: float = RETRY_SECONDS) -> str:
    """How often, and how fast, the newest board matched the stored game after a restart."""
    within = sum(1 for s in recoveries if s < retry_seconds)
    return (
        f"kills: {len(recoveries)}; newest board = stored game within one retry tick "
        f"({retry_seconds:g} s) of the restart: {within}/{len(recoveries)}; seconds from the new "
        f"process's IDENTIFY (discord.py is ready about 2 s later): median "
        f"{statistics.median(recoveries):.2f}, max {max(recoveries):.2f}"
    )


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.timeout(240)
async def test_a_board_lost_to_a_kill_between_commit_and_post_is_posted_on_restart(
    postgres_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    # With a retry tick far beyond the test's waits, a board that came back was posted by the
    # start-up pass of the new process (how fast is bench.kills' business, not a test's).
    recoveries = await kill_between_commit_and_post(
        postgres_url, tmp_path, kills=2, retry_seconds=3600
    )
    print(report(recoveries, retry_seconds=3600))
    assert len(recoveries) == 2
