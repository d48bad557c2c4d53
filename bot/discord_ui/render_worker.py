"""What runs in a render worker (:mod:`bot.discord_ui.render_pool`), and nothing more.

The worker imports this module, not the pool's (which imports asyncio, ~4 MB a worker never
uses, issue #37).

**Memory given back.** Pillow's image buffers are large blocks, and once glibc has freed one
that it had mapped on its own, it raises its mapping threshold and serves the next ones from
the heap, where freed memory stays: a worker that drew for three minutes under 40 busy tables
held ~200 MB (in some runs, depending on the order of its allocations) and kept it. Two
seconds after a burst of images, and every two seconds while they keep coming, the worker
asks glibc to return its free pages (``malloc_trim``, ~10 ms): back to ~60-70 MB. A fixed
mapping threshold would cap the heap as well but made every image ~30 % slower.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from bot.bots.worker import start_worker
from bot.glibc import malloc_trim

#: Seconds after an image before the worker returns its freed memory (see the docstring).
TRIM_SECONDS = 2.0
_drew = threading.Event()


def start_render_worker(parent: int, nice: int) -> None:
    """Set up a render worker: lower priority, no orphan, the renderer imported and its
    small caches warm. The Carcassonne tile masters (~11 MB) are drawn when a Carcassonne
    image first needs them, not at start: a worker at rest holds only what every game uses."""
    start_worker(parent, nice)
    import renderer

    renderer.warm_up(tiles=False)
    trim = malloc_trim()
    if trim is not None:
        threading.Thread(target=_give_back, args=(trim,), daemon=True).start()


def call(function: Callable[..., bytes], args: tuple[Any, ...], kwargs: dict[str, Any]) -> bytes:
    """``function(*args, **kwargs)``: an image, drawn in the worker."""
    try:
        return function(*args, **kwargs)
    finally:
        _drew.set()


def _give_back(trim: Callable[[], object]) -> None:
    """Return the freed memory :data:`TRIM_SECONDS` after images were drawn, again and again."""
    while True:
        _drew.wait()
        time.sleep(TRIM_SECONDS)
        _drew.clear()
        trim()
