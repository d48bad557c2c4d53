"""Drive many tables at once through the table service and print act latency.

    python -m bench.service [--tables 200] [--acts 20] [--think 2.0] [--no-render]
                            [--render-in pool|thread|process] [--gc tuned|default]

Each table has one person and bots (Tock 4, Dog 4 and Carcassonne 2 in turn), over SQLite on
disk. A person thinks for a random time (uniform, mean ``--think`` seconds, default 2), then
acts; the latency of an act is the time ``service.act`` takes, which includes the bot turns
that follow and their commit. With the renderer, the turn digest's board of every act (the
person's move and the bots' after it, numbered) is drawn in the background as the Discord front
end does, once per digest, and its latency from the ask is printed too (issue 30: p99 <= 500 ms
at 200 tables). Bots play a
seeded random legal move here, so the figures measure the service, not bot search.

``--gc tuned`` (the default) calls :func:`bot.gc_tuning.tune_gc` after start-up as the bot's
entry points do; ``--gc default`` keeps CPython's settings, for comparison. The collector's
pauses during the run are counted and printed per generation. ``--render-in pool`` (the
default) draws as the running bot does, in its :class:`~bot.discord_ui.render_pool.RenderPool`
(warm workers, only a table's newest waiting board drawn: a skipped board is counted, not
timed); ``process`` in a plain process pool of two, ``thread`` in a thread of the process
(what the bot did before the pool). The load average is printed before and after: the
machine may be shared, and the figures mean little without it.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path
from typing import Any

from bot.bots.choosers import random_chooser
from bot.bots.pool import machine_cores
from bot.discord_ui.render_pool import RenderPool, Stale, render_workers
from bot.gc_tuning import tune_gc, untune_gc
from bot.model.effects import digest_view
from bot.service import Phase, TableService
from bot.storage import open_storage

GAMES: tuple[tuple[str, int], ...] = (("tock", 4), ("dog", 4), ("carcassonne", 2))


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class GcPauses:
    """Counts the collector's stop-the-world pauses per generation (``gc.callbacks``)."""

    def __init__(self) -> None:
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses[info["generation"]].append(time.perf_counter() - self._started)

    def report(self) -> str:
        parts = []
        for generation, pauses in self.pauses.items():
            if pauses:
                parts.append(
                    f"gen{generation} {len(pauses)}x, total {1000 * sum(pauses):.0f} ms, "
                    f"max {1000 * max(pauses):.1f} ms"
                )
            else:
                parts.append(f"gen{generation} 0x")
        return "; ".join(parts)


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of process ``pid`` so far, from ``/proc`` (0 when gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} cores)"


def _renderer() -> Callable[[Mapping[str, Any]], bytes] | None:
    try:
        return getattr(importlib.import_module("renderer"), "render_board", None)
    except ImportError:
        return None


async def _open(service: TableService, index: int) -> int:
    """Open and start table ``index``; return its id."""
    game, players = GAMES[index % len(GAMES)]
    user = 1_000 + index
    created = await service.create(
        1 + index % 7, 10 + index % 13, game, user, f"P{index}", players=players, seed=index
    )
    table_id = created.table.id
    for _ in range(players - 1):
        await service.add_bot(table_id, user, "easy")
    await service.start_game(table_id, user)
    return table_id


async def _draw(
    table_id: int,
    view: Mapping[str, Any],
    render: Callable[[Mapping[str, Any]], bytes],
    executor: Executor | None,
    pool: RenderPool | None,
    render_times: list[float],
    render_errors: list[str],
) -> None:
    """Draw one digest's board (in the background, as the bot's delivery does) and time it
    from the ask; a board that a newer one of its table replaced before it was drawn is not
    timed (the pool counts it)."""
    started = time.perf_counter()
    try:
        if pool is not None:
            await pool.run(render, dict(view), key=table_id)
        elif executor is None:
            await asyncio.to_thread(render, view)
        else:
            # The view is plain JSON-able data, so it pickles cheaply to a worker.
            await asyncio.get_running_loop().run_in_executor(executor, render, dict(view))
    except Stale:
        return  # a newer board of this table was asked for meanwhile
    except Exception as error:  # the renderer's bug must not stop the service figures
        render_errors.append(f"{view.get('game')}: {type(error).__name__}: {error}")
        return
    render_times.append(time.perf_counter() - started)


async def _table(
    service: TableService,
    index: int,
    table_id: int,
    acts: int,
    think: float,
    render: Callable[[Mapping[str, Any]], bytes] | None,
    executor: Executor | None,
    pool: RenderPool | None,
    act_times: list[float],
    render_times: list[float],
    render_errors: list[str],
) -> None:
    rng = random.Random(index)
    user = 1_000 + index
    drawing: set[asyncio.Task[None]] = set()
    for _ in range(acts):
        await asyncio.sleep(rng.uniform(0, 2 * think))
        info = await service.private_info(table_id, user)
        if info.table.phase != Phase.PLAYING or not info.to_act:
            break
        started = time.perf_counter()
        effects = await service.act(
            table_id, user, rng.choice(info.legal_moves), info.table.version
        )
        act_times.append(time.perf_counter() - started)
        # One board per digest (the person's move and the bots' after it), drawn in the
        # background as the bot's delivery draws it: the next act does not wait for it.
        view = digest_view(effects.public)
        if render is not None and view is not None:
            task = asyncio.create_task(
                _draw(table_id, view, render, executor, pool, render_times, render_errors)
            )
            drawing.add(task)
            task.add_done_callback(drawing.discard)
    await asyncio.gather(*drawing)


async def main(
    tables: int, acts: int, think: float, draw: bool, render_in: str, tuned_gc: bool
) -> None:
    render = _renderer() if draw else None
    executor = ProcessPoolExecutor(2) if render is not None and render_in == "process" else None
    pool = None
    if render is not None and render_in == "pool":
        pool = RenderPool(render_workers(machine_cores()))
        await pool.start()
    print(f"load average before: {_load()}")
    with tempfile.TemporaryDirectory() as folder:
        storage = await open_storage(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        service = TableService(storage, choose_bot_move=random_chooser)
        act_times: list[float] = []
        render_times: list[float] = []
        render_errors: list[str] = []
        # Opening 200 tables at the same instant is not the steady state being measured.
        ids = await asyncio.gather(*(_open(service, i) for i in range(tables)))
        previous = tune_gc() if tuned_gc else None
        pauses = GcPauses()
        gc.callbacks.append(pauses)
        started = time.perf_counter()
        workers = pool.worker_pids() if pool is not None else []
        workers_cpu = sum(_cpu_seconds(pid) for pid in workers)
        await asyncio.gather(
            *(
                _table(
                    service,
                    i,
                    table_id,
                    acts,
                    think,
                    render,
                    executor,
                    pool,
                    act_times,
                    render_times,
                    render_errors,
                )
                for i, table_id in enumerate(ids)
            )
        )
        elapsed = time.perf_counter() - started
        workers_cpu = sum(_cpu_seconds(pid) for pid in workers) - workers_cpu
        gc.callbacks.remove(pauses)
        if previous is not None:
            untune_gc(previous)
        await storage.close()
    if executor is not None:
        executor.shutdown()
    if pool is not None:
        await pool.close()
    gc_mode = "tuned (frozen after start-up)" if tuned_gc else "CPython defaults"
    render_mode = f"in a {render_in}" if render is not None else "off"
    if pool is not None:
        render_mode += f" of {pool.workers} worker(s), {pool.skipped} stale boards skipped"
    print(f"tables {tables}, acts {len(act_times)}, think mean {think:.2f} s, {elapsed:.1f} s")
    print(f"gc: {gc_mode}; rendering: {render_mode}")
    print(
        f"act latency: p50 {1000 * statistics.median(act_times):.1f} ms, "
        f"p99 {1000 * _percentile(act_times, 0.99):.1f} ms, "
        f"max {1000 * max(act_times):.1f} ms"
    )
    print(f"acts per second: {len(act_times) / elapsed:.1f}")
    if render_times:
        print(
            f"render latency: p50 {1000 * statistics.median(render_times):.1f} ms, "
            f"p99 {1000 * _percentile(render_times, 0.99):.1f} ms"
        )
        if workers:
            # What the pool could draw on a core of its own, whatever the machine's load.
            per_image = workers_cpu / max(1, len(render_times))
            print(
                f"render workers: {100 * workers_cpu / elapsed:.0f} % of a core, "
                f"{1000 * per_image:.1f} ms of CPU per board drawn "
                f"(~{1 / max(per_image, 1e-6):.0f} boards/s per worker core)"
            )
    elif not render_errors:
        print("render: skipped (no renderer.render_board, or --no-render)")
    if render_errors:
        print(f"render failures: {len(render_errors)}, first: {render_errors[0]}")
    print(f"gc pauses: {pauses.report()}")
    print(f"load average after: {_load()}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--acts", type=int, default=20)
    parser.add_argument("--think", type=float, default=2.0, help="mean thinking time (s)")
    parser.add_argument("--no-render", action="store_true")
    parser.add_argument("--render-in", choices=("pool", "thread", "process"), default="pool")
    parser.add_argument("--gc", choices=("tuned", "default"), default="tuned")
    args = parser.parse_args()
    asyncio.run(
        main(
            args.tables,
            args.acts,
            args.think,
            not args.no_render,
            args.render_in,
            args.gc == "tuned",
        )
    )
