"""Dog positions: the N-3 format, its normal form, validity (N-3.4) and the load-time shuffle."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from engine import InvalidPosition, dog
from tests.engine.dog_helpers import DECK, all_cards, deck_in_card_order, position, seeded_shuffle

DOG_FIELDS = {
    "game",
    "options",
    "players",
    "seats",
    "teams",
    "pawns",
    "hands",
    "phase",
    "turn",
    "dealer",
    "round",
    "folded",
    "exchange",
    "draw",
    "discard",
    "left",
    "seven",
    "winner",
    "seed",
}


def test_dog_n_3_6_normal_form_of_a_minimal_position() -> None:
    pos = dog.to_position(
        dog.from_position(position(pawns={"0": ["r10"]}, hands={"0": ["2"]}, turn=0))
    )
    assert set(pos) == DOG_FIELDS
    assert pos["game"] == "dog"
    assert pos["options"] == {"preset": "bsw"}
    assert pos["players"] == 4
    assert pos["seats"] == [0, 1, 2, 3]
    assert pos["teams"] == [[0, 2], [1, 3]]
    assert pos["pawns"] == {
        "0": ["r10", "k0", "k0", "k0"],
        "1": ["k1"] * 4,
        "2": ["k2"] * 4,
        "3": ["k3"] * 4,
    }
    assert pos["hands"] == {"0": ["2"], "1": [], "2": [], "3": []}
    assert pos["phase"] == "play"
    assert (pos["turn"], pos["dealer"], pos["round"]) == (0, 3, 1)
    assert pos["folded"] == []
    assert pos["exchange"] == {}
    assert pos["discard"] == []
    assert pos["left"] == []
    assert pos["seven"] is None
    assert pos["winner"] is None
    assert len(pos["draw"]) == 109


def test_dog_n_3_6_pawn_lists_and_hands_are_sorted() -> None:
    pos = dog.to_position(
        dog.from_position(
            position(
                pawns={"0": ["k0", "h0.2", "r40", "r5"], "1": ["h1.1", "r16*"]},
                hands={"0": ["X", "K", "10", "A", "2"]},
                turn=0,
            )
        )
    )
    assert pos["pawns"]["0"] == ["r5", "r40", "h0.2", "k0"]
    assert pos["pawns"]["1"] == ["r16*", "h1.1", "k1", "k1"]
    assert pos["hands"]["0"] == ["A", "2", "10", "K", "X"]


def test_dog_n_3_5_omitted_draw_is_the_unaccounted_cards_shuffled() -> None:
    state = dog.from_position(position(pawns={"0": ["r10"]}, hands={"0": ["2"]}, turn=0))
    rest = deck_in_card_order()
    rest.remove("2")
    shuffled, new_seed = seeded_shuffle(rest, 0)
    pos = dog.to_position(state)
    assert pos["draw"] == shuffled
    assert pos["seed"] == new_seed


def test_dog_n_3_5_integer_draw_puts_the_rest_under_the_discard_pile() -> None:
    state = dog.from_position(
        position(hands={"0": ["2"]}, discard=["Q", "K"], draw=30, seed=5, turn=0)
    )
    rest = deck_in_card_order()
    for token in ("2", "Q", "K"):
        rest.remove(token)
    shuffled, _ = seeded_shuffle(rest, 5)
    pos = dog.to_position(state)
    assert pos["draw"] == shuffled[:30]
    assert pos["discard"][-2:] == ["Q", "K"]
    assert Counter(pos["discard"][:-2]) == Counter(shuffled[30:])
    assert all_cards(pos) == DECK


def test_dog_n_3_6_round_trip_of_normal_form() -> None:
    data = position(
        options={"preset": "braendi"},
        pawns={"0": ["r0*", "h0.3"], "1": ["r20"], "2": ["r33"], "3": ["h3.4", "r47"]},
        hands={"0": ["7", "X"], "1": ["J"], "2": ["A", "A"], "3": []},
        folded=[3],
        discard=["5", "6"],
        turn=1,
        dealer=2,
        round=4,
        left=[2],
        seed=17,
    )
    first = dog.to_position(dog.from_position(data))
    assert dog.to_position(dog.from_position(copy.deepcopy(first))) == first


def test_dog_n_3_6_round_trip_of_a_pending_seven() -> None:
    data = position(
        pawns={"0": ["r0", "r23"]},
        hands={"0": ["2"], "1": ["3"]},
        seven={"card": "7", "colour": 0, "left": 3, "moved": ["r23"]},
        turn=0,
    )
    first = dog.to_position(dog.from_position(data))
    assert first["seven"] == {"card": "7", "colour": 0, "left": 3, "moved": ["r23"]}
    assert dog.to_position(dog.from_position(first)) == first


def test_dog_n_3_6_round_trip_during_an_exchange() -> None:
    data = position(
        phase="exchange",
        hands={"0": ["A", "2"], "1": ["3"], "2": ["5"], "3": ["8"]},
        exchange={"0": "2"},
    )
    first = dog.to_position(dog.from_position(data))
    assert first["exchange"] == {"0": "2"}
    assert dog.to_position(dog.from_position(first)) == first


def test_dog_n_3_1_loading_does_not_change_the_input() -> None:
    data = position(pawns={"0": ["r10"]}, hands={"0": ["2"]}, turn=0)
    kept = copy.deepcopy(data)
    dog.from_position(data)
    assert data == kept


def test_dog_n_3_1_six_player_teams_default() -> None:
    pos = dog.to_position(dog.from_position(position(players=6, hands={"0": ["2"]})))
    assert pos["teams"] == [[0, 3], [1, 4], [2, 5]]
    assert pos["seats"] == [0, 1, 2, 3, 4, 5]
    assert pos["pawns"]["5"] == ["k5"] * 4


NINE_ACES = ["A"] * 9

INVALID: list[tuple[str, dict[str, Any]]] = [
    ("unknown field", {"colour": "red"}),
    ("tock field hand", {"hand": 1}),
    ("tock field banned", {"banned": False}),
    ("five players", {"players": 5}),
    ("unknown preset", {"options": {"preset": "bga"}}),
    ("unknown option", {"options": {"seven": "split"}}),
    ("seats not the default", {"seats": [0, 1, 2]}),
    ("teams not the default", {"teams": [[0, 1], [2, 3]]}),
    ("seat key not in use", {"hands": {"4": ["2"]}}),
    ("five pawns", {"pawns": {"0": ["r1", "r2", "r3", "r4", "r5"]}}),
    ("ring field off the board", {"pawns": {"0": ["r64"]}}),
    ("another seat's kennel", {"pawns": {"0": ["k1"]}}),
    ("another seat's home", {"pawns": {"0": ["h1.1"]}}),
    ("home slot 5", {"pawns": {"0": ["h0.5"]}}),
    ("two pawns on one ring field", {"pawns": {"0": ["r10"], "1": ["r10"]}}),
    ("two pawns in one home slot", {"pawns": {"0": ["h0.2", "h0.2"]}}),
    ("guard mark off the start field", {"pawns": {"0": ["r10*"]}}),
    ("guard mark on another seat's start", {"pawns": {"0": ["r16*"]}}),
    ("bad token", {"hands": {"0": ["11"]}}),
    ("lower-case token", {"hands": {"0": ["q"]}}),
    ("nine aces", {"hands": {"0": NINE_ACES[:5], "1": NINE_ACES[5:]}}),
    ("seven jokers", {"hands": {"0": ["X"] * 7}}),
    ("draw list leaves cards unaccounted", {"draw": ["A"]}),
    ("draw larger than the unaccounted cards", {"draw": 111}),
    ("turn not a seat", {"turn": 4}),
    ("dealer not a seat", {"dealer": 7}),
    ("folded seat holding cards", {"hands": {"0": ["2"]}, "folded": [0]}),
    ("exchange outside the exchange phase", {"hands": {"0": ["2"]}, "exchange": {"0": "2"}}),
    (
        "exchange pick not in hand",
        {"phase": "exchange", "hands": {"0": ["2"], "1": ["3"]}, "exchange": {"0": "5"}},
    ),
    ("finished without winner", {"phase": "finished"}),
    (
        "winning team while playing",
        {
            "pawns": {"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "2": ["h2.1", "h2.2", "h2.3", "h2.4"]},
            "hands": {"1": ["2"]},
        },
    ),
    (
        "finished with a winner that is not home",
        {"phase": "finished", "winner": [0, 2]},
    ),
    (
        "pending seven with 7 steps left",
        {
            "pawns": {"0": ["r10"]},
            "hands": {"0": ["2"]},
            "seven": {"card": "7", "colour": 0, "left": 7, "moved": []},
            "turn": 0,
        },
    ),
    (
        "pending seven of an opponent colour",
        {
            "pawns": {"0": ["r10"], "1": ["r20"]},
            "hands": {"0": ["2"]},
            "seven": {"card": "7", "colour": 1, "left": 3, "moved": []},
            "turn": 0,
        },
    ),
    (
        "pending seven moved entry without a pawn",
        {
            "pawns": {"0": ["r10"]},
            "hands": {"0": ["2"]},
            "seven": {"card": "7", "colour": 0, "left": 3, "moved": ["r12"]},
            "turn": 0,
        },
    ),
    ("negative seed", {"seed": -1}),
    ("tock game", {"game": "tock"}),
]


@pytest.mark.parametrize(("case", "fields"), INVALID, ids=[case for case, _ in INVALID])
def test_dog_n_3_4_invalid_positions_are_rejected(case: str, fields: dict[str, Any]) -> None:
    data = position(**fields)
    with pytest.raises(InvalidPosition) as info:
        dog.from_position(data)
    assert str(info.value), case


def test_dog_n_3_4_rule_2_explicit_null_teams_is_refused() -> None:
    # Dog has exactly its default teams; ``null`` (no teams) is another layout, not "default".
    for players in (4, 6):
        with pytest.raises(InvalidPosition, match=r"N-3\.4 rule 2"):
            dog.from_position(position(players=players, teams=None, hands={"0": ["2"]}))
    # Leaving the field out still means the default.
    assert dog.to_position(dog.from_position(position(hands={"0": ["2"]})))["teams"] == [
        [0, 2],
        [1, 3],
    ]


def test_dog_n_3_4_six_player_board_allows_r95() -> None:
    pos = dog.to_position(
        dog.from_position(position(players=6, pawns={"0": ["r95"]}, hands={"0": ["2"]}))
    )
    assert pos["pawns"]["0"][0] == "r95"


def test_dog_n_3_4_team_order_does_not_matter() -> None:
    pos = dog.to_position(
        dog.from_position(position(teams=[[3, 1], [2, 0]], hands={"0": ["2"]}, turn=0))
    )
    assert pos["teams"] == [[0, 2], [1, 3]]


def test_dog_n_3_1_turn_defaults_to_the_seat_after_the_dealer() -> None:
    hands = {str(seat): ["2"] for seat in range(4)}
    pos = dog.to_position(dog.from_position(position(dealer=1, hands=hands)))
    assert pos["turn"] == 2
    pos = dog.to_position(dog.from_position(position(turn=3, hands=hands)))
    assert pos["dealer"] == 2


def test_dog_n_3_4_finished_position_with_its_winners_home_is_valid() -> None:
    data = position(
        phase="finished",
        winner=[1, 3],
        pawns={"1": ["h1.1", "h1.2", "h1.3", "h1.4"], "3": ["h3.1", "h3.2", "h3.3", "h3.4"]},
        hands={"0": ["2"]},
    )
    state = dog.from_position(data)
    outcome = dog.outcome(state)
    assert outcome is not None
    assert sorted(outcome.winners) == [1, 3]
    assert dog.legal_moves(state) == []
    first = dog.to_position(state)
    assert dog.to_position(dog.from_position(first)) == first
