"""How the table service asks a bot for a move.

``engine.bots.choose_move`` (written beside the engines) chooses; whenever it fails, a bot
plays a uniformly random legal move chosen with a seeded generator, so a game with bots is
still reproducible from its seed. :func:`engine_move` is that call; :func:`engine_chooser` makes
it in a worker thread of this process (the terminal), :class:`bot.bots.pool.BotPool` in worker
processes (the Discord bot, where a search must not hold the event loop's GIL).
"""

from __future__ import annotations

import importlib
import logging
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

log = logging.getLogger(__name__)

#: ``(game, view, level, legal_moves, seed) -> move text`` (or an awaitable of it). The service
#: runs a plain function in a worker thread unless it is marked ``instant`` (see
#: :func:`is_instant`), and awaits an async one.
BotChooser = Callable[[str, Mapping[str, Any], str, Sequence[str], int], str | Awaitable[str]]

#: The levels whose moves search for a while (the others answer in milliseconds).
SLOW_LEVELS: frozenset[str] = frozenset({"hard"})


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


def slow_levels(chooser: BotChooser) -> frozenset[str]:
    """The levels for which ``chooser`` may think long (none unless it says so)."""
    return frozenset(getattr(chooser, "slow_levels", ()))


def engine_move(
    game: str,
    view: Mapping[str, Any],
    level: str,
    legal: Sequence[str],
    seed: int,
    time_budget: float = 1.0,
    iterations: int | None = None,
) -> str:
    """``engine.bots.choose_move`` for the seat of ``view``; a seeded random legal move if the
    engine has no bots or fails (a bot bug must not stall a table)."""
    try:
        bots: Any = importlib.import_module("engine.bots")
    except ModuleNotFoundError:
        return random_chooser(game, view, level, legal, seed)
    try:
        return str(
            bots.choose_move(
                game, view, level, seed=seed, time_budget=time_budget, iterations=iterations
            )
        )
    except Exception:
        log.exception("engine.bots.choose_move failed for %s; playing a random move", game)
        return random_chooser(game, view, level, legal, seed)


def engine_chooser(time_budget: float = 1.0, iterations: int | None = None) -> BotChooser:
    """A chooser calling :func:`engine_move` in this process."""

    def choose(
        game: str, view: Mapping[str, Any], level: str, legal: Sequence[str], seed: int
    ) -> str:
        return engine_move(game, view, level, legal, seed, time_budget, iterations)

    choose.slow_levels = SLOW_LEVELS  # type: ignore[attr-defined]
    return choose
