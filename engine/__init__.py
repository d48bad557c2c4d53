"""Pure game rules for Pöppel: Tock, Dog and Carcassonne.

Nothing in this package does I/O or imports discord, asyncio, aiosqlite or Pillow; every game
is deterministic given its seed. See :mod:`engine.protocol` for the protocol all games share.
"""

from __future__ import annotations

import importlib

from engine.protocol import (
    Event,
    GameModule,
    IllegalMove,
    InvalidOptions,
    InvalidPosition,
    OptionSpec,
    Outcome,
)

GAMES: tuple[str, ...] = ("tock", "dog", "carcassonne")

__all__ = [
    "GAMES",
    "Event",
    "GameModule",
    "IllegalMove",
    "InvalidOptions",
    "InvalidPosition",
    "OptionSpec",
    "Outcome",
    "get_game",
]


def get_game(name: str) -> GameModule:
    """Return the game module for ``name`` (``"tock"``, ``"dog"`` or ``"carcassonne"``)."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(GAMES)}")
    module: GameModule = importlib.import_module(f"engine.{name}")
    return module
