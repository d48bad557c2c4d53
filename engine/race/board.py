"""A mutable working copy of the board that carries out actions and records events."""

from __future__ import annotations

from collections.abc import Sequence

from engine.protocol import Event
from engine.race.geometry import HOME, kennel, loc_text
from engine.race.state import Board, State

COLOURS = ("Red", "Blue", "Yellow", "Green", "Purple", "Orange")


def colour_name(seat: int) -> str:
    """The colour name of a seat (N-8: 0 Red, 1 Blue, 2 Yellow, 3 Green, …)."""
    return COLOURS[seat] if 0 <= seat < len(COLOURS) else f"seat {seat}"


class Work:
    """The board of a state, being changed by one action."""

    def __init__(self, state: State) -> None:
        self.cfg = state.cfg
        self.state = state
        self.occ = state.occupancy()
        self.guards = set(state.guarded_fields())
        self.events: list[Event] = []
        #: Seats whose pawns moved or were captured: only their pawn lists are rebuilt.
        self.touched: set[int] = set()

    def capture(self, loc: int, by: int) -> None:
        """Send the pawn on ``loc`` to its owner's kennel (C-5.1)."""
        victim = self.occ.pop(loc)
        self.touched.add(victim)
        self.guards.discard(loc)
        self.events.append(
            Event(
                "capture",
                victim,
                {"at": loc_text(loc), "by": by, "to": loc_text(kennel(victim))},
                f"{colour_name(victim)}'s pawn on {loc_text(loc)} goes back to its kennel.",
            )
        )

    def walk(self, frm: int, path: Sequence[int], burn: bool, actor: int) -> None:
        """Move the pawn on ``frm`` along ``path``; capture at the end (or everywhere)."""
        seat = self.occ.pop(frm)
        self.touched.add(seat)
        self.guards.discard(frm)
        for i, loc in enumerate(path):
            if loc < HOME and loc in self.occ and (burn or i == len(path) - 1):
                self.capture(loc, actor)
        self.occ[path[-1]] = seat
        self.events.append(
            Event(
                "move",
                actor,
                {
                    "colour": seat,
                    "from": loc_text(frm),
                    "to": loc_text(path[-1]),
                    "path": [loc_text(loc) for loc in path],
                },
                f"{colour_name(seat)} pawn {loc_text(frm)} → {loc_text(path[-1])}.",
            )
        )

    def bring_out(self, colour: int, actor: int) -> None:
        """Put a pawn of ``colour`` from its kennel onto its start field, guarded (C-6)."""
        start = self.cfg.start[colour]
        self.touched.add(colour)
        if start in self.occ:
            self.capture(start, actor)
        self.occ[start] = colour
        self.guards.add(start)
        self.events.append(
            Event(
                "bring_out",
                actor,
                {"colour": colour, "to": loc_text(start)},
                f"{colour_name(colour)} brings a pawn out onto {loc_text(start)}.",
            )
        )

    def swap(self, a: int, b: int, actor: int) -> None:
        """Exchange the pawns on ring fields ``a`` and ``b`` (C-7)."""
        sa, sb = self.occ[a], self.occ[b]
        self.touched.update((sa, sb))
        self.occ[a], self.occ[b] = sb, sa
        self.events.append(
            Event(
                "swap",
                actor,
                {"a": loc_text(a), "b": loc_text(b), "colours": [sa, sb]},
                f"{colour_name(sa)} {loc_text(a)} and {colour_name(sb)} {loc_text(b)} swap places.",
            )
        )

    def board(self) -> tuple[Board, frozenset[int]]:
        """The pawns per seat (4 sorted locations each) and the guarded seats."""
        pawns = list(self.state.pawns)
        touched = self.touched
        if touched:
            per: dict[int, list[int]] = {s: [] for s in touched}
            for loc, s in self.occ.items():
                if s in per:
                    per[s].append(loc)
            for s, locs in per.items():
                locs.sort()
                locs.extend([kennel(s)] * (4 - len(locs)))
                pawns[s] = tuple(locs)
        # A guarded field always holds its own pawn: nothing can capture, swap or pass it,
        # and the guard ends when that pawn steps away (C-3).
        guards = frozenset(self.occ[loc] for loc in self.guards)
        return tuple(pawns), guards
