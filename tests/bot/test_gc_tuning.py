"""The start-up garbage-collector settings every entry point applies (bot.gc_tuning)."""

from __future__ import annotations

import gc

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
