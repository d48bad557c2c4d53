"""Shared helpers for the Dog rules tests.

The tests are written against the digest (``race-games.md`` parts C and D) and the notation
(``race-notation.md``). Most of them load an N-3 position, then compare the legal-move list as
a set of canonical strings (N-7.5) or the position written after a move (N-3.6).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine import dog

# N-2.2: the card order, used for sorting and by the seeded shuffles of N-4.
CARD_ORDER: tuple[str, ...] = (
    "A",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "J",
    "Q",
    "K",
    "X",
)

# D-1.1: eight of each of the 13 kinds plus six jokers.
DECK: Counter[str] = Counter(dict.fromkeys(CARD_ORDER[:-1], 8) | {"X": 6})

# D-4.1: round r deals ROUND_SIZES[(r - 1) % 5] cards to every seat.
ROUND_SIZES: tuple[int, ...] = (6, 5, 4, 3, 2)


def position(**fields: Any) -> dict[str, Any]:
    """An N-3 Dog position: ``game`` plus the given fields (the others take their defaults)."""
    return {"game": "dog", **fields}


def load(**fields: Any) -> Any:
    """Load a Dog position built from ``fields`` (see :func:`position`)."""
    return dog.from_position(position(**fields))


def legal(state: Any, seat: int | None = None) -> set[str]:
    """The legal moves of ``seat`` (default: the seat to act) as a set of canonical strings."""
    moves = dog.legal_moves(state) if seat is None else dog.legal_moves(state, seat)
    return {str(m) for m in moves}


def after(state: Any, *moves: str) -> dict[str, Any]:
    """The position written after applying ``moves`` in order to ``state``."""
    for move in moves:
        state = dog.apply(state, move)
    return dog.to_position(state)


def pick(state: Any, seat: int, token: str) -> Any:
    """Apply the exchange pick ``G:token`` of ``seat`` (the move object carries the seat)."""
    for move in dog.legal_moves(state, seat):
        if str(move) == f"G:{token}":
            return dog.apply(state, move)
    raise AssertionError(f"G:{token} is not a legal pick for seat {seat}")


def segment_texts(items: list[Any]) -> set[str]:
    """Segments ``a-b`` from a list of moves or strings, with any card prefix removed."""
    return {str(item).rsplit(":", 1)[-1] for item in items}


def sorted_cards(cards: list[str]) -> list[str]:
    """``cards`` sorted by card order (N-2.2)."""
    return sorted(cards, key=CARD_ORDER.index)


def deck_in_card_order() -> list[str]:
    """All 110 cards in card order, as N-4.4 lays them out before a shuffle."""
    return [token for token in CARD_ORDER for _ in range(DECK[token])]


def seeded_shuffle(cards: list[str], seed: int) -> tuple[list[str], int]:
    """Shuffle as N-4.1/N-4.4 do: sort, ``Random(seed).shuffle``; return cards and new seed."""
    rng = random.Random(seed)
    shuffled = sorted_cards(cards)
    rng.shuffle(shuffled)
    return shuffled, rng.getrandbits(64)


def all_cards(pos: dict[str, Any]) -> Counter[str]:
    """Every card a position accounts for: hands, draw, discard and a pending 7's card."""
    cards: Counter[str] = Counter()
    for hand in pos["hands"].values():
        cards.update(hand)
    cards.update(pos["draw"])
    cards.update(pos["discard"])
    if pos.get("seven"):
        cards[pos["seven"]["card"]] += 1
    return cards


def occupied_fields(pos: dict[str, Any]) -> list[str]:
    """The ring fields and home slots that hold pawns (guard marks removed), with repeats."""
    return [
        loc.rstrip("*")
        for pawns in pos["pawns"].values()
        for loc in pawns
        if not loc.startswith("k")
    ]
