"""The Dog 7: D-10 and the split 7 of C-8, including a 7 played segment by segment (C-8.7)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import IllegalMove, dog
from tests.engine.dog_helpers import legal, load, segment_texts


def test_dog_d_10_1_seven_is_always_split_over_own_pawns() -> None:
    state = load(pawns={"0": ["r10", "r20"]}, hands={"0": ["7"]}, turn=0)
    assert legal(state) == {
        "7:r20-r27",
        "7:r10-r11,r20-r26",
        "7:r10-r12,r20-r25",
        "7:r10-r13,r20-r24",
        "7:r10-r14,r20-r23",
        "7:r10-r15,r20-r22",
        "7:r10-r16,r20-r21",
        "7:r10-r17",
    }


def test_dog_c_8_3_seven_burns_every_pawn_passed() -> None:
    state = load(
        pawns={"0": ["r3"], "1": ["r8"], "2": ["r5"]}, hands={"0": ["7"], "3": ["2"]}, turn=0
    )
    pos = dog.to_position(dog.apply(state, "7:r3-r10"))
    assert pos["pawns"]["1"] == ["k1"] * 4
    assert pos["pawns"]["2"] == ["k2"] * 4


def test_dog_c_8_3_seven_burns_own_pawns_and_order_matters() -> None:
    # Dog version of N-8.4: the r11 pawn must move first whenever it moves.
    state = load(pawns={"0": ["r10", "r11"]}, hands={"0": ["7"]}, turn=0)
    assert legal(state) == {
        "7:r11-r18",
        "7:r11-r17,r10-r11",
        "7:r11-r16,r10-r12",
        "7:r11-r15,r10-r13",
        "7:r11-r14,r10-r14",
        "7:r11-r13,r10-r15",
        "7:r11-r12,r10-r16",
        "7:r10-r17",
    }


def test_dog_c_8_3_burning_own_pawn_sends_it_to_the_kennel() -> None:
    state = load(pawns={"0": ["r10", "r11"]}, hands={"0": ["7"], "1": ["2"]}, turn=0)
    pos = dog.to_position(dog.apply(state, "7:r10-r17"))
    assert pos["pawns"]["0"] == ["r17", "k0", "k0", "k0"]


def test_dog_c_8_3_burning_partner_pawn() -> None:
    state = load(pawns={"0": ["r10"], "2": ["r12"]}, hands={"0": ["7"], "1": ["2"]}, turn=0)
    assert legal(state) == {"7:r10-r17"}
    pos = dog.to_position(dog.apply(state, "7:r10-r17"))
    assert pos["pawns"]["2"] == ["k2"] * 4


def test_dog_c_8_2_seven_steps_cannot_enter_a_blocking_pawn() -> None:
    state = load(pawns={"0": ["r10", "r30"], "1": ["r16*"]}, hands={"0": ["7"]}, turn=0)
    # r10 may walk at most 5 steps (to r15); r30 takes the rest.
    assert legal(state) == {
        "7:r30-r37",
        "7:r10-r11,r30-r36",
        "7:r10-r12,r30-r35",
        "7:r10-r13,r30-r34",
        "7:r10-r14,r30-r33",
        "7:r10-r15,r30-r32",
    }


def test_dog_c_8_4_seven_never_brings_a_pawn_out() -> None:
    state = load(hands={"0": ["7"], "1": ["2"]}, turn=0)
    assert legal(state) == {"F"}


def test_dog_c_8_5_seven_that_cannot_use_all_steps_is_unplayable() -> None:
    # Two home pawns can make at most 3 steps together; the 3 would jump h0.3.
    state = load(pawns={"0": ["h0.1", "h0.3"]}, hands={"0": ["7", "3"]}, turn=0)
    assert legal(state) == {"F"}


def test_dog_c_8_5_winning_split_with_steps_left_over_is_illegal() -> None:
    # Partner r31 needs 2 steps (r32, h2.1); with 3 partner steps it would waste one.
    state = load(
        pawns={"0": ["r61", "h0.2", "h0.3", "h0.4"], "2": ["r31", "h2.2", "h2.3", "h2.4"]},
        hands={"0": ["7"]},
        turn=0,
    )
    assert legal(state) == {"7:r61-r4", "7:r61-h0.1,r31-r34"}


def test_dog_c_8_6_same_result_is_one_move() -> None:
    # r12 first then r10 (no burn) and r10 in two segments reach the same board: one entry.
    state = load(pawns={"0": ["r10", "r12"], "1": ["r16*"]}, hands={"0": ["7"]}, turn=0)
    assert legal(state) == {"7:r12-r15,r10-r14", "7:r12-r14,r10-r15"}


# --- C-8.7 a 7 one segment at a time -------------------------------------------------------


def test_dog_c_8_7_first_segments_need_a_completion() -> None:
    # r10 landing on or passing r12 burns it; the lone pawn left cannot make the rest.
    state = load(pawns={"0": ["r10", "r12"], "1": ["r16*"]}, hands={"0": ["7"]}, turn=0)
    assert segment_texts(dog.seven_starts(state, "7")) == {
        "r10-r11",
        "r12-r13",
        "r12-r14",
        "r12-r15",
    }


def test_dog_c_8_7_partial_seven_without_completion_is_refused() -> None:
    state = load(pawns={"0": ["r10", "r12"], "1": ["r16*"]}, hands={"0": ["7"]}, turn=0)
    before = dog.to_position(state)
    with pytest.raises(IllegalMove) as info:
        dog.apply(state, "7:r10-r13")
    assert str(info.value)
    assert dog.to_position(state) == before


def test_dog_c_8_7_partial_seven_leaves_a_pending_seven() -> None:
    state = load(pawns={"0": ["r10", "r12"], "1": ["r16*"]}, hands={"0": ["7", "2"]}, turn=0)
    state = dog.apply(state, "7:r12-r14")
    pos = dog.to_position(state)
    assert pos["seven"] == {"card": "7", "colour": 0, "left": 5, "moved": ["r14"]}
    assert pos["hands"]["0"] == ["2"]
    assert "7" not in pos["discard"]
    assert pos["turn"] == 0
    # 5 steps left: r14 may go 1 (r15); r10 may pass and burn r14 (5 steps) or stop before it.
    assert legal(state) == {"r14-r15", "r10-r11", "r10-r12", "r10-r13", "r10-r14", "r10-r15"}


def test_dog_c_8_7_segments_complete_the_seven_and_discard_it() -> None:
    state = load(pawns={"0": ["r10", "r12"], "1": ["r16*"]}, hands={"0": ["7", "2"]}, turn=0)
    state = dog.apply(state, "7:r12-r14")
    state = dog.apply(state, "r14-r15")
    pos = dog.to_position(state)
    assert pos["seven"]["left"] == 4
    assert pos["seven"]["moved"] == ["r15"]
    # r15 is stuck behind r16*; r10 takes the last 4 steps, in one or more segments.
    assert legal(state) == {"r10-r11", "r10-r12", "r10-r13", "r10-r14"}
    pos = dog.to_position(dog.apply(state, "r10-r14"))
    assert pos["seven"] is None
    assert pos["pawns"]["0"] == ["r14", "r15", "k0", "k0"]
    assert pos["discard"][-1] == "7"


def test_dog_c_8_7_bad_segment_of_a_pending_seven_is_refused() -> None:
    state = load(pawns={"0": ["r10", "r12"], "1": ["r16*"]}, hands={"0": ["7", "2"]}, turn=0)
    state = dog.apply(state, "7:r12-r14")
    before = dog.to_position(state)
    for text in ("r10-r16", "r14-r16", "2:r10-r12", "F"):
        with pytest.raises(IllegalMove):
            dog.apply(state, text)
    assert dog.to_position(state) == before


def test_dog_c_8_7_joker_seven_can_be_played_in_segments() -> None:
    state = load(pawns={"0": ["r10", "r20"]}, hands={"0": ["X"], "1": ["2"]}, turn=0)
    state = dog.apply(state, "X=7:r10-r13")
    pos = dog.to_position(state)
    assert pos["seven"] == {"card": "X", "colour": 0, "left": 4, "moved": ["r13"]}
    pos = dog.to_position(dog.apply(state, "r20-r24"))
    assert pos["pawns"]["0"] == ["r13", "r24", "k0", "k0"]
    assert pos["discard"][-1] == "X"


# --- D-8.3 inside a 7 (C-8.9) --------------------------------------------------------------


def test_dog_d_8_3_segment_stopping_on_start_field_may_continue_home() -> None:
    # House decision: the r0 pawn got there in this 7 (it is in `moved`), so even bsw allows it.
    state = load(pawns={"0": ["r60"]}, hands={"0": ["7", "2"]}, turn=0)
    state = dog.apply(state, "7:r60-r0")
    assert dog.to_position(state)["seven"]["moved"] == ["r0"]
    assert legal(state) == {"r0-r1", "r0-r2", "r0-r3", "r0-h0.1", "r0-h0.2", "r0-h0.3"}
    pos = dog.to_position(dog.apply(state, "r0-h0.3"))
    assert pos["pawns"]["0"] == ["h0.3", "k0", "k0", "k0"]


PENDING_WITH_PAWN_ON_START = {
    "pawns": {"0": ["r0", "r23"]},
    "hands": {"0": ["2"], "1": ["3"]},
    "seven": {"card": "7", "colour": 0, "left": 3, "moved": ["r23"]},
    "turn": 0,
}


def test_dog_d_8_3_bsw_pawn_on_start_since_the_play_began_cannot_enter_in_a_seven() -> None:
    state = load(**PENDING_WITH_PAWN_ON_START)
    assert legal(state) == {"r0-r1", "r0-r2", "r0-r3", "r23-r24", "r23-r25", "r23-r26"}


def test_dog_d_8_3_braendi_non_blocking_pawn_on_start_may_enter_in_a_seven() -> None:
    state = load(options={"preset": "braendi"}, **PENDING_WITH_PAWN_ON_START)
    assert legal(state) == {
        "r0-r1",
        "r0-r2",
        "r0-r3",
        "r0-h0.1",
        "r0-h0.2",
        "r0-h0.3",
        "r23-r24",
        "r23-r25",
        "r23-r26",
    }


@pytest.mark.parametrize("preset", ["bsw", "braendi"])
def test_dog_c_8_9_blocking_pawn_at_start_of_seven_never_enters(preset: str) -> None:
    # r0* leaves its field in this 7 but was blocking when the play began (C-8.9, D-8.3).
    state = load(
        options={"preset": preset}, pawns={"0": ["r0*", "r60"]}, hands={"0": ["7"]}, turn=0
    )
    # The r60 pawn may go home through r0 once r0* has moved out of its way; r0* itself
    # never turns in, and with a = 1 the r60 pawn passing r1 burns it.
    assert legal(state) == {
        "7:r0-r1,r60-r2",
        "7:r0-r1,r60-h0.2",
        "7:r0-r2,r60-r1",
        "7:r0-r2,r60-h0.1",
        "7:r0-r3,r60-r0",
        "7:r0-r4,r60-r63",
        "7:r0-r5,r60-r62",
        "7:r0-r6,r60-r61",
        "7:r0-r7",
    }


# --- D-10.2 carrying over to the partner -------------------------------------------------


def test_dog_d_10_2_partner_pawns_not_movable_before_own_colour_is_complete() -> None:
    state = load(pawns={"0": ["r10"], "2": ["r40"]}, hands={"0": ["7"]}, turn=0)
    assert legal(state) == {"7:r10-r17"}


def test_dog_d_10_2_carry_over_steps_are_compulsory() -> None:
    state = load(pawns={"0": ["r61", "h0.2", "h0.3", "h0.4"]}, hands={"0": ["7"]}, turn=0)
    assert legal(state) == {"7:r61-r4"}
    assert segment_texts(dog.seven_starts(state, "7")) == {
        "r61-r62",
        "r61-r63",
        "r61-r0",
        "r61-r1",
        "r61-r2",
        "r61-r3",
        "r61-r4",
    }


def test_dog_d_10_2_pending_seven_switches_colour_to_the_partner() -> None:
    state = load(
        pawns={"0": ["r61", "h0.2", "h0.3", "h0.4"], "2": ["r40", "r45"]},
        hands={"0": ["7", "2"]},
        turn=0,
    )
    state = dog.apply(state, "7:r61-h0.1")
    seven = dog.to_position(state)["seven"]
    assert seven["colour"] == 2
    assert seven["left"] == 3
    assert legal(state) == {"r40-r41", "r40-r42", "r40-r43", "r45-r46", "r45-r47", "r45-r48"}


def test_dog_d_10_2_finished_player_seven_moves_only_partner_pawns() -> None:
    state = load(
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "1": ["r20"], "2": ["r40"]},
        hands={"0": ["7"]},
        turn=0,
    )
    assert legal(state) == {"7:r40-r47"}


def test_dog_d_10_2_carry_over_on_six_player_board() -> None:
    # 6 players: seat 0's partner is seat 3; seat 1's pawn is never moved.
    state = load(
        players=6,
        pawns={"0": ["r95", "h0.2", "h0.3", "h0.4"], "1": ["r70"], "3": ["r50"]},
        hands={"0": ["7"]},
        turn=0,
    )
    assert legal(state) == {"7:r95-r6", "7:r95-h0.1,r50-r55"}


def test_dog_d_10_3_winning_with_a_seven() -> None:
    state = load(
        pawns={"0": ["r61", "h0.2", "h0.3", "h0.4"], "2": ["r30", "h2.2", "h2.3", "h2.4"]},
        hands={"0": ["7", "2"], "1": ["3"]},
        turn=0,
    )
    assert legal(state) == {
        "2:r61-r63",
        "7:r61-r4",
        "7:r61-h0.1,r30-r33",
        "7:r61-h0.1,r30-h2.1",
    }
    state = dog.apply(state, "7:r61-h0.1,r30-h2.1")
    outcome = dog.outcome(state)
    assert outcome is not None
    assert sorted(outcome.winners) == [0, 2]
    pos = dog.to_position(state)
    assert pos["phase"] == "finished"
    assert sorted(pos["winner"]) == [0, 2]
    assert legal(state) == set()
    assert dog.seats_to_act(state) == frozenset()


# --- N-6.4 / N-6.6 canonical form and parsing of the 7 -------------------------------------


def test_dog_n_6_6_seven_segments_in_another_order_parse_to_canonical() -> None:
    state = load(pawns={"0": ["r62", "h0.1"]}, hands={"0": ["7"]}, turn=0)
    assert str(dog.parse_move(state, "7:h0.1-h0.2,r62-r4")) == "7:r62-r4,h0.1-h0.2"


def test_dog_n_6_6_one_pawn_split_over_segments_parses_to_canonical() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["7"]}, turn=0)
    assert str(dog.parse_move(state, "7:r10-r12,r12-r17")) == "7:r10-r17"


def test_dog_n_6_6_parse_of_canonical_string_round_trips() -> None:
    state = load(pawns={"0": ["r10", "r11"]}, hands={"0": ["7"]}, turn=0)
    for move in dog.legal_moves(state):
        assert dog.parse_move(state, str(move)) == move


def test_dog_d_8_3_bsw_pawn_on_start_field_cannot_enter_with_a_seven() -> None:
    state = load(pawns={"0": ["r0", "r20"]}, hands={"0": ["7"]}, turn=0)
    assert legal(state) == {
        "7:r20-r27",
        "7:r0-r1,r20-r26",
        "7:r0-r2,r20-r25",
        "7:r0-r3,r20-r24",
        "7:r0-r4,r20-r23",
        "7:r0-r5,r20-r22",
        "7:r0-r6,r20-r21",
        "7:r0-r7",
    }


def test_dog_d_8_3_braendi_pawn_on_start_field_may_enter_with_a_seven() -> None:
    state = load(
        options={"preset": "braendi"}, pawns={"0": ["r0", "r20"]}, hands={"0": ["7"]}, turn=0
    )
    assert legal(state) == {
        "7:r20-r27",
        "7:r0-r1,r20-r26",
        "7:r0-r2,r20-r25",
        "7:r0-r3,r20-r24",
        "7:r0-r4,r20-r23",
        "7:r0-r5,r20-r22",
        "7:r0-r6,r20-r21",
        "7:r0-r7",
        "7:r0-h0.1,r20-r26",
        "7:r0-h0.2,r20-r25",
        "7:r0-h0.3,r20-r24",
        "7:r0-h0.4,r20-r23",
    }


@pytest.mark.parametrize(
    ("preset", "extra"), [("bsw", set()), ("braendi", {"7:r61-h0.1,r32-h2.3"})]
)
def test_dog_d_8_3_carried_over_steps_and_partner_pawn_on_its_start_field(
    preset: str, extra: set[str]
) -> None:
    # The partner's non-blocking pawn stood on r32 when the 7 began (D-8.3 applies to it too).
    state = load(
        options={"preset": preset},
        pawns={"0": ["r61", "h0.2", "h0.3", "h0.4"], "2": ["r32"]},
        hands={"0": ["7"]},
        turn=0,
    )
    assert legal(state) == {"7:r61-r4", "7:r61-h0.1,r32-r35"} | extra


def test_dog_n_6_4_burnt_own_pawns_choose_the_smallest_segment_list() -> None:
    # N-6.4 step 5 on the Dog board: one pawn ends on r14, the other two are burnt.
    state = load(pawns={"0": ["r8", "r10", "r11"]}, hands={"0": ["7"]}, turn=0)
    assert "7:r10-r11,r8-r14" in legal(state)
    assert "7:r11-r12,r8-r14" not in legal(state)
    assert str(dog.parse_move(state, "7:r11-r12,r8-r14")) == "7:r10-r11,r8-r14"


@pytest.mark.parametrize(
    ("other", "canonical"),
    [
        ("7:r63-r3,r62-h0.1", "7:r63-h0.1,r62-r3"),
        ("7:r63-h0.2,r62-r2", "7:r63-r2,r62-h0.2"),
        ("7:r63-h0.3,r62-r1", "7:r63-r1,r62-h0.3"),
    ],
)
def test_dog_n_6_4_pawns_trading_places_at_the_branch_field(other: str, canonical: str) -> None:
    # Two segment sets give the same outcome; the smallest key list is canonical (N-6.4).
    state = load(pawns={"0": ["r62", "r63"]}, hands={"0": ["7"]}, turn=0)
    moves = legal(state)
    assert canonical in moves
    assert other not in moves
    assert str(dog.parse_move(state, other)) == canonical
    assert dog.to_position(dog.apply(state, other)) == dog.to_position(dog.apply(state, canonical))


def test_dog_n_6_4_home_pawn_first_when_the_other_passes_its_field() -> None:
    # {h0.4, r0} only arises with the r63 pawn going home first; r62 then stops on r0.
    state = load(pawns={"0": ["r62", "r63"]}, hands={"0": ["7"]}, turn=0)
    assert "7:r63-h0.4,r62-r0" in legal(state)


def test_dog_d_10_3_partner_finishing_with_steps_left_is_illegal() -> None:
    # The finished seat 0 moves Yellow: r31 -> h2.1 takes 2 steps and 5 would be wasted.
    state = load(
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "2": ["r31", "h2.2", "h2.3", "h2.4"]},
        hands={"0": ["7"]},
        turn=0,
    )
    assert legal(state) == {"7:r31-r38"}


def test_dog_d_10_2_home_pawn_moves_up_so_the_fourth_pawn_can_enter() -> None:
    state = load(
        pawns={"0": ["r62", "h0.1", "h0.3", "h0.4"], "2": ["r40"]},
        hands={"0": ["7"]},
        turn=0,
    )
    assert legal(state) == {
        "7:r62-r5",
        "7:r62-r4,h0.1-h0.2",
        "7:h0.1-h0.2,r62-h0.1,r40-r43",
    }


def logged(state: Any) -> str:
    """Everything the events of the last action say, as one searchable text."""
    return json.dumps([event.to_json() for event in state.events])


def test_dog_c_8_7_segmented_seven_is_logged_in_canonical_form() -> None:
    state = load(pawns={"0": ["r10", "r12"], "1": ["r16*"]}, hands={"0": ["7", "2"]}, turn=0)
    state = dog.apply(state, "7:r12-r14")
    state = dog.apply(state, "r10-r15")
    assert "7:r12-r14,r10-r15" in logged(state)


def test_dog_c_8_3_two_pawns_before_the_start_field_complete_list() -> None:
    # Red on r62 and r63: 14 outcomes, derived by steps of the r63 pawn (it must move before
    # the r62 pawn passes its field, or be burnt).
    state = load(pawns={"0": ["r62", "r63"]}, hands={"0": ["7"]}, turn=0)
    assert legal(state) == {
        "7:r63-r6",
        "7:r63-r5,r62-r63",
        "7:r63-r4,r62-r0",
        "7:r63-h0.4,r62-r0",
        "7:r63-r3,r62-r1",
        "7:r63-h0.1,r62-r3",
        "7:r63-r1,r62-h0.3",
        "7:r63-h0.3,r62-h0.1",
        "7:r63-r2,r62-r2",
        "7:r63-r2,r62-h0.2",
        "7:r63-r1,r62-r3",
        "7:r63-r0,r62-r4",
        "7:r63-r0,r62-h0.4",
        "7:r62-r5",
    }


def test_dog_d_10_2_whole_home_moves_up_before_the_fourth_pawn_enters() -> None:
    state = load(
        pawns={"0": ["r63", "h0.1", "h0.2", "h0.3"], "2": ["r40"]},
        hands={"0": ["7"]},
        turn=0,
    )
    assert legal(state) == {
        "7:r63-r6",
        "7:r63-r5,h0.3-h0.4",
        "7:r63-r4,h0.3-h0.4,h0.2-h0.3",
        "7:r63-r3,h0.3-h0.4,h0.2-h0.3,h0.1-h0.2",
        "7:h0.3-h0.4,h0.2-h0.3,h0.1-h0.2,r63-h0.1,r40-r42",
    }
