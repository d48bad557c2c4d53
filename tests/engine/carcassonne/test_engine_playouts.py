"""Random play-outs keep the game's invariants, for every player count and option combination."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.carcassonne as carc
from engine.carcassonne.setup import land_tiles, make_options, river_tiles
from engine.carcassonne.tiles import CITY, SIDE_DELTA, TILES

FARMS = ("third", "first", "second", "off")
EXPANSION_OPTIONS = st.fixed_dictionaries(
    {
        "farms": st.sampled_from(FARMS),
        "small_cities": st.booleans(),
        "river": st.booleans(),
        "inns_cathedrals": st.sampled_from(("off", "tiles", "full")),
        "traders_builders": st.sampled_from(("off", "tiles", "full")),
    }
)


def _figure_total(position: dict[str, Any]) -> list[Counter[str]]:
    totals = [Counter(s) for s in position["supply"]]
    for fig in position["figures"]:
        totals[fig["player"]][fig["kind"]] += 1
    return totals


def _check_board_matches(position: dict[str, Any]) -> None:
    cells = {}
    for entry in position["board"]:
        tt = TILES[entry["tile"]]
        cells[(entry["x"], entry["y"])] = tt.rotations[entry["rot"] // 90].edges
    for (x, y), edges in cells.items():
        for side, (dx, dy) in enumerate(SIDE_DELTA):
            other = cells.get((x + dx, y + dy))
            if other is not None:
                assert edges[side] == other[(side + 2) % 4], (x, y, side)


def _play(players: int, options: dict[str, Any], seed: int) -> None:
    """Play a random game, checking invariants after every action."""
    rng = random.Random(seed)
    state = carc.new_game(players, options, seed)
    opts = make_options(options)
    pile_size = len(land_tiles(opts)) + (len(river_tiles()) + 1 if opts.river else 0)
    start = carc.to_position(state)
    figures = _figure_total(start)
    scores = start["scores"]
    reported = [0] * players  # points announced by score events (K-15.3)
    while carc.outcome(state) is None:
        moves = carc.legal_moves(state)
        assert moves, "a running game always offers a move"
        state = carc.apply(state, moves[rng.randrange(len(moves))])
        for event in state.events:
            if event.kind == "score":
                for seat, points in event.data["awards"].items():
                    reported[int(seat)] += points
        pos = carc.to_position(state)
        assert _figure_total(pos) == figures
        assert all(new >= old for new, old in zip(pos["scores"], scores, strict=True))
        scores = pos["scores"]
        in_hand = 1 if pos["current_tile"] is not None and pos["phase"] == "place" else 0
        placed = len(pos["board"]) - 1
        assert placed + len(pos["discarded"]) + pos["tiles_left"] + in_hand == pile_size
    pos = carc.to_position(state)
    # Every tile of the pile is accounted for: placed or discarded.
    assert len(pos["board"]) - 1 + len(pos["discarded"]) == pile_size
    assert pos["tiles_left"] == 0
    _check_board_matches(pos)
    # Goods: the tokens taken are exactly the goods of the completed cities (K-14.2).
    tokens = [sum(g[k] for g in pos["goods"]) for k in ("wine", "grain", "cloth")]
    completed = [0, 0, 0]
    for root, feat in state.feats.items():
        if feat.kind == CITY and feat.open == 0 and state.find(root) == root:
            completed = [a + b for a, b in zip(completed, feat.goods, strict=True)]
    assert tokens == completed
    assert reported == pos["scores"]
    assert pos["winners"] == [s for s, v in enumerate(pos["scores"]) if v == max(pos["scores"])]
    # CN-6.4: the stored record replays to the same position.
    assert carc.to_position(carc.from_setup(carc.to_setup(state))) == pos


@settings(max_examples=12, deadline=None)
@given(
    players=st.integers(2, 6),
    farms=st.sampled_from(FARMS),
    seed=st.integers(0, 2**32 - 1),
)
def test_base_game_playouts_keep_invariants(players: int, farms: str, seed: int) -> None:
    _play(players, {"farms": farms}, seed)


@settings(max_examples=14, deadline=None)
@given(players=st.integers(2, 6), options=EXPANSION_OPTIONS, seed=st.integers(0, 2**32 - 1))
def test_expansion_playouts_keep_invariants(
    players: int, options: dict[str, Any], seed: int
) -> None:
    _play(players, options, seed)


def test_every_farm_option_with_all_expansions_plays_out() -> None:
    for i, farms in enumerate(FARMS):
        options = {
            "farms": farms,
            "river": True,
            "inns_cathedrals": "full",
            "traders_builders": "full",
        }
        _play(2 + i, options, 1000 + i)


COMBINATIONS = [
    (river, ic, tb)
    for river in (False, True)
    for ic in ("off", "tiles", "full")
    for tb in ("off", "tiles", "full")
]


@pytest.mark.parametrize(("index", "combination"), list(enumerate(COMBINATIONS)))
def test_every_expansion_combination_plays_out(
    index: int, combination: tuple[bool, str, str]
) -> None:
    river, ic, tb = combination
    options = {
        "farms": FARMS[index % 4],
        "small_cities": index % 3 == 0,
        "river": river,
        "inns_cathedrals": ic,
        "traders_builders": tb,
    }
    _play(2 + index % 5, options, 500 + index)
