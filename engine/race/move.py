"""The move value type (N-5): hashable, equal by canonical text."""

from __future__ import annotations

from typing import Any


class Move(tuple[str, int, str, str, str, tuple[Any, ...]]):
    """One legal action, written in canonical notation (N-6).

    Moves compare and hash by ``text`` only, so they go in sets and ``parse_move`` of any
    spelling yields an equal move; ``str(move)`` is the text. The other fields say how to
    carry the move out:

    * ``kind``: ``"play"``, ``"discard"``, ``"fold"``, ``"pick"``, ``"segment"`` (a bare
      walk of a pending 7) or ``"partial"`` (the first segment of a 7, N-5.3);
    * ``seat``: who acts; ``card``: the token leaving the hand (``"X"`` for a joker);
      ``rank``: the kind played (the joker's declared kind);
    * ``action``: ``("out", colour)``, ``("walk", from, to, path)``, ``("swap", a, b)``,
      ``("null",)``, ``("steps", ((from, steps, to), ...), burn)`` or ``()``, with
      locations as the ints of :mod:`engine.race.geometry`.

    A tuple underneath (immutable and cheap to build: legal-move lists make many).
    """

    __slots__ = ()

    def __new__(
        cls,
        text: str,
        seat: int = -1,
        kind: str = "play",
        card: str = "",
        rank: str = "",
        action: tuple[Any, ...] = (),
    ) -> Move:
        return tuple.__new__(cls, (text, seat, kind, card, rank, action))

    @property
    def text(self) -> str:
        """The canonical notation."""
        return self[0]

    @property
    def seat(self) -> int:
        """The acting seat (-1 if unknown)."""
        return self[1]

    @property
    def kind(self) -> str:
        """``play``, ``discard``, ``fold``, ``pick``, ``segment`` or ``partial``."""
        return self[2]

    @property
    def card(self) -> str:
        """The token leaving the hand."""
        return self[3]

    @property
    def rank(self) -> str:
        """The kind played (a joker's declared kind)."""
        return self[4]

    @property
    def action(self) -> tuple[Any, ...]:
        """How the move changes the board (see the class docstring)."""
        return self[5]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self[0] == other[0]

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self[0])

    def __str__(self) -> str:
        return self[0]

    def __repr__(self) -> str:
        return f"Move({self[0]!r})"
