"""Traders & Builders: rules K-14 of carcassonne.md (with CN-8.16 to CN-8.18)."""

from __future__ import annotations

import pytest

import engine.carcassonne as carc
from engine import IllegalMove
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
    supply,
)

TILES = {"traders_builders": "tiles"}
FULL = {"traders_builders": "full"}


def test_carcassonne_k_14_1_tiles_without_builder_and_pig() -> None:
    state = duel(["U", "U"], ["U 1,0@0 follower:road0", "U 2,0@0"], options=TILES)
    assert position(state)["supply"] == [supply(6), supply(7)]
    assert legal(state) == {"none", "follower:field0", "follower:field1"}
    for action in ["builder:road0", "pig:field0"]:
        with pytest.raises(IllegalMove):
            carc.apply(state, action)


def test_carcassonne_k_14_1_tiles_count_goods() -> None:
    state = duel(["T15", "E"], ["T15 0,-1@90 none", "E 0,-2@180 none"], options=TILES)
    pos = position(state)
    assert pos["goods"] == [no_goods(), {"wine": 1, "grain": 0, "cloth": 0}]
    assert pos["scores"] == [0, 10]


def test_carcassonne_k_14_2_goods_without_any_follower() -> None:
    state = duel(["T15", "E", "U"], ["T15 0,-1@90 none", "E 0,-2@180 none"], options=TILES)
    pos = position(state)
    assert pos["goods"][BLUE] == {"wine": 1, "grain": 0, "cloth": 0}
    assert pos["scores"] == [0, 0]


def test_carcassonne_k_14_2_goods_counted_per_segment() -> None:
    # T03: the cloth is on the east-west city0; the cap city1 closes D's city without goods.
    state = duel(["T03", "U"], ["T03 0,-1@0 none"], options=TILES)
    assert position(state)["goods"] == [no_goods(), no_goods()]


def test_carcassonne_k_14_2_incomplete_city_gives_no_goods() -> None:
    state = duel(["T15"], ["T15 0,-1@90 follower:city0"], options=TILES)
    pos = position(state)
    assert pos["finished"] is True
    assert pos["goods"] == [no_goods(), no_goods()]
    assert pos["scores"] == [2, 0]


def test_carcassonne_k_14_3_tied_goods_majority_pays_both() -> None:
    draws = ["T15", "E", "E", "U", "T15", "U", "E"]
    moves = [
        "T15 0,-1@90 none",
        "E 0,-2@180 none",
        "E 0,1@180 none",
        "U 1,0@0 none",
        "T15 0,2@90 none",
        "U -1,0@0 none",
        "E 0,3@0 none",
    ]
    pos = position(duel(draws, moves, options=TILES))
    wine = {"wine": 1, "grain": 0, "cloth": 0}
    assert pos["goods"] == [wine, wine]
    assert pos["scores"] == [10, 10]
    assert pos["winners"] == [0, 1]


def test_carcassonne_k_14_4_pig_needs_own_follower_in_the_farm() -> None:
    # Blue's U joins Red's farm north of the road; Blue has no farmer there, so no pig.
    state = duel(["U", "U"], ["U 1,0@0 follower:field0", "U 2,0@0"], options=FULL)
    assert legal(state) == {"none", "follower:road0", "follower:field1"}
    with pytest.raises(IllegalMove):
        carc.apply(state, "pig:field0")


def test_carcassonne_k_14_4_pig_stays_and_never_counts() -> None:
    draws = ["E", "U", "B", "E", "E"]
    moves = [
        "E 0,-1@180 follower:field0",
        "U 1,0@0 follower:field0",
        "B -1,-1@0 pig:field0",
        "E 1,-1@0 none",
        "E 1,-2@180 none",
    ]
    pos = position(duel(draws, moves, options=FULL))
    assert figure(RED, "pig", -1, -1, "field0") in pos["figures"]
    assert pos["supply"][RED] == supply(6, builder=1, pig=0)
    assert pos["scores"] == [8, 6]


@pytest.mark.parametrize(("farms", "expected"), [("third", [0, 6]), ("first", [0, 8])])
def test_carcassonne_k_14_5_pig_earns_nothing_for_a_non_owner(
    farms: str, expected: list[int]
) -> None:
    # CN-8.17 with Blue's big follower instead of a follower: Blue 2 against Red 1 (the pig
    # counts 0), so Red is not paid for the farm and the pig earns Red nothing.
    moves = [
        "E 0,-1@180 follower:field0",
        "U 1,0@0 big:field0",
        "B -1,-1@0 pig:field0",
        "E 1,-1@0 none",
        "E 1,-2@180 none",
    ]
    options = {**FULL, "inns_cathedrals": "full", "farms": farms}
    assert scores(duel(["E", "U", "B", "E", "E"], moves, options=options)) == expected


@pytest.mark.parametrize(
    ("farms", "expected"), [("third", [7, 3]), ("second", [4, 3]), ("first", [5, 0])]
)
def test_carcassonne_k_14_5_pig_in_one_of_two_farms_around_a_city(
    farms: str, expected: list[int]
) -> None:
    # CN-8.12 with Red's pig in the farm north of the road (D's strip with the U tiles). Red
    # owns that farm and G.field0, Blue owns E.field0; all three border the city D-G-E.
    moves = [
        "G 0,-1@0 follower:field0",
        "E 0,-2@180 follower:field0",
        "U 1,0@0 follower:field0",
        "U -1,0@0 none",
        "U 2,0@0 pig:field0",
    ]
    options = {**FULL, "farms": farms}
    assert scores(duel(["G", "E", "U", "U", "U"], moves, options=options)) == expected


def test_carcassonne_k_14_6_no_builder_on_a_feature_this_placement_completes() -> None:
    state = duel(
        ["U", "W", "W"], ["U 1,0@0 follower:road0", "W 2,0@0 none", "W -1,0@0"], options=FULL
    )
    assert legal(state) == {
        "none",
        "follower:road1",
        "follower:road2",
        "follower:field0",
        "follower:field1",
        "follower:field2",
    }


def test_carcassonne_k_14_6_builder_needs_own_follower() -> None:
    state = duel(["U", "U"], ["U 1,0@0 follower:road0", "U 2,0@0"], options=FULL)
    assert "builder:road0" not in legal(state)
    mine = duel(
        ["U", "E", "U"], ["U 1,0@0 follower:road0", "E 0,-1@180 none", "U 2,0@0"], options=FULL
    )
    assert "builder:road0" in legal(mine)


def test_carcassonne_k_14_7_completing_the_builders_road_also_triggers() -> None:
    draws = ["U", "W", "U", "B", "W", "U", "U"]
    moves = [
        "U 1,0@0 follower:road0",
        "W -1,0@0 none",
        "U 2,0@0 builder:road0",
        "B 0,1@0 none",
        "W 3,0@0 none",
    ]
    pos = position(duel(draws, moves, options=FULL))
    assert pos["scores"] == [5, 0]
    # K-14.9: the builder returns with the follower when its road is scored.
    assert pos["supply"][RED] == supply(7, builder=1, pig=1)
    assert pos["figures"] == []
    assert pos["to_act"] == RED
    assert pos["extra_turn"] is True


def test_carcassonne_k_14_7_builder_in_a_city_triggers() -> None:
    draws = ["N", "U", "G", "U", "G", "U"]
    moves = [
        "N 0,-1@180 follower:city0",
        "U 1,0@0 none",
        "G 1,-1@90 builder:city0",
        "U 2,0@0 none",
        "G 2,-1@90 none",
    ]
    pos = position(duel(draws, moves, options=FULL))
    assert pos["to_act"] == RED
    assert pos["extra_turn"] is True
    assert figure(RED, "builder", 1, -1, "city0") in pos["figures"]


def test_carcassonne_k_15_3_goods_are_reported() -> None:
    before = duel(
        ["T15", "T18", "U", "E"],
        ["T15 0,-1@90 follower:city0", "T18 0,-2@90 none", "U 1,0@0 none"],
        options=TILES,
    )
    after = carc.apply(before, "E 0,-3@180 none")
    assert any(e.kind == "goods" and "wine" in e.data["goods"] for e in after.events)


def test_carcassonne_k_14_7_other_players_tile_never_triggers() -> None:
    draws = ["U", "E", "U", "U", "U"]
    moves = ["U 1,0@0 follower:road0", "E 0,-1@180 none", "U 2,0@0 builder:road0", "U 3,0@0 none"]
    pos = position(duel(draws, moves, options=FULL))
    assert pos["to_act"] == RED
    assert pos["extra_turn"] is False


def test_carcassonne_k_14_7_tile_elsewhere_does_not_trigger() -> None:
    draws = ["U", "E", "U", "B", "B", "U"]
    moves = [
        "U 1,0@0 follower:road0",
        "E 0,-1@180 none",
        "U 2,0@0 builder:road0",
        "B 0,1@0 none",
        "B 1,1@0 none",
    ]
    pos = position(duel(draws, moves, options=FULL))
    assert pos["to_act"] == BLUE
    assert pos["extra_turn"] is False


def test_carcassonne_k_14_8_extra_turn_allows_its_own_figure() -> None:
    draws = ["U", "E", "U", "B", "U", "B", "U"]
    moves = [
        "U 1,0@0 follower:road0",
        "E 0,-1@180 none",
        "U 2,0@0 builder:road0",
        "B 0,1@0 none",
        "U 3,0@0 follower:field1",
    ]
    state = duel(draws, moves, options=FULL)
    assert position(state)["extra_turn"] is True
    after = play(state, "B 1,1@0 follower:monastery")
    pos = position(after)
    assert pos["supply"][RED] == supply(4, builder=0, pig=1)
    assert pos["to_act"] == BLUE
    assert pos["extra_turn"] is False


def test_carcassonne_k_14_8_no_extra_turn_when_the_pile_is_empty() -> None:
    draws = ["U", "E", "U", "B", "U"]
    moves = [
        "U 1,0@0 follower:road0",
        "E 0,-1@180 none",
        "U 2,0@0 builder:road0",
        "B 0,1@0 none",
        "U 3,0@0 none",
    ]
    pos = position(duel(draws, moves, options=FULL))
    assert pos["finished"] is True
    assert pos["extra_turn"] is False
    # Open road D-U-U-U: 4 for Red; the builder adds nothing (K-14.11).
    assert pos["scores"] == [4, 0]


def test_carcassonne_k_14_8_pile_runs_out_during_the_extra_turn() -> None:
    draws = ["U", "E", "U", "B", "U", "C"]
    moves = [
        "U 1,0@0 follower:road0",
        "E 0,-1@180 none",
        "U 2,0@0 builder:road0",
        "B 0,1@0 none",
        "U 3,0@0 none",
    ]
    pos = position(duel(draws, moves, options=FULL))
    assert pos["discarded"] == ["C"]
    assert pos["finished"] is True
    assert pos["extra_turn"] is False
    assert pos["scores"] == [4, 0]


def test_carcassonne_k_14_9_builder_returns_when_its_road_is_scored() -> None:
    draws = ["U", "W", "U", "B", "W", "U"]
    moves = ["U 1,0@0 follower:road0", "W -1,0@0 none", "U 2,0@0 builder:road0", "B 0,1@0 none"]
    before = duel(draws, moves, options=FULL)
    assert position(before)["supply"][RED] == supply(6, builder=0, pig=1)
    after = play(before, "W 3,0@0 none")
    pos = position(after)
    assert pos["supply"][RED] == supply(7, builder=1, pig=1)
    assert pos["scores"] == [5, 0]


def test_carcassonne_k_14_11_builder_scores_nothing() -> None:
    draws = ["U", "E", "U", "B"]
    moves = ["U 1,0@0 follower:road0", "E 0,-1@180 none", "U 2,0@0 builder:road0", "B 0,1@0 none"]
    pos = position(duel(draws, moves, options=FULL))
    assert pos["finished"] is True
    assert pos["scores"] == [3, 0]
    assert figure(RED, "builder", 2, 0, "road0") in pos["figures"]
