"""Crash safety: a process playing a game is killed (SIGKILL) at random moments; on restart
every move it acknowledged is in storage and the game goes on to its end.

Run as a script, this file is the child process: it plays the table in the SQLite file given on
the command line and prints ``ACK <version> <log length>`` after each acknowledged move.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PERSON = 1


async def _child(db: str, table_id: int | None, seed: int) -> None:
    from bot.bots.choosers import random_chooser
    from bot.service import Phase, TableService
    from bot.storage import open_storage

    storage = await open_storage(f"sqlite:///{db}")
    service = TableService(storage, choose_bot_move=random_chooser)
    if table_id is None:
        created = await service.create(1, 1, "tock", PERSON, "Ann", players=2, seed=seed)
        table_id = created.table.id
        await service.add_bot(table_id, PERSON, "easy")
        await service.start_game(table_id, PERSON)
        print(f"TABLE {table_id}", flush=True)
    rng = random.Random(seed)
    while True:
        info = await service.private_info(table_id, PERSON)
        if info.table.phase != Phase.PLAYING:
            print("DONE", flush=True)
            return
        effects = await service.act(
            table_id, PERSON, rng.choice(info.legal_moves), info.table.version
        )
        # Acknowledged: from here on a player has been told this move happened.
        print(f"ACK {effects.table.version} {effects.table.log_length}", flush=True)


def _run_until_killed(db: Path, table_id: int | None, seed: int, acks: int) -> tuple[int, int, int]:
    """Start the child, kill it after ``acks`` acknowledgements; return (table, version, log)."""
    args = [sys.executable, __file__, str(db), str(table_id or 0), str(seed)]
    child = subprocess.Popen(args, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert child.stdout is not None
    version = log_length = seen = 0
    try:
        for line in child.stdout:
            word, *rest = line.split()
            if word == "TABLE":
                table_id = int(rest[0])
            elif word == "ACK":
                version, log_length = int(rest[0]), int(rest[1])
                seen += 1
                if seen >= acks:
                    os.kill(child.pid, signal.SIGKILL)
                    break
            elif word == "DONE":
                break
    finally:
        child.kill()
        child.wait(timeout=30)
    assert table_id is not None
    return table_id, version, log_length


async def _check(db: Path, table_id: int, version: int, log_length: int, *, finish: bool) -> None:
    """Every acknowledged move is stored; with ``finish``, a new service plays to the end."""
    from bot.bots.choosers import random_chooser
    from bot.service import Phase, TableService
    from bot.storage import open_storage

    storage = await open_storage(f"sqlite:///{db}")
    try:
        table = await storage.load_table(table_id)
        assert table is not None
        assert table.version >= version
        assert table.log_length >= log_length
        assert len(await storage.load_log(table_id)) == table.log_length
        if not finish:
            return
        service = TableService(storage, choose_bot_move=random_chooser)
        while (await service.get(table_id)).phase == Phase.PLAYING:
            info = await service.private_info(table_id, PERSON)
            await service.act(table_id, PERSON, info.legal_moves[0], info.table.version)
        assert (await service.get(table_id)).phase == Phase.FINISHED
    finally:
        await storage.close()


def test_killed_processes_lose_no_acknowledged_move(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite3"
    rng = random.Random(2024)
    table_id = None
    previous = 0
    for round_ in range(3):
        table_id, version, log_length = _run_until_killed(
            db, table_id, seed=round_, acks=rng.randint(3, 40)
        )
        assert log_length >= previous
        previous = log_length
        asyncio.run(_check(db, table_id, version, log_length, finish=False))
    assert table_id is not None
    asyncio.run(_check(db, table_id, version, log_length, finish=True))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    given = int(sys.argv[2])
    asyncio.run(_child(sys.argv[1], given or None, int(sys.argv[3])))
