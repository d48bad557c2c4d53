"""What runs in a worker process of the bots' and the boards' pools, and nothing more.

A pool's worker is a fresh interpreter ("spawn") that imports the module of each function it
is handed by name: the functions it runs live here, in a module that imports no more than a
worker needs. :mod:`bot.bots.pool` and :mod:`bot.discord_ui.render_pool` import asyncio,
which a worker never uses and which would cost each worker ~4 MB of memory for good (issue
#37: every process at rest counts).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Mapping
from typing import Any

#: How often a worker checks that the process that started it is still alive.
PARENT_CHECK_SECONDS = 0.2


def start_worker(parent: int, nice: int) -> None:
    """Set up a worker process: lower priority, no orphan, no Ctrl-C trace."""
    # Ctrl-C in a terminal reaches the whole process group: the parent shuts the pool down.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    threading.Thread(target=exit_with_parent, args=(parent,), daemon=True).start()


def start_bot_worker(parent: int, nice: int) -> None:
    """Set up a bot worker: :func:`start_worker`, and the engines' bots imported once,
    before the first move is asked."""
    start_worker(parent, nice)
    import engine.bots  # noqa: F401


def exit_with_parent(parent: int) -> None:
    """Exit as soon as the process that started this worker is gone (reparented)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def ready() -> int:
    """A no-op that makes a worker start (and warm up) ahead of the first task; its pid."""
    return os.getpid()


def search_hint(
    game: str, view: Mapping[str, Any], seed: int, time_budget: float, iterations: int | None
) -> Any:
    """A learner's hint (:func:`engine.bots.hints.hint`), in a worker."""
    from engine.bots.hints import hint

    return hint(game, view, seed=seed, time_budget=time_budget, iterations=iterations)
