"""Why a seat has no card to play (T-5.3, D-6.2): the facts behind a forced discard or fold.

``stuck_reason`` is asked only when a discard or fold is forced, so that the prompt and the
table can say why: every pawn in the kennel without a start card, or a guarded pawn on its
start field blocking the way (C-3.2), or no card fitting for another reason.
"""

from __future__ import annotations

from engine import dog, tock
from tests.engine import dog_helpers
from tests.engine import test_tock_helpers as tock_helpers


def test_tock_t_5_3_a_guarded_pawn_on_its_start_field_blocks_the_way() -> None:
    # Red's pawn 3 fields before Blue's start: the 5 and the 9 would both pass Blue's
    # guarded pawn on r18 (C-3.2), so Red must discard.
    state = tock_helpers.load(
        pawns={"0": ["r15"], "1": ["r18*"]}, hands={"0": ["5", "9"], "1": ["2"]}, turn=0
    )
    assert tock_helpers.legal(state) == {"5:D", "9:D"}
    assert tock.stuck_reason(state) == {"reason": "blocked", "colour": 0, "by": [1]}


def test_tock_t_5_3_no_pawn_out_and_no_start_card() -> None:
    state = tock_helpers.load(hands={"0": ["3", "9"], "1": ["2"]}, turn=0)
    assert tock_helpers.legal(state) == {"3:D", "9:D"}
    assert tock.stuck_reason(state) == {"reason": "kennel", "colour": 0}


def test_tock_t_7_8_a_guarded_pawn_that_cannot_be_swapped_blocks_no_way() -> None:
    # The Jack's only other pawn is guarded (C-7.1): nothing to swap with, nothing blocked.
    state = tock_helpers.load(
        pawns={"0": ["r30"], "1": ["r18*"]}, hands={"0": ["J"], "1": ["2"]}, turn=0
    )
    assert tock_helpers.legal(state) == {"J:D"}
    assert tock.stuck_reason(state) == {"reason": "none", "colour": 0}


def test_tock_t_5_1_a_banned_seat_or_one_with_a_play_is_not_stuck() -> None:
    playable = tock_helpers.load(pawns={"0": ["r15"]}, hands={"0": ["5"], "1": ["2"]}, turn=0)
    assert tock.stuck_reason(playable) is None
    banned = tock_helpers.load(
        pawns={"0": ["r15"]}, hands={"0": ["5"], "1": ["2"]}, turn=0, banned=True
    )
    assert tock.stuck_reason(banned) is None


def test_dog_d_6_2_a_blocking_pawn_on_its_start_field_makes_the_seat_fold() -> None:
    # Red's pawn 2 fields before Blue's start, Blue blocking there (D-7.1): the 3 and the 5
    # cannot pass it, and Red folds.
    state = dog_helpers.load(
        pawns={"0": ["r14"], "1": ["r16*"]},
        hands={"0": ["3", "5"], "1": ["2"], "2": ["2"], "3": ["2"]},
        turn=0,
    )
    assert dog_helpers.legal(state) == {"F"}
    assert dog.stuck_reason(state) == {"reason": "blocked", "colour": 0, "by": [1]}


def test_dog_d_6_2_no_pawn_out_and_no_start_card() -> None:
    state = dog_helpers.load(hands={"0": ["2", "9"], "1": ["2"], "2": ["2"], "3": ["2"]}, turn=0)
    assert dog_helpers.legal(state) == {"F"}
    assert dog.stuck_reason(state) == {"reason": "kennel", "colour": 0}
