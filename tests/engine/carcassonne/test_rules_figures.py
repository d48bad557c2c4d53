"""Placing and returning figures: rules K-5 and K-7 of carcassonne.md."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine.carcassonne as carc
from engine import IllegalMove
from tests.engine.carcassonne.rules_helpers import (
    BLUE,
    RED,
    duel,
    figure,
    legal,
    play,
    position,
    scores,
    supply,
)


def _frozen(state: Any) -> str:
    return json.dumps(position(state), sort_keys=True)


def _red_out_of_followers() -> Any:
    """Red has put all 7 followers on monasteries in a row of B tiles south of D (y = 1).

    Move k (1-based) places a B at (k-1, 1); Red makes the odd moves with a monk, Blue the even
    ones with none. No monastery completes: the row above it is empty except for D. The state
    returned is Red's 15th move, in phase figure.
    """
    moves = [f"B {k},1@0 {'follower:monastery' if k % 2 == 0 else 'none'}" for k in range(14)]
    return duel(["B"] * 16, [*moves, "B 14,1@0"])


def test_carcassonne_k_5_1_one_figure_per_turn() -> None:
    state = duel(["U", "U"], ["U 1,0@0"], options={"inns_cathedrals": "full"})
    for action in legal(state):
        assert action == "none" or action.count(":") == 1
    with pytest.raises(IllegalMove):
        carc.apply(state, "follower:road0 big:field0")
    after = play(state, "big:field0")
    assert position(after)["supply"][RED] == supply(7, big=0)
    assert position(after)["figures"] == [figure(RED, "big", 1, 0, "field0")]
    # The turn is over: the next action is Blue's placement.
    assert position(after)["phase"] == "place"
    assert position(after)["to_act"] == BLUE


def test_carcassonne_k_5_1_placing_nothing_is_always_allowed() -> None:
    after = play(duel(["U", "U"], ["U 1,0@0"]), "none")
    pos = position(after)
    assert pos["figures"] == []
    assert pos["supply"] == [supply(7), supply(7)]


def test_carcassonne_k_5_2_figures_only_on_the_tile_just_placed() -> None:
    state = play(duel(["U", "U", "U"], ["U 1,0@0 follower:road0"]), "2,0@0", "follower:field1")
    assert position(state)["figures"] == [
        figure(RED, "follower", 1, 0, "road0"),
        figure(BLUE, "follower", 2, 0, "field1"),
    ]


def test_carcassonne_k_5_3_own_follower_also_blocks() -> None:
    # Red's thief on the road D-U; Red's next U extends that road on the other side of D.
    state = duel(["U", "U", "U"], ["U 1,0@0 follower:road0", "U 2,0@0 none", "U -1,0@0"])
    assert legal(state) == {"none", "follower:field0", "follower:field1"}
    with pytest.raises(IllegalMove):
        carc.apply(state, "follower:road0")


def test_carcassonne_k_5_3_distance_does_not_matter() -> None:
    # The farm north of the road reaches from (-1,0) to (2,0) through D's strip.
    state = duel(["U", "U", "U"], ["U -1,0@0 follower:field0", "U 1,0@0 none", "U 2,0@0"])
    assert legal(state) == {"none", "follower:road0", "follower:field1"}


def test_carcassonne_k_5_3_occupied_city_rejects_a_follower() -> None:
    state = duel(["N", "J"], ["N 0,-1@180 follower:city0", "J 1,-1@270"])
    before = _frozen(state)
    with pytest.raises(IllegalMove):
        carc.apply(state, "follower:city0")
    assert _frozen(state) == before


def test_carcassonne_k_5_4_monastery_always_free() -> None:
    # B's field joins the farm of Red's farmer; its monastery is free all the same.
    state = duel(["U", "U", "B"], ["U 1,0@0 follower:field1", "U 2,0@0 none", "B 1,1@0"])
    assert legal(state) == {"none", "follower:monastery"}


def test_carcassonne_k_5_5_followers_go_on_fields() -> None:
    assert "follower:field0" in legal(duel(["E"], ["E 0,-1@180"]))
    assert "follower:field0" not in legal(duel(["E"], ["E 0,-1@180"], options={"farms": "off"}))


@pytest.mark.parametrize("kind", ["follower", "big"])
def test_carcassonne_k_5_5_no_field_when_farms_are_off(kind: str) -> None:
    state = duel(["U"], ["U 1,0@0"], options={"farms": "off", "inns_cathedrals": "full"})
    assert legal(state) == {"none", "follower:road0", "big:road0"}
    with pytest.raises(IllegalMove):
        carc.apply(state, f"{kind}:field0")


def test_carcassonne_k_5_7_figure_on_a_feature_it_completes() -> None:
    state = duel(["E", "U"], ["E 0,-1@180"])
    assert "follower:city0" in legal(state)
    after = play(state, "follower:city0")
    pos = position(after)
    assert pos["scores"] == [4, 0]
    assert pos["supply"][RED] == supply(7)
    assert pos["figures"] == []
    # The returned follower cannot be placed again: the turn has passed to Blue.
    assert pos["to_act"] == BLUE
    assert pos["phase"] == "place"


def test_carcassonne_k_5_7_monk_on_a_monastery_completed_at_once() -> None:
    # All eight cells around (0,1) are filled first; Blue's B there completes its own monastery.
    moves = [
        "U 1,0@0 none",
        "U -1,0@0 none",
        "B 1,1@0 none",
        "B -1,1@0 none",
        "B 1,2@0 none",
        "B -1,2@0 none",
        "B 0,2@0 none",
    ]
    state = duel(["U", "U", "B", "B", "B", "B", "B", "B", "U"], moves)
    after = play(state, "B 0,1@0 follower:monastery")
    pos = position(after)
    assert pos["scores"] == [0, 9]
    assert pos["supply"][BLUE] == supply(7)
    assert pos["figures"] == []


def test_carcassonne_k_5_8_empty_supply_leaves_only_none() -> None:
    state = _red_out_of_followers()
    pos = position(state)
    assert pos["to_act"] == RED
    assert pos["supply"][RED] == supply(0)
    assert pos["supply"][BLUE] == supply(7)
    assert legal(state) == {"none"}
    for action in ["follower:monastery", "follower:field0"]:
        before = _frozen(state)
        with pytest.raises(IllegalMove):
            carc.apply(state, action)
        assert _frozen(state) == before
    after = play(state, "none")
    assert len(position(after)["board"]) == 16


def test_carcassonne_k_5_8_empty_supply_still_places_the_tile() -> None:
    state = _red_out_of_followers()
    placing = play(state, "none")
    assert position(placing)["to_act"] == BLUE
    # Blue still has followers to place.
    assert "follower:monastery" in legal(play(placing, "15,1@0"))


def test_carcassonne_k_5_9_pig_counts_nothing_for_the_majority() -> None:
    # CN-8.17: Red has a follower and a pig, Blue a follower, in one farm: a 1:1 tie.
    state = duel(
        ["E", "U", "B", "E", "E"],
        [
            "E 0,-1@180 follower:field0",
            "U 1,0@0 follower:field0",
            "B -1,-1@0 pig:field0",
            "E 1,-1@0 none",
            "E 1,-2@180 none",
        ],
        options={"traders_builders": "full", "farms": "first"},
    )
    # With `first` farms a pig that counted would make Red the only winner of each city.
    assert scores(state) == [10, 8]


# --- K-7 Returning figures ------------------------------------------------------------------


def test_carcassonne_k_7_1_losers_figures_return_too() -> None:
    # CN-8.6: Blue's follower on Red's big follower's road returns, though Blue scores nothing.
    state = duel(
        ["U", "W", "W", "V", "V"],
        ["U 1,0@0 big:road0", "W 1,1@0 follower:road0", "W -1,0@0 none", "V 2,0@0 none"],
        options={"inns_cathedrals": "full"},
    )
    pos = position(state)
    assert pos["supply"] == [supply(7, big=0), supply(6, big=1)]
    after = position(play(state, "V 2,1@90 none"))
    assert after["supply"] == [supply(7, big=1), supply(7, big=1)]
    assert after["figures"] == []


def test_carcassonne_k_7_2_farmers_and_unscored_figures_stay() -> None:
    state = duel(["U", "E", "U"], ["U 1,0@0 follower:field0", "E 0,-1@180 follower:city0"])
    pos = position(state)
    # The city closed and Blue's knight came home; Red's farmer stays.
    assert pos["figures"] == [figure(RED, "follower", 1, 0, "field0")]
    assert pos["supply"] == [supply(6), supply(7)]
    assert pos["scores"] == [0, 4]
