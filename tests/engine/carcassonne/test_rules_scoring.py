"""Features and scoring during the game: rules K-2, K-6 and K-11.2 of carcassonne.md."""

from __future__ import annotations

import pytest

import engine.carcassonne as carc
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

IC_TILES = {"inns_cathedrals": "tiles"}

# --- K-2 Tiles, segments and features -------------------------------------------------------


def test_carcassonne_k_2_1_surroundings_include_corner_cells() -> None:
    # The monastery at (0,1) has D north of it and the two U tiles at its north corners.
    state = duel(["U", "U", "B"], ["U 1,0@0 none", "U -1,0@0 none", "B 0,1@0 follower:monastery"])
    assert scores(state) == [4, 0]


def test_carcassonne_k_2_2_rotation_turns_the_sides() -> None:
    # CN-1.3: E@90 has its city east, so it closes a city only from the west of a city side.
    state = duel(["E"])
    assert "0,-1@180" in legal(state)  # city south, facing D's city
    assert "0,-1@90" not in legal(state)


def test_carcassonne_k_2_3_one_sided_road_ends_on_its_tile() -> None:
    # A@270's road ends at the monastery, W's road2 at the junction: 3 tiles, complete.
    state = duel(["A", "W", "U"], ["A -1,0@270 follower:road0", "W 1,0@0 none"])
    assert scores(state) == [3, 0]
    assert position(state)["figures"] == []


def test_carcassonne_k_2_4_junction_roads_do_not_connect() -> None:
    # CN-8.9: the road through U ends at both junctions and is complete with 3 tiles.
    state = duel(["W", "U", "W"], ["W 1,0@0 none", "U 2,0@0 follower:road0", "W 3,0@0 none"])
    assert scores(state) == [0, 3]


def test_carcassonne_k_2_4_separate_caps_of_h_are_separate_cities() -> None:
    # Red's knight on H's east cap; Blue closes H's west cap with an E and may take it.
    state = duel(["H", "E", "U"], ["H 0,1@0 follower:city0", "E -1,1@90"])
    assert "follower:city0" in legal(state)
    assert scores(play(state, "follower:city0")) == [0, 4]


def test_carcassonne_k_2_4_roads_of_a_crossroads_are_separate() -> None:
    state = duel(["X", "U"], ["X 1,0@0 follower:road3", "U 2,0@0"])
    # U joins X's east road (road1), which holds nobody; X's west road holds Red's thief.
    assert "follower:road0" in legal(state)


def test_carcassonne_k_2_5_fields_do_not_join_across_a_city_side() -> None:
    # CN-8.13: D@180 north of D; the two strips meet only at the city side.
    state = duel(["D", "U"], ["D 0,-1@180 follower:field0", "U 1,0@0"])
    assert "follower:field0" in legal(state)


def test_carcassonne_k_2_5_fields_join_half_by_half_across_a_road() -> None:
    # Red farms north of the road at (1,0); Blue's U at (2,0) north field is Red's farm,
    # its south field is free.
    state = duel(["U", "U"], ["U 1,0@0 follower:field0", "U 2,0@0"])
    assert legal(state) == {"none", "follower:road0", "follower:field1"}


def test_carcassonne_k_2_9_farm_never_completes() -> None:
    # I03's inner field touches no side, so nothing can ever join it; its farmer stays.
    state = duel(["I03", "U"], ["I03 0,-1@0 follower:field0"], options=IC_TILES)
    pos = position(state)
    assert pos["figures"] == [figure(RED, "follower", 0, -1, "field0")]
    assert pos["supply"][RED] == supply(6)
    assert pos["scores"] == [0, 0]


def test_carcassonne_k_2_6_monastery_is_its_own_feature() -> None:
    state = duel(["B", "B"], ["B 0,1@0 follower:monastery", "B 1,1@0"])
    assert "follower:monastery" in legal(state)
    assert "follower:field0" in legal(state)


def test_carcassonne_k_2_7_road_complete_when_both_ends_stop() -> None:
    state = duel(["W", "U", "W"], ["W 1,0@0 none", "U 2,0@0 follower:road0"])
    assert scores(state) == [0, 0]
    assert scores(play(state, "W 3,0@0 none")) == [0, 3]


def test_carcassonne_k_2_7_road_loop_is_complete() -> None:
    state = duel(
        ["V", "V", "V", "V"],
        ["V 0,1@270 follower:road0", "V 1,1@0 none", "V 0,2@180 none", "V 1,2@90 none"],
    )
    assert scores(state) == [4, 0]


def test_carcassonne_k_2_7_city_with_a_gap_is_not_complete() -> None:
    # N@180 north of D opens a city side east; only a cap there closes it.
    state = duel(["N", "U", "E"], ["N 0,-1@180 follower:city0", "U 1,0@0 none"])
    assert scores(state) == [0, 0]
    assert scores(play(state, "E 1,-1@270 none")) == [6, 0]


def test_carcassonne_k_2_8_monastery_needs_all_eight_neighbours() -> None:
    moves = [
        "B 0,1@0 follower:monastery",
        "U 1,0@0 none",
        "U -1,0@0 none",
        "E 1,1@90 none",
        "E -1,1@270 none",
        "B 0,2@0 none",
        "B 1,2@0 none",
    ]
    state = duel(["B", "U", "U", "E", "E", "B", "B", "B", "U"], moves)
    assert position(state)["figures"] == [figure(RED, "follower", 0, 1, "monastery")]
    after = play(state, "B -1,2@0 none")
    assert scores(after) == [9, 0]
    assert position(after)["figures"] == []


def test_carcassonne_k_2_10_tile_counts_once_per_feature() -> None:
    # CN-8.7: both caps of H in one ring city: 6 tiles, 3 shields = 18, not 20.
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


def test_carcassonne_k_2_10_i17_counts_once_on_a_road() -> None:
    # The road runs W(1,0).road1 -> I17.road0 -> V(0,1) -> V(0,2) -> V(1,2) -> I17.road1 ->
    # W(2,1).road2: 6 cells, 7 segments. It scores 6.
    moves = [
        "W 1,0@0 none",
        "V 0,1@270 none",
        "I17 1,1@0 follower:road0",
        "V 0,2@180 none",
        "W 2,1@0 none",
    ]
    state = duel(["W", "V", "I17", "V", "W", "V"], moves, options=IC_TILES)
    assert scores(state) == [0, 0]
    assert scores(play(state, "V 1,2@90 none")) == [6, 0]


def test_carcassonne_k_2_11_shield_counted_per_segment() -> None:
    # I06: the shield sits on the diagonal city0 only. Its cap city1 closes D's city: 2 tiles,
    # no shield, 4 points.
    state = duel(["I06"], ["I06 0,-1@0"], options=IC_TILES)
    assert legal(state) == {"none", "follower:city0", "follower:city1", "follower:field0"}
    assert scores(play(state, "follower:city1")) == [4, 0]


def test_carcassonne_k_2_11_shields_of_a_completed_city() -> None:
    # M (shield) closes D's city with a second cap: 3 tiles + 1 shield = 8.
    state = duel(["M", "E"], ["M 0,-1@180 follower:city0", "E 1,-1@270 none"])
    assert scores(state) == [8, 0]


def test_carcassonne_k_2_13_road_with_an_inn_segment() -> None:
    # I16 (road bend with an inn) in a road closed by W's junction and A's monastery: 4 x 2.
    state = duel(
        ["I16", "W", "A"],
        ["I16 1,0@0 follower:road0", "W -1,0@0 none", "A 1,1@180 none"],
        options=IC_TILES,
    )
    assert scores(state) == [8, 0]


def test_carcassonne_k_2_15_closing_a_loop_completes_it() -> None:
    # The last bend of the ring joins two ends of the same road.
    before = duel(
        ["V", "V", "V", "V", "U"],
        ["V 0,1@270 follower:road0", "V 1,1@0 none", "V 0,2@180 none"],
    )
    assert position(before)["figures"] == [figure(RED, "follower", 0, 1, "road0")]
    after = play(before, "V 1,2@90 none")
    assert scores(after) == [4, 0]
    assert position(after)["figures"] == []


def test_carcassonne_k_2_12_farm_borders_a_city_once() -> None:
    # One farm reaches the city D-G-E through G.field0 and E.field0 (joined by two B tiles
    # east of them). It borders that city once: 3, not 6.
    moves = ["G 0,-1@0 follower:field0", "E 0,-2@180 none", "B 1,-1@0 none", "B 1,-2@0 none"]
    assert scores(duel(["G", "E", "B", "B"], moves)) == [3, 0]


# --- K-6 Scoring during the game ------------------------------------------------------------


def test_carcassonne_k_6_1_completed_feature_scored_once() -> None:
    state = duel(["E", "U", "U"], ["E 0,-1@180 follower:city0", "U 1,0@0 none", "U -1,0@0 none"])
    assert scores(state) == [4, 0]


def test_carcassonne_k_6_6_monastery_nine_when_a_neighbour_completes_it() -> None:
    # K-6.1: the tile that fills the last neighbour cell scores the monastery, though the
    # monastery is not on it.
    moves = [
        "B 0,1@0 follower:monastery",
        "U 1,0@0 none",
        "U -1,0@0 none",
        "E 1,1@90 none",
        "E -1,1@270 none",
        "B 0,2@0 none",
        "B 1,2@0 none",
        "B -1,2@0 none",
    ]
    state = duel(["B", "U", "U", "E", "E", "B", "B", "B", "U"], moves)
    assert scores(state) == [9, 0]
    assert position(state)["supply"][RED] == supply(7)


def test_carcassonne_k_6_2_tied_owners_score_in_full() -> None:
    state = duel(
        ["N", "J", "N"],
        ["N 0,-1@270 follower:city0", "J -1,0@0 follower:city0", "N -1,-1@180 none"],
    )
    assert scores(state) == [8, 8]
    assert position(state)["winners"] == [0, 1]


def test_carcassonne_k_6_2_majority_takes_all_and_figures_never_multiply() -> None:
    # A row of B tiles at y = 1 carries three separate roads at y = 0: Blue's at (2,0), Red's at
    # (4,0) and Red's D-road with U(-1,0). U(3,0) and U(1,0) join them: Red 2, Blue 1.
    draws = ["B", "B", "B", "B", "B", "U", "U", "B", "U", "U", "U"]
    moves = [
        "B 0,1@0 none",
        "B 1,1@0 none",
        "B 2,1@0 none",
        "B 3,1@0 none",
        "B 4,1@0 none",
        "U 2,0@0 follower:road0",
        "U 4,0@0 follower:road0",
        "B 5,1@0 none",
        "U -1,0@0 follower:road0",
        "U 3,0@0 none",
        "U 1,0@0 none",
    ]
    pos = position(duel(draws, moves))
    assert pos["finished"] is True
    # The open road of 6 tiles pays Red once (6, not 12) and Blue nothing.
    assert pos["scores"] == [6, 0]
    assert pos["supply"] == [supply(5), supply(6)]


def test_carcassonne_k_6_2_big_follower_counts_two() -> None:
    state = duel(
        ["U", "W", "W", "V", "V"],
        [
            "U 1,0@0 big:road0",
            "W 1,1@0 follower:road0",
            "W -1,0@0 none",
            "V 2,0@0 none",
            "V 2,1@90 none",
        ],
        options={"inns_cathedrals": "full"},
    )
    assert scores(state) == [6, 0]


def test_carcassonne_k_6_3_completed_feature_without_follower_scores_nobody() -> None:
    state = duel(["E", "U"], ["E 0,-1@180 none"])
    pos = position(state)
    assert pos["scores"] == [0, 0]
    assert pos["supply"] == [supply(7), supply(7)]


def test_carcassonne_k_6_4_road_one_point_per_tile() -> None:
    state = duel(
        ["W", "U", "U", "W"],
        ["W -1,0@0 follower:road0", "U 1,0@0 none", "U 2,0@0 none", "W 3,0@0 none"],
    )
    assert scores(state) == [5, 0]


def test_carcassonne_k_6_5_city_two_points_per_tile_and_shield() -> None:
    assert scores(duel(["E"], ["E 0,-1@180 follower:city0"])) == [4, 0]
    # G then E: 3 tiles, no shield = 6.
    assert scores(duel(["G", "E"], ["G 0,-1@0 follower:city0", "E 0,-2@180 none"])) == [6, 0]


def test_carcassonne_k_6_7_city_reported_before_road() -> None:
    # D@180 at (0,-1) closes D's city (Red's knight, 4) and the road between the two
    # monastery road ends of A(1,-1) and A(-1,-1) (Red's thief, 3).
    state = duel(
        ["U", "U", "A", "A", "D", "U"],
        ["U 1,0@0 none", "U -1,0@0 none", "A 1,-1@90 follower:road0", "A -1,-1@270 none"],
    )
    after = carc.apply(state, "D 0,-1@180 follower:city0")
    assert scores(after) == [7, 0]
    assert position(after)["supply"][RED] == supply(7)
    features = [e.data["feature"] for e in after.events if e.kind == "score"]
    assert features, "K-15.3: every scoring is reported"
    assert features.index("city") < features.index("road")


def test_carcassonne_k_15_3_scoring_reported_with_points() -> None:
    after = carc.apply(duel(["E", "U"]), "E 0,-1@180 follower:city0")
    scored = [e for e in after.events if "score" in e.kind]
    assert scored
    assert any(e.data["points"] == 4 and e.data["feature"] == "city" for e in scored)


# --- K-11.2 Small cities --------------------------------------------------------------------


def test_carcassonne_k_11_2_small_city_scores_two() -> None:
    state = duel(["E"], ["E 0,-1@180 follower:city0"], options={"small_cities": True})
    assert scores(state) == [2, 0]


@pytest.mark.parametrize("small", [False, True])
def test_carcassonne_k_11_2_larger_cities_unchanged(small: bool) -> None:
    state = duel(
        ["G", "E"],
        ["G 0,-1@0 follower:city0", "E 0,-2@180 none"],
        options={"small_cities": small},
    )
    assert scores(state) == [6, 0]
