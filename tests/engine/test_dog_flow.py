"""Dog material, set-up, rounds, dealing, finished players and the end of the game.

Rules D-1, D-3, D-4 (except the exchange, see test_dog_exchange.py), D-12, D-13, C-10 and the
seeded randomness of N-4.
"""

from __future__ import annotations

import random

import pytest

from engine import InvalidOptions, dog
from tests.engine.dog_helpers import (
    DECK,
    ROUND_SIZES,
    all_cards,
    deck_in_card_order,
    legal,
    load,
    seeded_shuffle,
    sorted_cards,
)

# --- D-1 material, players, presets ----------------------------------------------------


@pytest.mark.parametrize("players", [4, 6])
def test_dog_d_1_1_deck_has_110_cards(players: int) -> None:
    pos = dog.to_position(dog.new_game(players, {}, 3))
    assert all_cards(pos) == DECK
    assert sum(DECK.values()) == 110


def test_dog_d_1_2_player_counts() -> None:
    assert tuple(dog.PLAYER_COUNTS) == (4, 6)
    with pytest.raises(ValueError):
        dog.new_game(5, {}, 1)


@pytest.mark.parametrize(
    ("players", "teams"), [(4, [[0, 2], [1, 3]]), (6, [[0, 3], [1, 4], [2, 5]])]
)
def test_dog_d_1_2_teams_of_partners_at_equal_distance(
    players: int, teams: list[list[int]]
) -> None:
    state = dog.new_game(players, {}, 11)
    assert dog.to_position(state)["teams"] == teams
    assert dog.view(state, None)["teams"] == teams


def test_dog_d_1_3_preset_defaults_to_bsw() -> None:
    # The table option is called `ruleset` (engine API); positions store it as `preset` (N-3.2).
    assert dog.to_position(dog.new_game(4, {}, 1))["options"] == {"preset": "bsw"}
    state = dog.new_game(4, {"ruleset": "braendi"}, 1)
    assert dog.to_position(state)["options"] == {"preset": "braendi"}


def test_dog_d_1_3_braendi_table_plays_by_braendi_rules() -> None:
    # D-1.3 (a): a braendi game loaded back from its position still offers A:r0-h0.1.
    pos = dog.to_position(dog.new_game(4, {"ruleset": "braendi"}, 1))
    data = {"game": "dog", "options": pos["options"], "pawns": {"0": ["r0"]}}
    state = dog.from_position({**data, "hands": {"0": ["A"]}, "turn": 0})
    assert "A:r0-h0.1" in legal(state)


def test_dog_d_1_3_unknown_ruleset_is_refused() -> None:
    with pytest.raises(InvalidOptions) as info:
        dog.new_game(4, {"ruleset": "bga"}, 1)
    assert "ruleset" in str(info.value)


# --- D-2 board ---------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "ring"), [(4, 64), (6, 96)])
def test_dog_d_2_1_board_size(players: int, ring: int) -> None:
    state = dog.new_game(players, {}, 5)
    view = dog.view(state, 0)
    assert view["board"] == {"ring": ring, "per_seat": 16}
    assert view["seats"] == list(range(players))


# --- D-3 set-up and N-4 seeding ------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 6])
def test_dog_d_3_1_new_game_set_up(players: int) -> None:
    pos = dog.to_position(dog.new_game(players, {}, 42))
    assert pos["phase"] == "exchange"
    assert pos["round"] == 1
    for seat in range(players):
        assert pos["pawns"][str(seat)] == [f"k{seat}"] * 4
        assert len(pos["hands"][str(seat)]) == 6
    assert len(pos["draw"]) == 110 - 6 * players
    assert pos["discard"] == []
    assert pos["turn"] == (pos["dealer"] + 1) % players


def test_dog_d_4_2_four_players_leave_86_cards_after_the_first_deal() -> None:
    assert len(dog.to_position(dog.new_game(4, {}, 9))["draw"]) == 86


@pytest.mark.parametrize(("players", "seed"), [(4, 0), (4, 1), (4, 2024), (6, 5), (6, 77)])
def test_dog_n_4_5_new_game_follows_the_seeded_procedure(players: int, seed: int) -> None:
    # N-4.2 first dealer, N-4.4 shuffle in card order, C-10.4 deal from the top one at a time.
    rng = random.Random(seed)
    dealer = rng.randrange(players)
    shuffled, _ = seeded_shuffle(deck_in_card_order(), rng.getrandbits(64))
    order = [(dealer + 1 + i) % players for i in range(players)]
    hands: dict[int, list[str]] = {seat: [] for seat in range(players)}
    for index in range(6 * players):
        hands[order[index % players]].append(shuffled[index])

    pos = dog.to_position(dog.new_game(players, {}, seed))
    assert pos["dealer"] == dealer
    assert pos["turn"] == order[0]
    for seat in range(players):
        assert pos["hands"][str(seat)] == sorted_cards(hands[seat])
    assert pos["draw"] == shuffled[6 * players :]


def test_dog_c_12_2_same_seed_same_game() -> None:
    first = dog.new_game(4, {}, 77)
    second = dog.new_game(4, {}, 77)
    assert dog.to_position(first) == dog.to_position(second)


# --- D-4 rounds, dealing, start player -------------------------------------------------------


@pytest.mark.parametrize("round_number", [1, 2, 3, 4, 5, 6])
def test_dog_d_4_1_round_sizes_repeat_6_5_4_3_2(round_number: int) -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["2"]}, turn=0, dealer=3, round=round_number)
    pos = dog.to_position(dog.apply(state, "2:r10-r12"))
    size = ROUND_SIZES[round_number % 5]  # size of round r + 1
    assert pos["round"] == round_number + 1
    assert pos["phase"] == "exchange"
    assert all(len(pos["hands"][str(seat)]) == size for seat in range(4))
    assert all_cards(pos) == DECK


def test_dog_d_4_2_no_reshuffle_when_the_draw_pile_covers_the_deal() -> None:
    # Round 2 deals 4 x 5 = 20 cards; a draw pile of exactly 20 is enough.
    state = load(pawns={"0": ["r10"]}, hands={"0": ["2"]}, turn=0, dealer=3, draw=20)
    pos = dog.to_position(dog.apply(state, "2:r10-r12"))
    assert pos["draw"] == []
    assert len(pos["discard"]) == 90
    assert pos["discard"][-1] == "2"
    assert all_cards(pos) == DECK


def test_dog_d_4_2_discards_are_reshuffled_when_the_draw_pile_is_short() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["2"]}, turn=0, dealer=3, draw=19)
    pos = dog.to_position(dog.apply(state, "2:r10-r12"))
    assert pos["discard"] == []
    assert len(pos["draw"]) == 110 - 20
    assert all(len(pos["hands"][str(seat)]) == 5 for seat in range(4))
    assert all_cards(pos) == DECK


def test_dog_d_4_2_reshuffle_follows_the_seeded_procedure() -> None:
    rest = deck_in_card_order()
    rest.remove("2")
    state = load(
        pawns={"0": ["r10"]},
        hands={"0": ["2"]},
        turn=0,
        dealer=3,
        draw=rest[:10],
        discard=rest[10:],
        seed=99,
    )
    pos = dog.to_position(dog.apply(state, "2:r10-r12"))
    # All 110 cards are sorted and shuffled with the stored seed; seat 1 (after dealer 0)
    # gets the first card.
    shuffled, _ = seeded_shuffle(deck_in_card_order(), 99)
    expected = {seat: sorted_cards(shuffled[seat - 1 :: 4][:5]) for seat in (1, 2, 3)}
    expected[0] = sorted_cards(shuffled[3::4][:5])
    for seat in range(4):
        assert pos["hands"][str(seat)] == expected[seat]
    assert pos["draw"] == shuffled[20:]


def test_dog_d_4_3_dealer_and_start_player_advance_each_round() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["2"]}, turn=0, dealer=3)
    pos = dog.to_position(dog.apply(state, "2:r10-r12"))
    assert pos["dealer"] == 0
    assert pos["turn"] == 1


def test_dog_d_4_3_start_player_acts_first_after_the_exchange() -> None:
    state = load(pawns={"2": ["r40"]}, hands={"2": ["3"]}, turn=2, dealer=1)
    state = dog.apply(state, "3:r40-r43")
    pos = dog.to_position(state)
    assert pos["dealer"] == 2
    for seat in range(4):
        state = dog.apply(state, next(iter(dog.legal_moves(state, seat))))
    pos = dog.to_position(state)
    assert pos["phase"] == "play"
    assert pos["turn"] == 3
    assert dog.seats_to_act(state) == frozenset({3})


def test_dog_d_4_5_fold_marks_are_cleared_at_the_end_of_a_round() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["2"]}, folded=[1, 2], turn=0, dealer=3)
    pos = dog.to_position(dog.apply(state, "2:r10-r12"))
    assert pos["folded"] == []
    assert pos["round"] == 2


def test_dog_c_10_2_turn_skips_seats_without_cards() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["2", "3"], "2": ["4"]}, turn=0)
    assert dog.to_position(dog.apply(state, "2:r10-r12"))["turn"] == 2


def test_dog_n_3_7_loading_moves_the_turn_to_a_seat_with_cards() -> None:
    state = load(hands={"2": ["3"]}, turn=0)
    assert dog.to_position(state)["turn"] == 2
    assert dog.seats_to_act(state) == frozenset({2})


# --- D-12 finished player ------------------------------------------------------------------


def test_dog_d_12_1_bring_out_onto_the_partners_start_field() -> None:
    state = load(
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"]}, hands={"0": ["A"], "1": ["2"]}, turn=0
    )
    assert legal(state) == {"A:E2"}
    pos = dog.to_position(dog.apply(state, "A:E2"))
    assert pos["pawns"]["2"] == ["r32*", "k2", "k2", "k2"]


def test_dog_d_12_1_swap_with_a_partner_pawn() -> None:
    state = load(
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "1": ["r20"], "2": ["r40"]},
        hands={"0": ["J"]},
        turn=0,
    )
    assert legal(state) == {"J:r40<>r20"}


def test_dog_d_12_2_finished_player_still_folds() -> None:
    state = load(
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"]}, hands={"0": ["2"], "1": ["3"]}, turn=0
    )
    assert legal(state) == {"F"}


def test_dog_d_12_2_finished_player_still_exchanges() -> None:
    state = load(
        phase="exchange",
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"]},
        hands={"0": ["2", "5"], "1": ["3"], "2": ["4"], "3": ["6"]},
    )
    assert 0 in dog.seats_to_act(state)
    assert legal(state, 0) == {"G:2", "G:5"}


# --- D-13 end of the game ------------------------------------------------------------------


def test_dog_d_13_1_team_wins_the_moment_all_eight_pawns_are_home() -> None:
    state = load(
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "2": ["r30", "h2.2", "h2.3", "h2.4"]},
        hands={"0": ["3", "K"], "1": ["2", "Q"], "3": ["5"]},
        turn=0,
    )
    state = dog.apply(state, "3:r30-h2.1")
    outcome = dog.outcome(state)
    assert outcome is not None
    assert sorted(outcome.winners) == [0, 2]
    pos = dog.to_position(state)
    assert pos["phase"] == "finished"
    assert sorted(pos["winner"]) == [0, 2]
    # Cards left in hands are not played.
    assert pos["hands"]["1"] == ["2", "Q"]
    assert dog.seats_to_act(state) == frozenset()
    assert legal(state) == set()


def test_dog_d_13_1_one_finished_colour_is_not_a_win() -> None:
    state = load(
        pawns={"0": ["r62", "h0.2", "h0.3", "h0.4"]}, hands={"0": ["3"], "1": ["2"]}, turn=0
    )
    state = dog.apply(state, "3:r62-h0.1")
    assert dog.outcome(state) is None
    pos = dog.to_position(state)
    assert pos["phase"] == "play"
    assert pos["turn"] == 1


def test_dog_c_5_1_capture_and_fold_are_reported_as_events() -> None:
    state = load(pawns={"0": ["r10"], "1": ["r13"]}, hands={"0": ["3"], "1": ["2"]}, turn=0)
    state = dog.apply(state, "3:r10-r13")
    assert isinstance(state.events, tuple)
    assert "capture" in {event.kind for event in state.events}
    state = load(hands={"0": ["3"], "1": ["2"]}, turn=0)
    assert "fold" in {event.kind for event in dog.apply(state, "F").events}


def test_dog_n_3_7_loading_a_position_without_cards_deals_at_once() -> None:
    pos = dog.to_position(load(dealer=3, round=1))
    assert pos["round"] == 2
    assert pos["dealer"] == 0
    assert pos["phase"] == "exchange"
    assert all(len(pos["hands"][str(seat)]) == 5 for seat in range(4))
    assert all_cards(pos) == DECK


def test_dog_d_6_2_last_seat_folding_ends_the_round() -> None:
    state = load(hands={"0": ["2", "3"]}, folded=[1], turn=0, dealer=3)
    pos = dog.to_position(dog.apply(state, "F"))
    assert pos["round"] == 2
    assert pos["folded"] == []
    assert pos["phase"] == "exchange"
    assert all(len(pos["hands"][str(seat)]) == 5 for seat in range(4))


def test_dog_d_2_2_turn_order_runs_by_increasing_seat_and_wraps() -> None:
    state = load(
        pawns={"0": ["r2"], "1": ["r18"], "2": ["r34"], "3": ["r50"]},
        hands={"0": ["2", "2"], "1": ["2"], "2": ["2"], "3": ["2"]},
        turn=0,
    )
    turns = []
    for text in ("2:r2-r4", "2:r18-r20", "2:r34-r36", "2:r50-r52"):
        state = dog.apply(state, text)
        turns.append(dog.to_position(state)["turn"])
    assert turns == [1, 2, 3, 0]


def test_dog_d_12_1_bring_out_for_the_partner_captures_on_its_start_field() -> None:
    state = load(
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "1": ["r32"]},
        hands={"0": ["K"], "1": ["2"]},
        turn=0,
    )
    assert legal(state) == {"K:E2"}
    pos = dog.to_position(dog.apply(state, "K:E2"))
    assert pos["pawns"]["2"] == ["r32*", "k2", "k2", "k2"]
    assert pos["pawns"]["1"] == ["k1"] * 4


def test_dog_d_12_1_partner_blocking_pawn_stops_the_bring_out() -> None:
    state = load(
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "2": ["r32*"]},
        hands={"0": ["K"]},
        turn=0,
    )
    assert legal(state) == {"K:r32-r45"}
