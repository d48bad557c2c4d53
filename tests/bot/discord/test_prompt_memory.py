"""A sent prompt holds nothing (issue #37): private prompts' controls are dispatched by their
template, so no view of a prompt outlives it (discord.py would otherwise keep every
ephemeral prompt's view for 15 minutes)."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

import discord
import pytest

from bot.discord_ui.components import TableControl
from tests.bot.discord.conftest import RecordingRenderer, World, running_world
from tests.bot.discord.driving import open_prompt, to_act
from tests.bot.discord.test_lobby import start_for_two


def _alive(kind: type) -> int:
    gc.collect()
    return sum(1 for thing in gc.get_objects() if isinstance(thing, kind))


def _view_tasks() -> int:
    """Pending tasks of discord.py views (a view's timeout task runs ``__timeout_task_impl``)."""
    return sum(1 for task in asyncio.all_tasks() if "timeout_task" in repr(task.get_coro()))


async def _send_prompts(world: World, count: int) -> None:
    table_id, thread = await start_for_two(world, "tock", seed=21)
    for _ in range(count):
        board = world.newest_board(thread)
        user = to_act(board, [world.alice, world.bob])[0]
        await open_prompt(world, user, board, "Show my hand")
    assert (await world.desk.service.get(table_id)).version > 0


async def _check(tmp_path: Path, count: int) -> None:
    async with running_world(tmp_path, renderer=RecordingRenderer().renderer()) as world:
        views_before = _alive(discord.ui.View)
        await _send_prompts(world, count)
        # One turn is open: at most its prompt's objects (and the board's) may be alive.
        assert _alive(discord.ui.View) - views_before <= 2
        assert _alive(TableControl) <= 2 * 25
        assert _view_tasks() == 0


async def test_prompts_sent_keep_no_view_alive(tmp_path: Path) -> None:
    await _check(tmp_path, 40)


@pytest.mark.slow
async def test_a_thousand_prompts_keep_no_more_views_than_open_turns(tmp_path: Path) -> None:
    await _check(tmp_path, 1_000)


def _holding(world: World, table_id: int) -> list[str]:
    """The per-table parts of the process that still hold something of ``table_id``."""
    service = world.desk.service
    live, locks = service.store.held()
    held = [name for name, ids in (("cache", live), ("locks", locks)) if table_id in ids]
    for part in service.memory.parts:
        keys = getattr(part, "_items", None) or getattr(part, "_locks", None) or {}
        if isinstance(keys, dict) and any(
            key == table_id or (isinstance(key, tuple) and key[0] == table_id) for key in keys
        ):
            held.append(type(part).__name__)
    return held


@pytest.mark.slow
async def test_a_finished_table_leaves_nothing_in_the_desk(tmp_path: Path) -> None:
    from tests.bot.discord.test_after_game import play_table

    async with running_world(tmp_path, renderer=RecordingRenderer().renderer()) as world:
        table_id = await play_table(world, "tock", 4)
        # The last prompts' reads: the hand, the board, the log, all after the end.
        await world.desk.service.private_info(table_id, world.alice.id)
        await world.desk.service.current_board(table_id)
        await world.desk.service.history(table_id, world.alice.id)
        before = _holding(world, table_id)
        assert "PerTable" in before, before  # the desk's game map, the publisher's boards
        assert "KeyedLocks" in before, before  # the publisher's lock
        world.clock.advance(world.desk.service.memory.grace + 1)
        world.desk.service.memory.sweep()
        assert _holding(world, table_id) == []
