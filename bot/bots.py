"""How the table service asks a bot for a move.

``engine.bots.choose_move`` (written beside the engines) is used when it exists; until then, and
whenever it fails, a bot plays a uniformly random legal move chosen with a seeded generator, so
a game with bots is still reproducible from its seed.
"""

from __future__ import annotations

import importlib
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

log = logging.getLogger(__name__)

#: ``(game, view, level, legal_moves, seed) -> move text``. The service runs it in a worker
#: thread unless it is marked ``instant`` (see :func:`is_instant`).
BotChooser = Callable[[str, Mapping[str, Any], str, Sequence[str], int], str]


def random_chooser(
    game: str, view: Mapping[str, Any], level: str, legal: Sequence[str], seed: int
) -> str:
    """A uniformly random legal move (seeded)."""
    if not legal:
        raise ValueError("a bot was asked to move with no legal move")
    return random.Random(seed).choice(list(legal))


# Picking a random element takes microseconds: a thread hop would cost far more than it saves.
random_chooser.instant = True  # type: ignore[attr-defined]


def is_instant(chooser: BotChooser) -> bool:
    """True for a chooser cheap enough to call on the event loop."""
    return bool(getattr(chooser, "instant", False))


def engine_chooser(time_budget: float = 1.0) -> BotChooser:
    """A chooser backed by ``engine.bots.choose_move`` if it can be imported, else random."""
    try:
        importlib.import_module("engine.bots")
    except ModuleNotFoundError:
        return random_chooser

    def choose(
        game: str, view: Mapping[str, Any], level: str, legal: Sequence[str], seed: int
    ) -> str:
        bots: Any = importlib.import_module("engine.bots")
        try:
            return str(bots.choose_move(game, view, level, seed=seed, time_budget=time_budget))
        except Exception:
            # A bot bug must not stall a table: fall back to a legal random move.
            log.exception("engine.bots.choose_move failed for %s; playing a random move", game)
            return random_chooser(game, view, level, legal, seed)

    return choose
