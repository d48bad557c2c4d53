"""Inns & Cathedrals: rules K-13 of carcassonne.md (with CN-8.6, CN-8.14, CN-8.15)."""

from __future__ import annotations

import pytest

import engine.carcassonne as carc
from engine import IllegalMove
from tests.engine.carcassonne.rules_helpers import (
    RED,
    duel,
    figure,
    legal,
    play,
    position,
    scores,
    supply,
)

TILES = {"inns_cathedrals": "tiles"}
FULL = {"inns_cathedrals": "full"}


def test_carcassonne_k_13_1_tiles_without_big_follower() -> None:
    state = duel(["I15", "U"], ["I15 1,0@0"], options=TILES)
    assert position(state)["supply"] == [supply(7), supply(7)]
    assert not any(action.startswith("big:") for action in legal(state))
    with pytest.raises(IllegalMove):
        carc.apply(state, "big:road0")


def test_carcassonne_k_13_1_off_refuses_expansion_tiles() -> None:
    with pytest.raises(ValueError):
        carc.from_setup({"players": 2, "draws": ["I15"]})


def test_carcassonne_k_13_2_completed_inn_road_two_per_tile() -> None:
    state = duel(
        ["I15", "W", "W"],
        ["I15 1,0@0 follower:road0", "W 2,0@0 none", "W -1,0@0 none"],
        options=TILES,
    )
    assert scores(state) == [8, 0]


def test_carcassonne_k_13_2_several_inns_still_two_per_tile() -> None:
    state = duel(
        ["I15", "I15", "W", "W"],
        ["I15 1,0@0 follower:road0", "I15 2,0@0 none", "W 3,0@0 none", "W -1,0@0 none"],
        options=TILES,
    )
    assert scores(state) == [10, 0]


def test_carcassonne_k_13_2_incomplete_inn_road_scores_0() -> None:
    assert scores(duel(["I15"], ["I15 1,0@0 follower:road0"], options=TILES)) == [0, 0]


def test_carcassonne_k_13_3_inn_of_i14_on_road0_only() -> None:
    state = duel(["I14", "W"], ["I14 1,0@0 follower:road2", "W -1,0@0 none"], options=TILES)
    assert scores(state) == [3, 0]


def test_carcassonne_k_13_4_cathedral_three_per_tile() -> None:
    state = duel(
        ["I01", "E", "E", "E"],
        ["I01 0,-1@0 follower:city0", "E 1,-1@270 none", "E -1,-1@90 none", "E 0,-2@180 none"],
        options=TILES,
    )
    assert scores(state) == [15, 0]


def test_carcassonne_k_13_4_incomplete_cathedral_city_scores_0() -> None:
    state = duel(["I01", "E"], ["I01 0,-1@0 follower:city0", "E 1,-1@270 none"], options=TILES)
    assert scores(state) == [0, 0]


def test_carcassonne_k_13_4_several_cathedrals_still_three_per_tile() -> None:
    moves = [
        "I01 0,-1@0 follower:city0",
        "I01 0,-2@0 none",
        "E 1,-1@270 none",
        "E -1,-1@90 none",
        "E 1,-2@270 none",
        "E -1,-2@90 none",
        "E 0,-3@180 none",
    ]
    state = duel(["I01", "I01", "E", "E", "E", "E", "E"], moves, options=TILES)
    # D, two I01 and five caps: 8 tiles x 3 = 24.
    assert scores(state) == [24, 0]


def test_carcassonne_k_13_5_big_follower_scores_like_one_follower() -> None:
    state = duel(["E", "U"], ["E 0,-1@180 big:city0"], options=FULL)
    pos = position(state)
    assert pos["scores"] == [4, 0]
    assert pos["supply"][RED] == supply(7, big=1)


def test_carcassonne_k_13_5_big_follower_blocks_like_a_follower() -> None:
    state = duel(["U", "U"], ["U 1,0@0 big:road0", "U 2,0@0"], options=FULL)
    assert legal(state) == {
        "none",
        "follower:field0",
        "big:field0",
        "follower:field1",
        "big:field1",
    }


def test_carcassonne_k_13_5_big_follower_on_a_monastery() -> None:
    state = duel(["B", "U"], ["B 0,1@0"], options=FULL)
    assert "big:monastery" in legal(state)
    placed = play(state, "big:monastery")
    assert position(placed)["figures"] == [figure(RED, "big", 0, 1, "monastery")]


def test_carcassonne_k_13_5_one_big_follower_per_player() -> None:
    state = duel(["U", "U", "U"], ["U 1,0@0 big:field0", "U -1,0@0 none", "U 0,1@0"], options=FULL)
    assert position(state)["supply"][RED] == supply(7, big=0)
    assert not any(action.startswith("big:") for action in legal(state))


def test_carcassonne_k_13_5_big_follower_ties_two_followers() -> None:
    # A row of B tiles at y = 1 carries separate roads joined last: Red's big follower at (4,0)
    # against Blue's followers at (2,0) and (-1,0): 2 : 2, both score the open road of 6 tiles.
    draws = ["B", "B", "B", "B", "B", "U", "U", "U", "B", "U", "U"]
    moves = [
        "B 0,1@0 none",
        "B 1,1@0 none",
        "B 2,1@0 none",
        "B 3,1@0 none",
        "B 4,1@0 none",
        "U 2,0@0 follower:road0",
        "U 4,0@0 big:road0",
        "U -1,0@0 follower:road0",
        "B 5,1@0 none",
        "U 3,0@0 none",
        "U 1,0@0 none",
    ]
    pos = position(duel(draws, moves, options=FULL))
    assert pos["scores"] == [6, 6]
    assert pos["winners"] == [0, 1]
