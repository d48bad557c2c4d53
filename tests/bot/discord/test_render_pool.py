"""Boards drawn in worker processes: the same bytes, no Pillow in the bot's process, and only
the newest waiting board of a table drawn."""

from __future__ import annotations

import asyncio
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import engine.carcassonne as carcassonne
import engine.dog as dog
import renderer
from bot.discord_ui import render_pool
from bot.discord_ui.render_pool import RenderPool, Stale, render_workers
from bot.discord_ui.rendering import Renderer
from renderer.carcassonne.tiles import tile_master
from renderer.samples import carcassonne_position
from tests.renderer.views import race_playout


async def test_a_worker_draws_the_same_bytes_and_the_bot_process_runs_no_pillow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, views = race_playout(dog, 6, {}, 5, 60)
    race = views[-1]
    state = carcassonne_position(3, {}, 4, 20)
    tiles = carcassonne.view(state, 0)
    placements = carcassonne.legal_placements(state)
    names = ["Anna", "Bence", "Chloé", "Bot 4 (hard)", "Dóra", "Bot 6 (easy)"]
    expected = [
        renderer.render_board(race, names=names, locale="de"),
        renderer.render_placements(tiles, placements, names=names[:3]),
    ]
    created: list[Any] = []
    original_new = Image.new

    def counting_new(*args: Any, **kwargs: Any) -> Image.Image:
        created.append(args)
        return original_new(*args, **kwargs)

    async with RenderPool(1) as pool:
        # Pillow is watched in this process only: the worker was spawned beforehand.
        monkeypatch.setattr(Image, "new", counting_new)
        drawn = Renderer.load(pool)
        board = await drawn.board(race, names, filename="board-1-7.png", locale="de")
        choice = await drawn.placements(tiles, placements, names=names[:3])
        assert len(pool.worker_pids()) == 1
    assert board is not None
    assert choice is not None
    assert [board.fp.read(), choice.fp.read()] == expected
    assert created == [], "the bot's own process drew nothing"


def _loaded(pid: int, library: str) -> bool:
    """Whether the process ``pid`` has loaded a shared library whose file name holds it."""
    return library in Path(f"/proc/{pid}/maps").read_text()


def _tile_masters() -> int:
    """How many Carcassonne tile masters (the drawings every tile bitmap is scaled from)
    the worker that runs this holds."""
    return tile_master.cache_info().currsize


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
async def test_a_render_worker_at_rest_holds_no_asyncio_and_no_tile_masters() -> None:
    state = carcassonne_position(3, {}, 4, 20)
    tiles = carcassonne.view(state, 0)
    placements = carcassonne.legal_placements(state)
    expected = renderer.render_placements(tiles, placements, names=["Anna", "Bence"])
    async with RenderPool(1) as pool:
        (pid,) = pool.worker_pids()
        assert not _loaded(pid, "_asyncio.")  # the pool's asyncio stays in this process
        assert await pool.run(_tile_masters) == 0  # type: ignore[arg-type]
        # Drawn on first use, to the same bytes as when warmed at start.
        drawn = await pool.run(
            renderer.render_placements, tiles, placements, names=["Anna", "Bence"]
        )
        assert drawn == expected
        assert await pool.run(_tile_masters) > 0  # type: ignore[arg-type]


def _blocking(gate: threading.Event, drawn: list[str], name: str) -> bytes:
    gate.wait(5)
    drawn.append(name)
    return name.encode()


async def test_only_the_newest_waiting_board_of_a_table_is_drawn() -> None:
    gate = threading.Event()
    drawn: list[str] = []
    with ThreadPoolExecutor(1) as executor:
        pool = RenderPool(1, executor=executor)
        await pool.start()
        # Tables 8 and 9 take the worker and its next place.
        busy = [
            asyncio.create_task(pool.run(_blocking, gate, drawn, f"table {n}", key=n))
            for n in (8, 9)
        ]
        await asyncio.sleep(0)
        older = asyncio.create_task(pool.run(_blocking, gate, drawn, "table 1 v1", key=1))
        other = asyncio.create_task(pool.run(_blocking, gate, drawn, "table 2 v1", key=2))
        newer = asyncio.create_task(pool.run(_blocking, gate, drawn, "table 1 v2", key=1))
        gate.set()
        assert [await task for task in busy] == [b"table 8", b"table 9"]
        with pytest.raises(Stale):
            await older
        assert await other == b"table 2 v1"
        assert await newer == b"table 1 v2"
        await pool.close()
    assert drawn == ["table 8", "table 9", "table 2 v1", "table 1 v2"]
    assert pool.skipped == 1


async def test_a_private_answer_is_drawn_before_the_waiting_boards() -> None:
    gate = threading.Event()
    drawn: list[str] = []
    with ThreadPoolExecutor(1) as executor:
        pool = RenderPool(1, executor=executor)
        await pool.start()
        busy = [
            asyncio.create_task(pool.run(_blocking, gate, drawn, f"table {n}", key=n))
            for n in (8, 9)
        ]
        await asyncio.sleep(0)
        boards = [
            asyncio.create_task(pool.run(_blocking, gate, drawn, f"board {n}", key=n))
            for n in (1, 2)
        ]
        hand = asyncio.create_task(pool.run(_blocking, gate, drawn, "hand", urgent=True))
        gate.set()
        await asyncio.gather(*busy, *boards, hand)
        await pool.close()
    assert drawn == ["table 8", "table 9", "hand", "board 1", "board 2"]


async def test_a_board_waits_at_most_the_lead_of_the_answers_that_come_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(render_pool, "URGENT_LEAD", 0.05)
    gate = threading.Event()
    drawn: list[str] = []
    with ThreadPoolExecutor(1) as executor:
        pool = RenderPool(1, executor=executor)
        await pool.start()
        busy = [
            asyncio.create_task(pool.run(_blocking, gate, drawn, f"table {n}", key=n))
            for n in (8, 9)
        ]
        await asyncio.sleep(0)
        board = asyncio.create_task(pool.run(_blocking, gate, drawn, "board", key=1))
        await asyncio.sleep(0.1)  # longer than the lead: the board has waited enough
        hand = asyncio.create_task(pool.run(_blocking, gate, drawn, "hand", urgent=True))
        await asyncio.sleep(0)
        gate.set()
        await asyncio.gather(*busy, board, hand)
        await pool.close()
    assert drawn == ["table 8", "table 9", "board", "hand"]


def _image(gate: threading.Event, view: dict[str, Any], **kwargs: Any) -> bytes:
    gate.wait(5)
    return str(view["v"]).encode()


async def test_a_stale_board_goes_out_without_its_image() -> None:
    gate = threading.Event()
    with ThreadPoolExecutor(1) as executor:
        pool = RenderPool(1, executor=executor)
        await pool.start()
        drawn = Renderer(render_board=lambda view, **kw: _image(gate, view, **kw), pool=pool)
        first = asyncio.create_task(drawn.board({"v": 1}, [], filename="board-3-1.png"))
        other = asyncio.create_task(drawn.board({"v": 0}, [], filename="board-4-1.png"))
        await asyncio.sleep(0)
        older = asyncio.create_task(drawn.board({"v": 2}, [], filename="board-3-2.png"))
        newer = asyncio.create_task(drawn.board({"v": 3}, [], filename="board-3-3.png"))
        gate.set()
        files = [await first, await older, await newer]
        assert await other is not None
        await pool.close()
    assert files[1] is None
    assert [f.fp.read() for f in (files[0], files[2]) if f is not None] == [b"1", b"3"]


def test_render_workers_leave_a_core_to_the_event_loop() -> None:
    assert render_workers(2) == 1
    assert render_workers(8) == 7
    assert render_workers(8, bot_workers=3) == 4
    assert render_workers(1) == 1


def test_a_render_worker_gives_freed_memory_back_after_drawing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import bot.discord_ui.render_worker as worker

    monkeypatch.setattr(worker, "TRIM_SECONDS", 0.01)
    monkeypatch.setattr(worker, "_drew", threading.Event())  # this worker drew nothing yet
    trimmed = threading.Event()
    threading.Thread(target=worker._give_back, args=(trimmed.set,), daemon=True).start()
    assert worker.call(renderer.render_hand, ("tock", ["A", "7"]), {}).startswith(b"\x89PNG")
    assert trimmed.wait(10)
    assert worker.malloc_trim() is not None  # glibc, as on the hosts the bot runs on


async def test_a_games_animated_summary_does_not_hold_up_the_boards() -> None:
    _, views = race_playout(dog, 4, {}, 5, 120)
    names = ["Anna", "Bence", "Chloé", "Dóra"]
    async with RenderPool(1) as pool, render_pool.slow_lane(10, idle_after=0.2) as slow:
        assert slow.worker_pids() == [], "nothing started ahead of a long image"
        drawn = Renderer.load(pool, slow)
        summary = asyncio.create_task(drawn.animation(views, names))
        await asyncio.sleep(0)  # the summary is asked for first
        board = await drawn.board(views[-1], names, filename="board-1-9.png")
        assert board is not None
        assert not summary.done(), "the board came out while the summary was still drawn"
        gif = await summary
        assert gif is not None
        assert gif.fp.read(6) == b"GIF89a"
        assert len(slow.worker_pids()) == 1
        for _ in range(100):  # its worker stops after a while without an image
            if not slow.worker_pids():
                break
            await asyncio.sleep(0.05)
        assert slow.worker_pids() == []
        assert len(pool.worker_pids()) == 1
