"""The Jack in Dog (D-11, C-7), with the `bsw` / `braendi` differences (D-1.3 b and c)."""

from __future__ import annotations

import pytest

from engine import dog
from tests.engine.dog_helpers import legal, load


def test_dog_d_11_1_jack_swaps_with_partner_or_opponent_never_own() -> None:
    state = load(
        pawns={"0": ["r10", "r20"], "1": ["r30"], "2": ["r40"]},
        hands={"0": ["J"]},
        turn=0,
    )
    assert legal(state) == {"J:r10<>r30", "J:r10<>r40", "J:r20<>r30", "J:r20<>r40"}


def test_dog_c_7_2_swap_exchanges_locations_and_captures_nothing() -> None:
    state = load(pawns={"0": ["r10", "r20"], "1": ["r30"]}, hands={"0": ["J"], "1": ["2"]}, turn=0)
    pos = dog.to_position(dog.apply(state, "J:r10<>r30"))
    assert pos["pawns"]["0"] == ["r20", "r30", "k0", "k0"]
    assert pos["pawns"]["1"] == ["r10", "k1", "k1", "k1"]


def test_dog_d_11_2_kennel_home_and_blocking_pawns_never_take_part() -> None:
    state = load(
        pawns={"0": ["r0*", "r10", "h0.1"], "1": ["r16*", "r20", "h1.2"], "3": ["r48*"]},
        hands={"0": ["J"]},
        turn=0,
    )
    assert legal(state) == {"J:r10<>r20"}


def test_dog_d_11_2_bsw_pawn_on_its_own_start_field_cannot_be_swapped() -> None:
    # Report scenario D16: under bsw only the 6 is legal.
    state = load(pawns={"0": ["r10"], "1": ["r16"]}, hands={"0": ["6", "J"]}, turn=0)
    assert legal(state) == {"6:r10-r16"}


def test_dog_d_11_2_braendi_non_blocking_pawn_on_its_start_field_can_be_swapped() -> None:
    state = load(
        options={"preset": "braendi"},
        pawns={"0": ["r10"], "1": ["r16"]},
        hands={"0": ["6", "J"]},
        turn=0,
    )
    assert legal(state) == {"6:r10-r16", "J:r10<>r16"}


def test_dog_d_11_2_bsw_own_pawn_on_own_start_field_cannot_swap() -> None:
    state = load(pawns={"0": ["r0"], "1": ["r20"]}, hands={"0": ["J"], "1": ["2"]}, turn=0)
    assert legal(state) == {"F"}


def test_dog_d_11_2_braendi_own_pawn_on_own_start_field_may_swap() -> None:
    state = load(
        options={"preset": "braendi"},
        pawns={"0": ["r0"], "1": ["r20"]},
        hands={"0": ["J"], "1": ["2"]},
        turn=0,
    )
    assert legal(state) == {"J:r0<>r20"}
    pos = dog.to_position(dog.apply(state, "J:r0<>r20"))
    # A pawn a swap puts on its own start field is not blocking (C-7.2).
    assert pos["pawns"]["0"] == ["r20", "k0", "k0", "k0"]
    assert pos["pawns"]["1"] == ["r0", "k1", "k1", "k1"]


@pytest.mark.parametrize("preset", ["bsw", "braendi"])
def test_dog_c_7_2_pawn_swapped_onto_its_start_field_is_not_blocking(preset: str) -> None:
    state = load(
        options={"preset": preset},
        pawns={"0": ["r16"], "1": ["r30"]},
        hands={"0": ["J"], "1": ["2"]},
        turn=0,
    )
    pos = dog.to_position(dog.apply(state, "J:r16<>r30"))
    assert pos["pawns"]["1"] == ["r16", "k1", "k1", "k1"]


def test_dog_d_11_3_swap_is_compulsory() -> None:
    state = load(pawns={"0": ["r10"], "1": ["r60"]}, hands={"0": ["J"]}, turn=0)
    assert legal(state) == {"J:r10<>r60"}


def test_dog_d_11_4_bsw_jack_without_target_cannot_be_played() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["J", "2"]}, turn=0)
    assert legal(state) == {"2:r10-r12"}


def test_dog_d_11_4_braendi_null_jack_is_legal_beside_other_plays() -> None:
    state = load(
        options={"preset": "braendi"}, pawns={"0": ["r10"]}, hands={"0": ["J", "2"]}, turn=0
    )
    assert legal(state) == {"2:r10-r12", "J:N"}


def test_dog_d_11_4_braendi_null_jack_leaves_the_board_unchanged() -> None:
    state = load(
        options={"preset": "braendi"},
        pawns={"0": ["r10"]},
        hands={"0": ["J", "2"], "1": ["3"]},
        turn=0,
    )
    before = dog.to_position(state)
    pos = dog.to_position(dog.apply(state, "J:N"))
    assert pos["pawns"] == before["pawns"]
    assert pos["hands"]["0"] == ["2"]
    assert pos["discard"][-1] == "J"
    assert pos["turn"] == 1


def test_dog_d_11_4_braendi_no_null_jack_when_a_swap_exists() -> None:
    state = load(
        options={"preset": "braendi"},
        pawns={"0": ["r10"], "1": ["r30"]},
        hands={"0": ["J"]},
        turn=0,
    )
    assert legal(state) == {"J:r10<>r30"}


def test_dog_d_11_4_braendi_null_jack_needs_a_pawn_on_the_ring() -> None:
    state = load(
        options={"preset": "braendi"},
        pawns={"0": ["h0.1"]},
        hands={"0": ["J", "4"], "1": ["2"]},
        turn=0,
    )
    assert legal(state) == {"F"}


@pytest.mark.parametrize(("preset", "expected"), [("bsw", {"F"}), ("braendi", {"J:N"})])
def test_dog_d_11_4_blocking_pawn_on_start_field_counts_for_null_jack(
    preset: str, expected: set[str]
) -> None:
    state = load(options={"preset": preset}, pawns={"0": ["r0*"]}, hands={"0": ["J"]}, turn=0)
    assert legal(state) == expected


JOKER_MOVES_R0_BLOCKING_AND_THREE_HOME = {
    "X=A:r0-r1",
    "X=A:r0-r11",
    "X=A:h0.3-h0.4",
    "X=2:r0-r2",
    "X=3:r0-r3",
    "X=4:r0-r4",
    "X=4:r0-r60",
    "X=5:r0-r5",
    "X=6:r0-r6",
    "X=7:r0-r7",
    "X=7:r0-r6,h0.3-h0.4",
    "X=7:r0-r5,h0.3-h0.4,h0.2-h0.3",
    "X=7:r0-r4,h0.3-h0.4,h0.2-h0.3,h0.1-h0.2",
    "X=8:r0-r8",
    "X=9:r0-r9",
    "X=10:r0-r10",
    "X=Q:r0-r12",
    "X=K:r0-r13",
}


@pytest.mark.parametrize(("preset", "extra"), [("bsw", set()), ("braendi", {"X=J:N"})])
def test_dog_d_11_4_joker_declared_as_jack_without_target(preset: str, extra: set[str]) -> None:
    # No other pawn is on the ring, so a joker J has no target; the kennel is empty (no E).
    state = load(
        options={"preset": preset},
        pawns={"0": ["r0*", "h0.1", "h0.2", "h0.3"]},
        hands={"0": ["X"]},
        turn=0,
    )
    assert legal(state) == JOKER_MOVES_R0_BLOCKING_AND_THREE_HOME | extra
