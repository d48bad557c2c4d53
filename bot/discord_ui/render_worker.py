"""What runs in a render worker (:mod:`bot.discord_ui.render_pool`), and nothing more.

The worker imports this module, not the pool's (which imports asyncio, ~4 MB a worker never
uses, issue #37).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.bots.worker import start_worker


def start_render_worker(parent: int, nice: int) -> None:
    """Set up a render worker: lower priority, no orphan, the renderer imported and its
    small caches warm. The Carcassonne tile masters (~11 MB) are drawn when a Carcassonne
    image first needs them, not at start: a worker at rest holds only what every game uses."""
    start_worker(parent, nice)
    import renderer

    renderer.warm_up(tiles=False)


def call(function: Callable[..., bytes], args: tuple[Any, ...], kwargs: dict[str, Any]) -> bytes:
    """``function(*args, **kwargs)``: an image, drawn in the worker."""
    return function(*args, **kwargs)
