"""The engines by game name: the one place the service turns ``"tock"`` into a module.

Owns the modules looked up so far (each once per process).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.model.table import InvalidTableOptions, TableRecord

#: Resolves an engine module by game name (``engine.get_game``; tests may pass their own).
GameLoader = Callable[[str], Any]


def default_loader(name: str) -> Any:
    """``engine.get_game``, imported when first asked (the engines are large)."""
    from engine import get_game

    return get_game(name)


class Games:
    """The engine module of each game, looked up once."""

    def __init__(self, load_game: GameLoader = default_loader) -> None:
        self._load_game = load_game
        self._modules: dict[str, Any] = {}

    def module(self, game: str) -> Any:
        """The engine module of ``game``; ``ValueError`` or ``ModuleNotFoundError`` if none."""
        module = self._modules.get(game)
        if module is None:
            module = self._modules[game] = self._load_game(game)
        return module

    def of(self, record: TableRecord) -> Any:
        """The engine module of a table's game."""
        return self.module(record.game)

    def module_or_refuse(self, game: str) -> Any:
        """The engine module of ``game``, or :class:`InvalidTableOptions` naming it."""
        try:
            return self.module(game)
        except (ValueError, ModuleNotFoundError):
            raise InvalidTableOptions("error.no_game", game=game) from None
