"""Geometry of the Tock / Dog board: where every ring field, home slot and kennel slot lies.

The ring is a circle drawn clockwise (the direction of play, C-2.1). The seat the image is
made for sits at the bottom, so every player sees their own corner nearest to them. All
positions depend only on the board size, the seats in use and that bottom seat, so the
layout is computed once and cached.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

Point = tuple[float, float]

#: How far along the ring (in fields) the home lane's first slot lies past the branch field,
#: so that the lane visibly forks off the ring instead of continuing a line of ring fields.
LANE_FORK = 0.6


@dataclass(frozen=True, slots=True, eq=False)
class RaceLayout:
    """Pixel positions of every location of one board arrangement (a ``width`` square; the
    caption and the seat panels below it are laid out per image)."""

    game: str
    ring_size: int
    per_seat: int
    seats: tuple[int, ...]
    bottom_seat: int
    width: int
    centre: Point
    radius: float
    field_radius: float
    pawn_radius: float
    ring: tuple[Point, ...]
    homes: Mapping[int, tuple[Point, ...]]
    kennels: Mapping[int, tuple[Point, ...]]
    labels: Mapping[int, Point]

    @property
    def key(self) -> tuple[str, int, int, tuple[int, ...], int]:
        """What the layout is computed from; equal keys give equal layouts."""
        return (self.game, self.ring_size, self.per_seat, self.seats, self.bottom_seat)

    def start_field(self, seat: int) -> int:
        """Ring index of ``seat``'s start field (C-2.2)."""
        return self.per_seat * seat

    def branch_field(self, seat: int) -> int:
        """Ring index from which ``seat``'s pawns step into their home (T-2.5, D-2.3)."""
        if self.game == "tock":
            return (self.per_seat * seat - 2) % self.ring_size
        return self.per_seat * seat

    def angle(self, index: float) -> float:
        """Screen angle (radians, clockwise from east) of ring position ``index``."""
        start = self.per_seat * self.bottom_seat
        return math.pi / 2 + 2 * math.pi * (index - start) / self.ring_size

    def point(self, location: str) -> Point:
        """Centre of a location written as in N-1 (``r12``, ``h0.2``, ``k1``; ``*`` ignored).

        A kennel ``kS`` gives its first slot; ``kS.n`` (n = 1…4) gives slot n.
        """
        loc = location.rstrip("*")
        if loc.startswith("r"):
            return self.ring[int(loc[1:]) % self.ring_size]
        if loc.startswith("h"):
            seat, slot = loc[1:].split(".")
            return self.homes[int(seat)][int(slot) - 1]
        if loc.startswith("k"):
            seat_text, _, slot_text = loc[1:].partition(".")
            return self.kennels[int(seat_text)][int(slot_text or 1) - 1]
        raise ValueError(f"not a location: {location!r}")


def board_shape(view: Mapping[str, Any]) -> tuple[int, int]:
    """(ring size, fields per seat) of a race view, with N-3 defaults if ``board`` is absent."""
    board = view.get("board") or {}
    per_seat = int(board.get("per_seat") or (18 if view.get("game") == "tock" else 16))
    ring = board.get("ring")
    if not ring:
        seats = view.get("seats") or [0, 1, 2, 3]
        positions = 6 if max(seats) >= 4 or len(seats) >= 5 else 4
        ring = per_seat * positions
    return int(ring), per_seat


def layout_for(view: Mapping[str, Any]) -> RaceLayout:
    """The (cached) layout of a race view; the viewer's seat is drawn at the bottom."""
    ring, per_seat = board_shape(view)
    seats = tuple(int(s) for s in view.get("seats") or range(ring // per_seat))
    viewer = view.get("viewer")
    bottom = int(viewer) if viewer is not None and int(viewer) in seats else seats[0]
    return _layout(str(view.get("game")), ring, per_seat, seats, bottom)


@lru_cache(maxsize=32)
def _layout(game: str, ring: int, per_seat: int, seats: tuple[int, ...], bottom: int) -> RaceLayout:
    positions = ring // per_seat
    width = 900 if positions <= 4 else 1080
    radius = width * 0.415
    centre = (width / 2, width / 2)
    spacing = 2 * math.pi * radius / ring
    # Pawns are a little wider than the field pitch: crowded neighbours overlap slightly,
    # but a lone pawn (the usual case) stays big enough to read at phone size.
    pawn_radius = spacing * 0.6
    field_radius = spacing * 0.3
    half = {
        "game": game,
        "ring_size": ring,
        "per_seat": per_seat,
        "seats": seats,
        "bottom_seat": bottom,
    }

    def angle(index: float) -> float:
        return math.pi / 2 + 2 * math.pi * (index - per_seat * bottom) / ring

    def polar(index: float, r: float) -> Point:
        a = angle(index)
        return (centre[0] + r * math.cos(a), centre[1] + r * math.sin(a))

    ring_points = tuple(polar(i, radius) for i in range(ring))
    lane_step = 2 * pawn_radius + 4
    homes: dict[int, tuple[Point, ...]] = {}
    kennels: dict[int, tuple[Point, ...]] = {}
    labels: dict[int, Point] = {}
    for seat in seats:
        start = per_seat * seat
        branch = (start - 2) % ring if game == "tock" else start
        homes[seat] = tuple(
            polar(branch + LANE_FORK, radius - lane_step * (k + 0.1)) for k in range(1, 5)
        )
        # The kennel sits inside the ring just clockwise of the start field, away from the
        # home lane (which leaves from the branch field at or before the start field).
        offset = 3.2 if game == "tock" else 3.6
        kennel_centre_r = radius - lane_step * 1.8
        a = angle(start + offset)
        radial = (math.cos(a), math.sin(a))
        tangent = (-math.sin(a), math.cos(a))
        kc = (centre[0] + kennel_centre_r * radial[0], centre[1] + kennel_centre_r * radial[1])
        slots = []
        for dr, dt in ((0.5, -0.5), (0.5, 0.5), (-0.5, -0.5), (-0.5, 0.5)):
            slots.append(
                (
                    kc[0] + lane_step * (dr * radial[0] + dt * tangent[0]),
                    kc[1] + lane_step * (dr * radial[1] + dt * tangent[1]),
                )
            )
        kennels[seat] = tuple(slots)
        labels[seat] = polar(start + 0.5, radius + pawn_radius + width * 0.035)
    return RaceLayout(
        **half,  # type: ignore[arg-type]
        width=width,
        centre=centre,
        radius=radius,
        field_radius=field_radius,
        pawn_radius=pawn_radius,
        ring=ring_points,
        homes=homes,
        kennels=kennels,
        labels=labels,
    )


def race_field_center(view: Mapping[str, Any], location: str) -> tuple[int, int]:
    """Pixel centre of ``location`` (``r12``, ``h0.2``, ``k1``, ``k1.3``) in the board image.

    Tests use it to find a pawn in the image; the bot may use it for image maps.
    """
    x, y = layout_for(view).point(location)
    return round(x), round(y)


def pawn_slots(view: Mapping[str, Any]) -> dict[str, tuple[int, bool]]:
    """Where each pawn is drawn: ``{location: (seat, guarded)}``, kennel pawns as ``kS.n``."""
    placed: dict[str, tuple[int, bool]] = {}
    pawns: Mapping[str, Sequence[str]] = view.get("pawns") or {}
    for seat in view.get("seats") or []:
        kennel_count = 0
        locations = list(pawns.get(str(seat), []))
        locations += ["k" + str(seat)] * (4 - len(locations))
        for raw in locations:
            guarded = raw.endswith("*")
            loc = raw.rstrip("*")
            if loc.startswith("k"):
                kennel_count += 1
                loc = f"k{seat}.{kennel_count}"
            placed[loc] = (int(seat), guarded)
    return placed
