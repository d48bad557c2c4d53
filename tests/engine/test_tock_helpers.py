"""Helpers for the Tock and race-core tests (no tests here; named to fit the test layout)."""

from __future__ import annotations

from typing import Any

from engine import tock


def load(**fields: Any) -> Any:
    """Load a Tock position made of ``fields`` (N-3; omitted fields take their defaults)."""
    return tock.from_position({"game": "tock", **fields})


def legal(state: Any, seat: int | None = None) -> set[str]:
    """The legal moves as a set of canonical strings."""
    return {str(m) for m in tock.legal_moves(state, seat)}


def after(state: Any, *moves: str) -> dict[str, Any]:
    """The position after applying ``moves`` in order."""
    for move in moves:
        state = tock.apply(state, move)
    return tock.to_position(state)


def pawns(state: Any, seat: int) -> list[str]:
    """The written pawn list of ``seat``."""
    result: list[str] = tock.to_position(state)["pawns"][str(seat)]
    return result
