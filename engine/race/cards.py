"""Card tokens, their order (N-2.2) and the two decks (T-1.1, D-1.1)."""

from __future__ import annotations

from collections.abc import Iterable

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
TOKENS: tuple[str, ...] = (*RANKS, "X")
ORDER: dict[str, int] = {token: index for index, token in enumerate(TOKENS)}

#: Counting value of each rank for a forward walk; the A also has 11 in Dog (D-5.1).
COUNTS: dict[str, int] = {
    "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
    "Q": 12, "K": 13,
}  # fmt: skip


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """The cards sorted by card order (N-2.2)."""
    return tuple(sorted(cards, key=ORDER.__getitem__))


def deck(jokers: int, copies: int) -> dict[str, int]:
    """The deck as token -> count."""
    counts = dict.fromkeys(RANKS, copies)
    if jokers:
        counts["X"] = jokers
    return counts
