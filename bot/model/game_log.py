"""A table's stored log applied to an engine state: one move, one entry.

The table service applies a person's or a bot's move with :func:`apply_move`; replays,
records and results rebuild a game from its stored entries with :func:`apply_entry`. Both
live here, below the service and the after-game values, so neither has to import the other.
"""

from __future__ import annotations

from typing import Any

from bot.model.table import IllegalMoveError, LogEntry, LogKind


def apply_move(module: Any, state: Any, seat: int, text: str) -> tuple[Any, str]:
    """Apply ``text`` for ``seat``; return the new state and the canonical text.

    The legal-move objects of ``seat`` are matched first (they know their seat, which a
    bare exchange pick ``G:Q`` does not); other spellings go through ``parse_move``.
    Raises :class:`IllegalMoveError` (keyed, for the person) when the engine refuses it.
    """
    from engine.protocol import IllegalMove

    legal = module.legal_moves(state, seat)
    for move in legal:
        if str(move) == text:
            return module.apply(state, move), text
    try:
        parsed = module.parse_move(state, text)
    except IllegalMove:
        raise IllegalMoveError("error.illegal", move=text) from None
    if parsed not in legal and module.seats_to_act(state) != frozenset({seat}):
        raise IllegalMoveError("error.illegal_for_you", move=text)
    try:
        return module.apply(state, parsed), str(parsed)
    except IllegalMove:
        raise IllegalMoveError("error.illegal", move=text) from None


def apply_entry(module: Any, state: Any, entry: LogEntry) -> Any:
    """The state after one stored log entry (replays, records and results share this)."""
    if entry.kind == LogKind.MOVE:
        assert entry.seat is not None
        return apply_move(module, state, entry.seat, entry.text)[0]
    if entry.kind == LogKind.AUTO:
        return module.auto_action(state, entry.seat)
    if entry.kind == LogKind.LEAVE:
        return module.leave(state, entry.seat)
    return state
