"""Dog engine benchmark: ``python -m bench.engine dog``."""

from __future__ import annotations

from bench.engine_tock import report
from engine import dog

#: Hard joker-or-7 positions: a joker and a 7 in hand (the joker also tries all 13 kinds),
#: many free own pawns, and a carry-over to the partner.
WORST = [
    (
        "X and 7, 4 own pawns spread, opponents between",
        {
            "game": "dog",
            "pawns": {"0": ["r20", "r24", "r28", "r32"], "1": ["r22", "r26", "r30"]},
            "hands": {"0": ["7", "X"]},
            "turn": 0,
        },
    ),
    (
        "X and 7, own pawns at the start field, carry-over to the partner",
        {
            "game": "dog",
            "pawns": {"0": ["r59", "r61", "h0.3", "h0.4"], "2": ["r10", "r14", "r18", "r22"]},
            "hands": {"0": ["7", "X"]},
            "turn": 0,
        },
    ),
]


def main() -> None:
    """Print the Dog figures."""
    report(
        dog.GAME,
        WORST,
        {"mean": "≤ 1 ms", "seven": "≤ 15 ms (joker or 7)", "games": "≥ 50 games/s"},
    )
