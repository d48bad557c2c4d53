"""Repeated SIGKILLs between a commit and its board: ``python -m bench.kills [--kills 30]``.

A real bot process over PostgreSQL (127.0.0.1:5432) plays Tock against the local fake Discord;
30 times it is killed while its first post after alice's move hangs (the move is committed),
and started again. Printed: how often the thread's newest board showed the stored game within
one retry tick of the restart, and how long that took from the new process's IDENTIFY (see
``tests/bot/test_kill_before_the_board.py``, which does the same twice).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from bench.machine import describe


async def run(kills: int) -> None:
    """Kill and restart the bot ``kills`` times in a fresh database; print the figures."""
    from tests.bot.conftest import drop_postgres_database, postgres_database
    from tests.bot.test_kill_before_the_board import kill_between_commit_and_post, report

    created = await postgres_database()
    if created is None:
        raise SystemExit("no PostgreSQL server at 127.0.0.1:5432")
    url, name = created
    try:
        with tempfile.TemporaryDirectory() as workdir:
            print(report(await kill_between_commit_and_post(url, Path(workdir), kills)))
    finally:
        await drop_postgres_database(name)


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=30)
    args = parser.parse_args()
    print(describe())
    asyncio.run(run(args.kills))


if __name__ == "__main__":
    main()
