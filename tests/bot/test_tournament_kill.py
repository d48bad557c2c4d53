"""A real process killed (SIGKILL) during a tournament's last move of a round, or while the
next round opens its tables: after the restart the next round opens exactly once."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from bot.bots.choosers import random_chooser
from bot.model.clock import FakeClock
from bot.model.table import Phase
from bot.service import RoundOpened, TableService
from bot.storage import open_storage
from tests.bot.conftest import load_game


class Heard:
    def __init__(self) -> None:
        self.rounds: list[RoundOpened] = []

    async def round_opened(self, opened: RoundOpened) -> None:
        self.rounds.append(opened)

    async def tournament_finished(self, tournament: object) -> None:
        """Not asked here."""


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["last_move", "opening"])
async def test_a_killed_process_opens_the_next_round_once_after_restart(
    tmp_path: Path, mode: str
) -> None:
    path = tmp_path / "t.sqlite3"
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.bot.tournament_kill_child",
        str(path),
        mode,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )
    assert await asyncio.wait_for(child.wait(), 120) == -signal.SIGKILL
    storage = await open_storage(f"sqlite:///{path}")
    before = await storage.tournament_tables(1)
    assert sorted(k[0] for k in before).count(2) == (0 if mode == "last_move" else 1)
    heard = Heard()
    service = TableService(
        storage, clock=FakeClock(), choose_bot_move=random_chooser, load_game=load_game
    )
    service.tournaments.listener = heard
    try:
        for _ in range(2):  # a second start finds it done
            await service.start()
            await service.stop()
        links = await storage.tournament_tables(1)
        assert sorted(links) == [(1, 0), (1, 1), (2, 0), (2, 1)]
        tables = await storage.list_tables(1, active=False)
        assert len(tables) == 4  # no table was opened twice
        assert all(t.phase != Phase.LOBBY for t in tables)
        assert {r.number for r in heard.rounds} == {2}
        told = [t.record.id for r in heard.rounds for t in r.tables]
        assert sorted(set(told)) == sorted(t for (r, _), t in links.items() if r == 2)
        record = await service.tournaments.get(1)
        assert len(record.state.rounds) == 2
    finally:
        await storage.close()
