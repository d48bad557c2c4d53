"""The bot's memory, measured from outside (issue #37).

    python -m bench.memory [--tables 40] [--duration 180] [--after 30] [--games 1000]
                           [--arena-max N] [--code DIR] [--skip-load] [--skip-games]
                           [--postgres URL]

**Under load** — the real ``poeppel run`` process (``bench/bot_under_load.py``) against the fake
Discord, over a fresh SQLite file: the USS (memory only this process holds, by psutil) of the
main process, and of all its processes together, is printed

* at rest (connected, no table), with each process apart (main, bot and render workers told
  by their priority, the resource tracker) — and again at the end;
* once ``--tables`` Tock tables of one person and three easy bots are open (and per table);
* while every person plays through the buttons for ``--duration`` seconds (median, peak);
* ``--after`` seconds after the load ended.

``--arena-max N`` runs the bot with ``MALLOC_ARENA_MAX=N`` (glibc's malloc arenas; each
thread that draws boards otherwise keeps its freed memory in an arena of its own); without
it the bot caps them itself (``bot.gc_tuning.MALLOC_ARENAS``), and ``--arena-max 16`` gives
glibc's default on two cores.

**Over many games** — in this process, ``--games`` games of easy bots through the table service
(half Tock 2v2, a quarter Dog, a quarter Carcassonne), each finished game then read on every
read path (private info, current board, public view, history) as the last prompts do: the USS
after a warm-up and its growth per 100 games (the slope), and how many tables the store and the
tables' memory still hold at the end (only live tables: none once the games are over).

**Log writes** — with ``--postgres URL`` (an empty database): the time of a single-entry
commit to the compact log and to the old one-row-per-entry table, and their size per table.

The machine is shared: figures are noisy, so compare runs made back to back; the load average
is printed with them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil

from bench.discord_load import WRAPPER, Player, Watch, load, open_tables, until_alive
from bench.discord_load import Figures as LoadFigures
from tests.bot.test_two_processes import process_env
from tests.fakediscord.server import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent
MB = 1024 * 1024


def uss(process: psutil.Process) -> float:
    """The USS of ``process`` in MB (0 when it is gone)."""
    try:
        return float(process.memory_full_info().uss) / MB
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return 0.0


def uss_all(process: psutil.Process) -> float:
    """The USS of ``process`` and of all its children, in MB."""
    try:
        children = process.children(recursive=True)
    except psutil.NoSuchProcess:
        return 0.0
    return uss(process) + sum(uss(child) for child in children)


def role(process: psutil.Process, main: psutil.Process) -> str:
    """What a process of the bot is: main, resource tracker, or a worker told by its
    priority (render workers run at ``RENDER_WORKER_NICE``, bot workers at ``BOT_WORKER_NICE``,
    their defaults 5 and 10)."""
    try:
        if process.pid == main.pid:
            return "main"
        if any("resource_tracker" in part for part in process.cmdline()):
            return "resource tracker"
        niceness = process.nice() - main.nice()
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return "gone"
    return {5: "render worker", 10: "bot worker"}.get(niceness, f"worker (nice +{niceness})")


def per_process(main: psutil.Process) -> str:
    """The USS of each of the bot's processes, one line each, and their sum."""
    try:
        processes = [main, *main.children(recursive=True)]
    except psutil.NoSuchProcess:
        return "  (gone)"
    rows = sorted(((role(p, main), p.pid, uss(p)) for p in processes), key=lambda r: r[0])
    lines = [f"  {name:<17} pid {pid:>7}  {size:6.1f} MB" for name, pid, size in rows]
    lines.append(f"  {'all':<17} {len(rows):>11}  {sum(r[2] for r in rows):6.1f} MB")
    return "\n".join(lines)


async def sample(process: psutil.Process, seconds: float, every: float = 1.0) -> list[float]:
    """The main process's USS every ``every`` seconds for ``seconds``."""
    samples = []
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        samples.append(uss(process))
        await asyncio.sleep(every)
    return samples


async def under_load(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        watch = Watch()
        restore = watch.install()
        try:
            async with FakeDiscord() as fake:
                env = process_env(fake, f"sqlite:///{work / 'bench.sqlite3'}")
                env.update(PYTHONPATH=args.code, BENCH_BOT_LEVEL="easy")
                if args.arena_max:
                    env["MALLOC_ARENA_MAX"] = str(args.arena_max)
                log = (work / "bot.log").open("wb")
                child = await asyncio.create_subprocess_exec(
                    sys.executable, "-P", str(WRAPPER), env=env, cwd=work, stdout=log, stderr=log
                )
                main = psutil.Process(child.pid)
                try:
                    await until_alive(
                        lambda: fake.global_commands and fake.connected_shards,
                        child,
                        120,
                        "connecting",
                    )
                    await asyncio.sleep(5)
                    rest, rest_all = uss(main), uss_all(main)
                    print(f"at rest: main {rest:.0f} MB, all processes {rest_all:.0f} MB")
                    print(per_process(main))
                    tock = next(c for c in fake.global_commands if c["name"] == "tock")
                    new = next(o for o in tock.get("options", []) if o["name"] == "new")
                    with_option = any(o["name"] == "bot_level" for o in new.get("options", []))
                    players = await open_tables(fake, watch, args.tables, 4, "easy", with_option)
                    opened = uss(main)
                    per_table = (opened - rest) / max(1, args.tables)
                    print(
                        f"{args.tables} tables open: main {opened:.0f} MB "
                        f"({per_table * 1024:.0f} KB per live table) | load {load()}"
                    )
                    stop_at = time.perf_counter() + args.duration
                    rng = random.Random(7)
                    figures = LoadFigures()
                    playing = asyncio.gather(
                        *(
                            Player(
                                fake, watch, user, thread, figures, random.Random(rng.random())
                            ).play(stop_at)
                            for user, thread in players
                        )
                    )
                    during = await sample(main, args.duration)
                    await playing
                    peak_all = uss_all(main)
                    after = await sample(main, args.after)
                    print(
                        f"under load ({args.duration:.0f} s, {len(figures.boards)} turns): "
                        f"main median {statistics.median(during):.0f} MB, "
                        f"peak {max(during):.0f} MB (all processes {peak_all:.0f} MB at the "
                        f"end) | {args.after:.0f} s after: {after[-1]:.0f} MB | load {load()}"
                    )
                    print(per_process(main))
                finally:
                    if child.returncode is None:
                        child.send_signal(signal.SIGTERM)
                        try:
                            await asyncio.wait_for(child.wait(), 60)
                        except TimeoutError:
                            child.kill()
                            await child.wait()
                    log.close()
                    output = (work / "bot.log").read_text(errors="replace")
                    if "Traceback" in output:
                        print(output[output.find("Traceback") :][:2000], file=sys.stderr)
        finally:
            restore()


#: (game, players, share of the games)
MIX = (("tock", 4), ("tock", 4), ("dog", 4), ("carcassonne", 2))


async def many_games(args: argparse.Namespace) -> None:
    from bot.bots.choosers import random_chooser
    from bot.gc_tuning import tune_gc
    from bot.service import TableService
    from bot.storage import open_storage

    me = psutil.Process()
    with tempfile.TemporaryDirectory() as folder:
        storage = await open_storage(f"sqlite:///{Path(folder) / 'games.sqlite3'}")
        service = TableService(storage, choose_bot_move=random_chooser, require_person=False)
        tune_gc()
        marks: list[tuple[int, float]] = []
        warm = min(100, args.games // 5)
        started = time.perf_counter()
        for number in range(args.games):
            game, players = MIX[number % len(MIX)]
            user = 1 + number
            created = await service.create(
                1, 10, game, user, "P", players=players, seed=number, seat_host=False
            )
            table_id = created.table.id
            with contextlib.suppress(Exception):
                for _ in range(players):
                    await service.add_bot(table_id, user, "easy")
            await service.start_game(table_id, user)
            # The reads that follow a finished game (the last prompts, the board, the log).
            await service.private_info(table_id, user)
            await service.current_board(table_id)
            await service.public_view(table_id)
            await service.history(table_id, None, last=10)
            if number + 1 >= warm and (number + 1 - warm) % 100 == 0:
                gc.collect()
                marks.append((number + 1, uss(me)))
        elapsed = time.perf_counter() - started
        gc.collect()
        marks.append((args.games, uss(me)))
        held = getattr(service.store, "held", None)  # older versions: the store's dicts
        live, locks = held() if held else (service.store._live, service.store._locks)
        memory = getattr(service, "memory", None)
        followed = "-" if memory is None else str(memory.tracked())
        first, last = marks[0], marks[-1]
        slope = (last[1] - first[1]) / max(1, last[0] - first[0]) * 100
        print(
            f"{args.games} finished games in {elapsed:.0f} s: USS {first[1]:.1f} MB after "
            f"{first[0]} -> {last[1]:.1f} MB after {last[0]} ({last[1] - first[1]:+.1f} MB, "
            f"{slope:+.2f} MB per 100 games) | store holds {len(live)} tables, {len(locks)} "
            f"locks; the tables' memory follows {followed} (finished ones stay 60 s) "
            f"| load {load()}"
        )
        print("  USS by games: " + ", ".join(f"{n}: {m:.1f}" for n, m in marks))
        await service.stop()
        await storage.close()


#: The one-row-per-entry log before issue #37, to compare its write cost in PostgreSQL.
OLD_MOVES = """CREATE TABLE old_moves (
    table_id BIGINT NOT NULL, idx INTEGER NOT NULL, kind TEXT NOT NULL, seat INTEGER,
    text TEXT NOT NULL, version INTEGER NOT NULL, PRIMARY KEY (table_id, idx))"""


async def log_writes(url: str, tables: int = 20, entries: int = 400) -> None:
    """Commit ``entries`` single-entry commits to each of ``tables`` tables, in the compact
    log and in the old one-row-per-entry table, in PostgreSQL at ``url`` (an empty
    database); print the time per commit and the bytes on disk of each."""
    import asyncpg

    from bot.model.table import LogEntry, LogKind
    from bot.storage import open_storage
    from bot.storage.log_rows import APPEND_CHUNK, chunk_rows
    from bot.storage.rows import numbered

    storage = await open_storage(url)  # the schema, migrated
    await storage.close()
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(OLD_MOVES)
        ids = [
            await conn.fetchval(
                "INSERT INTO tables (guild_id, channel_id, game, options, seed, host_id, seats, "
                "players, phase, version, turn_time, absent_policy, reminded, log_length, "
                "winners, extra, created_at, updated_at) VALUES (1, 1, 'tock', '{}', 1, 1, "
                "'[]', 4, 'playing', 0, 0, 'bot', 0, 0, '[]', '{}', 0, 0) RETURNING id"
            )
            for _ in range(tables)
        ]
        log = [LogEntry(i, LogKind.MOVE, i % 4, "10:r0-r10", i + 7) for i in range(entries)]
        append = numbered(APPEND_CHUNK)
        insert = "INSERT INTO old_moves VALUES ($1, $2, $3, $4, $5, $6)"
        timings = {}
        for name in ("old", "compact"):
            started = time.perf_counter()
            for entry in log:
                for table_id in ids:
                    async with conn.transaction():
                        if name == "old":
                            row = [str(entry.kind), entry.seat, entry.text, entry.version]
                            await conn.execute(insert, table_id, entry.index, *row)
                        else:
                            await conn.executemany(append, chunk_rows(table_id, [entry]))
            timings[name] = (time.perf_counter() - started) / (entries * tables) * 1000
        await conn.execute("VACUUM (FULL, ANALYZE) old_moves")
        await conn.execute("VACUUM (FULL, ANALYZE) move_chunks")
        sizes = {
            name: await conn.fetchval(f"SELECT pg_total_relation_size('{table}')") / tables
            for name, table in (("old", "old_moves"), ("compact", "move_chunks"))
        }
    finally:
        await conn.close()
    print(
        f"PostgreSQL log writes ({tables} tables x {entries} single-entry commits): "
        + "; ".join(
            f"{name} {timings[name]:.2f} ms per commit, {sizes[name] / 1024:.1f} KB per table"
            for name in ("old", "compact")
        )
        + f" | load {load()}"
    )


async def main(args: argparse.Namespace) -> None:
    print(f"code: {args.code}; MALLOC_ARENA_MAX={args.arena_max or 'unset'}; load {load()}")
    if args.postgres:
        await log_writes(args.postgres)
    if not args.skip_load:
        await under_load(args)
    if not args.skip_games:
        await many_games(args)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--duration", type=float, default=180.0)
    parser.add_argument("--after", type=float, default=30.0)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--arena-max", type=int, default=0)
    parser.add_argument("--code", default=str(ROOT), help="the checkout whose bot is run")
    parser.add_argument("--skip-load", action="store_true")
    parser.add_argument("--skip-games", action="store_true")
    parser.add_argument(
        "--postgres", default=None, help="an empty PostgreSQL database: time the log's writes"
    )
    arguments = parser.parse_args()
    arguments.code = str(Path(arguments.code).resolve())
    os.environ.setdefault("PYTHONHASHSEED", "0")
    asyncio.run(main(arguments))
