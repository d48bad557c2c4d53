"""Scaling out: two real bot processes, one shard each, over one PostgreSQL database.

The fake Discord runs in this process; the bots are ``python -m bot.cli run --shard-count 2
--shard-ids N`` subprocesses pointed at it. Scripted users play Tock against bots in a guild of
each shard at the same time; the process of shard 1 is killed (SIGKILL) mid-game and started
again. What users care about: no acknowledged move is lost, none is applied twice, both games go
on, and the slash commands are synced by one process only.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import random
import re
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.bots.choosers import random_chooser
from bot.discord_ui.app import open_service, syncs_commands
from bot.discord_ui.frontdesk import FrontDesk
from bot.discord_ui.rendering import Renderer
from bot.model.table import LogEntry, LogKind, StaleVersion, TableRecord
from bot.service import TableService
from bot.settings import Settings
from bot.storage import open_storage
from tests.bot.conftest import drop_postgres_database, postgres_database, require_postgres
from tests.bot.discord.conftest import World
from tests.bot.discord.driving import Stats, play_race_turn
from tests.bot.discord.test_lobby import open_table
from tests.fakediscord.models import Guild, Message
from tests.fakediscord.server import FakeDiscord

#: The checkout these tests belong to.
ROOT = Path(__file__).resolve().parents[2]
SHARD_COUNT = 2
#: Generous limits: the bots are real processes on a machine that may be busy.
START_LIMIT = 90.0
STEP_LIMIT = 45.0
VERSION_IN_ID = re.compile(r"^t:(\d+):v:(\d+):")


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    """A fresh PostgreSQL database for the test, dropped afterwards."""
    created = await postgres_database()
    if created is None:
        if require_postgres():
            pytest.fail("PostgreSQL at 127.0.0.1:5432 is required but unreachable")
        pytest.skip("no PostgreSQL server at 127.0.0.1:5432")
    url, name = created
    try:
        yield url
    finally:
        await drop_postgres_database(name)


# --- the bot processes ----------------------------------------------------------------------


@dataclass
class BotProcess:
    """One ``poeppel run`` process owning one shard, with its output in a log file."""

    shard: int
    env: dict[str, str]
    workdir: Path
    proc: asyncio.subprocess.Process | None = None
    starts: int = 0
    #: The file name of its log (two processes of one shard need two).
    name: str = ""

    @property
    def log_path(self) -> Path:
        return self.workdir / f"{self.name or f'shard{self.shard}'}.log"

    async def start(self) -> None:
        """Start the process (again): ``python -m bot.cli run`` for this shard."""
        self.starts += 1
        with self.log_path.open("ab") as log:
            log.write(f"--- start {self.starts}\n".encode())
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot.cli",
                "run",
                "--shard-count",
                str(SHARD_COUNT),
                "--shard-ids",
                str(self.shard),
                env=self.env,
                cwd=self.workdir,  # no stray .env of a developer is read
                stdout=log,
                stderr=log,
            )

    def check_alive(self) -> None:
        """Fail with the process's output if it exited."""
        if self.proc is not None and self.proc.returncode is not None:
            raise AssertionError(
                f"bot process of shard {self.shard} exited with {self.proc.returncode}:\n"
                + self.output()
            )

    def output(self) -> str:
        """The tail of what the process printed."""
        if not self.log_path.exists():
            return ""
        return self.log_path.read_text(errors="replace")[-4000:]

    async def kill(self) -> None:
        """SIGKILL: no clean-up at all, like a crashed machine."""
        assert self.proc is not None
        assert self.proc.returncode is None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()

    async def stop(self) -> int | None:
        """Ask the process to end (SIGTERM) and return its exit status; SIGKILL if it hangs."""
        if self.proc is None or self.proc.returncode is not None:
            return None
        self.proc.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(self.proc.wait(), 20)
        except TimeoutError:
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()
            return None


def process_env(fake: FakeDiscord, database_url: str) -> dict[str, str]:
    """The environment of both processes: the same one, as one ``.env`` would give."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "SHARD_", "SYNC_", "DEV_GUILD", "DATABASE_URL"))
    }
    env.update(
        DISCORD_TOKEN=fake.token,
        DATABASE_URL=database_url,
        DISCORD_API_BASE=fake.api_base,
        DISCORD_GATEWAY_URL=fake.ws_url,
        # Both ask to sync; only the process owning shard 0 may (see app.syncs_commands).
        SYNC_COMMANDS="true",
        LOG_LEVEL="WARNING",
        # The processes run from an empty folder: import the code under test (this checkout),
        # not whichever checkout the virtualenv was installed from.
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    return env


async def until(
    predicate: Callable[[], Any],
    what: str,
    processes: Sequence[BotProcess],
    limit: float = START_LIMIT,
) -> Any:
    """Poll ``predicate`` until true; fail early if a bot process died."""
    deadline = time.monotonic() + limit
    while not (value := predicate()):
        for process in processes:
            process.check_alive()
        if time.monotonic() > deadline:
            logs = "\n".join(p.output() for p in processes)
            raise TimeoutError(f"{what} not within {limit} s\n{logs}")
        await asyncio.sleep(0.05)
    return value


def identified(fake: FakeDiscord, shard: int) -> int:
    """How many times a process identified for ``shard``."""
    return fake.gateway.log.count(("IDENTIFY", shard))


def clicks_of(fake: FakeDiscord, user_id: int) -> list[int]:
    """The ids of the component interactions ``user_id`` made."""
    return [i.id for i in fake.interactions.values() if i.type == 3 and i.user.id == user_id]


def sync_requests(fake: FakeDiscord) -> list[str]:
    """The command-changing requests the bots made (syncs)."""
    return [
        f"{r.method} {r.path}" for r in fake.requests if "/commands" in r.path and r.method != "GET"
    ]


# --- the players ----------------------------------------------------------------------------


class ProcessWorld(World):
    """A guild of the fake with its players. The bot runs elsewhere: ``desk`` is only an
    observer over the same database, from which scripted players read their hand."""

    async def wait(self, predicate: Callable[[], Any], what: str = "", limit: float = 0) -> Any:
        return await super().wait(predicate, what, limit or STEP_LIMIT)


def guild_on_shard(fake: FakeDiscord, shard: int, name: str) -> Guild:
    """A new guild that Discord routes to ``shard`` (snowflakes alternate, so this is quick)."""
    while True:
        guild = fake.add_guild(name)
        if (guild.id >> 22) % SHARD_COUNT == shard:
            return guild


def board_version(board: Message) -> int:
    """The table version a board's "Show my hand" button carries."""
    for button in board.buttons:
        match = VERSION_IN_ID.match(str(button.get("custom_id", "")))
        if match:
            return int(match.group(2))
    raise AssertionError(f"no table control on {board.text!r}")


@dataclass
class Game:
    """A Tock table of alice against a bot in one guild, and what its players were shown."""

    world: ProcessWorld
    table_id: int = 0
    rng: random.Random = field(default_factory=lambda: random.Random(5))
    stats: Stats = field(default_factory=Stats)
    boards_seen: set[int] = field(default_factory=set)

    async def open(self) -> None:
        """Open the table, add an easy bot and start (all through Discord)."""
        self.table_id, _lobby = await open_table(self.world, "tock", players=2)
        await self.world.alice.click(self.world.lobby(self.table_id), label="Add bot")
        await self.world.alice.click(self.world.lobby(self.table_id), label="Start")
        thread = self.thread()
        board = await self.world.wait(lambda: self._newest(thread), what="(no first board)")
        self.boards_seen.add(board_version(board))

    def thread(self) -> Any:
        return self.world.thread_of(self.world.lobby(self.table_id))

    def _newest(self, thread: Any) -> Message | None:
        boards = [m for m in self.world.boards(thread) if m.buttons]
        return boards[-1] if boards else None

    def over(self) -> bool:
        boards = self.world.boards(self.thread())
        return bool(boards) and "Game over" in boards[-1].content

    async def play(self, turns: int) -> None:
        """Alice plays ``turns`` turns (the bot answers each); every board shown is noted."""
        thread = self.thread()
        for _ in range(turns):
            if self.over():
                return
            before = self.version()
            await play_race_turn(
                self.world, self.table_id, self.world.alice, thread, self.rng, self.stats
            )
            await self.world.wait(
                functools.partial(self._moved_on, before), what="(no board after the move)"
            )
            if not self.over():
                self.boards_seen.add(self.version())

    def _moved_on(self, before: int) -> bool:
        return self.over() or self.version() > before

    def version(self) -> int:
        """The version of the newest board with controls."""
        return board_version(self.world.newest_board(self.thread()))

    async def repost(self) -> None:
        """``/table board``: the stored position posted again, with controls."""
        thread = self.thread()
        last = self.world.boards(thread)[-1].id
        result = await self.world.alice.slash(
            self.world.channel, "table board", table=self.table_id, timeout=STEP_LIMIT
        )
        assert result.ephemeral, result
        board = await self.world.wait(
            lambda: (b := self.world.boards(thread)[-1]).id != last and b.buttons and b,
            what="(no board after /table board)",
        )
        self.boards_seen.add(board_version(board))


def make_world(
    fake: FakeDiscord, guild: Guild, desk: FrontDesk, url: str, tag: str
) -> ProcessWorld:
    channel = fake.add_channel(guild, "games")
    return ProcessWorld(
        fake=fake,
        guild=guild,
        channel=channel,
        alice=fake.add_user(f"alice{tag}", guild=guild),
        bob=fake.add_user(f"bob{tag}", guild=guild),
        carol=fake.add_user(f"carol{tag}", guild=guild, manage_threads=True),
        database_url=url,
        renderer=Renderer(),
        desk=desk,
    )


def check_log(record: TableRecord, log: Sequence[LogEntry], shown: set[int]) -> None:
    """Nothing lost, nothing twice: a gapless log whose versions strictly increase, matching
    the table row, and holding every version a board was shown for."""
    assert [e.index for e in log] == list(range(len(log)))
    versions = [e.version for e in log]
    assert versions == sorted(set(versions)), "a version was written twice or went back"
    assert record.log_length == len(log)
    assert log
    assert record.version == versions[-1]
    started = int(record.extra.get("started_version", 0))
    lost = {v for v in shown if v != started and v not in versions}
    assert not lost, f"boards were shown for versions missing from the database: {lost}"


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.timeout(240)
async def test_two_processes_share_the_guilds_and_survive_a_kill(
    postgres_url: str, tmp_path: Path
) -> None:
    async with (
        FakeDiscord() as fake,
        open_service(postgres_url, renderer=Renderer()) as observer,
    ):
        # Real processes on a busy machine may answer later than Discord's 3 s; that is not
        # what this test is about.
        fake.response_window = 15.0
        worlds = [
            make_world(
                fake,
                guild_on_shard(fake, shard, f"Shard {shard}"),
                observer,
                postgres_url,
                str(shard),
            )
            for shard in range(SHARD_COUNT)
        ]
        env = process_env(fake, postgres_url)
        processes = [BotProcess(shard, env, tmp_path) for shard in range(SHARD_COUNT)]
        try:
            await asyncio.gather(*(p.start() for p in processes))
            await until(
                lambda: fake.global_commands and all(identified(fake, s) for s in range(2)),
                "both shards connected and the commands synced",
                processes,
            )
            games = [Game(world) for world in worlds]
            await asyncio.gather(*(g.open() for g in games))
            await asyncio.gather(*(g.play(3) for g in games))

            # Shard 1's process dies in the middle of alice's turn (a click of hers has just
            # reached it), while shard 0's guild is in the middle of its turns too.
            zero_playing = asyncio.create_task(games[0].play(4))
            alice = games[1].world.alice
            clicks = len(clicks_of(fake, alice.id))
            one_playing = asyncio.create_task(games[1].play(1))
            await until(
                lambda: len(clicks_of(fake, alice.id)) >= clicks + 3 or one_playing.done(),
                "alice in the middle of her turn",
                processes,
            )
            await processes[1].kill()
            one_playing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await one_playing  # (a real failure of the turn before the kill is raised)
            await zero_playing
            assert games[0].stats.turns >= 7 or games[0].over()

            await processes[1].start()
            await until(lambda: identified(fake, 1) == 2, "shard 1 identified again", processes)
            # The move in flight may or may not have been stored (and its board not posted):
            # /table board shows the stored state with fresh controls.
            await games[1].repost()
            before_restart = games[1].version()
            zero_before = games[0].version()
            await asyncio.gather(*(g.play(3) for g in games))
            assert games[1].version() > before_restart or games[1].over(), "shard 1's guild plays"
            assert games[0].version() > zero_before or games[0].over(), "shard 0's guild plays"
            assert games[1].stats.turns >= 6 or games[1].over()
            # SIGTERM (docker stop, systemctl stop) ends both processes cleanly.
            assert await asyncio.gather(*(p.stop() for p in processes)) == [0, 0]
        finally:
            await asyncio.gather(*(p.stop() for p in processes))

        for process in processes:
            output = process.output()
            assert "Traceback" not in output, output
            assert " ERROR " not in output, output
        # One process synced, once: the process of shard 1 started twice and never did.
        assert len(sync_requests(fake)) == 1, sync_requests(fake)
        assert {c["name"] for c in fake.global_commands} >= {"tock", "table"}
        assert not fake.unknown_routes, fake.unknown_routes

        storage = observer.service.storage
        for game in games:
            record = await storage.load_table(game.table_id)
            assert record is not None
            log = await storage.load_log(game.table_id)
            check_log(record, log, game.boards_seen)
            alice_moves = [e for e in log if e.seat == 0 and e.kind == LogKind.MOVE]
            assert len(alice_moves) >= game.stats.turns
        # A fresh service replays each whole log through the engine: a move applied twice
        # would be illegal on replay.
        async with open_service(postgres_url) as fresh:
            for game in games:
                info = await fresh.service.private_info(game.table_id, game.world.alice.id)
                assert info.view is not None


# --- the version guard across processes -----------------------------------------------------


class HeldCommits:
    """A storage whose commits wait for a signal: lets two processes judge the same turn
    before either writes, which is the hand-over race the version guards against."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.holding = False  # set once both services are where the race begins
        self.reached = asyncio.Event()
        self.release = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def commit(self, *args: Any, **kwargs: Any) -> bool:
        if self.holding:
            self.reached.set()
            await self.release.wait()
        return bool(await self.inner.commit(*args, **kwargs))


@pytest.mark.postgres
async def test_version_guards_a_turn_served_by_two_processes(postgres_url: str) -> None:
    alice = 11
    first = await open_storage(postgres_url)
    second = await open_storage(postgres_url)
    try:
        held_old, held_new = HeldCommits(first), HeldCommits(second)
        old = TableService(held_old, choose_bot_move=random_chooser)  # type: ignore[arg-type]
        new = TableService(held_new, choose_bot_move=random_chooser)  # type: ignore[arg-type]
        created = await old.create(1 << 22, 7, "tock", alice, "alice", players=2, seed=3)
        table_id = created.table.id
        await old.add_bot(table_id, alice, "easy")
        await old.start_game(table_id, alice)
        info = await new.private_info(table_id, alice)
        assert info.to_act
        assert info.legal_moves
        version = info.table.version
        moves = [info.legal_moves[0], info.legal_moves[-1]]

        held_old.holding = held_new.holding = True
        tasks = [
            asyncio.create_task(service.act(table_id, alice, move, version))
            for service, move in zip((old, new), moves, strict=True)
        ]
        # Both judged the move legal on the same version before either wrote.
        await asyncio.wait_for(asyncio.gather(held_old.reached.wait(), held_new.reached.wait()), 20)
        held_old.release.set()
        held_new.release.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)

        refused = [r for r in results if isinstance(r, BaseException)]
        applied = [r for r in results if not isinstance(r, BaseException)]
        assert len(applied) == 1, results
        assert len(refused) == 1, results
        assert isinstance(refused[0], StaleVersion)
        log = await first.load_log(table_id)
        mine = [e for e in log if e.seat == 0 and e.kind == LogKind.MOVE and e.version > version]
        assert len(mine) == 1, "the turn was played exactly once"
        assert mine[0].text in moves
        record = await first.load_table(table_id)
        assert record is not None
        check_log(record, log, set())
    finally:
        await first.close()
        await second.close()


def env_settings(*, sync: bool = False, dev_guild: int | None = None) -> Settings:
    """Settings as a shared environment gives them (nothing read from this machine's)."""
    return Settings(_env_file=None, SYNC_COMMANDS=sync, DEV_GUILD_ID=dev_guild)  # type: ignore[call-arg]


def test_only_the_process_of_shard_0_syncs_what_the_environment_asks() -> None:
    shared = env_settings(sync=True)  # one .env for every process
    assert syncs_commands(shared, sync_flag=False, shard_ids=[0])
    assert syncs_commands(shared, sync_flag=False, shard_ids=None)  # all shards: one process
    assert not syncs_commands(shared, sync_flag=False, shard_ids=[1, 2])
    dev = env_settings(dev_guild=42)
    assert syncs_commands(dev, sync_flag=False, shard_ids=[0, 1])
    assert not syncs_commands(dev, sync_flag=False, shard_ids=[2, 3])
    # An explicit --sync-commands is obeyed whatever the shards; nothing asked, nothing synced.
    assert syncs_commands(env_settings(), sync_flag=True, shard_ids=[3])
    assert not syncs_commands(env_settings(), sync_flag=False, shard_ids=[0])
