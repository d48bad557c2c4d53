"""Part T of race-games.md (Tock): one test per rule."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import IllegalMove, InvalidOptions, InvalidPosition, tock
from tests.engine.test_tock_helpers import after, legal, load, pawns

# --- T-1 material, players, options ------------------------------------------------------


def test_tock_t_1_1_deck_is_52_cards_without_jokers() -> None:
    pos = tock.to_position(tock.new_game(4, {}, 9))
    cards: Counter[str] = Counter(pos["draw"] + pos["discard"])
    for hand in pos["hands"].values():
        cards.update(hand)
    assert sum(cards.values()) == 52
    assert set(cards.values()) == {4}
    assert "X" not in cards
    with pytest.raises(InvalidPosition):
        load(hands={"0": ["X"]})


def test_tock_t_1_2_two_to_six_players_with_four_pawns() -> None:
    assert tock.PLAYER_COUNTS == (2, 3, 4, 5, 6)
    for players in tock.PLAYER_COUNTS:
        pos = tock.to_position(tock.new_game(players, {}, 1))
        assert all(len(p) == 4 for p in pos["pawns"].values())
    with pytest.raises(InvalidOptions):
        tock.new_game(7, {}, 1)


@pytest.mark.parametrize(("players", "kind"), [(5, "2v2"), (4, "2v2v2"), (6, "2v2")])
def test_tock_t_1_3_team_types_need_their_player_count(players: int, kind: str) -> None:
    with pytest.raises(InvalidOptions, match="game_type"):
        tock.new_game(players, {"game_type": kind}, 1)


def test_tock_t_1_4_option_defaults_and_bad_values() -> None:
    defaults = {spec.name: spec.default for spec in tock.OPTIONS}
    assert defaults == {
        "game_type": "ffa",
        "seven": "split",
        "quick_start": False,
        "variant5": False,
    }
    assert tock.to_position(tock.new_game(4, {}, 1))["options"] == {
        "seven": "split",
        "quick_start": False,
        "variant5": False,
    }
    with pytest.raises(InvalidOptions, match="seven"):
        tock.new_game(4, {"seven": "double"}, 1)
    with pytest.raises(InvalidOptions, match="colour"):
        tock.new_game(4, {"colour": "red"}, 1)


# --- T-2 board, seats, teams -------------------------------------------------------------


@pytest.mark.parametrize(("players", "ring"), [(2, 72), (3, 72), (4, 72), (5, 108), (6, 108)])
def test_tock_t_2_1_board_size(players: int, ring: int) -> None:
    view = tock.view(tock.new_game(players, {}, 1), None)
    assert view["board"] == {"ring": ring, "per_seat": 18}


@pytest.mark.parametrize(
    ("players", "seats"),
    [(2, [0, 2]), (3, [0, 1, 2]), (4, [0, 1, 2, 3]), (5, [0, 1, 2, 3, 4]), (6, [0, 1, 2, 3, 4, 5])],
)
def test_tock_t_2_2_seats_in_use(players: int, seats: list[int]) -> None:
    assert tock.to_position(tock.new_game(players, {}, 1))["seats"] == seats


def test_tock_t_2_3_two_player_turn_order() -> None:
    state = load(players=2, hands={"0": ["2", "3"], "2": ["5", "6"]}, turn=0)
    pos = after(state, "2:D")
    assert pos["turn"] == 2
    assert after(state, "2:D", "5:D")["turn"] == 0


def test_tock_t_2_4_teams() -> None:
    assert tock.to_position(tock.new_game(6, {"game_type": "2v2v2"}, 1))["teams"] == [
        [0, 3],
        [1, 4],
        [2, 5],
    ]
    with pytest.raises(InvalidPosition):
        load(players=4, teams=[[0, 1], [2, 3]])


def test_tock_t_2_5_six_seat_board_junction() -> None:
    state = load(players=6, pawns={"0": ["r105"]}, hands={"0": ["3"]}, turn=0)
    assert legal(state) == {"3:r105-r0", "3:r105-h0.2"}
    blue = load(players=6, pawns={"5": ["r87"]}, hands={"5": ["2"]}, turn=5)
    assert legal(blue) == {"2:r87-r89", "2:r87-h5.1"}


def test_tock_t_2_6_brought_out_pawn_must_go_round() -> None:
    state = load(pawns={"0": ["r0"]}, hands={"0": ["2"]}, turn=0)
    assert legal(state) == {"2:r0-r2"}


# --- T-3 setting up -------------------------------------------------------------------------


def test_tock_t_3_1_quick_start_puts_one_guarded_pawn_out() -> None:
    pos = tock.to_position(tock.new_game(3, {"quick_start": True}, 2))
    assert pos["pawns"] == {
        "0": ["r0*", "k0", "k0", "k0"],
        "1": ["r18*", "k1", "k1", "k1"],
        "2": ["r36*", "k2", "k2", "k2"],
    }
    plain = tock.to_position(tock.new_game(3, {}, 2))
    assert plain["pawns"]["1"] == ["k1"] * 4


def test_tock_t_3_2_first_deal_is_hand_one() -> None:
    pos = tock.to_position(tock.new_game(4, {}, 8))
    assert pos["hand"] == 1
    assert all(len(h) == 5 for h in pos["hands"].values())
    assert pos["turn"] == (pos["dealer"] + 1) % 4


# --- T-4 dealing -----------------------------------------------------------------------------


def _hand_sizes_over_deals(players: int, deals: int) -> list[int]:
    state = tock.new_game(players, {}, 4)
    sizes = [len(state.hands[state.cfg.seats[0]])]
    while len(sizes) < deals:
        number = state.number
        state = tock.auto_action(state, state.turn)
        if state.number != number or sum(map(len, state.hands)) == len(state.cfg.seats) * 5 == 0:
            sizes.append(len(state.hands[state.cfg.seats[0]]))
    return sizes


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (2, [5, 5, 4, 4, 4, 4, 5]),
        (3, [5, 4, 4, 4, 5]),
        (4, [5, 4, 4, 5]),
        (5, [5, 5, 5]),
        (6, [4, 4, 4]),
    ],
)
def test_tock_t_4_1_deal_sizes(players: int, sizes: list[int]) -> None:
    assert _hand_sizes_over_deals(players, len(sizes)) == sizes


def test_tock_t_4_2_new_cycle_shuffles_all_52_cards() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["2"]}, hand=3, turn=0)
    pos = after(state, "2:r10-r12")
    assert pos["hand"] == 1
    assert pos["discard"] == []
    assert len(pos["draw"]) == 52 - 20


def test_tock_t_4_3_dealer_passes_and_dealer_is_skipped_once() -> None:
    state = load(hands={"0": ["2"]}, dealer=3, turn=0)
    pos = after(state, "2:D")
    assert pos["dealer"] == 0
    assert pos["turn"] == 1


def test_tock_t_4_4_ban_ends_with_the_hand() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["10"]}, turn=0)
    pos = after(state, "10:r10-r20")
    assert pos["banned"] is False
    assert pos["hand"] == 2


def test_tock_t_4_5_exchange_only_in_team_games() -> None:
    assert tock.to_position(tock.new_game(6, {"game_type": "2v2v2"}, 1))["phase"] == "exchange"
    assert tock.to_position(tock.new_game(6, {}, 1))["phase"] == "play"
    with pytest.raises(InvalidPosition):
        load(phase="exchange", hands={"0": ["2"]})


# --- T-5 a Tock turn -------------------------------------------------------------------------


def test_tock_t_5_1_banned_seat_only_discards() -> None:
    state = load(
        pawns={"0": ["r15"]},
        hands={"1": ["A", "K", "7"], "2": ["3"]},
        discard=["10"],
        turn=1,
        banned=True,
    )
    assert legal(state) == {"A:D", "7:D", "K:D"}


def test_tock_t_5_2_play_when_possible() -> None:
    state = load(pawns={"0": ["r15"]}, hands={"0": ["3", "9"]}, turn=0)
    assert legal(state) == {"3:r15-r18", "9:r15-r24"}


def test_tock_t_5_3_no_play_discards_and_stays_in_rotation() -> None:
    state = load(hands={"0": ["3", "9"], "1": ["2"]}, turn=0)
    assert legal(state) == {"3:D", "9:D"}
    pos = after(state, "9:D", "2:D")
    assert pos["turn"] == 0
    assert pos["hands"]["0"] == ["3"]


# --- T-6 movement ---------------------------------------------------------------------------


def test_tock_t_6_1_only_the_four_goes_backwards() -> None:
    state = load(pawns={"0": ["r20"]}, hands={"0": ["4", "6"]}, turn=0)
    assert legal(state) == {"4:r20-r16", "6:r20-r26"}


def test_tock_t_6_2_passing_is_free_except_guards() -> None:
    state = load(pawns={"0": ["r15", "r20"], "1": ["r18*"]}, hands={"0": ["2", "4", "5"]}, turn=0)
    assert legal(state) == {"2:r15-r17", "2:r20-r22", "4:r15-r11", "5:r20-r25"}


def test_tock_t_6_3_home_pawns_move_deeper_with_small_counts() -> None:
    state = load(pawns={"0": ["h0.1"]}, hands={"0": ["A", "2", "3", "5"]}, turn=0)
    assert legal(state) == {"A:h0.1-h0.2", "2:h0.1-h0.3", "3:h0.1-h0.4", "A:E"}
    seven = load(pawns={"0": ["h0.1", "r10"]}, hands={"0": ["7"]}, turn=0)
    assert "7:r10-r14,h0.1-h0.4" in legal(seven)


# --- T-7 cards -------------------------------------------------------------------------------


def test_tock_t_7_1_ace_is_out_or_one_never_eleven() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["A"]}, turn=0)
    assert legal(state) == {"A:E", "A:r10-r11"}


def test_tock_t_7_2_counting_cards() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["2", "3", "6", "8", "9"]}, turn=0)
    assert legal(state) == {"2:r10-r12", "3:r10-r13", "6:r10-r16", "8:r10-r18", "9:r10-r19"}


def test_tock_t_7_3_queen_twelve_king_thirteen_or_out() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["Q", "K"]}, turn=0)
    assert legal(state) == {"Q:r10-r22", "K:r10-r23", "K:E"}


def test_tock_t_7_4_four_backwards_past_the_junction() -> None:
    state = load(pawns={"0": ["r1"]}, hands={"0": ["4", "3"]}, turn=0)
    assert legal(state) == {"4:r1-r69", "3:r1-r4"}
    back = load(pawns={"0": ["r68"]}, hands={"0": ["3"]}, turn=0)
    assert "3:r68-h0.1" in legal(back)
    home = load(pawns={"0": ["h0.2"], "1": ["r14"]}, hands={"0": ["4"]}, turn=0)
    assert legal(home) == {"4:D"}
    guard = load(pawns={"0": ["r20"], "1": ["r18*"]}, hands={"0": ["4"]}, turn=0)
    assert legal(guard) == {"4:D"}
    capture = load(pawns={"0": ["r20"], "1": ["r16"]}, hands={"0": ["4"]}, turn=0)
    assert pawns(tock.apply(capture, "4:r20-r16"), 1)[0] == "k1"


def test_tock_t_7_5_variant_five_moves_any_ring_pawn() -> None:
    plain = load(pawns={"0": ["r10"], "1": ["r30"]}, hands={"0": ["5"]}, turn=0)
    assert legal(plain) == {"5:r10-r15"}
    state = load(
        options={"variant5": True},
        pawns={"0": ["r10", "h0.1"], "1": ["r18*", "h1.1"], "2": ["r30"]},
        hands={"0": ["5"]},
        turn=0,
    )
    assert legal(state) == {"5:r10-r15", "5:r18-r23", "5:r30-r35", "5:r30-h2.1"}
    assert pawns(tock.apply(state, "5:r18-r23"), 1)[0] == "r23"  # guard ends (house rule)


def test_tock_t_7_7_ten_moves_ten_and_bans() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["10"], "1": ["2"], "2": ["3"]}, turn=0)
    pos = after(state, "10:r10-r20")
    assert pos["pawns"]["0"][0] == "r20"
    assert pos["banned"] is True
    assert pos["turn"] == 1


def test_tock_t_7_8_jack_swaps_and_null_swap_must_be_played() -> None:
    state = load(
        pawns={"0": ["r0*", "r30", "r31"], "1": ["r18*", "r50"], "2": ["r40"]},
        hands={"0": ["J"]},
        turn=0,
    )
    assert legal(state) == {"J:N", "J:r30<>r40", "J:r30<>r50", "J:r31<>r40", "J:r31<>r50"}
    only_null = load(pawns={"0": ["r30", "r31"]}, hands={"0": ["J"]}, turn=0)
    assert legal(only_null) == {"J:N"}
    assert str(tock.parse_move(only_null, "J:r30<>r31")) == "J:N"


# --- T-8 the 10-ban -------------------------------------------------------------------------------


def test_tock_t_8_1_discarded_ten_bans_next_seat_with_cards_only() -> None:
    state = load(hands={"0": ["10"], "1": ["2"]}, turn=0)
    assert after(state, "10:D")["banned"] is True
    nobody = load(hands={"0": ["10", "3"], "2": ["2"]}, turn=0)
    pos = after(nobody, "10:D")
    assert pos["banned"] is False
    assert pos["turn"] == 2


def test_tock_t_8_2_banned_seat_only_discards() -> None:
    state = load(
        pawns={"1": ["r20"]}, hands={"1": ["5", "5", "10"], "2": ["3"]}, turn=1, banned=True
    )
    assert legal(state) == {"5:D", "10:D"}
    with pytest.raises(IllegalMove, match="banned"):
        tock.apply(state, "5:r20-r25")
    chained = after(state, "10:D")
    assert chained["banned"] is True
    assert chained["turn"] == 2
    ended = after(state, "5:D")
    assert ended["banned"] is False


def test_tock_t_8_3_ten_as_last_card_of_the_hand_bans_nobody() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["10"]}, turn=0)
    pos = after(state, "10:r10-r20")
    assert pos["banned"] is False
    assert pos["turn"] == 1


def test_tock_t_8_4_automatic_ten_never_bans() -> None:
    state = tock.leave(load(hands={"0": ["10"], "1": ["2"]}, turn=0), 0)
    assert tock.to_position(tock.auto_action(state, 0))["banned"] is False


def test_tock_t_8_5_winning_ten_bans_nobody() -> None:
    state = load(
        pawns={"0": ["r61", "h0.2", "h0.3", "h0.4"]}, hands={"0": ["10"], "1": ["2"]}, turn=0
    )
    pos = after(state, "10:r61-h0.1")
    assert pos["phase"] == "finished"
    assert pos["banned"] is False


# --- T-9 the 7 ---------------------------------------------------------------------------------


def test_tock_t_9_1_split_seven_burns_own_pawns() -> None:
    state = load(pawns={"0": ["r10", "r12"]}, hands={"0": ["7"]}, turn=0)
    assert pawns(tock.apply(state, "7:r10-r17"), 0) == ["r17", "k0", "k0", "k0"]


def test_tock_t_9_2_no_carry_over_to_the_partner() -> None:
    state = load(
        teams=[[0, 2], [1, 3]],
        pawns={"0": ["r67", "h0.2", "h0.3", "h0.4"], "2": ["r40", "r45"]},
        hands={"0": ["7"]},
        turn=0,
    )
    assert legal(state) == {"7:r67-r2"}
    helper = load(
        teams=[[0, 2], [1, 3]],
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "2": ["r40"]},
        hands={"0": ["7"]},
        turn=0,
    )
    assert legal(helper) == {"7:r40-r47"}


def test_tock_t_9_3_single_seven_moves_one_pawn_one_to_seven() -> None:
    state = load(
        options={"seven": "single"},
        pawns={"0": ["r10", "r12"], "1": ["r18*"]},
        hands={"0": ["7"]},
        turn=0,
    )
    assert legal(state) == {f"7:r10-r{n}" for n in range(11, 18)} | {
        f"7:r12-r{n}" for n in range(13, 18)
    }
    pos = after(state, "7:r10-r14")
    assert pos["pawns"]["0"] == ["r14", "k0", "k0", "k0"]
    assert pos["seven"] is None


# --- T-10 guarded pawns --------------------------------------------------------------------------


def test_tock_t_10_1_guard_holds_against_every_card() -> None:
    state = load(pawns={"0": ["r14", "r30"], "1": ["r18*"]}, hands={"0": ["5", "J", "7"]}, turn=0)
    moves = legal(state)
    assert "5:r14-r19" not in moves
    assert not any("r18" in m for m in moves)


def test_tock_t_10_2_own_guarded_pawn_blocks_its_owner() -> None:
    state = load(pawns={"1": ["r18*", "r17"]}, hands={"1": ["5"]}, turn=1)
    assert legal(state) == {"5:r18-r23"}


# --- T-11 teams and finished colours ------------------------------------------------------------


def test_tock_t_11_1_finished_player_moves_the_partner() -> None:
    state = load(
        teams=[[0, 2], [1, 3]],
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "2": ["r40", "r45"], "1": ["r50"]},
        hands={"0": ["K", "4", "J"]},
        turn=0,
    )
    assert legal(state) == {
        "K:E2",
        "K:r40-r53",
        "K:r45-r58",
        "4:r40-r36",
        "4:r45-r41",
        "J:N",
        "J:r40<>r50",
        "J:r45<>r50",
    }


def test_tock_t_11_2_moved_colour_fixed_at_start_of_play() -> None:
    state = load(
        teams=[[0, 2], [1, 3]],
        pawns={"0": ["r69", "h0.2", "h0.3", "h0.4"], "2": ["r40"]},
        hands={"0": ["2", "3"], "1": ["A"]},
        turn=0,
    )
    assert legal(state) == {"2:r69-h0.1", "2:r69-r71", "3:r69-r0"}


def test_tock_t_11_3_finished_player_still_exchanges() -> None:
    state = load(
        teams=[[0, 2], [1, 3]],
        phase="exchange",
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"]},
        hands={"0": ["A", "2"], "1": ["3"], "2": ["5"], "3": ["8"]},
        turn=1,
        dealer=0,
    )
    assert legal(state, 0) == {"G:A", "G:2"}
    assert 0 in tock.seats_to_act(state)


def test_tock_t_11_4_variant_five_for_a_finished_player() -> None:
    state = load(
        teams=[[0, 2], [1, 3]],
        options={"variant5": True},
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "1": ["r50"], "2": ["h2.1"]},
        hands={"0": ["5"]},
        turn=0,
    )
    assert legal(state) == {"5:r50-r55"}


# --- T-12 end of a game ---------------------------------------------------------------------------


def test_tock_t_12_1_free_for_all_winner_alone() -> None:
    state = load(pawns={"0": ["r69", "h0.2", "h0.3", "h0.4"]}, hands={"0": ["2"]}, turn=0)
    assert tock.outcome(tock.apply(state, "2:r69-h0.1")).winners == (0,)  # type: ignore[union-attr]


def test_tock_t_12_2_team_needs_all_eight_pawns() -> None:
    pawns_now = {"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "2": ["r33", "h2.2", "h2.3", "h2.4"]}
    state = load(teams=[[0, 2], [1, 3]], pawns=pawns_now, hands={"0": ["2"]}, turn=0)
    assert tock.outcome(tock.apply(state, "2:r33-h2.1")).winners == (0, 2)  # type: ignore[union-attr]
    half = load(
        teams=[[0, 2], [1, 3]],
        pawns={"0": ["r69", "h0.2", "h0.3", "h0.4"]},
        hands={"0": ["2"], "1": ["3"]},
        turn=0,
    )
    assert tock.outcome(tock.apply(half, "2:r69-h0.1")) is None


# --- T-13 leaving ---------------------------------------------------------------------------------


def test_tock_t_13_1_left_seat_gets_random_discards_and_picks() -> None:
    state = tock.new_game(4, {"game_type": "2v2"}, 21)
    state = tock.leave(state, 2)
    assert 2 not in tock.seats_to_act(state)
    for seat in (0, 1, 3):
        state = tock.apply(state, tock.legal_moves(state, seat)[0])
    assert state.phase == "play"
    while state.turn != 2:
        state = tock.apply(state, tock.legal_moves(state)[0])
    size = len(state.hands[2])
    board = tock.to_position(state)["pawns"]
    state = tock.auto_action(state, 2)
    assert len(state.hands[2]) == size - 1
    assert tock.to_position(state)["pawns"] == board
