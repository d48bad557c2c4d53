"""Positions (N-3), randomness (N-4), notation (N-5, N-6), views and bad input, on Tock."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import IllegalMove, InvalidPosition, tock
from tests.engine.test_tock_helpers import legal, load

# --- N-3 positions ------------------------------------------------------------------------


def test_n_3_7_minimal_position_and_next_deal() -> None:
    state = load(players=4, pawns={"0": ["r10", "r20", "k0", "k0"]}, hands={"0": ["7"]}, turn=0)
    pos = tock.to_position(state)
    assert pos["dealer"] == 3
    assert pos["hand"] == 1
    assert pos["teams"] is None
    assert len(pos["draw"]) == 51
    after = tock.to_position(tock.apply(state, tock.legal_moves(state)[0]))
    assert after["hand"] == 2
    assert after["dealer"] == 0
    assert after["turn"] == 1


def test_n_3_6_normal_form_round_trips_exactly() -> None:
    state = tock.new_game(4, {"game_type": "2v2", "variant5": True}, 77)
    for _ in range(40):
        pos = tock.to_position(state)
        again = tock.to_position(tock.from_position(json.loads(json.dumps(pos))))
        assert again == pos
        seat = min(tock.seats_to_act(state))
        state = tock.apply(state, tock.legal_moves(state, seat)[-1])
    pos = tock.to_position(state)
    assert set(pos) == {
        "game", "options", "players", "seats", "teams", "pawns", "hands", "phase", "turn",
        "dealer", "hand", "deal", "banned", "exchange", "draw", "discard", "left", "seven",
        "winner", "seed",
    }  # fmt: skip


def test_tock_counts_the_deals_of_the_whole_game_across_deck_cycles() -> None:
    """``hand`` restarts with every deck cycle (T-4.2); ``deal`` counts on (#36)."""
    state = tock.new_game(2, {}, 5)
    seen: list[tuple[int, int]] = []
    while tock.outcome(state) is None and len(seen) < 9:
        view = tock.view(state, None)
        pair = (view["deal"], view["hand_number"])
        if not seen or seen[-1] != pair:
            seen.append(pair)
        seat = min(tock.seats_to_act(state))
        state = tock.apply(state, tock.legal_moves(state, seat)[0])
    assert [deal for deal, _ in seen] == list(range(1, len(seen) + 1))
    assert [hand for _, hand in seen][:8] == [1, 2, 3, 4, 5, 6, 1, 2], "a cycle of 6 hands"
    assert tock.view(state, None)["cycle_hands"] == 6
    again = tock.to_position(tock.from_position(tock.to_position(state)))
    assert again["deal"] == tock.to_position(state)["deal"]
    old = tock.to_position(state)
    del old["deal"]
    assert tock.to_position(tock.from_position(old))["deal"] == old["hand"], "default: hand"


def test_n_3_6_pending_seven_round_trips() -> None:
    state = load(pawns={"0": ["r10", "r40"]}, hands={"0": ["7"]}, turn=0)
    pending = tock.apply(state, "7:r10-r12")
    pos = tock.to_position(pending)
    reloaded = tock.from_position(pos)
    assert tock.to_position(reloaded) == pos
    assert legal(reloaded) == legal(pending)


INVALID: list[tuple[str, dict[str, Any]]] = [
    ("rule 1 players", {"players": 7}),
    ("rule 1 other game field", {"round": 2}),
    ("rule 1 unknown field", {"colour": 1}),
    ("rule 1 options", {"options": {"seven": "twice"}}),
    ("rule 2 teams", {"players": 3, "teams": [[0, 2], [1, 3]]}),
    ("rule 3 seat key", {"players": 2, "hands": {"1": ["A"]}}),
    ("rule 4 five pawns", {"pawns": {"0": ["r1", "r2", "r3", "r4", "r5"]}}),
    ("rule 5 no such field", {"pawns": {"0": ["r72"]}}),
    ("rule 5 other home", {"pawns": {"0": ["h1.1"]}}),
    ("rule 6 two pawns", {"pawns": {"0": ["r5"], "1": ["r5"]}}),
    ("rule 7 star", {"pawns": {"0": ["r18*"]}}),
    ("rule 8 joker", {"hands": {"0": ["X"]}}),
    ("rule 9 too many", {"hands": {"0": ["A", "A", "A"], "1": ["A", "A"]}}),
    ("rule 9 draw list", {"hands": {"0": ["A"]}, "draw": ["2"]}),
    ("rule 10 turn", {"players": 2, "turn": 1}),
    ("rule 11 banned", {"phase": "finished", "banned": True}),
    ("rule 13 exchange", {"hands": {"0": ["A"]}, "exchange": {"0": "A"}}),
    ("rule 14 ffa exchange", {"phase": "exchange", "hands": {"0": ["A"]}}),
    ("rule 15 finished", {"phase": "finished", "winner": [0]}),
    ("rule 15 complete side", {"pawns": {"0": ["h0.1", "h0.2", "h0.3", "h0.4"]}}),
    ("rule 16 seven", {"seven": {"card": "7", "colour": 0, "left": 7, "moved": []}}),
]


@pytest.mark.parametrize(("rule", "fields"), INVALID, ids=[r for r, _ in INVALID])
def test_n_3_4_invalid_positions_are_rejected(rule: str, fields: dict[str, Any]) -> None:
    with pytest.raises(InvalidPosition):
        tock.from_position({"game": "tock", "hands": {"0": ["2"]}, **fields})


def test_n_3_5_draw_count_puts_the_rest_under_the_discard_pile() -> None:
    pos = tock.to_position(load(hands={"0": ["A"]}, discard=["K"], draw=10, turn=0))
    assert len(pos["draw"]) == 10
    assert len(pos["discard"]) == 52 - 1 - 10
    assert pos["discard"][-1] == "K"


# --- N-4 randomness ----------------------------------------------------------------------


def test_n_4_1_seed_is_stored_and_advanced() -> None:
    a = tock.to_position(tock.new_game(4, {}, 5))
    b = tock.to_position(tock.new_game(4, {}, 5))
    assert a == b
    assert a["seed"] != 5


# --- N-5 / N-6 notation --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("K:E0", "K:E"),
        ("J:r31<>r30", "J:N"),
        ("7:r11-r12,r12-r18", "7:r11-r18"),
    ],
)
def test_n_6_6_non_canonical_spellings(text: str, canonical: str) -> None:
    state = load(pawns={"0": ["r30", "r31"], "1": ["r40"]}, hands={"0": ["K", "J"]}, turn=0)
    if text.startswith("7"):
        state = load(pawns={"0": ["r10", "r11"]}, hands={"0": ["7"]}, turn=0)
    assert str(tock.parse_move(state, text)) == canonical


def test_n_5_2_n_6_6_jack_swap_with_operands_reversed_is_refused() -> None:
    # N-5.2: the first location holds the moved colour's pawn. Written the other way round
    # the string describes no legal move, and N-6.6 rejects it (no silent flip).
    state = load(pawns={"0": ["r30"], "1": ["r40"]}, hands={"0": ["J"]}, turn=0)
    assert str(tock.parse_move(state, "J:r30<>r40")) == "J:r30<>r40"
    before = tock.to_position(state)
    with pytest.raises(IllegalMove):
        tock.parse_move(state, "J:r40<>r30")
    with pytest.raises(IllegalMove):
        tock.apply(state, "J:r40<>r30")
    assert tock.to_position(state) == before


def test_n_6_6_parse_format_round_trip_over_random_positions() -> None:
    state = tock.new_game(5, {}, 3)
    for _ in range(60):
        moves = tock.legal_moves(state)
        for move in moves:
            assert tock.parse_move(state, str(move)) == move
        state = tock.apply(state, moves[len(moves) // 2])


MALFORMED = ["", "5", "5:", "5:r10-r15 ", "5:r010-r15", "5:R10-r15", "Z:r10-r15", "7:r10-", "G:5"]


@pytest.mark.parametrize("text", MALFORMED)
def test_bad_input_malformed_text(text: str) -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["5", "7"]}, turn=0)
    before = tock.to_position(state)
    with pytest.raises(IllegalMove) as info:
        tock.apply(state, text)
    assert str(info.value)
    assert tock.to_position(state) == before


def test_bad_input_wrong_seat_card_not_in_hand_illegal_target() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["5"], "1": ["2"]}, turn=0)
    before = tock.to_position(state)
    with pytest.raises(IllegalMove, match="turn"):
        tock.apply(state, "5:r10-r15", seat=1)
    with pytest.raises(IllegalMove, match="not in your hand"):
        tock.apply(state, "9:r10-r19")
    with pytest.raises(IllegalMove):
        tock.apply(state, "5:r10-r16")
    with pytest.raises(IllegalMove):
        tock.apply(state, "5:D")
    assert tock.to_position(state) == before


def test_bad_input_pending_seven_refuses_other_moves() -> None:
    state = tock.apply(load(pawns={"0": ["r10"]}, hands={"0": ["7", "5"]}, turn=0), "7:r10-r12")
    with pytest.raises(IllegalMove, match="pending"):
        tock.apply(state, "5:r12-r17")
    with pytest.raises(IllegalMove):
        tock.apply(state, "r12-r18")


# --- views and sampling ---------------------------------------------------------------------


def test_view_hides_other_hands_draw_order_and_picks() -> None:
    state = tock.new_game(4, {"game_type": "2v2"}, 12)
    state = tock.apply(state, tock.legal_moves(state, 1)[0])
    view = tock.view(state, 0)
    assert view["game"] == "tock"
    assert view["viewer"] == 0
    assert view["hand"] == list(state.hands[0])
    assert view["hand_sizes"] == {"0": 5, "1": 5, "2": 5, "3": 5}
    assert isinstance(view["draw"], int)
    assert "hands" not in view
    assert "seed" not in view
    assert "exchange" not in view
    assert view["exchanged"] == [1]
    assert view["my_pick"] is None
    assert view["to_act"] == [0, 2, 3]
    assert view["board"] == {"ring": 72, "per_seat": 18}
    spectator = tock.view(state, None)
    assert "hand" not in spectator
    text = json.dumps(spectator)
    assert tock.view(state, 1)["my_pick"] is not None
    assert "pick_made" not in text


def test_sample_state_keeps_the_viewers_moves() -> None:
    state = tock.new_game(4, {}, 31)
    for _ in range(7):
        state = tock.apply(state, tock.legal_moves(state)[0])
    seat = state.turn
    view = tock.view(state, seat)
    for s in range(5):
        sample = tock.sample_state(view, s)
        assert list(sample.hands[seat]) == view["hand"]
        assert {str(m) for m in tock.legal_moves(sample)} == legal(state)
        assert tock.view(sample, seat)["pawns"] == view["pawns"]
