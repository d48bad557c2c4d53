"""How fast a busy server's ``/leaderboard`` and ``/history`` answer, on both back ends.

    python -m bench.results [--tables 10000] [--members 60] [--postgres URL | --no-postgres]

A server gets ``--tables`` finished four-seat tables (a mix of games, members and bot levels)
with their results; the ratings are then rebuilt from those results (timed too). Each query
of the two commands runs many times, and the median and 95th percentile of its wall time are
printed against the budget of 50 ms (what a member waits for, including the database).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.after_game.game_result import GameResult, SeatResult
from bot.model.table import Phase, Seat, TableRecord
from bot.service import TableService
from bot.storage import open_storage
from bot.storage.base import Storage

BUDGET_MS = 50.0
GUILD = 424_242_424_242_424_242
GAMES = ("tock", "dog", "carcassonne")
POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


def _result(table_id: int, rng: random.Random, members: int) -> GameResult:
    game = GAMES[table_id % len(GAMES)]
    players = rng.sample(range(1, members + 1), 3)
    seats = [SeatResult(i, f"M{u}", 0, f"u:{u}", user_id=u) for i, u in enumerate(players)]
    seats.append(SeatResult(3, "Bot", 0, f"bot:{rng.choice(('easy', 'normal', 'hard'))}"))
    order = rng.sample(range(4), 4)
    placed = tuple(
        SeatResult(s.seat, s.name, order.index(s.seat) + 1, s.player, s.user_id) for s in seats
    )
    winner = (order[0],)
    return GameResult(table_id, GUILD, 1, game, {}, float(table_id), placed, winner, moves=100)


async def fill(storage: Storage, tables: int, members: int) -> float:
    """Store ``tables`` finished tables with results; return the seconds the rebuild took."""
    rng = random.Random(1)
    seat = (Seat(0, user_id=1, name="M1"),)
    for _ in range(tables):
        record = TableRecord(0, GUILD, 1, "tock", {}, 1, 1, seat, phase=Phase.FINISHED)
        table_id = await storage.create_table(record)
        await storage.save_result(_result(table_id, rng, members))
    started = time.perf_counter()
    await TableService(storage).rebuild_ratings(GUILD)
    return time.perf_counter() - started


async def timed(call: Callable[[], Awaitable[Any]], runs: int) -> tuple[float, float]:
    """Median and 95th percentile in ms of ``runs`` calls."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


async def measure(name: str, url: str, tables: int, members: int, runs: int) -> None:
    storage = await open_storage(url)
    try:
        started = time.perf_counter()
        rebuild = await fill(storage, tables, members)
        print(
            f"{name}: stored {tables} finished tables in {time.perf_counter() - started:.1f} s;"
            f" rebuilt the ratings in {rebuild * 1000:.0f} ms"
        )
        service = TableService(storage)
        queries: dict[str, Callable[[], Awaitable[Any]]] = {
            "/leaderboard tock (top 10 + caller)": lambda: service.leaderboard(GUILD, "tock", 7),
            "/history (server, page 1)": lambda: service.finished_tables(GUILD),
            "/history (server, page 200)": lambda: service.finished_tables(GUILD, page=199),
            "/history member": lambda: service.finished_tables(GUILD, 7),
            "/history member dog, page 20": lambda: service.finished_tables(
                GUILD, 7, "dog", page=19
            ),
            "/stats member": lambda: service.stats(GUILD, 7),
        }
        for label, call in queries.items():
            median, p95 = await timed(call, runs)
            verdict = "ok" if p95 < BUDGET_MS else "OVER BUDGET"
            print(
                f"{name}: {label:38s} median {median:6.2f} ms  p95 {p95:6.2f} ms  "
                f"(budget {BUDGET_MS:.0f} ms: {verdict})"
            )
    finally:
        await storage.close()


async def _postgres(url: str) -> tuple[str, str] | None:
    import uuid

    import asyncpg

    try:
        conn = await asyncpg.connect(url, timeout=3)
    except (OSError, asyncpg.PostgresError, TimeoutError):
        return None
    name = f"poeppel_bench_{uuid.uuid4().hex[:8]}"
    await conn.execute(f'CREATE DATABASE "{name}"')
    await conn.close()
    return url.rsplit("/", 1)[0] + "/" + name, name


async def _drop(url: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url, timeout=3)
    await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await conn.close()


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        await measure("sqlite", url, args.tables, args.members, args.runs)
    if args.no_postgres:
        return
    created = await _postgres(args.postgres)
    if created is None:
        print(f"postgres: no server at {args.postgres}; skipped")
        return
    try:
        await measure("postgres", created[0], args.tables, args.members, args.runs)
    finally:
        await _drop(args.postgres, created[1])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--members", type=int, default=60)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--postgres", default=POSTGRES_URL)
    parser.add_argument("--no-postgres", action="store_true")
    asyncio.run(main(parser.parse_args()))
