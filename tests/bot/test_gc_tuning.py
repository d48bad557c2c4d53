"""The start-up garbage-collector settings every entry point applies (bot.gc_tuning)."""

from __future__ import annotations

import asyncio
import contextlib
import gc

import pytest

from bot.gc_tuning import tune_gc, untune_gc


def test_tuning_freezes_start_up_objects_and_collects_less_often_until_undone() -> None:
    before = gc.get_threshold()
    previous = tune_gc(young=12_345, middle=7, old=9)
    try:
        assert previous == before
        # Everything alive at start-up is out of the collector's reach from now on.
        assert gc.get_freeze_count() > 1_000
        assert gc.get_threshold() == (12_345, 7, 9)
    finally:
        untune_gc(previous)
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == before


async def test_the_deferred_collection_frees_cyclic_garbage_the_tuning_left() -> None:
    import weakref

    from bot.gc_tuning import collect_deferred

    class Node:
        def __init__(self) -> None:
            self.me = self  # a cycle: reference counting alone never frees it

    previous = tune_gc(young=1_000_000, middle=100, old=100)
    try:
        node = Node()
        gone = weakref.ref(node)
        del node
        assert gone() is not None  # deferred: no collection ran since
        ticks = 0

        async def sleep(_seconds: float) -> None:
            nonlocal ticks
            ticks += 1
            if ticks > 1:
                raise asyncio.CancelledError

        with contextlib.suppress(asyncio.CancelledError):
            await collect_deferred(sleep=sleep)
        assert gone() is None
    finally:
        untune_gc(previous)


def test_the_bot_caps_malloc_arenas_unless_the_environment_chose(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.gc_tuning import limit_malloc_arenas

    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert not limit_malloc_arenas()  # the operator's choice stands
    monkeypatch.delenv("MALLOC_ARENA_MAX")
    assert limit_malloc_arenas()  # glibc accepted the cap
