"""Write ``old_log.sqlite3``: a database as the code before the compact move log wrote it
(one ``moves`` row per log entry), for the migration test (test_log_migration.py).

Run once from the repository root, with the code *before* the compact log (it was made at
commit 3f828ae)::

    python -m tests.bot.storage.data.make_old_log_db

It holds finished Tock (2 and 2v2), Dog and Carcassonne games played by easy bots (with
snapshots and results), a Tock game still in play, a table still in its lobby, and an
abandoned one.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.bots.choosers import random_chooser
from bot.model.clock import FakeClock
from bot.service import TableService
from bot.storage import open_storage

PATH = Path(__file__).with_name("old_log.sqlite3")
#: (game, players, options, seed, finish)
TABLES = (
    ("tock", 4, {}, 1, True),
    ("tock", 2, {}, 2, True),
    ("dog", 4, {}, 3, True),
    ("carcassonne", 2, {}, 4, True),
    ("carcassonne", 3, {}, 5, True),
    ("tock", 4, {}, 6, False),
)


async def main() -> None:
    PATH.unlink(missing_ok=True)
    storage = await open_storage(f"sqlite:///{PATH}")
    service = TableService(
        storage, clock=FakeClock(), choose_bot_move=random_chooser, require_person=False
    )
    for game, players, options, seed, finish in TABLES:
        created = await service.create(
            1,
            10,
            game,
            1,
            "Host",
            players=players,
            options=options,
            seed=seed,
            seat_host=not finish,
        )
        table_id = created.table.id
        for _ in range(players - (0 if finish else 1)):
            await service.add_bot(table_id, 1, "easy")
        await service.start_game(table_id, 1)
        record = await service.get(table_id)
        print(table_id, game, players, record.phase, record.log_length)
    lobby = await service.create(1, 10, "dog", 7, "Lobby", players=4, seed=8)
    await service.join(lobby.table.id, 8, "Guest")
    gone = await service.create(1, 10, "tock", 9, "Gone", players=2, seed=9)
    await service.abandon(gone.table.id, 9)
    await service.stop()
    await storage.close()


if __name__ == "__main__":
    asyncio.run(main())
