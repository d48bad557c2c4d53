"""A process that runs a toy tournament and kills itself (SIGKILL) at a chosen moment.

``python -m tests.bot.tournament_kill_child DB MODE``: four toy players, a Swiss of two rounds
on the SQLite file DB; every seat lets its clock run out. MODE ``last_move``: killed right
after round 1's last table committed its end (before the round is advanced); ``opening``:
killed after round 2's first table was inserted and linked, before it started.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from typing import Any

from bot.bots.choosers import random_chooser
from bot.model.clock import FakeClock
from bot.service import TableService
from bot.storage import open_storage
from tests.bot.conftest import load_game


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


async def main(path: str, mode: str) -> None:
    clock = FakeClock()
    storage = await open_storage(f"sqlite:///{path}")
    service = TableService(
        storage,
        clock=clock,
        choose_bot_move=random_chooser,
        load_game=load_game,
        timeouts_before_leave=0,
    )
    tournaments = service.tournaments
    if mode == "last_move":
        hook = tournaments.committed

        async def committed(record: Any, entries: Any) -> None:
            if record.extra.get("tournament") and not record.active:
                links = await storage.tournament_tables(int(record.extra["tournament"]))
                round_one = [t for (r, _), t in links.items() if r == 1]
                ended = [await storage.load_table(t) for t in round_one]
                if all(t is not None and not t.active for t in ended):
                    die()
            await hook(record, entries)

        tournaments.committed = committed  # type: ignore[method-assign]
    else:
        create = storage.create_tournament_table

        async def create_then_die(record: Any, tid: int, number: int, slot: int) -> Any:
            found = await create(record, tid, number, slot)
            if number == 2:
                die()
            return found

        storage.create_tournament_table = create_then_die  # type: ignore[method-assign]
    await service.start()
    record = await tournaments.create(1, 10, "toy", 900, format="swiss", players=2, turn_time=60)
    for i in range(4):
        await tournaments.join(record.id, 100 + i, f"P{i}")
    await tournaments.begin(record.id, 900)
    for _ in range(2000):
        clock.advance(61)
        await service.run_due()
        await service.idle()
    print("never killed", file=sys.stderr)
    sys.exit(3)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
