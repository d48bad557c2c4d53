"""The River: rules K-12 of carcassonne.md (with CN-8.19)."""

from __future__ import annotations

from collections import Counter

import pytest

import engine.carcassonne as carc
from engine import IllegalMove
from tests.engine.carcassonne.rules_helpers import (
    BLUE,
    duel,
    figure,
    legal,
    play,
    position,
    scores,
    setup,
)

RIVER = {"river": True}


def test_carcassonne_k_12_1_and_k_12_2_seeded_river_pile() -> None:
    """River tiles come first (10 shuffled, then the lake), then the 71 land tiles."""
    state = setup(players=2, seed=8, options=RIVER)
    assert position(state)["board"] == [{"tile": "R01", "x": 0, "y": 0, "rot": 0}]
    drawn: list[str] = []
    while not position(state)["finished"]:
        pos = position(state)
        drawn.append(pos["current_tile"])
        state = play(state, str(carc.legal_moves(state)[0]), "none")
    final = position(state)
    # K-12.5: with this set no river tile before the lake is ever discarded.
    assert drawn[:11] == [t for t in drawn[:11] if t.startswith("R") and t[1:].isdigit()]
    assert Counter(drawn[:10]) == Counter(
        ["R03", "R03", "R04", "R04", "R05", "R06", "R07", "R08", "R09", "R10"]
    )
    assert drawn[10] == "R02"
    land = Counter(drawn[11:]) + Counter(final["discarded"])
    assert sum(land.values()) == 71
    assert land["D"] == 3
    assert not any(t.startswith("R") and t[1:].isdigit() for t in land)


def test_carcassonne_k_12_2_spring_replaces_the_start_tile() -> None:
    pos = position(setup(players=3, seed=2, options=RIVER))
    assert pos["board"] == [{"tile": "R01", "x": 0, "y": 0, "rot": 0}]
    assert pos["tiles_left"] == 81
    assert pos["current_tile"] in {f"R{i:02d}" for i in range(3, 11)}


def test_carcassonne_k_4_3_river_tiles_obey_the_river_rules() -> None:
    # R03 next to the spring's field sides would satisfy K-4.2 alone.
    state = duel(["R03"], options=RIVER)
    assert legal(state) == {"0,1@0"}
    for text in ["R03 1,0@0 none", "R03 -1,0@0 none", "R03 0,-1@0 none"]:
        with pytest.raises(IllegalMove):
            carc.apply(state, text)


def test_carcassonne_k_12_3_river_tile_only_at_the_open_end() -> None:
    # R03's field sides would match the spring's east and west sides (K-4.2), but a river
    # tile must continue the river.
    assert legal(duel(["R03"], options=RIVER)) == {"0,1@0"}


def test_carcassonne_k_12_3_river_tile_after_the_lake_is_discarded() -> None:
    state = duel(["R02", "R03", "E"], ["R02 0,1@0 none"], options=RIVER)
    pos = position(state)
    assert pos["discarded"] == ["R03"]
    assert pos["current_tile"] == "E"
    assert pos["to_act"] == BLUE


def test_carcassonne_k_12_4_no_u_turn_across_a_straight() -> None:
    # Bend east (counter-clockwise), a straight, then the next bend must turn clockwise (south).
    state = duel(
        ["R04", "R03", "R04", "R02"],
        ["R04 0,1@180 none", "R03 1,1@90 none"],
        options=RIVER,
    )
    assert legal(state) == {"2,1@0"}


def test_carcassonne_k_12_4_first_bend_may_turn_either_way() -> None:
    assert legal(duel(["R04"], options=RIVER)) == {"0,1@90", "0,1@180"}


def test_carcassonne_k_12_5_blocked_river_tile_is_discarded() -> None:
    # After the bend east, the next bend must turn south (K-12.4), but E@270 at (1,2) shows a
    # field there (K-4.2): the second R04 has no placement, and Blue draws the lake instead.
    state = duel(
        ["R04", "E", "E", "R04", "R02"],
        ["R04 0,1@180 none", "E 0,2@90 none", "E 1,2@270 none"],
        options=RIVER,
    )
    pos = position(state)
    assert pos["discarded"] == ["R04"]
    assert pos["current_tile"] == "R02"
    assert pos["to_act"] == BLUE
    assert legal(state) == {"1,1@270"}


def test_carcassonne_k_12_6_river_sides_match_only_river_sides() -> None:
    # A land tile drawn first (set-up draws do not enforce the river order) may touch the
    # spring's three field sides but never its river side.
    state = duel(["E"], options=RIVER)
    assert legal(state) == {
        "0,-1@0",
        "0,-1@90",
        "0,-1@270",
        "-1,0@0",
        "-1,0@180",
        "-1,0@270",
        "1,0@0",
        "1,0@90",
        "1,0@180",
    }


def test_carcassonne_k_2_14_river_is_not_a_segment() -> None:
    state = duel(["R03", "R02"], options=RIVER)
    placed = play(state, "0,1@0")
    assert legal(placed) == {"none", "follower:field0", "follower:field1"}
    for text in ["follower:river0", "follower:river"]:
        with pytest.raises(IllegalMove):
            carc.apply(placed, text)


def test_carcassonne_k_12_6_river_separates_fields() -> None:
    # R05 (river N-S, road bridge E-W): Red farms its south-east quarter. R03 south of it has
    # its east bank in Red's farm and its west bank free.
    state = duel(["R05", "R03", "R02"], ["R05 0,1@0 follower:field2", "R03 0,2@0"], options=RIVER)
    assert legal(state) == {"none", "follower:field1"}


def test_carcassonne_k_12_6_spring_joins_both_banks() -> None:
    # Red farms the east bank of R03 below the spring; the west bank is the same farm.
    state = duel(["R03", "R03", "R02"], ["R03 0,1@0 follower:field0", "R03 0,2@0"], options=RIVER)
    assert legal(state) == {"none"}


def test_carcassonne_k_12_7_figures_on_river_tiles_score_normally() -> None:
    # Blue's knight on the city cap of R07 (river east-west after the bend); Red's E closes it.
    state = duel(
        ["R04", "R07", "E", "R02"],
        ["R04 0,1@180 none", "R07 1,1@0 follower:city0"],
        options=RIVER,
    )
    assert position(state)["figures"] == [figure(BLUE, "follower", 1, 1, "city0")]
    closed = play(state, "E 1,0@180 none")
    assert scores(closed) == [0, 4]
    assert legal(closed) == {"2,1@270"}
