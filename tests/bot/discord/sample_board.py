"""A small Tock board seen by seat 0, and its players' names, for the tests of move labels."""

from __future__ import annotations

#: Red (seat 0) on 17 and 30 with two pawns in the kennel; Blue on 40.
VIEW = {
    "viewer": 0,
    "seats": [0, 1, 2, 3],
    "board": {"ring": 72, "per_seat": 18},
    "pawns": {"0": ["r17", "r30", "k0", "k0"], "1": ["r40", "k1", "k1", "k1"]},
}
NAMES = {0: "alice", 1: "Bob", 2: "carol", 3: "dave"}
