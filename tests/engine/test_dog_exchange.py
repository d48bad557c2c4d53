"""The Dog partner exchange (D-4.4, C-10.5, N-7.2) and what each seat may see of it."""

from __future__ import annotations

import json

import pytest

from engine import IllegalMove, dog
from tests.engine.dog_helpers import legal, load, pick

EXCHANGE = {
    "phase": "exchange",
    "dealer": 3,
    "hands": {"0": ["A", "2"], "1": ["3", "4"], "2": ["5", "6"], "3": ["8", "9"]},
}


def test_dog_d_4_4_every_seat_takes_part() -> None:
    state = load(**EXCHANGE)
    assert dog.seats_to_act(state) == frozenset({0, 1, 2, 3})
    assert legal(state, 0) == {"G:A", "G:2"}
    assert legal(state, 3) == {"G:8", "G:9"}


def test_dog_c_9_5_picks_are_listed_once_per_distinct_token() -> None:
    state = load(phase="exchange", hands={"0": ["A", "A", "X"], "1": ["3"], "2": ["4"], "3": ["5"]})
    assert legal(state, 0) == {"G:A", "G:X"}


def test_dog_c_10_5_seat_that_picked_no_longer_owes_a_decision() -> None:
    state = pick(load(**EXCHANGE), 0, "A")
    assert dog.seats_to_act(state) == frozenset({1, 2, 3})
    # The pick may still be changed, so the seat keeps its list of picks.
    assert legal(state, 0) == {"G:A", "G:2"}


def test_dog_c_10_5_pick_can_be_changed_until_all_have_picked() -> None:
    state = load(**EXCHANGE)
    state = pick(state, 0, "A")
    state = pick(state, 0, "2")
    assert dog.to_position(state)["exchange"] == {"0": "2"}
    # The picked card stays in the picker's hand until the exchange happens (N-3.1).
    assert dog.to_position(state)["hands"]["0"] == ["A", "2"]


def test_dog_c_10_5_cards_move_to_partners_all_at_once() -> None:
    state = load(**EXCHANGE)
    state = pick(state, 0, "A")
    state = pick(state, 0, "2")
    state = pick(state, 1, "3")
    state = pick(state, 2, "5")
    assert dog.to_position(state)["phase"] == "exchange"
    state = pick(state, 3, "8")
    pos = dog.to_position(state)
    assert pos["phase"] == "play"
    assert pos["exchange"] == {}
    assert pos["hands"] == {"0": ["A", "5"], "1": ["4", "8"], "2": ["2", "6"], "3": ["3", "9"]}
    # Play starts with the seat after the dealer.
    assert pos["turn"] == 0


def test_dog_c_10_5_no_card_is_played_during_the_exchange() -> None:
    state = load(pawns={"0": ["r10"]}, **EXCHANGE)
    before = dog.to_position(state)
    with pytest.raises(IllegalMove) as info:
        dog.apply(state, "2:r10-r12")
    assert str(info.value)
    assert dog.to_position(state) == before


def test_dog_d_4_4_view_shows_own_pick_and_only_who_has_picked() -> None:
    state = load(**EXCHANGE)
    state = pick(state, 0, "2")
    state = pick(state, 1, "3")
    mine = dog.view(state, 0)
    assert mine["my_pick"] == "2"
    assert mine["exchanged"] == [0, 1]
    assert mine["received"] is None
    assert mine["hand"] == ["A", "2"]
    partner = dog.view(state, 2)
    assert partner["my_pick"] is None
    assert partner["exchanged"] == [0, 1]
    assert partner["received"] is None
    assert partner["hand"] == ["5", "6"]
    for seat in (0, 1, 2, 3, None):
        view = dog.view(state, seat)
        assert "exchange" not in view
        assert "hands" not in view
        assert "seed" not in view


def test_dog_d_4_4_received_card_is_visible_after_giving() -> None:
    state = load(**EXCHANGE)
    for seat, token in ((0, "2"), (1, "3"), (2, "5"), (3, "8")):
        state = pick(state, seat, token)
    assert dog.view(state, 0)["received"] == "5"
    assert dog.view(state, 2)["received"] == "2"
    assert dog.view(state, 1)["received"] == "8"
    assert dog.view(state, 3)["received"] == "3"
    assert dog.view(state, 0)["hand"] == ["A", "5"]


def test_dog_d_4_4_views_never_carry_another_seats_cards() -> None:
    state = load(**EXCHANGE)
    for seat, token in ((0, "2"), (1, "3"), (2, "5"), (3, "8")):
        state = pick(state, seat, token)
    view = dog.view(state, 1)
    assert view["hand_sizes"] == {"0": 2, "1": 2, "2": 2, "3": 2}
    assert view["hand"] == ["4", "8"]
    assert isinstance(view["draw"], int)
    for event in view["events"]:
        assert event["public"] or event["seat"] == 1
    spectator = dog.view(state, None)
    assert "hand" not in spectator
    for event in spectator["events"]:
        assert event["public"]
    json.dumps(spectator)


def test_dog_d_4_4_exchange_follows_every_deal() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["2"]}, turn=0, dealer=3)
    state = dog.apply(state, "2:r10-r12")
    assert dog.to_position(state)["phase"] == "exchange"
    assert dog.seats_to_act(state) == frozenset({0, 1, 2, 3})


def test_dog_d_1_2_six_player_exchange_goes_to_the_seat_opposite() -> None:
    hands = {str(seat): [token] for seat, token in enumerate(["A", "2", "3", "4", "5", "6"])}
    state = load(players=6, phase="exchange", hands=hands)
    for seat in range(6):
        state = pick(state, seat, hands[str(seat)][0])
    pos = dog.to_position(state)
    assert pos["hands"] == {"0": ["4"], "1": ["5"], "2": ["6"], "3": ["A"], "4": ["2"], "5": ["3"]}
