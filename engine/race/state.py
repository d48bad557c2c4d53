"""The immutable state of a Tock or Dog game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.protocol import Event
from engine.race.geometry import HOME, KENNEL, Config, is_ring

Board = tuple[tuple[int, ...], ...]

#: Cache entries that depend on the board (pawns and guards) only.
_BOARD_KEYS = ("occ", "guarded")


@dataclass(frozen=True, slots=True)
class Seven:
    """A pending split 7 (N-3.3).

    ``start_board``/``start_guards`` and ``done`` are not part of the position format: they
    let the engine log the completed 7 in canonical form (C-8.7). A 7 loaded from a position
    has no start board and is logged with the segments actually made.
    """

    card: str
    colour: int
    left: int
    moved: frozenset[int]
    start_board: Board | None = None
    start_guards: frozenset[int] = frozenset()
    done: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class State:
    """A race-game state. Never mutated: every action returns a new one.

    ``pawns[s]`` holds 4 sorted locations for each seat in use (empty for others);
    ``guards`` the seats whose pawn on their start field is guarded (C-3).
    """

    cfg: Config
    pawns: Board
    guards: frozenset[int]
    hands: tuple[tuple[str, ...], ...]
    phase: str = "play"
    turn: int = 0
    dealer: int = 0
    number: int = 1  # Tock: hand within the deck cycle; Dog: round
    deals: int = 1  # Tock: deals made in the game so far, the current one included
    banned: bool = False
    folded: frozenset[int] = frozenset()
    exchange: tuple[tuple[int, str], ...] = ()
    draw: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    left: frozenset[int] = frozenset()
    seven: Seven | None = None
    winner: tuple[int, ...] | None = None
    seed: int = 0
    events: tuple[Event, ...] = ()
    received: tuple[tuple[int, str], ...] = ()
    cache: dict[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def evolve(self, **changes: Any) -> State:
        """A copy with ``changes`` applied; its cache keeps only what the board decides.

        Faster than :func:`dataclasses.replace` (it skips ``__init__``), which matters
        because every action makes a few of these.
        """
        new = object.__new__(State)
        fields = self.__dict__.copy()
        cache: dict[str, Any] = {}
        if "pawns" not in changes and "guards" not in changes:
            # The same board: what was derived from it still holds.
            old = fields["cache"]
            for key in _BOARD_KEYS:
                if key in old:
                    cache[key] = old[key]
        fields["cache"] = cache
        fields.update(changes)
        object.__setattr__(new, "__dict__", fields)
        return new

    def occupancy(self) -> dict[int, int]:
        """Ring field or home slot -> seat of the pawn standing there (a fresh dict)."""
        return dict(self.occupied())

    def occupied(self) -> dict[int, int]:
        """Like :meth:`occupancy`, but the cached dict itself: never change it."""
        occ: dict[int, int] | None = self.cache.get("occ")
        if occ is None:
            occ = {}
            for s, locs in enumerate(self.pawns):
                for loc in locs:
                    if loc < KENNEL:
                        occ[loc] = s
            self.cache["occ"] = occ
        return occ

    def guarded_fields(self) -> frozenset[int]:
        """The ring fields holding a guarded pawn (cached: the state never changes)."""
        fields: frozenset[int] | None = self.cache.get("guarded")
        if fields is None:
            start = self.cfg.start
            fields = self.cache["guarded"] = frozenset([start[s] for s in self.guards])
        return fields

    def is_complete(self, seat: int) -> bool:
        """Whether all four pawns of ``seat`` are home."""
        locs = self.pawns[seat]
        # Sorted locations: ring < home < kennel, so the first and last pawn decide.
        return bool(locs) and locs[0] >= HOME and locs[-1] < KENNEL

    def moved_colour(self, seat: int) -> int:
        """The colour ``seat`` moves with its cards (C-1.5, T-11, D-12)."""
        partner = self.cfg.partner[seat]
        if partner >= 0 and self.is_complete(seat):
            return partner
        return seat

    def ring_pawns(self, seat: int) -> list[int]:
        """The ring fields held by pawns of ``seat``."""
        return [loc for loc in self.pawns[seat] if is_ring(loc)]
