"""Dog cards and movement: D-2, D-5 to D-9 and the shared rules C-3 to C-6 and C-9.

Every expected set was derived by hand from the digest (4 players, R = 64, start fields
r0 / r16 / r32 / r48, the home entered through the start field).
"""

from __future__ import annotations

import pytest

from engine import IllegalMove, dog
from tests.engine.dog_helpers import legal, load

# --- D-2 board and fields --------------------------------------------------------------


def test_dog_d_2_3_start_field_counts_as_a_step_into_the_home() -> None:
    # From r62 seat 0 needs 3 steps to h0.1: r63, r0, h0.1.
    state = load(pawns={"0": ["r62"]}, hands={"0": ["2", "3"]}, turn=0)
    assert legal(state) == {"2:r62-r0", "3:r62-r1", "3:r62-h0.1"}


def test_dog_d_2_3_other_seats_enter_through_their_own_start_field() -> None:
    state = load(pawns={"1": ["r14"]}, hands={"1": ["3", "4"]}, turn=1)
    assert legal(state) == {"3:r14-r17", "3:r14-h1.1", "4:r14-r18", "4:r14-h1.2", "4:r14-r10"}


def test_dog_d_2_3_path_wraps_round_the_ring_on_six_player_board() -> None:
    # R = 96: from r94 seat 0 walks r95, r0, h0.1.
    state = load(players=6, pawns={"0": ["r94"]}, hands={"0": ["3"]}, turn=0)
    assert legal(state) == {"3:r94-r1", "3:r94-h0.1"}


def test_dog_d_2_3_entering_the_home_puts_the_pawn_there() -> None:
    state = load(pawns={"0": ["r62"]}, hands={"0": ["3", "2"]}, turn=0)
    pos = dog.to_position(dog.apply(state, "3:r62-h0.1"))
    assert pos["pawns"]["0"] == ["h0.1", "k0", "k0", "k0"]
    assert pos["hands"]["0"] == ["2"]
    assert pos["discard"][-1] == "3"


# --- D-5 cards ---------------------------------------------------------------------------


def test_dog_d_5_1_ace_brings_out_or_moves_one_or_eleven() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["A"]}, turn=0)
    assert legal(state) == {"A:E", "A:r10-r11", "A:r10-r21"}


def test_dog_d_5_2_number_cards_move_their_count_forward() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["2", "3", "5", "6", "8", "9", "10"]}, turn=0)
    assert legal(state) == {
        "2:r10-r12",
        "3:r10-r13",
        "5:r10-r15",
        "6:r10-r16",
        "8:r10-r18",
        "9:r10-r19",
        "10:r10-r20",
    }


def test_dog_d_5_3_four_moves_forward_or_backwards() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["4"]}, turn=0)
    assert legal(state) == {"4:r10-r14", "4:r10-r6"}


def test_dog_d_5_3_four_backwards_passes_the_start_field_without_turning_in() -> None:
    state = load(pawns={"0": ["r2"]}, hands={"0": ["4"]}, turn=0)
    assert legal(state) == {"4:r2-r6", "4:r2-r62"}


def test_dog_d_5_3_four_backwards_cannot_pass_a_blocking_pawn() -> None:
    state = load(pawns={"0": ["r18"], "1": ["r16*"]}, hands={"0": ["4"]}, turn=0)
    assert legal(state) == {"4:r18-r22"}


def test_dog_d_5_3_four_backwards_captures_on_its_last_field() -> None:
    state = load(pawns={"0": ["r20"], "1": ["r16"]}, hands={"0": ["4"], "1": ["2"]}, turn=0)
    assert legal(state) == {"4:r20-r24", "4:r20-r16"}
    pos = dog.to_position(dog.apply(state, "4:r20-r16"))
    assert pos["pawns"]["0"] == ["r16", "k0", "k0", "k0"]
    assert pos["pawns"]["1"] == ["k1"] * 4


def test_dog_d_5_3_home_pawns_cannot_use_the_four_backwards() -> None:
    state = load(pawns={"0": ["h0.1"]}, hands={"0": ["4", "2"]}, turn=0)
    assert legal(state) == {"2:h0.1-h0.3"}


def test_dog_d_5_6_queen_twelve_king_thirteen_or_out() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["Q", "K"]}, turn=0)
    assert legal(state) == {"Q:r10-r22", "K:r10-r23", "K:E"}


JOKER_MOVES_ONE_PAWN_R10 = {
    "X=A:E",
    "X=A:r10-r11",
    "X=A:r10-r21",
    "X=2:r10-r12",
    "X=3:r10-r13",
    "X=4:r10-r14",
    "X=4:r10-r6",
    "X=5:r10-r15",
    "X=6:r10-r16",
    "X=7:r10-r17",
    "X=8:r10-r18",
    "X=9:r10-r19",
    "X=10:r10-r20",
    "X=Q:r10-r22",
    "X=K:r10-r23",
}


def test_dog_d_5_7_joker_acts_as_every_kind_bsw() -> None:
    # 15 outcomes; bring-out written X=A:E (N-6.1), no J (no target under bsw).
    state = load(pawns={"0": ["r10"]}, hands={"0": ["X"]}, turn=0)
    assert legal(state) == JOKER_MOVES_ONE_PAWN_R10


def test_dog_d_5_7_joker_acts_as_every_kind_braendi_adds_null_jack() -> None:
    state = load(options={"preset": "braendi"}, pawns={"0": ["r10"]}, hands={"0": ["X"]}, turn=0)
    assert legal(state) == JOKER_MOVES_ONE_PAWN_R10 | {"X=J:N"}


@pytest.mark.parametrize(("preset", "count"), [("bsw", 35), ("braendi", 36)])
def test_dog_d_5_7_joker_count_of_report_scenario_d14(preset: str, count: int) -> None:
    # Appendix B, D14 second part: Red on r10 and r30, hand {X}.
    state = load(
        options={"preset": preset}, pawns={"0": ["r10", "r30"]}, hands={"0": ["X"]}, turn=0
    )
    moves = legal(state)
    assert len(moves) == count
    assert ("X=J:N" in moves) == (preset == "braendi")


def test_dog_d_5_7_joker_is_plain_x_on_the_discard_pile() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["X", "2"]}, turn=0)
    pos = dog.to_position(dog.apply(state, "X=Q:r10-r22"))
    assert pos["discard"][-1] == "X"
    assert pos["hands"]["0"] == ["2"]
    assert pos["pawns"]["0"] == ["r22", "k0", "k0", "k0"]


# --- D-6 a Dog turn ----------------------------------------------------------------------


def test_dog_d_6_1_a_play_must_be_made_when_one_exists() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["2", "3"]}, turn=0)
    moves = legal(state)
    assert moves == {"2:r10-r12", "3:r10-r13"}
    with pytest.raises(IllegalMove):
        dog.apply(state, "F")


def test_dog_d_6_2_without_a_play_the_only_action_is_fold() -> None:
    state = load(hands={"0": ["2", "3"], "1": ["5"]}, turn=0)
    assert legal(state) == {"F"}


def test_dog_d_6_2_fold_discards_the_whole_hand_and_skips_the_seat() -> None:
    state = load(
        pawns={"1": ["r20"], "3": ["r50"]},
        hands={"0": ["2", "3"], "1": ["5", "6"], "3": ["5", "6"]},
        turn=0,
    )
    state = dog.apply(state, "F")
    pos = dog.to_position(state)
    assert pos["folded"] == [0]
    assert pos["hands"]["0"] == []
    assert sorted(pos["discard"][-2:]) == ["2", "3"]
    assert pos["turn"] == 1
    state = dog.apply(state, "5:r20-r25")
    assert dog.to_position(state)["turn"] == 3
    # Seat 0 folded: after seat 3 the turn goes back to seat 1.
    assert dog.to_position(dog.apply(state, "5:r50-r55"))["turn"] == 1


def test_dog_d_6_2_dog_never_discards_a_single_card() -> None:
    state = load(hands={"0": ["2", "3"], "1": ["5"]}, turn=0)
    with pytest.raises(IllegalMove):
        dog.apply(state, "2:D")


# --- D-7 blocking pawns (C-3) ------------------------------------------------------------


def test_dog_d_7_1_blocking_pawn_cannot_be_captured() -> None:
    state = load(pawns={"0": ["r13"], "1": ["r16*"]}, hands={"0": ["3", "2"]}, turn=0)
    assert legal(state) == {"2:r13-r15"}


def test_dog_d_7_1_blocking_pawn_cannot_be_passed_not_even_by_its_owner() -> None:
    state = load(pawns={"1": ["r16*", "r10"]}, hands={"1": ["8", "2"]}, turn=1)
    # r10 cannot pass r16*; r16* itself moves and stops blocking.
    assert legal(state) == {"8:r16-r24", "2:r16-r18", "2:r10-r12"}


def test_dog_d_7_1_blocking_ends_for_good_when_the_pawn_moves() -> None:
    state = load(pawns={"1": ["r16*"]}, hands={"1": ["2", "4"], "2": ["3"]}, turn=1)
    pos = dog.to_position(dog.apply(state, "2:r16-r18"))
    assert pos["pawns"]["1"] == ["r18", "k1", "k1", "k1"]


def test_dog_d_7_1_pawn_back_on_its_start_field_is_not_blocking() -> None:
    state = load(pawns={"1": ["r20"]}, hands={"1": ["4", "2"]}, turn=1)
    pos = dog.to_position(dog.apply(state, "4:r20-r16"))
    assert pos["pawns"]["1"] == ["r16", "k1", "k1", "k1"]
    # An opponent may now pass it and capture it.
    state = load(pawns={"0": ["r13"], "1": ["r16"]}, hands={"0": ["3", "5"]}, turn=0)
    assert legal(state) == {"3:r13-r16", "5:r13-r18"}


def test_dog_d_7_2_other_pawns_are_passed_freely_and_count_as_steps() -> None:
    state = load(pawns={"0": ["r10"], "1": ["r12"]}, hands={"0": ["5"], "1": ["2"]}, turn=0)
    assert legal(state) == {"5:r10-r15"}
    pos = dog.to_position(dog.apply(state, "5:r10-r15"))
    assert pos["pawns"]["1"] == ["r12", "k1", "k1", "k1"]


# --- D-8 the home -----------------------------------------------------------------------


def test_dog_d_8_1_entering_is_optional_with_an_exact_count() -> None:
    state = load(pawns={"0": ["r60"]}, hands={"0": ["6", "8", "9"]}, turn=0)
    # 9 would need a fifth home slot.
    assert legal(state) == {"6:r60-r2", "6:r60-h0.2", "8:r60-r4", "8:r60-h0.4", "9:r60-r5"}


def test_dog_d_8_1_no_jumping_and_no_landing_in_the_home() -> None:
    state = load(pawns={"0": ["r62", "h0.1"]}, hands={"0": ["3", "5"]}, turn=0)
    assert legal(state) == {"3:r62-r1", "3:h0.1-h0.4", "5:r62-r3"}


def test_dog_d_8_2_moving_up_by_exact_count() -> None:
    state = load(pawns={"0": ["h0.1"]}, hands={"0": ["2", "3", "5"]}, turn=0)
    assert legal(state) == {"2:h0.1-h0.3", "3:h0.1-h0.4"}


def test_dog_d_8_2_moving_up_without_jumping() -> None:
    state = load(pawns={"0": ["h0.1", "h0.3"]}, hands={"0": ["2", "A"]}, turn=0)
    assert legal(state) == {"A:E", "A:h0.1-h0.2", "A:h0.3-h0.4"}


def test_dog_d_8_2_only_larger_cards_means_another_lap() -> None:
    state = load(pawns={"0": ["r62"]}, hands={"0": ["Q"]}, turn=0)
    assert legal(state) == {"Q:r62-r10"}


def test_dog_d_8_3_bsw_pawn_landed_on_start_field_must_go_round() -> None:
    state = load(pawns={"0": ["r0"]}, hands={"0": ["4"]}, turn=0)
    assert legal(state) == {"4:r0-r4", "4:r0-r60"}


def test_dog_d_8_3_braendi_non_blocking_pawn_on_start_field_may_enter() -> None:
    state = load(options={"preset": "braendi"}, pawns={"0": ["r0"]}, hands={"0": ["4"]}, turn=0)
    assert legal(state) == {"4:r0-r4", "4:r0-r60", "4:r0-h0.4"}


@pytest.mark.parametrize("preset", ["bsw", "braendi"])
def test_dog_d_8_3_freshly_brought_out_pawn_cannot_go_straight_home(preset: str) -> None:
    state = load(options={"preset": preset}, pawns={"0": ["r0*"]}, hands={"0": ["4"]}, turn=0)
    assert legal(state) == {"4:r0-r4", "4:r0-r60"}


@pytest.mark.parametrize("preset", ["bsw", "braendi"])
def test_dog_d_8_3_quickest_way_home_is_four_back_then_forward(preset: str) -> None:
    state = load(options={"preset": preset}, pawns={"0": ["r0*"]}, hands={"0": ["4", "5"]}, turn=0)
    state = dog.apply(state, "4:r0-r60")
    assert "5:r60-h0.1" in legal(state)


@pytest.mark.parametrize("preset", ["bsw", "braendi"])
def test_dog_d_8_3_walk_through_the_start_field_may_continue_home(preset: str) -> None:
    # House decision: reaching the start field during the play does not deny the home.
    state = load(options={"preset": preset}, pawns={"0": ["r63"]}, hands={"0": ["5"]}, turn=0)
    assert legal(state) == {"5:r63-r4", "5:r63-h0.4"}


# --- C-5 capture and C-6 bring-out -------------------------------------------------------


def test_dog_c_5_1_captured_opponent_goes_to_its_owners_kennel() -> None:
    state = load(pawns={"0": ["r10"], "1": ["r13", "r30"]}, hands={"0": ["3"], "1": ["2"]}, turn=0)
    pos = dog.to_position(dog.apply(state, "3:r10-r13"))
    assert pos["pawns"]["0"] == ["r13", "k0", "k0", "k0"]
    assert pos["pawns"]["1"] == ["r30", "k1", "k1", "k1"]


def test_dog_c_5_1_captured_partner_goes_to_the_partners_kennel() -> None:
    state = load(pawns={"0": ["r10"], "2": ["r13"]}, hands={"0": ["3"], "1": ["2"]}, turn=0)
    assert legal(state) == {"3:r10-r13"}
    pos = dog.to_position(dog.apply(state, "3:r10-r13"))
    assert pos["pawns"]["2"] == ["k2"] * 4


def test_dog_c_5_1_walk_landing_on_own_pawn_captures_it() -> None:
    state = load(pawns={"0": ["r10", "r13"]}, hands={"0": ["3"], "1": ["2"]}, turn=0)
    assert legal(state) == {"3:r10-r13", "3:r13-r16"}
    pos = dog.to_position(dog.apply(state, "3:r10-r13"))
    assert pos["pawns"]["0"] == ["r13", "k0", "k0", "k0"]


def test_dog_c_6_1_bring_out_puts_a_blocking_pawn_on_the_start_field() -> None:
    state = load(hands={"0": ["K", "2"]}, turn=0)
    pos = dog.to_position(dog.apply(state, "K:E"))
    assert pos["pawns"]["0"] == ["r0*", "k0", "k0", "k0"]


def test_dog_c_6_2_bring_out_needs_a_pawn_in_the_kennel() -> None:
    state = load(pawns={"0": ["r10", "r20", "r30", "r40"]}, hands={"0": ["K"]}, turn=0)
    assert legal(state) == {"K:r10-r23", "K:r20-r33", "K:r30-r43", "K:r40-r53"}


def test_dog_c_6_3_bring_out_captures_an_opponent_on_the_start_field() -> None:
    state = load(pawns={"1": ["r0"]}, hands={"0": ["A"], "1": ["2"]}, turn=0)
    assert legal(state) == {"A:E"}
    pos = dog.to_position(dog.apply(state, "A:E"))
    assert pos["pawns"]["0"] == ["r0*", "k0", "k0", "k0"]
    assert pos["pawns"]["1"] == ["k1"] * 4


def test_dog_c_6_3_bring_out_captures_own_unguarded_pawn() -> None:
    state = load(pawns={"0": ["r0"]}, hands={"0": ["A"], "1": ["2"]}, turn=0)
    pos = dog.to_position(dog.apply(state, "A:E"))
    assert pos["pawns"]["0"] == ["r0*", "k0", "k0", "k0"]


def test_dog_c_6_3_bring_out_onto_a_blocking_pawn_is_illegal() -> None:
    state = load(pawns={"0": ["r0*"]}, hands={"0": ["K"]}, turn=0)
    assert legal(state) == {"K:r0-r13"}


# --- C-9 sameness of moves -----------------------------------------------------------------


def test_dog_c_9_4_two_identical_cards_give_one_entry() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["2", "2"]}, turn=0)
    assert legal(state) == {"2:r10-r12"}


def test_dog_c_9_4_joker_and_real_card_are_different_entries() -> None:
    state = load(pawns={"0": ["r0*"]}, hands={"0": ["2", "X"]}, turn=0)
    assert {"2:r0-r2", "X=2:r0-r2"} <= legal(state)


def test_dog_c_9_4_ace_and_king_bring_outs_are_different_entries() -> None:
    state = load(hands={"0": ["A", "K"]}, turn=0)
    assert legal(state) == {"A:E", "K:E"}


def test_dog_c_3_3_pawn_counted_onto_its_start_field_is_not_blocking() -> None:
    state = load(pawns={"1": ["r12"]}, hands={"1": ["4", "2"]}, turn=1)
    pos = dog.to_position(dog.apply(state, "4:r12-r16"))
    assert pos["pawns"]["1"] == ["r16", "k1", "k1", "k1"]


def test_dog_c_10_3_cards_go_onto_the_discard_pile_in_play_order() -> None:
    state = load(
        pawns={"0": ["r2"], "1": ["r20"]},
        hands={"0": ["5", "9"], "1": ["3", "8"]},
        discard=["K"],
        turn=0,
    )
    state = dog.apply(state, "5:r2-r7")
    pos = dog.to_position(dog.apply(state, "3:r20-r23"))
    assert pos["discard"][-3:] == ["K", "5", "3"]


# C-9.4: pawns of one colour cannot be told apart (C-1.3), so two walks of the same card that
# leave the same board are one move. The digest does not say which walk is written (N-6 is
# silent outside the joker kind and the 7), so these tests require one entry and that both
# spellings parse to it.


def test_dog_c_9_4_ace_one_and_eleven_onto_own_pawns_are_one_move() -> None:
    # A:r10-r11 burns r11 and A:r10-r21 burns r21: both leave pawns on r11 and r21.
    state = load(pawns={"0": ["r10", "r11", "r21"]}, hands={"0": ["A"]}, turn=0)
    moves = legal(state)
    assert len(moves & {"A:r10-r11", "A:r10-r21"}) == 1
    assert moves - {"A:r10-r11", "A:r10-r21"} == {
        "A:E",
        "A:r11-r12",
        "A:r11-r22",
        "A:r21-r22",
        "A:r21-r32",
    }
    assert dog.parse_move(state, "A:r10-r11") == dog.parse_move(state, "A:r10-r21")


def test_dog_c_9_4_four_forward_and_backward_onto_own_pawns_are_one_move() -> None:
    # 4:r10-r14 and 4:r10-r6 both leave pawns on r6 and r14.
    state = load(pawns={"0": ["r6", "r10", "r14"]}, hands={"0": ["4"]}, turn=0)
    moves = legal(state)
    assert len(moves & {"4:r10-r14", "4:r10-r6"}) == 1
    assert moves - {"4:r10-r14", "4:r10-r6"} == {"4:r6-r10", "4:r6-r2", "4:r14-r18", "4:r14-r10"}
    assert dog.parse_move(state, "4:r10-r14") == dog.parse_move(state, "4:r10-r6")


def test_dog_n_6_1_joker_kinds_with_the_same_outcome_use_the_lowest_kind() -> None:
    # X=10:r60-r6 burns r6 and X=4:r60-r56 burns r56: the same board, so X=4 is written.
    state = load(pawns={"3": ["r6", "r56", "r60"]}, hands={"3": ["X"]}, turn=3)
    moves = legal(state)
    assert "X=4:r60-r56" in moves
    assert "X=10:r60-r6" not in moves
    assert str(dog.parse_move(state, "X=10:r60-r6")) == "X=4:r60-r56"


def test_dog_n_6_1_joker_seven_and_joker_four_with_the_same_outcome() -> None:
    # X=7:r10-r17 burns the own r17 pawn, X=4:r10-r6 captures the own r6 pawn: both leave
    # pawns on r6 and r17, so only the lower kind, X=4, is listed.
    state = load(pawns={"0": ["r6", "r10", "r17"]}, hands={"0": ["X"]}, turn=0)
    moves = legal(state)
    assert "X=4:r10-r6" in moves
    assert "X=7:r10-r17" not in moves
    assert str(dog.parse_move(state, "X=7:r10-r17")) == "X=4:r10-r6"


def test_dog_n_7_5_display_order_is_card_order_then_segment_keys() -> None:
    # Segment keys rank locations by N-1.5 (r6 before r10), not by the text of the string.
    state = load(pawns={"0": ["r6", "r10", "r30", "r40"]}, hands={"0": ["X", "Q", "2"]}, turn=0)
    texts = [str(m) for m in dog.legal_moves(state)]
    plain = [t for t in texts if not t.startswith("X=")]
    assert plain == [
        "2:r6-r8",
        "2:r10-r12",
        "2:r30-r32",
        "2:r40-r42",
        "Q:r6-r18",
        "Q:r10-r22",
        "Q:r30-r42",
        "Q:r40-r52",
    ]
    # Joker entries come after every real card.
    assert texts[: len(plain)] == plain
