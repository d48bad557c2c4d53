"""Tile types and their precomputed rotations.

Everything the engine needs per (tile type, rotation) is computed once at import: the terrain
on each board side, which segment reaches each board side and half-edge, and the renaming that
turns a non-canonical rotation into its canonical one (CN-2.4). Segments are numbered locally
in segment order (CN-2.2): cities, roads, fields, then the monastery.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.carcassonne.tiles_data import TILE_DATA, TileEntry

SIDES = ("N", "E", "S", "W")
HALVES = ("Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn")
TERRAINS = ("city", "road", "field", "river")
CITY, ROAD, FIELD, RIVER = 0, 1, 2, 3
MONASTERY = 3  # segment kind code after city 0, road 1, field 2
SEGMENT_KINDS = ("city", "road", "field", "monastery")
ROTATIONS = (0, 90, 180, 270)
GOODS = ("wine", "grain", "cloth")

# Cell offsets of the edge neighbours across sides N, E, S, W (CN-1.1: y grows to the south).
SIDE_DELTA = ((0, -1), (1, 0), (0, 1), (-1, 0))


def opposite_half(half: int) -> int:
    """The half-edge of the neighbour that touches board half-edge ``half`` (K-2.5)."""
    return (5 - half) % 8 if half in (0, 1, 4, 5) else (9 - half) % 8


@dataclass(frozen=True, slots=True)
class Segment:
    """One segment of a tile in the YAML orientation."""

    kind: int
    index: int  # position in its YAML list; the name is SEGMENT_KINDS[kind] + index
    sides: tuple[int, ...]
    halves: tuple[int, ...]
    shield: bool = False
    goods: str = ""
    cathedral: bool = False
    inn: bool = False
    cities: tuple[int, ...] = ()  # field -> local indexes (in segment order) of bordered cities

    @property
    def name(self) -> str:
        """The CN-2.1 name (``city0``, ``road1``, ``field2``, ``monastery``)."""
        if self.kind == MONASTERY:
            return "monastery"
        return f"{SEGMENT_KINDS[self.kind]}{self.index}"


@dataclass(frozen=True, slots=True)
class Rotated:
    """A tile type turned ``rot`` degrees clockwise, in board terms."""

    tile: str
    rot: int
    edges: tuple[int, ...]  # terrain per board side N, E, S, W
    side_seg: tuple[int, ...]  # local city/road segment reaching each board side, or -1
    half_seg: tuple[int, ...]  # local field segment at each board half-edge, or -1
    seg_sides: tuple[tuple[int, ...], ...]  # board sides of each local segment
    river_sides: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TileType:
    """One tile type of the YAML with its rotations and symmetry classes."""

    id: str
    set: str
    count: int
    edges: tuple[int, ...]
    segments: tuple[Segment, ...]
    river: tuple[int, ...]
    river_kind: str
    rotations: tuple[Rotated, ...]  # indexed by k = rot // 90
    canonical: tuple[int, ...]  # canonical k for each k
    renaming: tuple[tuple[int, ...], ...]  # for each k: local index at k -> index at canonical
    canonical_rots: tuple[int, ...]  # the distinct canonical k values, ascending

    @property
    def has_monastery(self) -> bool:
        """Whether the tile has a monastery segment."""
        return bool(self.segments) and self.segments[-1].kind == MONASTERY

    def segment_index(self, name: str) -> int:
        """The local index of the segment called ``name``, or -1."""
        for i, seg in enumerate(self.segments):
            if seg.name == name:
                return i
        return -1


def _build(entry: TileEntry) -> TileType:
    tid, set_name, count, edges, cities, roads, fields, monastery, river = entry
    segs: list[Segment] = []
    for i, (sides, shield, goods, cathedral) in enumerate(cities):
        segs.append(
            Segment(0, i, tuple(SIDES.index(s) for s in sides), (), shield, goods, cathedral, False)
        )
    for i, (sides, inn) in enumerate(roads):
        segs.append(Segment(ROAD, i, tuple(SIDES.index(s) for s in sides), (), inn=inn))
    for i, (halves, links) in enumerate(fields):
        segs.append(
            Segment(FIELD, i, (), tuple(HALVES.index(h) for h in halves), cities=tuple(links))
        )
    if monastery:
        segs.append(Segment(MONASTERY, 0, (), ()))
    edge_codes = tuple(TERRAINS.index(e) for e in edges)
    river_sides: tuple[int, ...] = ()
    river_kind = ""
    if river is not None:
        river_sides = tuple(SIDES.index(s) for s in river[0])
        river_kind = river[1]
    rotations = tuple(_rotate(tid, edge_codes, segs, river_sides, k) for k in range(4))
    canonical, renaming = _symmetry(edge_codes, segs, river_sides)
    return TileType(
        tid,
        set_name,
        count,
        edge_codes,
        tuple(segs),
        river_sides,
        river_kind,
        rotations,
        canonical,
        renaming,
        tuple(sorted(set(canonical))),
    )


def _rotate(
    tid: str, edges: tuple[int, ...], segs: list[Segment], river: tuple[int, ...], k: int
) -> Rotated:
    board_edges = tuple(edges[(b - k) % 4] for b in range(4))
    side_seg = [-1] * 4
    half_seg = [-1] * 8
    seg_sides: list[tuple[int, ...]] = []
    for i, seg in enumerate(segs):
        sides = tuple((s + k) % 4 for s in seg.sides)
        seg_sides.append(sides)
        if seg.kind in (CITY, ROAD):
            for s in sides:
                side_seg[s] = i
        elif seg.kind == FIELD:
            for h in seg.halves:
                half_seg[(h + 2 * k) % 8] = i
    return Rotated(
        tid,
        90 * k,
        board_edges,
        tuple(side_seg),
        tuple(half_seg),
        tuple(seg_sides),
        tuple(sorted((s + k) % 4 for s in river)),
    )


def _shape(seg: Segment, k: int) -> tuple[object, ...]:
    """What a segment looks like on the board at rotation k, links aside."""
    return (
        seg.kind,
        frozenset((s + k) % 4 for s in seg.sides),
        frozenset((h + 2 * k) % 8 for h in seg.halves),
        seg.shield,
        seg.goods,
        seg.cathedral,
        seg.inn,
    )


def _symmetry(
    edges: tuple[int, ...], segs: list[Segment], river: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """For each rotation k: its canonical rotation and the renaming of segments (CN-2.4)."""
    canonical = [0, 1, 2, 3]
    renaming: list[tuple[int, ...]] = [tuple(range(len(segs)))] * 4
    for k in range(4):
        for c in range(k):
            if canonical[c] != c:
                continue
            mapping = _match(edges, segs, river, k, c)
            if mapping is not None:
                canonical[k] = c
                renaming[k] = mapping
                break
    return tuple(canonical), tuple(renaming)


def _match(
    edges: tuple[int, ...], segs: list[Segment], river: tuple[int, ...], k: int, c: int
) -> tuple[int, ...] | None:
    """The renaming that makes rotation k equal to rotation c, or None if they differ."""
    if any(edges[(b - k) % 4] != edges[(b - c) % 4] for b in range(4)):
        return None
    if {(s + k) % 4 for s in river} != {(s + c) % 4 for s in river}:
        return None
    shapes_c = [_shape(s, c) for s in segs]
    mapping: list[int] = []
    for seg in segs:
        shape = _shape(seg, k)
        hits = [j for j, other in enumerate(shapes_c) if other == shape and j not in mapping]
        if not hits:
            return None
        mapping.append(hits[0])
    # Field -> city links must survive the renaming too.
    for i, seg in enumerate(segs):
        if seg.kind == FIELD:
            renamed = {mapping[link] for link in seg.cities}
            if renamed != set(segs[mapping[i]].cities):
                return None
    return tuple(mapping)


def _load() -> dict[str, TileType]:
    return {entry[0]: _build(entry) for entry in TILE_DATA}


TILES: dict[str, TileType] = _load()

# Which tile sets each option brings (the river set is handled by set-up, K-12.2).
SET_BASE, SET_RIVER, SET_IC, SET_TB = "base", "river", "inns_cathedrals", "traders_builders"


def tiles_of_set(set_name: str) -> list[str]:
    """The tile ids of one set, one entry per physical tile, in data order."""
    out: list[str] = []
    for tile in TILES.values():
        if tile.set == set_name:
            out.extend([tile.id] * tile.count)
    return out


# Points on the unit tile (x east, y south) used to place a figure in pictures.
_SIDE_POINT = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))
_HALF_POINT = (
    (0.25, 0.0),
    (0.75, 0.0),
    (1.0, 0.25),
    (1.0, 0.75),
    (0.75, 1.0),
    (0.25, 1.0),
    (0.0, 0.75),
    (0.0, 0.25),
)


def segment_anchor(tile: str, rot: int, segment: str) -> tuple[float, float]:
    """A point of the tile (0..1, x east, y south, board orientation) inside ``segment``.

    An approximation for renderers: the mean of the segment's side midpoints or half-edge
    points, pulled towards the edge for one-sided segments; the centre for the monastery.
    """
    tt = TILES[tile]
    k = rot // 90
    local = tt.segment_index(segment)
    if local < 0:
        raise ValueError(f"tile {tile} has no segment {segment}")
    seg = tt.segments[local]
    if seg.kind == MONASTERY:
        return (0.5, 0.5)
    if seg.kind == FIELD:
        if not seg.halves:
            return (0.5, 0.5)
        points = [_HALF_POINT[(h + 2 * k) % 8] for h in seg.halves]
        weight = 0.8  # towards the tile's edge, away from roads through the centre
    else:
        points = [_SIDE_POINT[(s + k) % 4] for s in seg.sides]
        weight = 0.7 if len(points) == 1 else 1.0
    mx = sum(p[0] for p in points) / len(points)
    my = sum(p[1] for p in points) / len(points)
    return (0.5 + (mx - 0.5) * weight, 0.5 + (my - 0.5) * weight)
