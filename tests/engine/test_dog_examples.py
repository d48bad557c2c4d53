"""The Dog worked examples of race-notation N-8.8 to N-8.13, as exact legal-move sets."""

from __future__ import annotations

import pytest

from engine import dog
from tests.engine.dog_helpers import legal, load

PRESETS = ("bsw", "braendi")


@pytest.mark.parametrize("preset", PRESETS)
def test_dog_n_8_8_own_blocking_pawn_same_in_both_presets(preset: str) -> None:
    state = load(
        options={"preset": preset},
        pawns={"0": ["r0*", "r62"]},
        hands={"0": ["A", "3"]},
        turn=0,
    )
    assert legal(state) == {"A:r0-r1", "A:r0-r11", "A:r62-r63", "3:r0-r3"}


def test_dog_n_8_9_pawn_on_start_field_after_a_lap_bsw() -> None:
    state = load(pawns={"0": ["r0"]}, hands={"0": ["A"]}, turn=0)
    assert legal(state) == {"A:E", "A:r0-r1", "A:r0-r11"}


def test_dog_n_8_9_pawn_on_start_field_after_a_lap_braendi() -> None:
    state = load(options={"preset": "braendi"}, pawns={"0": ["r0"]}, hands={"0": ["A"]}, turn=0)
    assert legal(state) == {"A:E", "A:r0-r1", "A:r0-r11", "A:r0-h0.1"}


def test_dog_n_8_10_seven_through_the_goal() -> None:
    state = load(pawns={"0": ["r62", "h0.1"]}, hands={"0": ["7"]}, turn=0)
    assert legal(state) == {
        "7:r62-r5",
        "7:r62-r4,h0.1-h0.2",
        "7:r62-r3,h0.1-h0.3",
        "7:r62-r2,h0.1-h0.4",
        "7:h0.1-h0.4,r62-h0.2",
    }


def test_dog_n_8_11_finishing_seven_carries_over_to_partner() -> None:
    state = load(
        pawns={"0": ["r61", "h0.2", "h0.3", "h0.4"], "2": ["r40", "r45"]},
        hands={"0": ["7"]},
        turn=0,
    )
    assert legal(state) == {
        "7:r61-r4",
        "7:r61-h0.1,r45-r48",
        "7:r61-h0.1,r40-r41,r45-r47",
        "7:r61-h0.1,r40-r42,r45-r46",
        "7:r61-h0.1,r40-r43",
    }


def test_dog_n_8_12_finished_player_moves_partner_pawns() -> None:
    state = load(
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "2": ["r40", "r45"]},
        hands={"0": ["K", "5"]},
        turn=0,
    )
    assert legal(state) == {"K:E2", "K:r40-r53", "K:r45-r58", "5:r40-r45", "5:r45-r50"}


def test_dog_n_8_12_five_captures_the_partners_own_pawn() -> None:
    state = load(
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "2": ["r40", "r45"]},
        hands={"0": ["K", "5"]},
        turn=0,
    )
    pos = dog.to_position(dog.apply(state, "5:r40-r45"))
    assert pos["pawns"]["2"] == ["r45", "k2", "k2", "k2"]
    assert pos["pawns"]["0"] == ["h0.1", "h0.2", "h0.3", "h0.4"]


def test_dog_n_8_13_seven_cannot_pass_a_blocking_pawn() -> None:
    state = load(pawns={"0": ["r10"], "1": ["r16*"]}, hands={"0": ["7", "3"]}, turn=0)
    assert legal(state) == {"3:r10-r13"}


def test_dog_n_8_13_lone_unplayable_seven_folds() -> None:
    state = load(pawns={"0": ["r10"], "1": ["r16*"]}, hands={"0": ["7"]}, turn=0)
    assert legal(state) == {"F"}


def test_dog_n_8_13_seven_burns_yellow_and_blue() -> None:
    state = load(
        pawns={"0": ["r3"], "1": ["r8"], "2": ["r5"]}, hands={"0": ["7"], "1": ["2"]}, turn=0
    )
    assert legal(state) == {"7:r3-r10"}
    pos = dog.to_position(dog.apply(state, "7:r3-r10"))
    assert pos["pawns"]["0"] == ["r10", "k0", "k0", "k0"]
    assert pos["pawns"]["1"] == ["k1"] * 4
    assert pos["pawns"]["2"] == ["k2"] * 4


def test_dog_n_8_13_lone_joker_brings_out() -> None:
    state = load(hands={"0": ["X"]}, turn=0)
    assert legal(state) == {"X=A:E"}


@pytest.mark.parametrize(("preset", "expected"), [("bsw", {"F"}), ("braendi", {"J:N"})])
def test_dog_n_8_13_jack_without_target(preset: str, expected: set[str]) -> None:
    state = load(
        options={"preset": preset}, pawns={"0": ["r10", "r20"]}, hands={"0": ["J"]}, turn=0
    )
    assert legal(state) == expected
