"""The worked examples CN-8.1 to CN-8.20 of carcassonne-notation.md, value by value."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine.carcassonne as carc
from tests.engine.carcassonne.rules_helpers import (
    BLUE,
    RED,
    duel,
    figure,
    legal,
    no_goods,
    play,
    position,
    scores,
    setup,
    supply,
)

# --- CN-8.1 ---------------------------------------------------------------------------------


def test_carcassonne_cn_8_1_seeded_start_position() -> None:
    pos = position(setup(players=3, seed=7))
    assert pos["board"] == [{"tile": "D", "x": 0, "y": 0, "rot": 0}]
    assert pos["tiles_left"] == 70
    assert pos["supply"] == [supply(7)] * 3
    assert pos["phase"] == "place"
    assert pos["figures"] == []
    assert pos["scores"] == [0, 0, 0]


def test_carcassonne_cn_8_1_first_placements_of_e() -> None:
    state = duel(["E"])
    assert legal(state) == {"0,-1@180", "0,1@90", "0,1@180", "0,1@270"}


def test_carcassonne_cn_8_1_symmetric_u_gives_three_placements() -> None:
    state = duel(["U"])
    assert legal(state) == {"-1,0@0", "1,0@0", "0,1@0"}


# --- CN-8.2 / CN-8.3 ------------------------------------------------------------------------

CN_8_2 = {
    "players": 2,
    "start_player": 0,
    "draws": ["E", "C", "U"],
    "moves": ["E 0,-1@180 follower:city0", "U 1,0@0 none"],
}


def test_carcassonne_cn_8_2_score_return_and_discard_after_move_1() -> None:
    state = setup(**{**CN_8_2, "moves": CN_8_2["moves"][:1]})
    pos = position(state)
    assert pos["scores"] == [4, 0]
    assert pos["supply"][RED] == supply(7)
    assert pos["figures"] == []
    assert pos["discarded"] == ["C"]
    assert pos["current_tile"] == "U"
    assert pos["to_act"] == BLUE
    assert pos["tiles_left"] == 0
    assert pos["phase"] == "place"
    assert pos["finished"] is False


def test_carcassonne_cn_8_2_game_ends_with_the_pile() -> None:
    pos = position(setup(**CN_8_2))
    assert pos["finished"] is True
    assert pos["phase"] == "finished"
    assert pos["scores"] == [4, 0]
    assert pos["winners"] == [0]
    assert pos["to_act"] is None
    assert pos["current_tile"] is None


def test_carcassonne_cn_8_3_small_cities() -> None:
    pos = position(setup(**CN_8_2, options={"small_cities": True}))
    assert pos["scores"] == [2, 0]


# --- CN-8.4 / CN-8.5 ------------------------------------------------------------------------


def test_carcassonne_cn_8_4_occupied_city_not_offered() -> None:
    state = duel(["N", "J"], ["N 0,-1@180 follower:city0", "J 1,-1@270"])
    assert position(state)["phase"] == "figure"
    assert position(state)["to_act"] == BLUE
    assert legal(state) == {"none", "follower:road0", "follower:field0", "follower:field1"}


def test_carcassonne_cn_8_5_joined_city_tie_shared_victory() -> None:
    state = duel(
        ["N", "J", "N"],
        ["N 0,-1@270 follower:city0", "J -1,0@0 follower:city0", "N -1,-1@180 none"],
    )
    pos = position(state)
    assert pos["scores"] == [8, 8]
    assert pos["supply"] == [supply(7), supply(7)]
    assert pos["winners"] == [0, 1]
    assert carc.outcome(state) is not None
    assert set(carc.outcome(state).winners) == {0, 1}


# --- CN-8.6 ---------------------------------------------------------------------------------

CN_8_6_MOVES = [
    "U 1,0@0 big:road0",
    "W 1,1@0 follower:road0",
    "W -1,0@0 none",
    "V 2,0@0 none",
    "V 2,1@90 none",
]


def test_carcassonne_cn_8_6_big_follower_wins_the_road() -> None:
    state = duel(["U", "W", "W", "V", "V"], CN_8_6_MOVES, options={"inns_cathedrals": "full"})
    pos = position(state)
    assert pos["scores"] == [6, 0]
    assert pos["supply"] == [supply(7, big=1), supply(7, big=1)]
    assert pos["figures"] == []


# --- CN-8.7 / CN-8.8 / CN-8.9 ---------------------------------------------------------------


def test_carcassonne_cn_8_7_city_through_one_tile_twice() -> None:
    state = duel(
        ["H", "N", "N", "M", "M", "F"],
        [
            "H 0,1@0 follower:city0",
            "N 1,1@270 none",
            "N -1,1@180 none",
            "M 1,2@0 none",
            "M -1,2@90 none",
            "F 0,2@0 none",
        ],
    )
    assert scores(state) == [18, 0]


def test_carcassonne_cn_8_8_road_loop_is_complete() -> None:
    before = duel(
        ["V", "V", "V", "V"],
        ["V 0,1@270 follower:road0", "V 1,1@0 none", "V 0,2@180 none"],
    )
    assert scores(before) == [0, 0]
    after = play(before, "V 1,2@90 none")
    assert scores(after) == [4, 0]
    assert position(after)["supply"][RED] == supply(7)


def test_carcassonne_cn_8_9_roads_end_at_junctions() -> None:
    state = duel(["W", "U", "W"], ["W 1,0@0 none", "U 2,0@0 follower:road0", "W 3,0@0 none"])
    pos = position(state)
    assert pos["scores"] == [0, 3]
    assert pos["supply"][BLUE] == supply(7)


# --- CN-8.10 --------------------------------------------------------------------------------

CN_8_10_MOVES = [
    "B 0,1@0 follower:monastery",
    "U 1,0@0 none",
    "U -1,0@0 none",
    "E 1,1@90 none",
    "E -1,1@270 none",
]


def test_carcassonne_cn_8_10_incomplete_monastery_at_the_end() -> None:
    state = duel(["B", "U", "U", "E", "E"], CN_8_10_MOVES)
    assert scores(state) == [6, 0]


def test_carcassonne_cn_8_10_completed_monastery_scores_9_at_once() -> None:
    moves = [*CN_8_10_MOVES, "B 0,2@0 none", "B 1,2@0 none"]
    before = duel(["B", "U", "U", "E", "E", "B", "B", "B"], moves)
    assert scores(before) == [0, 0]
    assert position(before)["to_act"] == BLUE
    after = play(before, "B -1,2@0 none")
    assert scores(after) == [9, 0]
    assert position(after)["supply"][RED] == supply(7)


# --- CN-8.11 to CN-8.13: farms --------------------------------------------------------------


def test_carcassonne_cn_8_11_blue_list_excludes_reds_farm() -> None:
    state = duel(["U", "U", "E"], ["U 1,0@0 follower:field0", "U -1,0@0"])
    assert legal(state) == {"none", "follower:road0", "follower:field1"}


def test_carcassonne_cn_8_11_farm_borders_city_completed_for_nobody() -> None:
    state = duel(
        ["U", "U", "E"],
        ["U 1,0@0 follower:field0", "U -1,0@0 follower:field1", "E 0,-1@180 none"],
    )
    pos = position(state)
    assert pos["scores"] == [3, 0]
    # K-7.2: farmers stay on the board after the final scoring.
    assert len(pos["figures"]) == 2


def test_carcassonne_cn_8_11_incomplete_city_pays_no_farm() -> None:
    state = duel(["U", "U"], ["U 1,0@0 follower:field0", "U -1,0@0 follower:field1"])
    pos = position(state)
    assert pos["scores"] == [0, 0]
    assert pos["winners"] == [0, 1]


CN_8_12_DRAWS = ["G", "E", "U"]
CN_8_12_MOVES = [
    "G 0,-1@0 follower:field0",
    "E 0,-2@180 follower:field0",
    "U 1,0@0 follower:field0",
]


@pytest.mark.parametrize(
    ("farms", "expected", "winners"),
    [
        ("third", [6, 3], [0]),
        ("second", [3, 3], [0, 1]),
        ("first", [4, 0], [0]),
    ],
)
def test_carcassonne_cn_8_12_one_city_three_editions(
    farms: str, expected: list[int], winners: list[int]
) -> None:
    state = duel(CN_8_12_DRAWS, CN_8_12_MOVES, options={"farms": farms})
    pos = position(state)
    assert pos["scores"] == expected
    assert pos["winners"] == winners


def test_carcassonne_cn_8_12_default_is_third() -> None:
    assert scores(duel(CN_8_12_DRAWS, CN_8_12_MOVES)) == [6, 3]


def test_carcassonne_cn_8_12_farms_off_offers_no_field() -> None:
    state = duel(CN_8_12_DRAWS, ["G 0,-1@0"], options={"farms": "off"})
    assert legal(state) == {"none", "follower:city0"}


def test_carcassonne_cn_8_13_two_strips_of_d_stay_apart() -> None:
    draws = ["D", "U"]
    state = duel(draws, ["D 0,-1@180 follower:field0", "U 1,0@0"])
    assert legal(state) == {"none", "follower:road0", "follower:field0", "follower:field1"}
    final = play(state, "follower:field0")
    assert scores(final) == [3, 3]


# --- CN-8.14 / CN-8.15: Inns & Cathedrals ---------------------------------------------------

IC_TILES = {"inns_cathedrals": "tiles"}


def test_carcassonne_cn_8_14_completed_road_with_inn_doubles() -> None:
    state = duel(
        ["I15", "W", "W"],
        ["I15 1,0@0 follower:road0", "W 2,0@0 none", "W -1,0@0 none"],
        options=IC_TILES,
    )
    assert scores(state) == [8, 0]


def test_carcassonne_cn_8_14_incomplete_road_with_inn_scores_0() -> None:
    state = duel(["I15", "W"], ["I15 1,0@0 follower:road0", "W 2,0@0 none"], options=IC_TILES)
    pos = position(state)
    assert pos["finished"] is True
    assert pos["scores"] == [0, 0]


def test_carcassonne_cn_8_14_inn_of_i14_is_on_road0_only() -> None:
    state = duel(["I14", "W"], ["I14 1,0@0 follower:road2", "W -1,0@0 none"], options=IC_TILES)
    assert scores(state) == [3, 0]


CN_8_15_MOVES = [
    "I01 0,-1@0 follower:city0",
    "E 1,-1@270 none",
    "E -1,-1@90 none",
    "E 0,-2@180 none",
]


def test_carcassonne_cn_8_15_completed_cathedral_city() -> None:
    state = duel(["I01", "E", "E", "E"], CN_8_15_MOVES, options=IC_TILES)
    assert scores(state) == [15, 0]


def test_carcassonne_cn_8_15_incomplete_cathedral_city_scores_0() -> None:
    state = duel(["I01", "E", "E"], CN_8_15_MOVES[:3], options=IC_TILES)
    pos = position(state)
    assert pos["finished"] is True
    assert pos["scores"] == [0, 0]


# --- CN-8.16 to CN-8.18: Traders & Builders -------------------------------------------------


def test_carcassonne_cn_8_16_goods_go_to_the_completing_player() -> None:
    before = duel(
        ["T15", "T18", "U", "E"],
        ["T15 0,-1@90 follower:city0", "T18 0,-2@90 none", "U 1,0@0 none"],
        options={"traders_builders": "tiles"},
    )
    assert position(before)["goods"] == [no_goods(), no_goods()]
    state = play(before, "E 0,-3@180 none")
    pos = position(state)
    assert pos["scores"] == [8, 10]
    assert pos["goods"] == [no_goods(), {"wine": 2, "grain": 0, "cloth": 0}]
    assert pos["winners"] == [1]


CN_8_17_DRAWS = ["E", "U", "B", "E", "E"]
CN_8_17_MOVES = [
    "E 0,-1@180 follower:field0",
    "U 1,0@0 follower:field0",
    "B -1,-1@0 pig:field0",
    "E 1,-1@0 none",
    "E 1,-2@180 none",
]


def test_carcassonne_cn_8_17_pig_offered_on_own_farm() -> None:
    state = duel(
        CN_8_17_DRAWS, [*CN_8_17_MOVES[:2], "B -1,-1@0"], options={"traders_builders": "full"}
    )
    assert legal(state) == {"none", "pig:field0", "follower:monastery"}


@pytest.mark.parametrize(
    ("farms", "expected"), [("third", [8, 6]), ("second", [8, 6]), ("first", [10, 8])]
)
def test_carcassonne_cn_8_17_pig_scores(farms: str, expected: list[int]) -> None:
    state = duel(CN_8_17_DRAWS, CN_8_17_MOVES, options={"traders_builders": "full", "farms": farms})
    pos = position(state)
    assert pos["scores"] == expected
    assert figure(RED, "pig", -1, -1, "field0") in pos["figures"]


CN_8_18 = {
    "players": 2,
    "start_player": 0,
    "options": {"traders_builders": "full"},
    "draws": ["U", "E", "U", "B", "U", "C", "U", "V"],
    "moves": [
        "U 1,0@0 follower:road0",
        "E 0,-1@180 none",
        "U 2,0@0 builder:road0",
        "B 0,1@0 none",
        "U 3,0@0 none",
        "U -1,0@0 none",
        "V 4,0@0 none",
    ],
}


def _cn_8_18(moves: int, last_action: bool = True) -> Any:
    given = CN_8_18["moves"][:moves]
    if not last_action:
        given = [*given[:-1], given[-1].rsplit(" ", 1)[0]]
    return setup(**{**CN_8_18, "moves": given})


def test_carcassonne_cn_8_18_builder_offered_on_own_road() -> None:
    state = _cn_8_18(3, last_action=False)
    assert legal(state) == {"none", "builder:road0", "follower:field0", "follower:field1"}


def test_carcassonne_cn_8_18_extension_earns_extra_turn_through_a_discard() -> None:
    pos = position(_cn_8_18(5))
    assert pos["to_act"] == RED
    assert pos["extra_turn"] is True
    assert pos["discarded"] == ["C"]
    assert pos["current_tile"] == "U"
    assert pos["phase"] == "place"


def test_carcassonne_cn_8_18_extra_turn_earns_nothing_more() -> None:
    pos = position(_cn_8_18(6))
    assert pos["to_act"] == BLUE
    assert pos["extra_turn"] is False


def test_carcassonne_cn_8_18_builder_scores_nothing_at_the_end() -> None:
    pos = position(_cn_8_18(7))
    assert pos["finished"] is True
    assert pos["scores"] == [6, 0]
    assert figure(RED, "builder", 2, 0, "road0") in pos["figures"]
    assert pos["extra_turn"] is False


# --- CN-8.19: the River ---------------------------------------------------------------------

RIVER = {"river": True}


def test_carcassonne_cn_8_19_spring_and_first_bend() -> None:
    state = duel(["R04", "R04", "R02"], options=RIVER)
    assert position(state)["board"] == [{"tile": "R01", "x": 0, "y": 0, "rot": 0}]
    assert legal(state) == {"0,1@90", "0,1@180"}


def test_carcassonne_cn_8_19_no_u_turn_then_lake() -> None:
    state = duel(["R04", "R04", "R02"], ["R04 0,1@180 none"], options=RIVER)
    assert legal(state) == {"1,1@0"}
    placed = play(state, "1,1@0")
    assert legal(placed) == {"none", "follower:field0", "follower:field1"}
    lake = play(placed, "none")
    assert legal(lake) == {"1,2@0"}


def test_carcassonne_cn_8_19_other_first_bend() -> None:
    state = duel(["R04", "R04", "R02"], ["R04 0,1@90 none"], options=RIVER)
    assert legal(state) == {"-1,1@270"}


def test_carcassonne_cn_8_19_seeded_river_pile() -> None:
    pos = position(setup(players=2, seed=5, options=RIVER))
    assert pos["current_tile"] in {f"R{i:02d}" for i in range(3, 11)}
    assert pos["tiles_left"] == 81


# --- CN-8.20: replay ------------------------------------------------------------------------

ALL_EXAMPLE_SETUPS: list[dict[str, Any]] = [
    {"players": 3, "seed": 7},
    CN_8_2,
    {**CN_8_2, "options": {"small_cities": True}},
    CN_8_18,
    {
        "players": 2,
        "start_player": 0,
        "options": {"traders_builders": "full", "farms": "first"},
        "draws": CN_8_17_DRAWS,
        "moves": CN_8_17_MOVES,
    },
    {"players": 2, "seed": 5, "options": RIVER},
]


def _canonical_json(state: Any) -> str:
    return json.dumps(position(state), sort_keys=True)


@pytest.mark.parametrize("data", ALL_EXAMPLE_SETUPS)
def test_carcassonne_cn_8_20_setups_replay_identically(data: dict[str, Any]) -> None:
    assert _canonical_json(carc.from_setup(data)) == _canonical_json(carc.from_setup(data))


def _play_seeded_game(seed: int, options: dict[str, Any]) -> tuple[Any, list[str]]:
    """Play a whole seeded game, always taking the last legal entry; return it and its turns."""
    state = carc.new_game(2, options, seed)
    turns: list[str] = []
    while not position(state)["finished"]:
        pos = position(state)
        assert pos["phase"] == "place"
        tile = pos["current_tile"]
        placement = str(carc.legal_moves(state)[-1])
        state = carc.apply(state, placement)
        action = str(carc.legal_moves(state)[-1])
        state = carc.apply(state, action)
        turns.append(f"{tile} {placement} {action}")
    return state, turns


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (3, {}),
        (11, {"inns_cathedrals": "full", "traders_builders": "full", "farms": "first"}),
    ],
)
def test_carcassonne_cn_8_20_seeded_game_rebuilds_from_its_record(
    seed: int, options: dict[str, Any]
) -> None:
    final, turns = _play_seeded_game(seed, options)
    replayed = carc.from_setup({"players": 2, "seed": seed, "options": options, "moves": turns})
    assert _canonical_json(replayed) == _canonical_json(final)
    assert position(replayed)["finished"] is True
