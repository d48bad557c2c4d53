"""A mutable working copy of the board that carries out actions and records events."""

from __future__ import annotations

from collections.abc import Sequence

from engine.protocol import Event
from engine.race.geometry import HOME, KENNEL, NAMES
from engine.race.state import Board, State

COLOURS = ("Red", "Blue", "Yellow", "Green", "Purple", "Orange")


def colour_name(seat: int) -> str:
    """The colour name of a seat (N-8: 0 Red, 1 Blue, 2 Yellow, 3 Green, …)."""
    return COLOURS[seat] if 0 <= seat < len(COLOURS) else f"seat {seat}"


class Work:
    """The board of a state, being changed by one action.

    Location names come straight from :data:`~engine.race.geometry.NAMES`: every action
    spells a few, and this is the hot path of whole-game simulations.
    """

    __slots__ = ("cfg", "events", "guards", "guards_moved", "movers", "occ", "pawns", "state")

    def __init__(self, state: State) -> None:
        self.cfg = state.cfg
        self.state = state
        self.occ = dict(state.occupied())
        #: The guarded ring fields: replaced, never changed (most actions keep the state's).
        self.guards = state.guarded_fields()
        self.guards_moved = False
        self.events: list[Event] = []
        #: The pawns per seat, kept sorted as pawns move (cheaper than rebuilding them).
        self.pawns = list(state.pawns)
        #: The colours whose pawns walked or came out: only they can have finished now.
        self.movers: list[int] = []

    def _relocate(self, seat: int, frm: int, to: int) -> None:
        """One pawn of ``seat`` goes from ``frm`` to ``to`` in :attr:`pawns`."""
        locs = list(self.pawns[seat])
        locs[locs.index(frm)] = to
        locs.sort()
        self.pawns[seat] = tuple(locs)

    def _unguard(self, loc: int) -> None:
        """The guard on ``loc`` (if any) ends: its pawn left or was taken."""
        if loc in self.guards:
            self.guards = self.guards.difference((loc,))
            self.guards_moved = True

    def capture(self, loc: int, by: int) -> None:
        """Send the pawn on ``loc`` to its owner's kennel (C-5.1)."""
        victim = self.occ.pop(loc)
        self._relocate(victim, loc, KENNEL + victim)
        self._unguard(loc)
        at = NAMES[loc]
        self.events.append(
            Event(
                "capture",
                victim,
                {"at": at, "by": by, "to": NAMES[KENNEL + victim]},
            )
        )

    def walk(self, frm: int, path: Sequence[int], burn: bool, actor: int) -> None:
        """Move the pawn on ``frm`` along ``path``; capture at the end (or everywhere)."""
        occ = self.occ
        seat = occ.pop(frm)
        self._unguard(frm)
        to = path[-1]
        if burn:
            for loc in path:
                if loc in occ and loc < HOME:
                    self.capture(loc, actor)
        elif to in occ and to < HOME:
            self.capture(to, actor)
        occ[to] = seat
        self._relocate(seat, frm, to)
        self.movers.append(seat)
        names = NAMES
        frm_text, to_text = names[frm], names[to]
        self.events.append(
            Event(
                "move",
                actor,
                {
                    "colour": seat,
                    "from": frm_text,
                    "to": to_text,
                    "path": list(map(names.__getitem__, path)),
                },
            )
        )

    def bring_out(self, colour: int, actor: int) -> None:
        """Put a pawn of ``colour`` from its kennel onto its start field, guarded (C-6)."""
        start = self.cfg.start[colour]
        if start in self.occ:
            self.capture(start, actor)
        self.occ[start] = colour
        self._relocate(colour, KENNEL + colour, start)
        self.movers.append(colour)
        self.guards = self.guards.union((start,))
        self.guards_moved = True
        to = NAMES[start]
        self.events.append(
            Event(
                "bring_out",
                actor,
                {"colour": colour, "to": to},
            )
        )

    def swap(self, a: int, b: int, actor: int) -> None:
        """Exchange the pawns on ring fields ``a`` and ``b`` (C-7)."""
        sa, sb = self.occ[a], self.occ[b]
        self.occ[a], self.occ[b] = sb, sa
        self._relocate(sa, a, b)
        self._relocate(sb, b, a)
        a_text, b_text = NAMES[a], NAMES[b]
        self.events.append(
            Event(
                "swap",
                actor,
                {"a": a_text, "b": b_text, "colours": [sa, sb]},
            )
        )

    def board(self) -> tuple[Board, frozenset[int]]:
        """The pawns per seat (4 sorted locations each) and the guarded seats."""
        # A guarded field always holds its own pawn: nothing can capture, swap or pass it,
        # and the guard ends when that pawn steps away (C-3).
        if not self.guards_moved:
            return tuple(self.pawns), self.state.guards
        occ = self.occ
        return tuple(self.pawns), frozenset([occ[loc] for loc in self.guards])

    def settle(self, new: State) -> State:
        """Hand this board's occupancy to ``new`` (whose pawns it describes) as its cache.

        Saves rebuilding it when the next legal moves are generated; nothing changes the
        dict any more.
        """
        cache = new.cache
        cache["occ"] = self.occ
        cache["guarded"] = self.guards
        return new
