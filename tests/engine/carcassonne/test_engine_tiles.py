"""The engine's tile data agrees with the digest's YAML and is internally consistent (K-2)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.carcassonne.tiles import (
    CITY,
    FIELD,
    HALVES,
    MONASTERY,
    RIVER,
    ROAD,
    SIDES,
    TERRAINS,
    TILES,
    opposite_half,
    segment_anchor,
    tiles_of_set,
)

SET_OF_SECTION = {
    "base": "base",
    "river": "river",
    "inns_and_cathedrals": "inns_cathedrals",
    "traders_and_builders": "traders_builders",
}


def _yaml_shape(tile: dict[str, Any], k: int) -> dict[str, Any]:
    """A YAML tile turned k quarter turns, in terms comparable with the engine's data."""

    def side(s: str) -> int:
        return (SIDES.index(s) + k) % 4

    def half(h: str) -> int:
        return (HALVES.index(h) + 2 * k) % 8

    edges = [TERRAINS.index(e) for e in tile["edges"]]
    return {
        "edges": tuple(edges[(b - k) % 4] for b in range(4)),
        "cities": [
            (
                frozenset(side(s) for s in c["sides"]),
                bool(c.get("shield", False)),
                c.get("goods", ""),
                bool(c.get("cathedral", False)),
            )
            for c in tile.get("cities", [])
        ],
        "roads": [
            (frozenset(side(s) for s in r["sides"]), bool(r.get("inn", False)))
            for r in tile.get("roads", [])
        ],
        "fields": [
            (frozenset(half(h) for h in f.get("halves", [])), tuple(f.get("cities", [])))
            for f in tile.get("fields", [])
        ],
        "monastery": bool(tile.get("monastery", False)),
        "river": frozenset(side(s) for s in tile.get("river", {}).get("sides", [])),
    }


def _engine_shape(tile_id: str) -> dict[str, Any]:
    tt = TILES[tile_id]
    segs = tt.segments
    return {
        "edges": tt.edges,
        "cities": [
            (frozenset(s.sides), s.shield, s.goods, s.cathedral) for s in segs if s.kind == CITY
        ],
        "roads": [(frozenset(s.sides), s.inn) for s in segs if s.kind == ROAD],
        "fields": [(frozenset(s.halves), s.cities) for s in segs if s.kind == FIELD],
        "monastery": tt.has_monastery,
        "river": frozenset(tt.river),
    }


def test_every_yaml_tile_type_is_in_the_engine_with_its_count_and_set(
    shared_tiles: dict[str, list[dict[str, Any]]],
) -> None:
    yaml_ids = {
        t["id"]: (SET_OF_SECTION[sec], t["count"])
        for sec in shared_tiles
        for t in shared_tiles[sec]
    }
    engine_ids = {tid: (tt.set, tt.count) for tid, tt in TILES.items()}
    assert engine_ids == yaml_ids


def test_every_tile_type_matches_the_yaml_up_to_rotation(
    shared_tiles: dict[str, list[dict[str, Any]]],
) -> None:
    mismatched = [
        t["id"]
        for sec in shared_tiles
        for t in shared_tiles[sec]
        if all(_yaml_shape(t, k) != _engine_shape(t["id"]) for k in range(4))
    ]
    assert mismatched == []


def test_set_sizes_and_goods_totals_match_k_1_3() -> None:
    assert len(tiles_of_set("base")) == 72
    assert len(tiles_of_set("river")) == 12
    assert len(tiles_of_set("inns_cathedrals")) == 18
    assert len(tiles_of_set("traders_builders")) == 24
    goods: Counter[str] = Counter()
    for tid in tiles_of_set("traders_builders"):
        for seg in TILES[tid].segments:
            if seg.goods:
                goods[seg.goods] += 1
    assert goods == {"wine": 9, "grain": 6, "cloth": 5}


@pytest.mark.parametrize("tile_id", sorted(TILES))
def test_sides_terrains_agree_with_segments(tile_id: str) -> None:
    tt = TILES[tile_id]
    for side in range(4):
        terrain = tt.edges[side]
        cities = [s for s in tt.segments if s.kind == CITY and side in s.sides]
        roads = [s for s in tt.segments if s.kind == ROAD and side in s.sides]
        halves = [
            [s for s in tt.segments if s.kind == FIELD and h in s.halves]
            for h in (2 * side, 2 * side + 1)
        ]
        assert len(cities) == (1 if terrain == CITY else 0), (tile_id, side)
        assert len(roads) == (1 if terrain == ROAD else 0), (tile_id, side)
        assert (side in tt.river) == (terrain == RIVER), (tile_id, side)
        for fields in halves:
            # A city side has no field halves; any other side has exactly one field per half.
            assert len(fields) == (0 if terrain == CITY else 1), (tile_id, side)


@pytest.mark.parametrize("tile_id", sorted(TILES))
def test_fields_links_and_monastery_are_well_formed(tile_id: str) -> None:
    tt = TILES[tile_id]
    n_cities = sum(1 for s in tt.segments if s.kind == CITY)
    for seg in tt.segments:
        if seg.kind == FIELD:
            assert all(0 <= c < n_cities for c in seg.cities)
            assert len(set(seg.halves)) == len(seg.halves)
        if seg.kind in (CITY, ROAD):
            assert 1 <= len(seg.sides) <= 4
    assert sum(1 for s in tt.segments if s.kind == MONASTERY) <= 1


def test_opposite_half_edges_follow_k_2_5() -> None:
    pairs = {(HALVES[h], HALVES[opposite_half(h)]) for h in range(8)}
    assert pairs == {
        ("Nw", "Sw"),
        ("Ne", "Se"),
        ("Sw", "Nw"),
        ("Se", "Ne"),
        ("En", "Wn"),
        ("Es", "Ws"),
        ("Wn", "En"),
        ("Ws", "Es"),
    }


# CN-2.4: tile types with equal rotations; every other type has four distinct rotations.
SYMMETRIC = {
    "B": (0, 0, 0, 0),
    "C": (0, 0, 0, 0),
    "I01": (0, 0, 0, 0),
    "X": (0, 0, 0, 0),
    "I03": (0, 0, 0, 0),
    "T24": (0, 0, 0, 0),
    **dict.fromkeys(
        ("F", "G", "U", "R03", "I15", "T15", "H", "R06", "I02", "I17", "R05", "I10", "T19", "I05"),
        (0, 1, 0, 1),
    ),
}


def test_equal_rotations_match_the_cn_2_4_table() -> None:
    found = {tid: tt.canonical for tid, tt in TILES.items() if tt.canonical != (0, 1, 2, 3)}
    assert found == SYMMETRIC
    assert sum(1 for tt in TILES.values() if tt.canonical == (0, 1, 2, 3)) == 55


def _renamed(tile_id: str, k: int) -> dict[str, str]:
    tt = TILES[tile_id]
    return {seg.name: tt.segments[tt.renaming[k][i]].name for i, seg in enumerate(tt.segments)}


@pytest.mark.parametrize(
    ("tile_id", "k", "expected"),
    [
        ("X", 1, {"road0": "road1", "road3": "road0", "field0": "field1", "field3": "field0"}),
        ("I03", 3, {"city0": "city3", "city1": "city0"}),
        ("T24", 1, {"road0": "road1", "road1": "road0", "field0": "field1"}),
        ("T24", 2, {"road0": "road0", "field0": "field2"}),
        ("H", 2, {"city0": "city1", "city1": "city0", "field0": "field0"}),
        ("R05", 2, {"field0": "field2", "field1": "field3", "road0": "road0"}),
        ("I05", 3, {"city0": "city1", "road0": "road1", "field1": "field3"}),
        ("U", 2, {"field0": "field1", "road0": "road0"}),
    ],
)
def test_renaming_of_non_canonical_rotations_follows_cn_2_4(
    tile_id: str, k: int, expected: dict[str, str]
) -> None:
    renamed = _renamed(tile_id, k)
    assert {name: renamed[name] for name in expected} == expected


@pytest.mark.parametrize("tile_id", sorted(TILES))
def test_segment_anchors_sit_on_the_tile_towards_their_sides(tile_id: str) -> None:
    tt = TILES[tile_id]
    midpoints = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))
    for rot in (0, 90, 180, 270):
        for seg in tt.segments:
            ax, ay = segment_anchor(tile_id, rot, seg.name)
            assert 0.0 <= ax <= 1.0
            assert 0.0 <= ay <= 1.0
            if seg.kind in (CITY, ROAD) and len(seg.sides) == 1:
                mx, my = midpoints[(seg.sides[0] + rot // 90) % 4]
                assert abs(ax - mx) + abs(ay - my) < 0.5
