"""Incremental feature tracking: what placing a tile joins (K-2.5) and what stays open.

Segments have integer ids ``tile index * 16 + local segment index``. A union-find over them
(``State.parent``; ``State.find`` is the query) has a :class:`Feature` record at each root with
the count of unmatched sides, the cells, shields, inn, cathedral, goods and, for fields, the
city segments it borders, so completion and scoring need no flood fill (K-2.15). Empty cells
next to the board are kept with a code of the terrain each neighbour shows towards them, so
legal placements need no scan of the board. The river's open end moves with each river tile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from engine.carcassonne.tiles import (
    CITY,
    FIELD,
    GOODS,
    RIVER,
    ROAD,
    SIDE_DELTA,
    TILES,
    Rotated,
    opposite_half,
)

if TYPE_CHECKING:
    from engine.carcassonne.state import State

Cell = tuple[int, int]
SEG_BITS = 4  # a tile has at most 16 segments (the largest has 9)


class Feature(NamedTuple):
    """What the engine knows about one road, city or farm (stored at its union-find root).

    A named tuple rather than a frozen dataclass: records are made on every join, and tuples
    are much cheaper to create.
    """

    kind: int
    open: int  # sides of its road/city segments that face no tile yet
    cells: frozenset[Cell]
    shields: int = 0
    inn: bool = False
    cathedral: bool = False
    goods: tuple[int, int, int] = (0, 0, 0)
    cities: frozenset[int] = frozenset()  # farm: segment ids of the city segments it borders

    def merged(self, other: Feature, closed: int) -> Feature:
        """The record of the union of two features, ``closed`` sides matched by the join."""
        return Feature(
            self.kind,
            self.open + other.open - closed,
            self.cells | other.cells,
            self.shields + other.shields,
            self.inn or other.inn,
            self.cathedral or other.cathedral,
            (
                self.goods[0] + other.goods[0],
                self.goods[1] + other.goods[1],
                self.goods[2] + other.goods[2],
            ),
            self.cities | other.cities,
        )


_POW5 = (1, 5, 25, 125)


def decode_constraint(code: int) -> tuple[int, int, int, int]:
    """The terrain each neighbour shows towards a frontier cell (N, E, S, W; -1 = empty)."""
    return (code % 5 - 1, code // 5 % 5 - 1, code // 25 % 5 - 1, code // 125 % 5 - 1)


# Terrain codes that carry field halves across a side (a city side has none, K-2.5).
_HALF_TERRAINS = (ROAD, FIELD, RIVER)


def place_tile(state: State, tile: str, x: int, y: int, k: int) -> None:
    """Put ``tile`` on the board (no legality check) and join its segments (K-2.5)."""
    tt = TILES[tile]
    rt = tt.rotations[k]
    index = len(state.tiles)
    cell = (x, y)
    state.tiles.append((tile, x, y, k))
    state.cells[cell] = index
    state.frontier.pop(cell, None)
    base = index << SEG_BITS
    feats = state.feats
    only_cell = frozenset((cell,))
    # A segment with no ``parent`` entry is its own root; only joins add entries.
    for i, seg in enumerate(tt.segments):
        sid = base + i
        if seg.kind == CITY or seg.kind == ROAD:
            goods = (0, 0, 0)
            if seg.goods:
                g = [0, 0, 0]
                g[GOODS.index(seg.goods)] = 1
                goods = (g[0], g[1], g[2])
            feats[sid] = Feature(
                seg.kind,
                len(seg.sides),
                only_cell,
                int(seg.shield),
                seg.inn,
                seg.cathedral,
                goods,
            )
        elif seg.kind == FIELD:
            feats[sid] = Feature(
                FIELD, 0, frozenset(), cities=frozenset(base + c for c in seg.cities)
            )
    cells = state.cells
    edges = rt.edges
    for side in range(4):
        dx, dy = SIDE_DELTA[side]
        ncell = (x + dx, y + dy)
        nindex = cells.get(ncell)
        if nindex is None:
            _touch_frontier(state, ncell, (side + 2) % 4, edges[side])
            continue
        nrt = state.rotated(nindex)
        nbase = nindex << SEG_BITS
        terrain = edges[side]
        if terrain in (CITY, ROAD):
            _union(state, base + rt.side_seg[side], nbase + nrt.side_seg[(side + 2) % 4], 2)
        if terrain in _HALF_TERRAINS:
            for half in (2 * side, 2 * side + 1):
                a = rt.half_seg[half]
                b = nrt.half_seg[opposite_half(half)]
                if a >= 0 and b >= 0:
                    _union(state, base + a, nbase + b, 0)
    if tt.river:
        _advance_river(state, rt, cell)


def _touch_frontier(state: State, cell: Cell, side: int, terrain: int) -> None:
    # Constraint code: digit ``side`` in base 5 is the neighbour's terrain + 1 (0 = empty).
    state.frontier[cell] = state.frontier.get(cell, 0) + (terrain + 1) * _POW5[side]


def _union(state: State, a: int, b: int, closed: int) -> None:
    ra = state.find(a)
    rb = state.find(b)
    feats = state.feats
    if ra == rb:
        if closed:
            feats[ra] = feats[ra]._replace(open=feats[ra].open - closed)
        return
    if rb < ra:
        # The older root (smaller id, usually the bigger tree) stays root: shallow trees.
        ra, rb = rb, ra
    fa = feats[ra]
    fb = feats.pop(rb)
    feats[ra] = fa.merged(fb, closed)
    state.parent[rb] = ra


def _advance_river(state: State, rt: Rotated, cell: Cell) -> None:
    """Move the open river end past a river tile just placed (K-12.3, K-12.4)."""
    sides = rt.river_sides
    if state.river_end is None:
        # The spring (or a river tile put down by set-up): its only side is the open end.
        enter = -1
    else:
        end_cell, end_side = state.river_end
        dx, dy = SIDE_DELTA[end_side]
        enter = (end_side + 2) % 4 if (end_cell[0] + dx, end_cell[1] + dy) == cell else -1
    leave = [s for s in sides if s != enter]
    if enter >= 0 and leave:
        flow = (enter + 2) % 4
        if leave[0] != flow:
            state.last_bend = 1 if leave[0] == (flow + 1) % 4 else -1
    state.river_end = None
    if leave and (enter >= 0 or len(sides) == 1):
        dx, dy = SIDE_DELTA[leave[0]]
        if (cell[0] + dx, cell[1] + dy) not in state.cells:
            state.river_end = (cell, leave[0])
