"""Every board and turn digest exactly once, however a real bot process is killed.

A real ``python -m bot.cli run`` process (SQLite, and PostgreSQL) plays Tock for alice against
a bot through the fake Discord of this process. After one of alice's turns the process is
killed with SIGKILL

- right after the commit, while Discord has not taken the turn's digest (the fake holds the
  post and then fails it),
- after Discord took the digest but before the bot heard so (the fake holds its answer), so
  the digest is in the thread but not recorded,
- after the digest was recorded,

and started again. Its retry tick is an hour: whatever the thread gets after the restart, the
start-up pass posted. After each restart the test counts every message of the bot in the thread:
each version's board shown by one message only, exactly one board with controls (the stored
version), and nothing posted at all after the third kill.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.bots.choosers import random_chooser
from bot.discord_ui.app import open_service
from bot.discord_ui.rendering import Renderer
from bot.model.table import Phase
from bot.service import TableService
from bot.storage import open_storage
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

BOARD_FILE = re.compile(r"^board-(\d+)-(\d+)\.png$")
#: The bot's retry tick by default (BOARD_RETRY_SECONDS): the longest two boards may show controls.
DEFAULT_RETRY_SECONDS = 15.0
#: Seconds a process holds the posting of a table's boards (its killed successor waits).
LEASE_SECONDS = 3


def shown_versions(world: ProcessWorld, thread: Any, table_id: int) -> list[int]:
    """The version each of the bot's messages in the thread shows (its newest board image),
    oldest message first; messages without a board image are left out."""
    versions = []
    for message in world.boards(thread):
        drawn = [
            int(m.group(2))
            for f in message.files
            if (m := BOARD_FILE.match(f.filename)) and int(m.group(1)) == table_id
        ]
        if drawn:
            versions.append(max(drawn))
    return versions


def with_controls(world: ProcessWorld, thread: Any) -> list[int]:
    """The versions of the bot's messages in the thread that carry controls."""
    return [board_version(m) for m in world.boards(thread) if m.buttons]


async def check_thread(
    world: ProcessWorld, thread: Any, table_id: int, stored: int, process: BotProcess
) -> None:
    """Each board once, and one board with controls, the stored version's, within one retry
    tick (a new board is posted before the old one's controls go: both have them while that
    edit is on its way)."""
    versions = shown_versions(world, thread, table_id)
    assert len(versions) == len(set(versions)), f"a board was posted twice: {versions}"
    await until(
        lambda: with_controls(world, thread) == [stored],
        "one board with controls, the stored version's",
        [process],
        DEFAULT_RETRY_SECONDS,
    )
    versions = shown_versions(world, thread, table_id)
    assert len(versions) == len(set(versions)), f"a board was posted twice: {versions}"


async def restart(fake: FakeDiscord, process: BotProcess) -> None:
    """Start the killed process again; return once it identified."""
    starts = identified(fake, 0)
    await process.start()
    await until(lambda: identified(fake, 0) > starts, "identified again", [process])


async def stored_version(world: ProcessWorld, table_id: int) -> int:
    storage = world.desk.service.storage  # type: ignore[union-attr]
    record = await storage.load_table(table_id)
    assert record is not None
    return int(record.version)


async def recorded_version(world: ProcessWorld, table_id: int) -> int:
    storage = world.desk.service.storage  # type: ignore[union-attr]
    board = await storage.load_board(table_id)
    assert board is not None
    return int(board[0])


async def alice_moves(
    world: ProcessWorld, game: Game, rng: random.Random, process: BotProcess, posted: Any
) -> asyncio.Task[None]:
    """Alice takes her turn; return once the bot's post of it reached ``posted()``."""
    stats = Stats()
    turn = asyncio.create_task(
        play_race_turn(world, game.table_id, world.alice, game.thread(), rng, stats)
    )
    # The driver may give up on a prompt that the stalled delivery could not refresh: what
    # matters here is that the move was stored and the bot began posting it.
    await until(posted, "the bot posting after the move", [process])
    return turn


async def drop(turn: asyncio.Task[None]) -> None:
    turn.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await turn


async def kill_at_each_step(url: str, tmp_path: Path) -> None:
    async with (
        FakeDiscord() as fake,
        open_service(url, renderer=Renderer()) as observer,
    ):
        fake.response_window = 15.0  # real processes on a busy machine
        observer.service.storage.single_writer = False  # the bot process writes it too
        world = make_world(fake, guild_on_shard(fake, 0, "Board kills"), observer, url, "b")
        env = {
            **process_env(fake, url),
            # The start-up pass alone must bring the boards back (no retry tick in the test).
            "BOARD_RETRY_SECONDS": "3600",
            "OUTBOX_LEASE_SECONDS": str(LEASE_SECONDS),
            "LOG_LEVEL": "INFO",
        }
        process = BotProcess(0, env, tmp_path)
        rng = random.Random(8)
        try:
            await process.start()
            await until(lambda: identified(fake, 0) == 1, "the bot connected", [process])
            game = Game(world)
            await game.open()
            thread = game.thread()
            # The thread's new public messages, on its route or as a click's follow-up.
            posts = fake.posts_in(thread.id)

            # 1. Killed after the commit: Discord never takes the turn's digest.
            before = await stored_version(world, game.table_id)
            hold = asyncio.Event()
            fired = len(fake.faults.fired)
            stall = {"message": "stalled", "code": 0}
            fake.inject_fault(Fault("POST", "*", 503, stall, hold=hold, only=posts))
            turn = await alice_moves(
                world, game, rng, process, lambda: len(fake.faults.fired) > fired
            )
            await process.kill()
            hold.set()
            await drop(turn)
            fake.faults.pending.clear()
            stored = await stored_version(world, game.table_id)
            assert stored > before, "the move was committed before the post"
            assert await recorded_version(world, game.table_id) < stored
            await restart(fake, process)
            await until(
                lambda: with_controls(world, thread) == [stored],
                "the stored game's board (the only one with controls)",
                [process],
                STEP_LIMIT,
            )
            await check_thread(world, thread, game.table_id, stored, process)

            # 2. Killed after Discord took the digest, before the bot heard so (and recorded).
            before = stored
            count = len(world.boards(thread))
            taken = asyncio.Event()
            fake.faults.stall_answer("POST", "*", taken, only=posts)
            turn = await alice_moves(
                world, game, rng, process, lambda: len(world.boards(thread)) > count
            )
            await process.kill()
            await drop(turn)
            stored = await stored_version(world, game.table_id)
            assert stored > before
            assert await recorded_version(world, game.table_id) < stored, "killed before"
            # The digest Discord took shows the stored game, unless alice's turn went on
            # (the parts of a 7) while its answer was held: then one board follows it.
            current = shown_versions(world, thread, game.table_id)[-1] == stored
            await restart(fake, process)
            taken.set()
            await until(
                lambda: with_controls(world, thread) == [stored],
                "the stored game's board (the only one with controls)",
                [process],
                STEP_LIMIT,
            )
            await check_thread(world, thread, game.table_id, stored, process)

            async def recorded() -> bool:
                return await recorded_version(world, game.table_id) == stored

            deadline = asyncio.get_running_loop().time() + STEP_LIMIT
            while not await recorded():
                process.check_alive()
                assert asyncio.get_running_loop().time() < deadline, process.output()
                await asyncio.sleep(0.2)
            expected = count + 1 if current else count + 2
            assert len(world.boards(thread)) == expected, "the digest was not posted again"

            # 3. Killed after the digest was recorded: the restart posts nothing.
            count = len(world.boards(thread))
            await process.kill()
            await restart(fake, process)
            await asyncio.sleep(LEASE_SECONDS + 3)  # the start-up pass has long run
            assert len(world.boards(thread)) == count
            await check_thread(world, thread, game.table_id, stored, process)

            # The game goes on from the recovered board.
            await game.play(1)
            await check_thread(
                world, thread, game.table_id, await stored_version(world, game.table_id), process
            )
            assert await process.stop() == 0
        finally:
            await process.stop()
        output = process.output()
        assert "Traceback" not in output, output
        storage = observer.service.storage
        record = await storage.load_table(game.table_id)
        assert record is not None
        check_log(record, await storage.load_log(game.table_id), set())


@pytest.mark.slow
@pytest.mark.timeout(300)
async def test_boards_posted_once_across_kills_on_sqlite(tmp_path: Path) -> None:
    await kill_at_each_step(f"sqlite:///{tmp_path / 'poeppel.sqlite3'}", tmp_path)


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.timeout(300)
async def test_boards_posted_once_across_kills_on_postgres(
    postgres_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    await kill_at_each_step(postgres_url, tmp_path)


async def store_finished_table(url: str, guild_id: int, channel: Any, thread: Any) -> int:
    """A Carcassonne table of two bots played to the end and stored with its thread, its
    results posts sent already and its last board owed: as a bot process killed right after
    the commit would leave it."""
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
        for item in await storage.pending_posts():  # this test is about the board only
            await storage.post_done(item.id, None)
    finally:
        await storage.close()
    return table_id


async def kill_the_last_board(url: str, tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        fake.response_window = 15.0
        guild = guild_on_shard(fake, 0, "Last board")
        channel = fake.add_channel(guild, "games")
        thread = fake.add_thread(channel, "table")
        table_id = await store_finished_table(url, guild.id, channel, thread)

        def boards() -> int:
            return sum(
                1
                for m in fake.messages(thread)
                if any(f.filename.startswith(f"board-{table_id}-") for f in m.files)
            )

        env = {
            **process_env(fake, url),
            "BOARD_RETRY_SECONDS": "3600",
            "OUTBOX_LEASE_SECONDS": str(LEASE_SECONDS),
            "LOG_LEVEL": "INFO",
        }
        process = BotProcess(0, env, tmp_path)
        taken = asyncio.Event()
        fake.faults.stall_answer("POST", f"/channels/{thread.id}/messages", taken)
        try:
            # The game's last board, owed: Discord takes it, the bot is killed before it hears.
            await process.start()
            await until(lambda: boards() == 1, "the last board reaching the thread", [process])
            await process.kill()
            taken.set()
            # Longer than Discord keeps the nonce: the bot must find its board by itself.
            fake.clock.advance(fake.nonce_window + 1)
            await restart(fake, process)
            storage = await open_storage(url)
            try:
                deadline = asyncio.get_running_loop().time() + STEP_LIMIT
                while (await storage.load_board(table_id) or (0, None))[0] == 0:
                    process.check_alive()
                    assert asyncio.get_running_loop().time() < deadline, process.output()
                    await asyncio.sleep(0.2)
                record = await storage.load_table(table_id)
                assert record is not None
                assert await storage.load_board(table_id) == (
                    record.version,
                    fake.messages(thread)[-1].id,
                )
            finally:
                await storage.close()
            assert boards() == 1, "the last board was found, not posted again"
            # Killed after it was recorded: nothing more goes out.
            await process.kill()
            await restart(fake, process)
            await asyncio.sleep(LEASE_SECONDS + 2)
            assert await process.stop() == 0
        finally:
            taken.set()
            await process.stop()
        assert boards() == 1, process.output()
        output = process.output()
        assert "Traceback" not in output, output


@pytest.mark.slow
@pytest.mark.timeout(240)
async def test_the_last_board_is_posted_once_across_kills_on_sqlite(tmp_path: Path) -> None:
    await kill_the_last_board(f"sqlite:///{tmp_path / 'poeppel.sqlite3'}", tmp_path)


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.timeout(240)
async def test_the_last_board_is_posted_once_across_kills_on_postgres(
    postgres_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    await kill_the_last_board(postgres_url, tmp_path)


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.timeout(300)
async def test_two_processes_on_one_shard_post_each_board_once(
    postgres_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    # A rolling restart: two processes own shard 0 at once, both get every click (one wins
    # it, and posts its digest), and both run a retry tick every second. Each board still goes
    # out once, and one board carries the controls: a process retires the board the other one
    # posted (recorded in the database), not only its own.
    async with (
        FakeDiscord() as fake,
        open_service(postgres_url, renderer=Renderer()) as observer,
    ):
        fake.response_window = 15.0
        world = make_world(fake, guild_on_shard(fake, 0, "Overlap"), observer, postgres_url, "o")
        env = {
            **process_env(fake, postgres_url),
            "BOARD_RETRY_SECONDS": "1",
            "OUTBOX_LEASE_SECONDS": str(LEASE_SECONDS),
            "LOG_LEVEL": "INFO",
        }
        first = BotProcess(0, env, tmp_path / "a")
        second = BotProcess(0, env, tmp_path / "b")
        for process in (first, second):
            process.workdir.mkdir()
        try:
            await first.start()
            await until(lambda: identified(fake, 0) == 1, "the first process", [first])
            game = Game(world)
            await game.open()  # (opening a table in two processes at once is not this test's)
            thread = game.thread()
            await second.start()
            await until(lambda: identified(fake, 0) == 2, "the second process", [second])
            await asyncio.sleep(3)  # its start-up pass ran
            for _ in range(6):
                await game.play(1)
                stored = await stored_version(world, game.table_id)
                await check_thread(world, thread, game.table_id, stored, first)
                if game.over():
                    break
            await asyncio.sleep(2)  # two more retry ticks of each process
            await check_thread(world, thread, game.table_id, stored, first)
            assert await first.stop() == 0
            assert await second.stop() == 0
        finally:
            await first.stop()
            await second.stop()
        for process in (first, second):
            assert "Traceback" not in process.output(), process.output()
