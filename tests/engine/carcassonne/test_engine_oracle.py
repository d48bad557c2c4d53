"""The incremental bookkeeping agrees with slow recomputation from the board alone.

The engine keeps features in a union-find with open-side counts and keeps a frontier of empty
cells. Here the same facts are recomputed by brute force (every cell, every rotation; flood
fill over segments) during random games, with all expansions on, and must agree.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine.carcassonne as carc
from engine.carcassonne.state import SEG_BITS, State
from engine.carcassonne.tiles import CITY, FIELD, ROAD, SIDE_DELTA, TILES, opposite_half

Cell = tuple[int, int]


def brute_placements(state: State) -> list[str]:
    """Every canonical rotation on every empty cell next to the board that matches (K-4.2)."""
    tile = state.current
    assert tile is not None
    tt = TILES[tile]
    board = {(x, y): TILES[t].rotations[k].edges for t, x, y, k in state.tiles}
    empty = {
        (x + dx, y + dy)
        for (x, y) in board
        for dx, dy in SIDE_DELTA
        if (x + dx, y + dy) not in board
    }
    out = []
    for x, y in sorted(empty, key=lambda c: (c[1], c[0])):
        for k in sorted(set(tt.canonical)):
            edges = tt.rotations[k].edges
            ok = True
            for side, (dx, dy) in enumerate(SIDE_DELTA):
                other = board.get((x + dx, y + dy))
                if other is not None and other[(side + 2) % 4] != edges[side]:
                    ok = False
            if ok:
                out.append(f"{x},{y}@{90 * k}")
    return out


def flood_features(state: State) -> list[dict[str, Any]]:
    """Road, city and farm features by flood fill over the board's segments."""
    where = {(x, y): i for i, (_t, x, y, _k) in enumerate(state.tiles)}
    links: dict[int, set[int]] = {
        (i << SEG_BITS) + local: set()
        for i, (t, _x, _y, _k) in enumerate(state.tiles)
        for local in range(len(TILES[t].segments))
    }
    for i, (t, x, y, k) in enumerate(state.tiles):
        rt = TILES[t].rotations[k]
        for side, (dx, dy) in enumerate(SIDE_DELTA):
            j = where.get((x + dx, y + dy))
            if j is None:
                continue
            nt, _nx, _ny, nk = state.tiles[j]
            nrt = TILES[nt].rotations[nk]
            pairs = []
            if rt.side_seg[side] >= 0:
                pairs.append((rt.side_seg[side], nrt.side_seg[(side + 2) % 4]))
            for half in (2 * side, 2 * side + 1):
                if rt.half_seg[half] >= 0:
                    pairs.append((rt.half_seg[half], nrt.half_seg[opposite_half(half)]))
            for a, b in pairs:
                sa, sb = (i << SEG_BITS) + a, (j << SEG_BITS) + b
                links[sa].add(sb)
                links[sb].add(sa)
    seen: set[int] = set()
    features = []
    for start in links:
        kind = TILES[state.tiles[start >> SEG_BITS][0]].segments[start & 15].kind
        if start in seen or kind not in (CITY, ROAD, FIELD):
            continue
        stack, members = [start], []
        seen.add(start)
        while stack:
            sid = stack.pop()
            members.append(sid)
            for other in links[sid]:
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
        cells: set[Cell] = set()
        open_sides = 0
        shields = 0
        for sid in members:
            t, x, y, k = state.tiles[sid >> SEG_BITS]
            seg = TILES[t].segments[sid & 15]
            cells.add((x, y))
            shields += seg.shield
            for side in TILES[t].rotations[k].seg_sides[sid & 15]:
                dx, dy = SIDE_DELTA[side]
                open_sides += (x + dx, y + dy) not in where
        features.append(
            {
                "members": sorted(members),
                "kind": kind,
                "cells": cells,
                "open": open_sides,
                "shields": shields,
            }
        )
    return features


def check_features(state: State) -> None:
    for feature in flood_features(state):
        roots = {state.find(sid) for sid in feature["members"]}
        assert len(roots) == 1, feature
        record = state.feats[roots.pop()]
        assert record.kind == feature["kind"]
        if record.kind != FIELD:
            assert record.cells == feature["cells"]
            assert record.open == feature["open"]
            assert record.shields == feature["shields"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_placements_and_features_agree_with_brute_force(seed: int) -> None:
    options = {"inns_cathedrals": "full", "traders_builders": "full", "river": seed == 3}
    state = carc.new_game(3, options, seed)
    rng = random.Random(seed)
    while carc.outcome(state) is None:
        if state.phase == "place" and not TILES[state.current or "A"].river:
            assert [str(m) for m in carc.legal_moves(state)] == brute_placements(state)
        moves = carc.legal_moves(state)
        state = carc.apply(state, moves[rng.randrange(len(moves))])
        if len(state.tiles) % 10 == 0:
            check_features(state)
    check_features(state)
