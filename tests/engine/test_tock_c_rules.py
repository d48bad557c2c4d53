"""Part C of race-games.md (shared concepts), checked on Tock: one test per rule."""

from __future__ import annotations

import random

import pytest

from engine import IllegalMove, tock
from tests.engine.test_tock_helpers import after, legal, load, pawns

# --- C-1 terms ------------------------------------------------------------------------


def test_c_1_1_empty_seat_start_field_is_ordinary() -> None:
    # 2 players use seats 0 and 2; seat 1's start field r18 is an ordinary field.
    state = load(players=2, pawns={"0": ["r14"]}, hands={"0": ["4", "6"]}, turn=0)
    assert legal(state) == {"4:r14-r10", "6:r14-r20"}


def test_c_1_2_turn_order_wraps_from_highest_to_lowest() -> None:
    state = load(pawns={"3": ["r60"]}, hands={"3": ["2"], "0": ["3"]}, turn=3)
    assert after(state, "2:r60-r62")["turn"] == 0


def test_c_1_3_pawns_of_one_colour_cannot_be_told_apart() -> None:
    # Positions list locations only, sorted (N-3.6); two own pawns swapping change nothing.
    state = load(pawns={"0": ["r30", "r10", "k0", "r20"]}, hands={"0": ["2"]}, turn=0)
    assert tock.to_position(state)["pawns"]["0"] == ["r10", "r20", "r30", "k0"]
    swap = load(pawns={"0": ["r10", "r20"]}, hands={"0": ["J"]}, turn=0)
    assert legal(swap) == {"J:N"}


def test_c_1_7_a_tock_hand_ends_when_all_cards_are_played() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["2"], "1": ["3"]}, turn=0)
    first = tock.apply(state, "2:r10-r12")
    assert tock.to_position(first)["hand"] == 1
    second = tock.apply(first, "3:D")
    assert tock.to_position(second)["hand"] == 2


def test_c_1_4_free_for_all_has_no_teams_or_exchange() -> None:
    ffa = tock.new_game(4, {}, 3)
    assert tock.to_position(ffa)["teams"] is None
    assert tock.to_position(ffa)["phase"] == "play"
    teams = tock.new_game(4, {"game_type": "2v2"}, 3)
    assert tock.to_position(teams)["teams"] == [[0, 2], [1, 3]]


def test_c_1_5_moved_colour_of_a_finished_team_player_is_the_partners() -> None:
    state = load(
        teams=[[0, 2], [1, 3]],
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "2": ["r40"]},
        hands={"0": ["K"]},
        turn=0,
    )
    assert legal(state) == {"K:E2", "K:r40-r53"}


def test_c_1_6_identical_cards_give_one_entry_per_effect() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["5", "5"]}, turn=0)
    assert [str(m) for m in tock.legal_moves(state)] == ["5:r10-r15"]


def test_c_1_8_a_card_play_goes_face_up_on_the_discard_pile() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["5", "9"], "1": ["2"]}, discard=["K"], turn=0)
    pos = after(state, "9:r10-r19")
    assert pos["discard"] == ["K", "9"]
    assert pos["hands"]["0"] == ["5"]


def test_c_1_9_a_pawn_stands_in_exactly_one_location() -> None:
    state = load(pawns={"0": ["r10"], "1": ["r15"]}, hands={"0": ["5"]}, turn=0)
    pos = after(state, "5:r10-r15")
    assert pos["pawns"]["1"] == ["k1", "k1", "k1", "k1"]
    assert pos["pawns"]["0"] == ["r15", "k0", "k0", "k0"]


def test_c_1_10_same_card_and_board_is_one_outcome() -> None:
    # Both own-pawn swaps leave the board unchanged: one entry J:N (C-9.4).
    state = load(pawns={"0": ["r5", "r9", "r30"]}, hands={"0": ["J"]}, turn=0)
    assert legal(state) == {"J:N"}


# --- C-2 geometry ----------------------------------------------------------------------


def test_c_2_1_forward_wraps_round_the_ring() -> None:
    state = load(pawns={"1": ["r70"]}, hands={"1": ["3"]}, turn=1)
    assert legal(state) == {"3:r70-r1"}


def test_c_2_2_start_field_of_each_position() -> None:
    state = load(players=5, hands={"4": ["K"]}, turn=4)
    assert after(state, "K:E")["pawns"]["4"][0] == "r72*"


def test_c_2_3_only_own_pawns_enter_a_home() -> None:
    # r16 is Blue's junction; Red passes it on the ring only.
    red = load(pawns={"0": ["r15"]}, hands={"0": ["2"]}, turn=0)
    blue = load(pawns={"1": ["r15"]}, hands={"1": ["2"]}, turn=1)
    assert legal(red) == {"2:r15-r17"}
    assert legal(blue) == {"2:r15-r17", "2:r15-h1.1"}


def test_c_2_4_branch_field_is_the_junction() -> None:
    state = load(pawns={"0": ["r69"]}, hands={"0": ["2"]}, turn=0)
    assert legal(state) == {"2:r69-r71", "2:r69-h0.1"}


def test_c_2_5_home_slots_lead_only_deeper() -> None:
    state = load(pawns={"0": ["h0.1", "h0.4"]}, hands={"0": ["2", "3"]}, turn=0)
    assert legal(state) == {"2:h0.1-h0.3"}


def test_c_2_6_nothing_moves_backwards_out_of_a_home() -> None:
    state = load(pawns={"0": ["h0.3"]}, hands={"0": ["4"]}, turn=0)
    assert legal(state) == {"4:D"}


def test_c_2_7_a_pawn_follows_its_own_path_whoever_moves_it() -> None:
    state = load(options={"variant5": True}, pawns={"1": ["r14"]}, hands={"0": ["5"]}, turn=0)
    assert legal(state) == {"5:r14-r19", "5:r14-h1.3"}


# --- C-3 guarded pawns ---------------------------------------------------------------


def test_c_3_1_a_brought_out_pawn_is_guarded() -> None:
    state = load(hands={"0": ["K"]}, turn=0)
    assert after(state, "K:E")["pawns"]["0"][0] == "r0*"


def test_c_3_2_guarded_pawn_blocks_its_own_colour_too() -> None:
    state = load(pawns={"0": ["r0*", "r71"]}, hands={"0": ["3"]}, turn=0)
    assert legal(state) == {"3:r0-r3"}


def test_c_3_2_jack_cannot_swap_guarded_pawn() -> None:
    state = load(pawns={"0": ["r30"], "1": ["r18*"]}, hands={"0": ["J", "2"]}, turn=0)
    assert legal(state) == {"2:r30-r32"}


def test_c_3_3_guard_ends_for_good_when_the_pawn_leaves() -> None:
    state = load(pawns={"0": ["r0*"]}, hands={"0": ["A"], "1": ["2"], "2": ["4"]}, turn=0)
    assert after(state, "A:r0-r1")["pawns"]["0"][0] == "r1"
    back = load(pawns={"0": ["r4"]}, hands={"0": ["4"], "1": ["2"]}, turn=0)
    assert after(back, "4:r4-r0")["pawns"]["0"][0] == "r0"


def test_c_3_4_guarded_pawn_may_itself_move() -> None:
    state = load(pawns={"0": ["r0*"]}, hands={"0": ["A", "K"]}, turn=0)
    assert legal(state) == {"A:r0-r1", "K:r0-r13"}


# --- C-4 walks -------------------------------------------------------------------------


def test_c_4_1_a_walk_is_exactly_n_forward_steps() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["8"]}, turn=0)
    assert legal(state) == {"8:r10-r18"}


def test_c_4_2_no_jumping_or_landing_inside_a_home() -> None:
    state = load(pawns={"0": ["r67", "h0.2"]}, hands={"0": ["3", "4", "5", "6"]}, turn=0)
    assert legal(state) == {"3:r67-r70", "4:r67-r63", "5:r67-r0", "6:r67-r1"}


def test_c_4_3_full_count_or_no_move() -> None:
    state = load(pawns={"0": ["h0.1"]}, hands={"0": ["5"]}, turn=0)
    assert legal(state) == {"5:D"}


def test_c_4_4_passed_pawns_are_untouched_landing_captures() -> None:
    state = load(pawns={"0": ["r10"], "1": ["r12", "r15"]}, hands={"0": ["5"]}, turn=0)
    pos = after(state, "5:r10-r15")
    assert pos["pawns"]["1"] == ["r12", "k1", "k1", "k1"]


def test_c_4_5_entering_the_home_is_optional_two_moves() -> None:
    state = load(pawns={"0": ["r66"]}, hands={"0": ["6"]}, turn=0)
    assert legal(state) == {"6:r66-r0", "6:r66-h0.2"}


# --- C-5 capture -------------------------------------------------------------------------


def test_c_5_1_captured_own_pawn_goes_to_own_kennel() -> None:
    state = load(pawns={"0": ["r10", "r15"]}, hands={"0": ["5"]}, turn=0)
    assert after(state, "5:r10-r15")["pawns"]["0"] == ["r15", "k0", "k0", "k0"]


def test_c_5_2_guarded_pawn_cannot_be_captured() -> None:
    state = load(pawns={"0": ["r13"], "1": ["r18*"]}, hands={"0": ["5"]}, turn=0)
    assert legal(state) == {"5:D"}


def test_c_5_3_swaps_never_capture() -> None:
    state = load(pawns={"0": ["r30"], "1": ["r40"]}, hands={"0": ["J"]}, turn=0)
    pos = after(state, "J:r30<>r40")
    assert pos["pawns"]["0"][0] == "r40"
    assert pos["pawns"]["1"][0] == "r30"


# --- C-6 bringing a pawn out ---------------------------------------------------------------


def test_c_6_1_start_card_brings_a_pawn_out() -> None:
    state = load(hands={"0": ["A", "K", "Q"]}, turn=0)
    assert legal(state) == {"A:E", "K:E"}


def test_c_6_2_no_kennel_pawn_no_bring_out() -> None:
    state = load(pawns={"0": ["r5", "r20", "r30", "h0.4"]}, hands={"0": ["K"]}, turn=0)
    assert legal(state) == {"K:r5-r18", "K:r20-r33", "K:r30-r43"}


def test_c_6_3_bring_out_captures_an_unguarded_pawn_on_the_start_field() -> None:
    state = load(pawns={"0": ["r0"], "1": ["r40"]}, hands={"0": ["A"]}, turn=0)
    assert legal(state) == {"A:E", "A:r0-r1"}
    assert after(state, "A:E")["pawns"]["0"] == ["r0*", "k0", "k0", "k0"]
    enemy = load(pawns={"1": ["r0"]}, hands={"0": ["K"]}, turn=0)
    assert after(enemy, "K:E")["pawns"]["1"] == ["k1", "k1", "k1", "k1"]


# --- C-7 swaps ---------------------------------------------------------------------------


def test_c_7_1_kennel_and_home_pawns_never_swap() -> None:
    state = load(pawns={"0": ["r30", "h0.1"], "1": ["h1.2"]}, hands={"0": ["J"]}, turn=0)
    assert legal(state) == {"J:D"}


def test_c_7_2_swap_onto_own_start_field_is_unguarded() -> None:
    state = load(pawns={"0": ["r30"], "1": ["r0"]}, hands={"0": ["J"]}, turn=0)
    assert after(state, "J:r30<>r0")["pawns"]["0"][0] == "r0"


# --- C-8 the split 7 --------------------------------------------------------------------------


def test_c_8_1_player_chooses_pawn_and_branch_for_each_step() -> None:
    state = load(pawns={"0": ["r68", "r69"]}, hands={"0": ["7"]}, turn=0)
    moves = legal(state)
    assert {"7:r69-h0.1,r68-r1", "7:r69-r0,r68-h0.2", "7:r69-r71,r68-h0.3"} <= moves
    assert "7:r68-h0.1,r69-r1" not in moves
    assert len(moves) == 14


def test_c_8_2_seven_cannot_step_onto_a_guarded_pawn() -> None:
    state = load(pawns={"0": ["r12"], "1": ["r18*"]}, hands={"0": ["7"]}, turn=0)
    assert legal(state) == {"7:D"}


def test_c_8_3_seven_burns_every_pawn_it_passes() -> None:
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
    pos = after(load(pawns={"0": ["r3"], "1": ["r8"], "2": ["r5"]}, hands={"0": ["7"]}), "7:r3-r10")
    assert pos["pawns"]["1"][0] == "k1"
    assert pos["pawns"]["2"][0] == "k2"


def test_c_8_4_seven_never_moves_kennel_pawns() -> None:
    state = load(hands={"0": ["7", "2"]}, turn=0)
    assert legal(state) == {"2:D", "7:D"}


def test_c_8_5_seven_finishing_a_colour_early_is_illegal() -> None:
    state = load(pawns={"0": ["r69", "h0.2", "h0.3", "h0.4"]}, hands={"0": ["7"]}, turn=0)
    assert legal(state) == {"7:r69-r4"}
    finish = load(pawns={"0": ["r64", "h0.2", "h0.3", "h0.4"]}, hands={"0": ["7"]}, turn=0)
    assert legal(finish) == {"7:r64-r71", "7:r64-h0.1"}


def test_c_8_6_different_step_sequences_with_one_result_are_one_move() -> None:
    state = load(pawns={"0": ["r8", "r10", "r11"]}, hands={"0": ["7"]}, turn=0)
    moves = legal(state)
    assert "7:r10-r11,r8-r14" in moves
    assert "7:r11-r12,r8-r14" not in moves
    assert str(tock.parse_move(state, "7:r11-r12,r8-r14")) == "7:r10-r11,r8-r14"


def test_c_8_7_segments_need_a_completion() -> None:
    state = load(pawns={"0": ["r12", "r40"], "1": ["r18*"]}, hands={"0": ["7"]}, turn=0)
    starts = {str(m) for m in tock.seven_starts(state, "7")}
    expected = {f"7:r12-r{n}" for n in range(13, 18)} | {f"7:r40-r{n}" for n in range(41, 48)}
    assert starts == expected
    pending = tock.apply(state, "7:r40-r42")
    assert tock.to_position(pending)["seven"] == {
        "card": "7",
        "colour": 0,
        "left": 5,
        "moved": ["r42"],
    }
    assert legal(pending) == {f"r12-r{n}" for n in range(13, 18)} | {
        f"r42-r{n}" for n in range(43, 48)
    }
    with pytest.raises(IllegalMove):
        tock.apply(pending, "r12-r19")
    done = tock.apply(pending, "r12-r17")
    assert done.seven is None
    assert pawns(done, 0)[:2] == ["r17", "r42"]
    assert any(e.kind == "play" and e.data["move"] == "7:r12-r17,r40-r42" for e in done.events)


def test_c_8_8_one_segment_per_pawn_spelling_is_accepted_as_the_same_move() -> None:
    state = load(pawns={"0": ["r10", "r11"]}, hands={"0": ["7"]}, turn=0)
    assert str(tock.parse_move(state, "7:r11-r12,r12-r18")) == "7:r11-r18"
    assert str(tock.parse_move(state, "7:r11-r13,r10-r12,r13-r16")) == "7:r11-r16,r10-r12"


def test_c_8_9_start_of_play_board_for_a_seven_in_dog() -> None:
    from engine import dog

    state = dog.from_position(
        {"game": "dog", "pawns": {"0": ["r0", "r62"]}, "hands": {"0": ["7"]}, "turn": 0}
    )
    moves = {str(m) for m in dog.legal_moves(state)}
    assert "7:r0-r3,r62-h0.2" in moves  # the r62 pawn reaches r0 during the play
    assert not any("r0-h0" in m for m in moves)  # the r0 pawn stood there at the start


# --- C-9 legal moves --------------------------------------------------------------------------


def test_c_9_1_fallback_only_without_a_card_play() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["3", "K"]}, turn=0)
    assert all(not m.endswith(":D") for m in legal(state))


def test_c_9_2_compulsory_play_even_capturing_own_pawn() -> None:
    state = load(pawns={"0": ["r10", "r15"], "1": ["r18*"]}, hands={"0": ["5"]}, turn=0)
    assert legal(state) == {"5:r10-r15"}
    with pytest.raises(IllegalMove):
        tock.apply(state, "5:D")


def test_c_9_3_unplayable_cards_are_not_offered() -> None:
    state = load(hands={"0": ["5", "K", "Q"]}, turn=0)
    assert legal(state) == {"K:E"}


def test_c_9_4_one_entry_per_distinct_outcome() -> None:
    state = load(pawns={"0": ["r30", "r31"], "1": ["r40"]}, hands={"0": ["J", "J"]}, turn=0)
    assert legal(state) == {"J:N", "J:r30<>r40", "J:r31<>r40"}


def test_c_9_5_discards_once_per_distinct_token() -> None:
    state = load(hands={"0": ["3", "3", "5"]}, turn=0)
    assert [str(m) for m in tock.legal_moves(state)] == ["3:D", "5:D"]


# --- C-10 flow ------------------------------------------------------------------------------


def test_c_10_1_phases() -> None:
    assert tock.to_position(tock.new_game(4, {}, 1))["phase"] == "play"
    assert tock.to_position(tock.new_game(4, {"game_type": "2v2"}, 1))["phase"] == "exchange"


def test_c_10_2_turn_skips_seats_without_cards() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["2", "3"], "2": ["5"]}, turn=0)
    assert after(state, "2:r10-r12")["turn"] == 2


def test_c_10_2_no_cards_left_deals_the_next_hand() -> None:
    state = load(pawns={"0": ["r10", "r20"]}, hands={"0": ["7"]}, turn=0)
    pos = after(state, "7:r20-r27")
    assert pos["hand"] == 2
    assert pos["dealer"] == 0
    assert pos["turn"] == 1
    assert all(len(h) == 4 for h in pos["hands"].values())


def test_c_10_3_discard_pile_in_order() -> None:
    state = load(hands={"0": ["2"], "1": ["5", "9"]}, discard=["Q"], turn=0)
    assert after(state, "2:D", "5:D")["discard"] == ["Q", "2", "5"]


def test_c_10_4_dealing_one_card_at_a_time_after_the_dealer() -> None:
    seed = 1234
    rng = random.Random(seed)
    dealer = (0, 1, 2, 3)[rng.randrange(4)]
    deck = [
        t
        for t in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
        for _ in range(4)
    ]
    shuffler = random.Random(rng.getrandbits(64))
    shuffler.shuffle(deck)
    order = [(dealer + i) % 4 for i in range(1, 5)]
    expected: dict[int, list[str]] = {s: [] for s in order}
    for i in range(5 * 4):
        expected[order[i % 4]].append(deck[i])
    pos = tock.to_position(tock.new_game(4, {}, seed))
    assert pos["dealer"] == dealer
    for s in range(4):
        assert sorted(pos["hands"][str(s)]) == sorted(expected[s])
    assert pos["draw"] == deck[20:]


def test_c_10_5_exchange_picks_are_secret_replaceable_and_simultaneous() -> None:
    state = load(
        teams=[[0, 2], [1, 3]],
        phase="exchange",
        hands={"0": ["A", "2"], "1": ["3", "4"], "2": ["5", "6"], "3": ["8", "9"]},
        turn=1,
        dealer=0,
    )
    state = tock.apply(state, "G:A", seat=0)
    state = tock.apply(state, "G:2", seat=0)  # replaced
    view1 = tock.view(state, 1)
    assert view1["exchanged"] == [0]
    assert view1["my_pick"] is None
    assert "2" not in str(list(view1["events"]))
    for seat, card in ((1, "3"), (2, "5"), (3, "8")):
        state = tock.apply(state, f"G:{card}", seat=seat)
    pos = tock.to_position(state)
    assert pos["phase"] == "play"
    assert pos["turn"] == 1
    assert pos["hands"] == {"0": ["A", "5"], "1": ["4", "8"], "2": ["2", "6"], "3": ["3", "9"]}
    assert tock.view(state, 2)["received"] == "2"
    private = [e for e in state.events if e.kind == "exchange_received"]
    assert all(not e.public for e in private)
    assert {(e.seat, e.data["card"]) for e in private} == {(0, "5"), (1, "8"), (2, "2"), (3, "3")}


# --- C-11 end of the game --------------------------------------------------------------------


def test_c_11_1_game_ends_at_once() -> None:
    state = load(
        pawns={"0": ["r69", "h0.2", "h0.3", "h0.4"]},
        hands={"0": ["2", "5"], "1": ["3"]},
        turn=0,
    )
    end = tock.apply(state, "2:r69-h0.1")
    assert tock.outcome(end) is not None
    assert tock.outcome(end).winners == (0,)  # type: ignore[union-attr]
    pos = tock.to_position(end)
    assert pos["phase"] == "finished"
    assert pos["hands"]["1"] == ["3"]
    assert tock.legal_moves(end) == []
    assert tock.seats_to_act(end) == frozenset()
    with pytest.raises(IllegalMove):
        tock.apply(end, "5:D")


def test_c_11_2_win_checked_whoever_moved_the_pawns() -> None:
    state = load(
        options={"variant5": True},
        pawns={"1": ["r12", "h1.2", "h1.3", "h1.4"]},
        hands={"0": ["5"]},
        turn=0,
    )
    assert tock.outcome(tock.apply(state, "5:r12-h1.1")).winners == (1,)  # type: ignore[union-attr]


# --- C-12 randomness ----------------------------------------------------------------------


def test_c_12_1_seeded_generator_sets_the_first_dealer() -> None:
    dealers = {tock.to_position(tock.new_game(4, {}, s))["dealer"] for s in range(20)}
    assert dealers == {0, 1, 2, 3}


def test_c_12_2_same_seed_and_actions_same_game() -> None:
    def run(seed: int) -> list[dict[str, object]]:
        state = tock.new_game(4, {}, seed)
        out = []
        for _ in range(30):
            state = tock.apply(state, tock.legal_moves(state)[0])
            out.append(tock.to_position(state))
        return out

    assert run(5) == run(5)
    assert run(5) != run(6)


# --- C-13 leaving -----------------------------------------------------------------------------


def test_c_13_1_left_seat_stays_and_is_played_automatically() -> None:
    state = load(pawns={"1": ["r30"]}, hands={"0": ["2"], "1": ["5"]}, turn=1)
    state = tock.leave(state, 1)
    assert tock.to_position(state)["left"] == [1]
    assert tock.seats_to_act(state) == frozenset({1})
    pos = tock.to_position(tock.auto_action(state, 1))
    assert pos["pawns"]["1"][0] == "r30"
    assert pos["discard"][-1] == "5"


def test_c_13_2_left_seat_picks_at_once_in_an_exchange() -> None:
    state = load(
        teams=[[0, 2], [1, 3]],
        phase="exchange",
        hands={"0": ["A", "2"], "1": ["3", "4"], "2": ["5", "6"], "3": ["8", "9"]},
        turn=1,
        dealer=0,
    )
    state = tock.leave(state, 3)
    assert tock.view(state, None)["exchanged"] == [3]
    assert tock.seats_to_act(state) == frozenset({0, 1, 2})


def test_c_13_3_auto_discard_of_a_ten_never_bans() -> None:
    state = load(hands={"0": ["10"], "1": ["2"]}, turn=0)
    pos = tock.to_position(tock.auto_action(state, 0))
    assert pos["banned"] is False
    assert pos["turn"] == 1
    assert pos["discard"][-1] == "10"


def test_c_13_5_seven_cut_short_keeps_its_steps() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["7", "2"], "1": ["3"]}, turn=0)
    state = tock.apply(state, "7:r10-r13")
    cut = tock.auto_action(state, 0)
    pos = tock.to_position(cut)
    assert pos["pawns"]["0"][0] == "r13"
    assert pos["seven"] is None
    assert pos["discard"][-1] == "7"
    assert pos["turn"] == 1


def test_c_13_6_left_seat_loses_its_guard() -> None:
    state = load(pawns={"0": ["r0*"], "1": ["r16"]}, hands={"0": ["2"], "1": ["3"]}, turn=0)
    at_once = tock.leave(state, 0)
    assert pawns(at_once, 0)[0] == "r0"
    later = tock.leave(state, 1)
    assert pawns(later, 1)[0] == "r16"
    assert pawns(tock.leave(state, 0), 0)[0] == "r0"
    other = load(pawns={"1": ["r18*"]}, hands={"0": ["2"], "1": ["3"]}, turn=0)
    other = tock.leave(other, 1)
    assert pawns(other, 1)[0] == "r18*"  # not yet: seat 1's turn has not begun
    assert pawns(tock.apply(other, "2:D"), 1)[0] == "r18"


def test_c_13_7_no_automatic_action_for_a_seat_that_owes_nothing() -> None:
    state = load(hands={"0": ["2"], "1": ["3"]}, turn=0)
    with pytest.raises(IllegalMove):
        tock.auto_action(state, 1)


def test_c_13_8_timeout_keeps_the_guard_and_never_bans() -> None:
    state = load(pawns={"0": ["r0*"]}, hands={"0": ["10"], "1": ["3"]}, turn=0)
    pos = tock.to_position(tock.auto_action(state, 0))
    assert pos["pawns"]["0"][0] == "r0*"
    assert pos["banned"] is False


def test_c_13_9_random_card_is_uniform_over_the_physical_cards() -> None:
    state = load(hands={"0": ["2", "9", "9"], "1": ["3"]}, turn=0, seed=77)
    rng = random.Random(77)
    expected = ["2", "9", "9"][rng.randrange(3)]
    assert tock.to_position(tock.auto_action(state, 0))["discard"][-1] == expected
