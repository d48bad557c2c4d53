"""Farms: rules K-9 of carcassonne.md, with the big follower in farms (K-13.5)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.carcassonne.rules_helpers import duel, legal, position, scores

# CN-8.17 without the pig: Red's farm (E's field) and Blue's farm (U with D's strip) merge at
# (1,-1) and border two complete cities; Red 1 : Blue 1.
TWO_CITIES_DRAWS = ["E", "U", "B", "E", "E"]
TWO_CITIES_MOVES = [
    "E 0,-1@180 follower:field0",
    "U 1,0@0 follower:field0",
    "B -1,-1@0 none",
    "E 1,-1@0 none",
    "E 1,-2@180 none",
]

# CN-8.12: one complete city (D, G, E) bordered by three occupied farms.
ONE_CITY_DRAWS = ["G", "E", "U"]
ONE_CITY_MOVES = [
    "G 0,-1@0 follower:field0",
    "E 0,-2@180 follower:field0",
    "U 1,0@0 follower:field0",
]


def _farms(farms: str, draws: list[str], moves: list[str], **options: Any) -> list[int]:
    return scores(duel(draws, moves, options={"farms": farms, **options}))


def test_carcassonne_k_9_1_farms_score_only_at_the_end() -> None:
    state = duel(["U", "E", "U"], ["U 1,0@0 follower:field0", "E 0,-1@180 none"])
    # The bordered city is complete, but the farm waits for the final scoring.
    assert scores(state) == [0, 0]
    assert position(state)["finished"] is False


def test_carcassonne_k_9_1_farm_without_farmer_scores_nobody() -> None:
    assert scores(duel(["E", "U"], ["E 0,-1@180 none", "U 1,0@0 none"])) == [0, 0]


def test_carcassonne_k_9_1_big_follower_counts_two_in_a_farm() -> None:
    moves = [
        "E 0,-1@180 big:field0",
        "U 1,0@0 follower:field0",
        "E 1,-1@0 none",
        "E 1,-2@180 none",
    ]
    draws = ["E", "U", "E", "E"]
    full = {"inns_cathedrals": "full"}
    # Red 2 : Blue 1 in the merged farm, which borders 2 complete cities.
    assert _farms("third", draws, moves, **full) == [6, 0]
    assert _farms("second", draws, moves, **full) == [6, 0]
    assert _farms("first", draws, moves, **full) == [8, 0]


def test_carcassonne_k_9_2_city_completed_before_the_farmer_counts() -> None:
    state = duel(["E", "U"], ["E 0,-1@180 none", "U 1,0@0 follower:field0"])
    assert scores(state) == [0, 3]


def test_carcassonne_k_9_2_incomplete_city_gives_nothing() -> None:
    state = duel(["U", "U"], ["U 1,0@0 follower:field0", "U -1,0@0 follower:field1"])
    assert scores(state) == [0, 0]


def test_carcassonne_k_9_3_third_city_pays_every_farm() -> None:
    assert _farms("third", ONE_CITY_DRAWS, ONE_CITY_MOVES) == [6, 3]


def test_carcassonne_k_9_3_third_farm_scores_each_city() -> None:
    assert _farms("third", TWO_CITIES_DRAWS, TWO_CITIES_MOVES) == [6, 6]


def test_carcassonne_k_9_4_second_city_pays_a_player_once() -> None:
    assert _farms("second", ONE_CITY_DRAWS, ONE_CITY_MOVES) == [3, 3]
    assert _farms("second", TWO_CITIES_DRAWS, TWO_CITIES_MOVES) == [6, 6]


def test_carcassonne_k_9_5_first_city_by_city_majority() -> None:
    # Red has 2 farmers around the city against Blue's 1: Red alone gets 4.
    assert _farms("first", ONE_CITY_DRAWS, ONE_CITY_MOVES) == [4, 0]


def test_carcassonne_k_9_5_first_ties_pay_everyone() -> None:
    assert _farms("first", TWO_CITIES_DRAWS, TWO_CITIES_MOVES) == [8, 8]


@pytest.mark.parametrize("kind", ["follower", "big"])
def test_carcassonne_k_9_6_off_no_figure_on_fields(kind: str) -> None:
    state = duel(["G"], ["G 0,-1@0"], options={"farms": "off", "inns_cathedrals": "full"})
    assert legal(state) == {"none", "follower:city0", "big:city0"}
    assert f"{kind}:field0" not in legal(state)


def test_carcassonne_k_9_6_off_no_farm_scoring() -> None:
    moves = ["G 0,-1@0 none", "E 0,-2@180 none", "U 1,0@0 follower:road0"]
    # Only the open road D-U scores for Red at the end: 2.
    assert _farms("off", ONE_CITY_DRAWS, moves) == [2, 0]


def test_carcassonne_k_9_6_off_no_pig() -> None:
    state = duel(
        ["U", "U"],
        ["U 1,0@0 follower:road0", "U 2,0@0"],
        options={"farms": "off", "traders_builders": "full"},
    )
    # Blue's U extends Red's road: no follower there, no builder (Blue has no follower on it),
    # and with farms off neither followers nor pigs on the fields.
    assert legal(state) == {"none"}


def test_carcassonne_k_2_12_inner_field_borders_its_cities() -> None:
    # I03's inner field touches no side but borders all four caps. Its south cap closes D's
    # city; the other three stay open. The farmer scores the one complete city: 3.
    state = duel(["I03"], ["I03 0,-1@0"], options={"inns_cathedrals": "tiles"})
    assert legal(state) == {
        "none",
        "follower:city0",
        "follower:city1",
        "follower:city2",
        "follower:city3",
        "follower:field0",
    }
    final = duel(["I03"], ["I03 0,-1@0 follower:field0"], options={"inns_cathedrals": "tiles"})
    assert scores(final) == [3, 0]
