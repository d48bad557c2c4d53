"""Garbage-collector settings for a long-running bot process.

CPython's cyclic collector stops the whole process while it runs. With the default threshold
(a young collection every 700 net allocations) a busy table service collects hundreds of
times a second, and every tenth of those also scans the middle generation; a full collection
walks every object alive, including the imported modules and the engines' precomputed tables,
which never become garbage. Those pauses were a large part of the tail latency of an act (see
``bench/service.py``). :func:`tune_gc` is called once after start-up by every entry point
(the Discord front end, ``poeppel play``, the bench):

* ``gc.freeze()`` moves everything alive after start-up (modules, engine tables, settings)
  into the permanent generation, which no collection scans again;
* a larger young threshold makes collections rarer; each is still short because the game
  states are mostly immutable trees with few reference cycles that die young.

Objects without cycles are freed by reference counting at once; cyclic garbage (discord.py's
views, interactions and tasks are full of cycles) waits for a collection, and with these
thresholds a full one comes rarely. :func:`collect_deferred` runs alongside the bot and
collects what was deferred every minute, then asks glibc to give the freed memory back to the
system (``malloc_trim``: each thread that drew a board keeps its freed memory in an arena of
its own otherwise, and a burst of load would stay in the process's size for good).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
from collections.abc import Awaitable, Callable

from bot.glibc import M_ARENA_MAX, malloc_trim, mallopt

log = logging.getLogger(__name__)

#: Net allocations between young collections (CPython's default is 700).
YOUNG_THRESHOLD = 20_000
#: glibc malloc arenas of the bot process (its default is eight per core): the threads that
#: draw boards share them instead of each keeping its freed memory in one of its own. Chosen
#: by measurement (``python -m bench.memory --arena-max N``, issue #37): with 2 the main
#: process under 40 busy tables stayed ~25 % smaller, at the same speed.
MALLOC_ARENAS = 2

#: Seconds between the collections of :func:`collect_deferred`.
COLLECT_EVERY = 60.0
#: Young collections per middle-generation collection, and middle per full (defaults 10, 10).
MIDDLE_THRESHOLD = 20
OLD_THRESHOLD = 20


def tune_gc(
    young: int = YOUNG_THRESHOLD, middle: int = MIDDLE_THRESHOLD, old: int = OLD_THRESHOLD
) -> tuple[int, int, int]:
    """Collect once, freeze what survived start-up, and set the thresholds.

    Call it after the imports, the engines and the storage are loaded and before serving
    requests. Returns the previous thresholds (for a test or a bench to restore them).
    """
    previous = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(young, middle, old)
    return previous


def untune_gc(thresholds: tuple[int, int, int]) -> None:
    """Undo :func:`tune_gc`: unfreeze and restore ``thresholds``."""
    gc.unfreeze()
    gc.set_threshold(*thresholds)


_TRIM = malloc_trim()


def limit_malloc_arenas(count: int = MALLOC_ARENAS) -> bool:
    """Cap glibc's malloc arenas at ``count`` (call it at start, before threads run), unless
    ``MALLOC_ARENA_MAX`` in the environment says otherwise. True if the cap is set."""

    if os.environ.get("MALLOC_ARENA_MAX"):
        return False
    return mallopt(M_ARENA_MAX, count)


def give_back() -> None:
    """Collect every generation, then return the freed heap memory to the system."""
    gc.collect()
    if _TRIM is not None:
        _TRIM()


async def collect_deferred(
    every: float = COLLECT_EVERY,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> None:
    """Run :func:`give_back` every ``every`` seconds, until cancelled. The collection runs
    on the event loop (the collector is not thread-safe to call elsewhere and, after
    ``gc.freeze()``, walks only what was made since start-up); the trim runs in a thread."""
    while True:
        await sleep(every)
        gc.collect()
        if _TRIM is not None:
            try:
                await asyncio.to_thread(_TRIM)
            except Exception:  # a convenience: never the reason the bot stops
                log.warning("malloc_trim failed", exc_info=True)
