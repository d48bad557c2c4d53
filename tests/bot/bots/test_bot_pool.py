"""Bot moves in worker processes: the same moves as in this process, in a fair order, and no
worker left behind when the bot process ends or dies."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from bot.bots.choosers import engine_move
from bot.bots.pool import BotPool, machine_cores
from bot.settings import Settings
from engine import get_game
from tests.bot.test_two_processes import process_env
from tests.fakediscord.server import FakeDiscord

ROOT = str(Path(__file__).resolve().parents[3])
#: A hard search capped by worlds, with time to spare: deterministic for its seed.
ITERATIONS = 4
BUDGET = 60.0


def positions(game: str, players: int, count: int) -> list[tuple[dict[str, Any], list[str]]]:
    """``count`` (view, legal moves) pairs of the seats to act along a seeded game."""
    module = get_game(game)
    state = module.new_game(players, {}, 5)
    found = []
    for ply in range(count * 3):
        seats = sorted(module.seats_to_act(state))
        if not seats:
            break
        seat = seats[0]
        legal = [str(m) for m in module.legal_moves(state, seat)]
        if ply % 3 == 0:
            found.append((dict(module.view(state, seat)), legal))
        state = module.apply(state, legal[(ply * 7) % len(legal)], seat)
    return found[:count]


@pytest.fixture(scope="module")
def pool_positions() -> list[tuple[str, dict[str, Any], list[str]]]:
    return [
        (game, view, legal)
        for game, players in (("tock", 4), ("dog", 4), ("carcassonne", 2))
        for view, legal in positions(game, players, 3)
    ]


async def test_the_pool_plays_the_moves_of_the_in_process_bot(
    pool_positions: list[tuple[str, dict[str, Any], list[str]]],
) -> None:
    async with BotPool(2, time_budget=BUDGET, iterations=ITERATIONS, nice=0) as pool:
        for level in ("easy", "normal", "hard"):
            for number, (game, view, legal) in enumerate(pool_positions):
                seed = 1000 + number
                here = engine_move(game, view, level, legal, seed, BUDGET, ITERATIONS)
                there = await pool(game, view, level, legal, seed)
                assert there == here, (game, level, number)
                # And the same again: a move depends on the view and the seed only.
                assert await pool(game, view, level, legal, seed) == here


async def test_quick_bots_do_not_wait_behind_a_hard_search() -> None:
    (view, legal), *_ = positions("tock", 4, 1)
    finished: list[str] = []

    async def move(level: str) -> None:
        await pool("tock", view, level, legal, 3)
        finished.append(level)

    # One search worker, busy with a long search (no cap: its whole CPU budget).
    async with BotPool(1, time_budget=2.0, nice=0) as pool:
        search = asyncio.create_task(move("hard"))
        await asyncio.sleep(0.2)
        await asyncio.gather(move("normal"), move("easy"), search)
    assert finished[-1] == "hard", finished


async def test_searches_are_served_in_the_order_they_were_asked() -> None:
    (view, legal), *_ = positions("tock", 4, 1)
    order: list[int] = []

    async def table(number: int) -> None:
        await pool("tock", view, "hard", legal, number)
        order.append(number)

    async with BotPool(1, time_budget=0.2, nice=0) as pool:
        tasks = []
        for number in range(5):
            tasks.append(asyncio.create_task(table(number)))
            await asyncio.sleep(0)  # each table asks in turn
        await asyncio.gather(*tasks)
    assert order == [0, 1, 2, 3, 4]


async def test_a_worker_that_died_is_replaced_and_the_move_still_played() -> None:
    (view, legal), *_ = positions("tock", 4, 1)
    expected = engine_move("tock", view, "hard", legal, 9, BUDGET, ITERATIONS)
    pool = BotPool(1, time_budget=BUDGET, iterations=ITERATIONS, nice=0)
    await pool.start(searches=True)  # the search worker too, to be killed
    try:
        before = pool.worker_pids()
        assert len(before) == 2
        for pid in before:  # killed: out of memory, or by a careless operator
            # A worker the executor has just retired is no longer there to kill.
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        assert await _gone(before) == []
        assert await pool("tock", view, "hard", legal, 9) == expected
        assert await pool("tock", view, "normal", legal, 9) == engine_move(
            "tock", view, "normal", legal, 9
        )
        assert not set(pool.worker_pids()) & set(before)
    finally:
        await pool.close()


async def test_search_workers_run_only_while_there_are_searches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import bot.bots.pool as pool_module

    monkeypatch.setattr(pool_module, "SEARCH_IDLE_SECONDS", 0.2)
    (view, legal), *_ = positions("tock", 4, 1)
    expected = engine_move("tock", view, "hard", legal, 9, BUDGET, ITERATIONS)
    async with BotPool(2, time_budget=BUDGET, iterations=ITERATIONS, nice=0) as pool:
        quick = pool.worker_pids()
        assert len(quick) == 1  # at rest: the quick worker only
        assert await pool("tock", view, "easy", legal, 9) == engine_move(
            "tock", view, "easy", legal, 9
        )
        assert pool.worker_pids() == quick  # easy bots start no search worker
        assert await pool("tock", view, "hard", legal, 9) == expected
        searching = set(pool.worker_pids()) - set(quick)
        assert len(searching) == 1  # one search, one worker started for it
        assert await _gone(list(searching)) == []  # idle: stopped
        assert pool.worker_pids() == quick
        assert await pool("tock", view, "hard", legal, 9) == expected  # and started again
        assert len(pool.worker_pids()) == 2


def _has_library(pid: int, name: str) -> bool:
    """Whether the process ``pid`` has loaded a shared library whose file name holds ``name``."""
    return name in Path(f"/proc/{pid}/maps").read_text()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
async def test_a_bot_worker_imports_neither_asyncio_nor_pillow() -> None:
    (view, legal), *_ = positions("tock", 4, 1)
    async with BotPool(1, time_budget=BUDGET, iterations=ITERATIONS, nice=0) as pool:
        await pool("tock", view, "hard", legal, 9)
        await pool.hint("tock", view, 9, BUDGET)
        pids = pool.worker_pids()
        assert len(pids) == 2
        for pid in pids:
            assert not _has_library(pid, "_asyncio."), pid
            assert not _has_library(pid, "PIL"), pid


def _managers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread"]


async def test_close_returns_once_every_manager_thread_closed_its_pipes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An executor's manager thread closes its wake-up pipe last; one still doing so when the
    # interpreter exits races concurrent.futures' exit hook, which writes to that pipe (at
    # SIGTERM: "Exception ignored … OSError: Bad file descriptor"). Here the closing is slow;
    # a worker dies first, so that a replaced executor's manager thread is waited for too.
    from concurrent.futures import process

    closing = process._ExecutorManagerThread.join_executor_internals

    def slow_close(self: object) -> None:
        time.sleep(0.3)  # the workers take a moment to go
        closing(self)  # type: ignore[arg-type]

    monkeypatch.setattr(process._ExecutorManagerThread, "join_executor_internals", slow_close)
    (view, legal), *_ = positions("tock", 4, 1)
    async with BotPool(1, time_budget=BUDGET, iterations=ITERATIONS, nice=0) as pool:
        before = pool.worker_pids()
        for pid in before:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        assert await _gone(before) == []
        await pool("tock", view, "hard", legal, 9)
        assert _managers(), "the pool runs its executors' manager threads"
    assert not [t for t in _managers() if t.is_alive()]


# --- real processes ----------------------------------------------------------------------------


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not count: it has ended)."""
    try:
        status = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):  # ESRCH: reaped while being read
        return False
    return status.rsplit(")", 1)[1].split()[0] != "Z"


async def _gone(pids: list[int], limit: float = 20.0) -> list[int]:
    """The pids still alive after waiting up to ``limit`` seconds for them to end."""
    deadline = time.monotonic() + limit
    alive = [p for p in pids if _alive(p)]
    while alive and time.monotonic() < deadline:
        await asyncio.sleep(0.05)  # another process's state: nothing to wait on but time
        alive = [p for p in alive if _alive(p)]
    return alive


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except (FileNotFoundError, ProcessLookupError):
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


POOL_OWNER = textwrap.dedent(
    """
    import asyncio, sys
    from bot.bots.pool import BotPool

    async def main():
        async with BotPool(2, nice=0) as pool:
            await pool.start(searches=True)
            print(" ".join(map(str, pool.worker_pids())), flush=True)
            await asyncio.sleep(600)

    if __name__ == "__main__":
        asyncio.run(main())
    """
)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
async def test_workers_end_when_the_process_that_started_them_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "owner.py"
    script.write_text(POOL_OWNER)
    owner = await asyncio.create_subprocess_exec(
        sys.executable,
        str(script),
        stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": ROOT},
    )
    assert owner.stdout is not None
    line = await asyncio.wait_for(owner.stdout.readline(), 120)
    pids = [int(pid) for pid in line.split()]
    assert len(pids) == 3  # two search workers and the quick one
    assert all(_alive(pid) for pid in pids)
    owner.send_signal(signal.SIGKILL)  # a crash: no clean-up runs
    await owner.wait()
    assert await _gone(pids) == []


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.timeout(240)
async def test_the_bot_process_leaves_no_worker_behind(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        env = process_env(fake, f"sqlite:///{tmp_path / 'tables.sqlite3'}")
        env["BOT_WORKERS"] = "2"
        for ending in (signal.SIGTERM, signal.SIGKILL):
            with (tmp_path / "bot.log").open("ab") as log:
                bot = await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "bot.cli",
                    "run",
                    env=env,
                    cwd=tmp_path,
                    stdout=log,
                    stderr=log,
                )
            connected = len(fake.gateway.log) + 1
            deadline = time.monotonic() + 120
            # Connected to Discord, with its quick bot worker and a render worker (and
            # multiprocessing's resource tracker); the search workers start with a search.
            while len(fake.gateway.log) < connected or len(children(bot.pid)) < 3:
                assert bot.returncode is None, (tmp_path / "bot.log").read_text()
                assert time.monotonic() < deadline, (tmp_path / "bot.log").read_text()
                await asyncio.sleep(0.1)
            workers = children(bot.pid)
            bot.send_signal(ending)
            status = await asyncio.wait_for(bot.wait(), 60)
            if ending == signal.SIGTERM:
                assert status == 0, (tmp_path / "bot.log").read_text()
            assert await _gone(workers) == [], f"orphans after {ending.name}"
    output = (tmp_path / "bot.log").read_text()
    assert "Traceback" not in output, output


def test_the_bot_workers_are_set_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BOT_WORKERS", "BOT_TIME_BUDGET", "BOT_WORKER_NICE"):
        monkeypatch.delenv(name, raising=False)
    default = Settings(_env_file=None)  # type: ignore[call-arg]
    assert (default.bot_workers, default.bot_time_budget, default.bot_worker_nice) == (None, 1, 10)
    assert BotPool(default.bot_workers).workers == machine_cores()
    monkeypatch.setenv("BOT_WORKERS", "3")
    monkeypatch.setenv("BOT_TIME_BUDGET", "0.5")
    chosen = Settings(_env_file=None)  # type: ignore[call-arg]
    assert (chosen.bot_workers, chosen.bot_time_budget) == (3, 0.5)
    monkeypatch.setenv("BOT_WORKERS", "0")
    with pytest.raises(ValidationError, match="BOT_WORKERS"):
        Settings(_env_file=None)  # type: ignore[call-arg]


async def test_a_hint_is_searched_in_a_worker_and_is_the_in_process_hint(
    pool_positions: list[tuple[str, dict[str, Any], list[str]]],
) -> None:
    from engine.bots.hints import hint

    async with BotPool(1, time_budget=BUDGET, iterations=ITERATIONS, nice=0) as pool:
        for number, (game, view, _legal) in enumerate(pool_positions[::3]):
            here = hint(game, view, seed=number, time_budget=BUDGET, iterations=ITERATIONS)
            assert await pool.hint(game, view, number, BUDGET) == here, game


async def test_the_service_asks_the_pool_for_hints_when_its_bots_play_there() -> None:
    from bot.service import TableService
    from bot.storage import open_storage

    asked: list[str] = []

    class Pool:
        async def __call__(self, *args: Any) -> str:
            raise AssertionError("no bot plays at this table")

        async def hint(self, game: str, view: Any, seed: int, budget: float) -> Any:
            from engine.bots.hints import hint

            asked.append(game)
            return hint(game, view, seed=seed, time_budget=budget, iterations=ITERATIONS)

    storage = await open_storage(":memory:")
    service = TableService(storage, choose_bot_move=Pool())
    created = await service.create(1, 1, "tock", 1, "P1", players=2, hints=True, seed=5)
    await service.join(created.table.id, 2, "P2")
    await service.start_game(created.table.id, 1)
    view = await service.public_view(created.table.id)
    table = await service.get(created.table.id)
    user = next(s.user_id for s in table.seats if s.index == view["to_act"][0])
    assert user is not None
    found = await service.hint(created.table.id, user)
    await storage.close()
    assert asked == ["tock"]  # the search ran where the pool put it, not in a thread here
    assert found.move in (await service.private_info(created.table.id, user)).legal_moves
