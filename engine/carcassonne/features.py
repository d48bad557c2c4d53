"""Incremental feature tracking: what placing a tile joins (K-2.5) and what stays open.

Segments have integer ids ``tile index * 16 + local segment index``. A flat union-find over
them (``State.parent`` maps every joined segment straight to its root, the feature's smallest
id; ``State.find`` is the query) has a :class:`Feature` record at each root with
the count of unmatched sides, the cells, shields, inn, cathedral, goods and, for fields, the
city segments it borders, so completion and scoring need no flood fill (K-2.15). Empty cells
next to the board are kept with a code of the terrain each neighbour shows towards them, so
legal placements need no scan of the board; their keys are row-major ints (:func:`cell_key`),
so that sorting them gives the CN-4.1 order. The river's open end moves with each river tile.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

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

Cell = tuple[int, int]
SEG_BITS = 4  # a tile has at most 16 segments (the largest has 9)
# Frontier cells are keyed by one int, row-major, so that sorting keys sorts cells by (y, x)
# (CN-4.1). The window of 4096 cells each way keeps every key << 4 below 2**30, a one-digit
# Python int (cheaper to sort and hash); no pile reaches its edge (set-up caps forced draw
# orders at MAX_DRAWS tiles, CN-6).
KEY_HALF = 1 << 12
KEY_WIDTH = 2 * KEY_HALF
KEY_OFFSET = KEY_HALF * KEY_WIDTH + KEY_HALF
MAX_DRAWS = KEY_HALF - 96  # the tiles of a forced draw order, start tile and river aside


def cell_key(x: int, y: int) -> int:
    """The frontier key of cell ``(x, y)``."""
    return y * KEY_WIDTH + x + KEY_OFFSET


def key_cell(key: int) -> Cell:
    """The cell of frontier key ``key``."""
    y, x = divmod(key - KEY_OFFSET + KEY_HALF, KEY_WIDTH)
    return (x - KEY_HALF, y)


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
    members: tuple[int, ...] = ()  # every segment id of the feature (the union-find is flat)

    def merged(self, other: Feature, closed: int) -> Feature:
        """The record of the union of two features, ``closed`` sides matched by the join."""
        return _new_tuple(
            Feature,
            (
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
                self.members + other.members,
            ),
        )


_POW5 = (1, 5, 25, 125)


def decode_constraint(code: int) -> tuple[int, int, int, int]:
    """The terrain each neighbour shows towards a frontier cell (N, E, S, W; -1 = empty)."""
    return (code % 5 - 1, code // 5 % 5 - 1, code // 25 % 5 - 1, code // 125 % 5 - 1)


# Terrain codes that carry field halves across a side (a city side has none, K-2.5).
_HALF_TERRAINS = (ROAD, FIELD, RIVER)


# Per tile type: (local index, kind, open sides, shield, inn, cathedral, goods, bordered cities)
# of every road, city and field segment, so that placing a tile reads no Segment objects.
_SegInit = tuple[int, int, int, int, bool, bool, tuple[int, int, int], tuple[int, ...]]
# Per (tile type, rotation), for each board side: cell offset, frontier key offset, the
# neighbour's side facing it, the frontier code it adds, its own road/city segment there (-1:
# none) and the field pairs (own segment, the neighbour's half-edge) to join across it.
_SideInfo = tuple[int, int, int, int, int, int, tuple[tuple[int, int], ...]]
_INITS: dict[str, tuple[_SegInit, ...]] = {}
_SIDES: dict[tuple[str, int], tuple[_SideInfo, ...]] = {}
_NO_GOODS = (0, 0, 0)
_NO_CELLS: frozenset[Cell] = frozenset()
_NO_CITIES: frozenset[int] = frozenset()
_MONASTERY_TILES = frozenset(tid for tid, tt in TILES.items() if tt.has_monastery)
_new_tuple = tuple.__new__  # Feature(...) goes through a Python-level __new__; this does not


def _seg_inits(tile: str) -> tuple[_SegInit, ...]:
    out: list[_SegInit] = []
    for i, seg in enumerate(TILES[tile].segments):
        if seg.kind not in (CITY, ROAD, FIELD):
            continue
        goods = _NO_GOODS
        if seg.goods:
            g = [0, 0, 0]
            g[GOODS.index(seg.goods)] = 1
            goods = (g[0], g[1], g[2])
        sides = len(seg.sides) if seg.kind != FIELD else 0
        out.append((i, seg.kind, sides, int(seg.shield), seg.inn, seg.cathedral, goods, seg.cities))
    _INITS[tile] = result = tuple(out)
    return result


def _side_infos(tile: str, k: int) -> tuple[_SideInfo, ...]:
    rt = TILES[tile].rotations[k]
    out: list[_SideInfo] = []
    for side in range(4):
        dx, dy = SIDE_DELTA[side]
        nside = (side + 2) % 4
        terrain = rt.edges[side]
        own = rt.side_seg[side] if terrain in (CITY, ROAD) else -1
        halves: list[tuple[int, int]] = []
        if terrain in _HALF_TERRAINS:
            for half in (2 * side, 2 * side + 1):
                if rt.half_seg[half] >= 0:
                    halves.append((rt.half_seg[half], opposite_half(half)))
        code = (terrain + 1) * _POW5[nside]
        out.append((dx, dy, dy * KEY_WIDTH + dx, nside, code, own, tuple(halves)))
    _SIDES[tile, k] = result = tuple(out)
    return result


class Board(Protocol):
    """What :func:`place_tile` reads and changes of a game state: the tiles, cells and
    features of the map (``engine.carcassonne.state.State`` has them). A protocol, not the
    class, so this module stays below the state that uses it (no import circle)."""

    tiles: list[tuple[str, int, int, int]]
    cells: dict[Cell, int]
    parent: dict[int, int]
    feats: dict[int, Feature]
    frontier: dict[int, int]
    open_monasteries: tuple[int, ...]
    river_end: tuple[Cell, int] | None
    last_bend: int


def place_tile(state: Board, tile: str, x: int, y: int, k: int) -> None:
    """Put ``tile`` on the board (no legality check) and join its segments (K-2.5)."""
    tiles = state.tiles
    index = len(tiles)
    cell = (x, y)
    tiles.append((tile, x, y, k))
    cells = state.cells
    cells[cell] = index
    frontier = state.frontier
    key = y * KEY_WIDTH + x + KEY_OFFSET
    frontier.pop(key, None)
    base = index << SEG_BITS
    feats = state.feats
    only_cell = frozenset((cell,))
    inits = _INITS.get(tile) or _seg_inits(tile)
    # A segment with no ``parent`` entry is its own root; only joins add entries.
    for i, kind, sides, shields, inn, cathedral, goods, cities in inits:
        sid = base + i
        if kind == FIELD:
            feats[sid] = _new_tuple(
                Feature,
                (
                    FIELD,
                    0,
                    _NO_CELLS,
                    0,
                    False,
                    False,
                    _NO_GOODS,
                    frozenset([base + c for c in cities]),
                    (sid,),
                ),
            )
        else:
            feats[sid] = _new_tuple(
                Feature,
                (kind, sides, only_cell, shields, inn, cathedral, goods, _NO_CITIES, (sid,)),
            )
    for dx, dy, dkey, nside, code, own, halves in _SIDES.get((tile, k)) or _side_infos(tile, k):
        nindex = cells.get((x + dx, y + dy))
        if nindex is None:
            # Constraint code: digit ``nside`` in base 5 is this side's terrain + 1.
            nkey = key + dkey
            frontier[nkey] = frontier.get(nkey, 0) + code
            continue
        ntile, _nx, _ny, nk = tiles[nindex]
        nrt = TILES[ntile].rotations[nk]
        nbase = nindex << SEG_BITS
        if own >= 0:
            _union(state, base + own, nbase + nrt.side_seg[nside], 2)
        for a, opp in halves:
            b = nrt.half_seg[opp]
            if b >= 0:
                _union(state, base + a, nbase + b, 0)
    if tile in _MONASTERY_TILES:
        state.open_monasteries += (index,)
    if TILES[tile].river:
        _advance_river(state, TILES[tile].rotations[k], cell)


def _union(state: Board, a: int, b: int, closed: int) -> None:
    parent = state.parent
    ra = parent.get(a, a)
    rb = parent.get(b, b)
    feats = state.feats
    if ra == rb:
        if closed:
            feats[ra] = feats[ra]._replace(open=feats[ra].open - closed)
        return
    if rb < ra:
        # The smallest segment id of a feature is its root: roots decide the order of
        # final scoring events, so they must not depend on how the joins happened.
        ra, rb = rb, ra
    fa = feats[ra]
    fb = feats.pop(rb)
    feats[ra] = fa.merged(fb, closed)
    # Quick-find: every member points straight at its root, so a query is one dict lookup.
    for sid in fb.members:
        parent[sid] = ra


def _advance_river(state: Board, rt: Rotated, cell: Cell) -> None:
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
