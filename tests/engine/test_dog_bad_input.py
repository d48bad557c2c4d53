"""Bad input to the Dog engine: IllegalMove with a readable message, the state unchanged (N-6.6)."""

from __future__ import annotations

import pytest

from engine import IllegalMove, dog
from tests.engine.dog_helpers import load

PLAY = {
    "pawns": {"0": ["r10", "r0*"], "1": ["r20"]},
    "hands": {"0": ["2", "X", "7"], "1": ["2", "3"]},
    "turn": 0,
}

MALFORMED = [
    "",
    " ",
    "2",
    "2:",
    "2:r10",
    "2:r10-",
    "2 :r10-r12",
    "2:r10-r12 ",
    "2:r10-r012",
    "2:r10-r12*",
    "2:R10-R12",
    "Z:r10-r12",
    "1:r10-r11",
    "X:r10-r12",
    "X=X:r10-r12",
    "x=2:r10-r12",
    "J:r10<>",
    "J:r10<>r20<>r30",
    "7:r10-r12,",
    "G:",
    "G:Z",
    "f",
    "A:E9",
    "2:h0.5-h0.6",
    "2:r10-r12;F",
]


@pytest.mark.parametrize("text", MALFORMED)
def test_dog_n_6_6_malformed_text_is_refused(text: str) -> None:
    state = load(**PLAY)
    before = dog.to_position(state)
    with pytest.raises(IllegalMove) as info:
        dog.apply(state, text)
    assert str(info.value).strip()
    assert dog.to_position(state) == before
    with pytest.raises(IllegalMove):
        dog.parse_move(state, text)


ILLEGAL = [
    "2:r20-r22",  # seat 1's pawn: not seat 0's colour
    "3:r10-r13",  # no 3 in hand
    "K:E",  # no K in hand
    "Q:r10-r22",  # no Q in hand
    "2:r11-r13",  # no pawn on r11
    "2:r10-r13",  # a 2 walks two steps
    "4:r10-r6",  # no 4 in hand
    "X=4:r10-r14,r0-r3",  # several walks only for the 7
    "F",  # a play exists
    "2:D",  # Dog never discards by choice
    "G:2",  # no exchange now
    "J:r10<>r20",  # no J in hand
    "X=J:N",  # bsw: no null Jack
]


@pytest.mark.parametrize("text", ILLEGAL)
def test_dog_c_9_illegal_moves_are_refused(text: str) -> None:
    state = load(**PLAY)
    before = dog.to_position(state)
    with pytest.raises(IllegalMove) as info:
        dog.apply(state, text)
    assert str(info.value).strip()
    assert dog.to_position(state) == before


def test_dog_c_1_8_move_of_the_wrong_seat_is_refused() -> None:
    state = load(**PLAY)
    before = dog.to_position(state)
    # Seat 1 could play this on its own turn, and seat 0 holds a 2 too; it is seat 0's turn.
    with pytest.raises(IllegalMove) as info:
        dog.apply(state, "2:r20-r22")
    assert str(info.value).strip()
    assert dog.to_position(state) == before


def test_dog_c_10_5_play_during_the_exchange_is_refused() -> None:
    state = load(
        phase="exchange",
        pawns={"0": ["r10"]},
        hands={"0": ["2", "3"], "1": ["4"], "2": ["5"], "3": ["6"]},
    )
    before = dog.to_position(state)
    for text in ("2:r10-r12", "F", "G:9"):
        with pytest.raises(IllegalMove) as info:
            dog.apply(state, text)
        assert str(info.value).strip()
    assert dog.to_position(state) == before


def test_dog_n_7_4_no_move_after_the_game_is_over() -> None:
    state = load(
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "2": ["r30", "h2.2", "h2.3", "h2.4"]},
        hands={"0": ["3", "5"], "1": ["2"]},
        turn=0,
    )
    state = dog.apply(state, "3:r30-h2.1")
    before = dog.to_position(state)
    for text in ("5:h2.1-h2.2", "F", "2:r1-r3"):
        with pytest.raises(IllegalMove):
            dog.apply(state, text)
    assert dog.to_position(state) == before


def test_dog_n_6_6_non_canonical_spellings_are_accepted() -> None:
    state = load(hands={"0": ["X", "A"], "1": ["2"]}, turn=0)
    assert str(dog.parse_move(state, "X=K:E")) == "X=A:E"
    assert str(dog.parse_move(state, "A:E0")) == "A:E"
    assert dog.to_position(dog.apply(state, "X=K:E")) == dog.to_position(dog.apply(state, "X=A:E"))
