"""Small helpers for the Carcassonne rules tests (carcassonne.md, carcassonne-notation.md).

Every test builds a game from a CN-6 set-up, plays moves through the public API and reads the
CN-5 position. These helpers only shorten that; they contain no rules.
"""

from __future__ import annotations

from typing import Any

import engine.carcassonne as carc

# CN-7: seat 0 is Red, seat 1 is Blue; Red starts unless a test says otherwise.
RED = 0
BLUE = 1


def setup(**data: Any) -> Any:
    """Build a state from a CN-6 set-up given as keyword arguments."""
    return carc.from_setup(data)


def duel(draws: list[str], moves: list[str] | None = None, **extra: Any) -> Any:
    """A two-player CN-6 set-up with Red (seat 0) to start, the convention of CN-7."""
    data: dict[str, Any] = {"players": 2, "start_player": 0, "draws": draws}
    if moves:
        data["moves"] = moves
    data.update(extra)
    return carc.from_setup(data)


def position(state: Any) -> dict[str, Any]:
    """The CN-5 position of ``state``."""
    return carc.to_position(state)


def legal(state: Any) -> set[str]:
    """The CN-4 legal list of the player to act, as a set of canonical texts."""
    return {str(m) for m in carc.legal_moves(state)}


def legal_list(state: Any) -> list[str]:
    """The CN-4 legal list in the engine's order (CN-4.1 and CN-4.2 fix that order)."""
    return [str(m) for m in carc.legal_moves(state)]


def play(state: Any, *moves: str) -> Any:
    """Apply each move text in turn and return the final state."""
    for move in moves:
        state = carc.apply(state, move)
    return state


def scores(state: Any) -> list[int]:
    """The scores of every seat."""
    return list(position(state)["scores"])


def supply(follower: int = 7, big: int = 0, builder: int = 0, pig: int = 0) -> dict[str, int]:
    """One CN-5 supply entry; kinds not in play show 0."""
    return {"follower": follower, "big": big, "builder": builder, "pig": pig}


def figure(player: int, kind: str, x: int, y: int, segment: str) -> dict[str, Any]:
    """One CN-5 figure entry."""
    return {"player": player, "kind": kind, "x": x, "y": y, "segment": segment}


def no_goods() -> dict[str, int]:
    """A CN-5 goods entry with no tokens."""
    return {"wine": 0, "grain": 0, "cloth": 0}
