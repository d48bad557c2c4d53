"""Leaving and timeouts in Dog: D-14 and the automatic actions of C-13."""

from __future__ import annotations

import json
import random

from engine import dog
from tests.engine.dog_helpers import load, sorted_cards


def random_card(hand: list[str], seed: int) -> str:
    """The card N-4.3 picks: sort the hand, take index ``Random(seed).randrange(len)``."""
    ordered = sorted_cards(hand)
    return ordered[random.Random(seed).randrange(len(ordered))]


def test_dog_c_13_1_leave_marks_the_seat_and_keeps_its_pawns() -> None:
    state = load(pawns={"1": ["r20"]}, hands={"0": ["2"], "1": ["3"]}, turn=0)
    pos = dog.to_position(dog.leave(state, 1))
    assert pos["left"] == [1]
    assert pos["pawns"]["1"] == ["r20", "k1", "k1", "k1"]


def test_dog_d_14_1_left_seat_with_a_play_discards_a_random_card() -> None:
    hand = ["9", "2", "5"]
    state = load(pawns={"0": ["r10"]}, hands={"0": hand, "1": ["3"]}, turn=0, seed=12345)
    state = dog.leave(state, 0)
    # The stored seed drives the next random event (N-4.1); loading already used one.
    chosen = random_card(hand, dog.to_position(state)["seed"])
    pos = dog.to_position(dog.auto_action(state, 0))
    remaining = sorted_cards(hand)
    remaining.remove(chosen)
    assert pos["hands"]["0"] == remaining
    assert pos["discard"][-1] == chosen
    assert pos["pawns"]["0"] == ["r10", "k0", "k0", "k0"]
    assert pos["turn"] == 1


def test_dog_d_14_1_left_seat_without_a_play_folds() -> None:
    state = load(hands={"0": ["2", "3"], "1": ["4"]}, turn=0)
    state = dog.leave(state, 0)
    pos = dog.to_position(dog.auto_action(state, 0))
    assert pos["folded"] == [0]
    assert pos["hands"]["0"] == []
    assert pos["turn"] == 1


def test_dog_c_13_5_seven_cut_short_keeps_its_steps() -> None:
    state = load(
        pawns={"0": ["r13", "r20"]},
        hands={"0": ["2"], "1": ["3"]},
        seven={"card": "7", "colour": 0, "left": 4, "moved": ["r13"]},
        turn=0,
    )
    pos = dog.to_position(dog.auto_action(state, 0))
    assert pos["seven"] is None
    assert pos["pawns"]["0"] == ["r13", "r20", "k0", "k0"]
    assert pos["discard"][-1] == "7"
    assert pos["hands"]["0"] == ["2"]
    assert pos["turn"] == 1


def test_dog_c_13_6_guard_dropped_at_once_when_the_seat_to_act_leaves() -> None:
    state = load(pawns={"0": ["r0*"]}, hands={"0": ["2"], "1": ["3"]}, turn=0)
    pos = dog.to_position(dog.leave(state, 0))
    assert pos["pawns"]["0"] == ["r0", "k0", "k0", "k0"]


def test_dog_c_13_6_guard_dropped_at_once_when_the_seat_leaves_in_the_middle_of_a_7() -> None:
    # Red is to act with a pending 7 (one pawn moved, the guarded one still on its start).
    state = load(
        pawns={"0": ["r0*", "r13"]},
        hands={"0": ["2"], "1": ["3"]},
        seven={"card": "7", "colour": 0, "left": 4, "moved": ["r13"]},
        turn=0,
    )
    pos = dog.to_position(dog.leave(state, 0))
    assert pos["seven"] is None, "the 7 is cut short (C-13.5)"
    assert pos["turn"] == 1
    assert pos["pawns"]["0"] == ["r0", "r13", "k0", "k0"], "the guard ends at once"


def test_dog_c_13_6_guard_dropped_when_the_left_seats_turn_begins() -> None:
    state = load(pawns={"0": ["r10"], "1": ["r16*"]}, hands={"0": ["2"], "1": ["3"]}, turn=0)
    state = dog.leave(state, 1)
    assert dog.to_position(state)["pawns"]["1"] == ["r16*", "k1", "k1", "k1"]
    pos = dog.to_position(dog.apply(state, "2:r10-r12"))
    assert pos["turn"] == 1
    assert pos["pawns"]["1"] == ["r16", "k1", "k1", "k1"]


def test_dog_c_13_8_timeout_discards_but_keeps_the_guard() -> None:
    hand = ["2", "5"]
    state = load(pawns={"0": ["r0*"]}, hands={"0": hand, "1": ["3"]}, turn=0, seed=321)
    chosen = random_card(hand, dog.to_position(state)["seed"])
    pos = dog.to_position(dog.auto_action(state, 0))
    assert pos["pawns"]["0"] == ["r0*", "k0", "k0", "k0"]
    assert pos["discard"][-1] == chosen
    assert pos["left"] == []


def test_dog_c_13_2_left_seat_picks_a_random_card_at_once() -> None:
    state = load(
        phase="exchange",
        hands={"0": ["A", "2"], "1": ["4", "3"], "2": ["5", "6"], "3": ["8", "9"]},
        seed=7,
    )
    chosen = random_card(["4", "3"], dog.to_position(state)["seed"])
    state = dog.leave(state, 1)
    assert dog.to_position(state)["exchange"] == {"1": chosen}
    assert dog.seats_to_act(state) == frozenset({0, 2, 3})


def test_dog_c_13_2_left_seat_picks_as_soon_as_the_exchange_begins() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["2"]}, turn=0, dealer=3, left=[1])
    pos = dog.to_position(dog.apply(state, "2:r10-r12"))
    assert pos["phase"] == "exchange"
    assert set(pos["exchange"]) == {"1"}
    assert pos["exchange"]["1"] in pos["hands"]["1"]


def test_dog_c_13_1_left_seat_still_wins_with_its_team() -> None:
    state = load(
        pawns={"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "2": ["r30", "h2.2", "h2.3", "h2.4"]},
        hands={"0": ["3"], "1": ["2"]},
        left=[2],
        turn=0,
    )
    outcome = dog.outcome(dog.apply(state, "3:r30-h2.1"))
    assert outcome is not None
    assert sorted(outcome.winners) == [0, 2]


def test_dog_c_13_5_seven_stops_at_once_when_the_acting_seat_leaves() -> None:
    state = load(
        pawns={"0": ["r13", "r20"]},
        hands={"0": ["2"], "1": ["3"]},
        seven={"card": "7", "colour": 0, "left": 4, "moved": ["r13"]},
        turn=0,
    )
    pos = dog.to_position(dog.leave(state, 0))
    assert pos["seven"] is None
    assert pos["pawns"]["0"] == ["r13", "r20", "k0", "k0"]
    assert pos["discard"][-1] == "7"


def test_dog_n_5_4_seven_cut_short_is_logged_with_the_steps_made() -> None:
    state = load(
        pawns={"0": ["r10", "r20"]},
        hands={"0": ["7", "2"], "1": ["3"]},
        turn=0,
    )
    state = dog.auto_action(dog.apply(state, "7:r10-r13"), 0)
    assert "7:r10-r13" in json.dumps([event.to_json() for event in state.events])
    assert dog.to_position(state)["pawns"]["0"] == ["r13", "r20", "k0", "k0"]


def test_dog_c_13_8_exchange_timeout_picks_a_random_card() -> None:
    state = load(
        phase="exchange",
        hands={"0": ["A", "2"], "1": ["4", "3"], "2": ["6", "5", "Q"], "3": ["8", "9"]},
        seed=11,
    )
    chosen = random_card(["6", "5", "Q"], dog.to_position(state)["seed"])
    pos = dog.to_position(dog.auto_action(state, 2))
    assert pos["exchange"] == {"2": chosen}
    assert pos["left"] == []
