"""The engine caches legal moves (and what the board decides) on each immutable state.

A move taken from one state's legal list is applied without parsing again only on that
state; anywhere else it is checked like its text. Cached data never leaks between states.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import dog, tock
from engine.protocol import IllegalMove


def _state(module: Any, pawns: dict[str, list[str]], hands: dict[str, list[str]]) -> Any:
    game = "dog" if module is dog else "tock"
    return module.from_position({"game": game, "pawns": pawns, "hands": hands, "turn": 0})


def test_a_move_of_one_state_is_refused_on_a_state_where_it_is_illegal() -> None:
    here = _state(tock, {"0": ["r14"]}, {"0": ["5"], "1": ["2"]})
    move = next(m for m in tock.legal_moves(here) if str(m) == "5:r14-r19")
    # Blue's guarded pawn on its start field r18 blocks the walk (C-4.2).
    blocked = _state(tock, {"0": ["r14"], "1": ["r18*"]}, {"0": ["5"], "1": ["2"]})
    assert "5:r14-r19" not in {str(m) for m in tock.legal_moves(blocked)}
    with pytest.raises(IllegalMove):
        tock.apply(blocked, move)
    gone = _state(tock, {"0": ["r11"]}, {"0": ["5"], "1": ["2"]})
    with pytest.raises(IllegalMove):
        tock.apply(gone, move)  # no pawn on r14 there
    no_card = _state(tock, {"0": ["r14"]}, {"0": ["6"], "1": ["2"]})
    with pytest.raises(IllegalMove):
        tock.apply(no_card, move)  # no 5 in hand there
    blue_turn = tock.from_position(
        {"game": "tock", "pawns": {"0": ["r14"]}, "hands": {"0": ["5"], "1": ["2"]}, "turn": 1}
    )
    with pytest.raises(IllegalMove):
        tock.apply(blue_turn, move)  # not Red's turn there
    assert tock.to_position(blocked)["pawns"]["0"][0] == "r14"
    assert str(tock.apply(here, move).events[0].data["move"]) == "5:r14-r19"


def test_a_move_of_one_state_applies_elsewhere_like_its_text() -> None:
    here = _state(dog, {"0": ["r3", "r40"]}, {"0": ["7", "2"], "1": ["3"]})
    there = _state(dog, {"0": ["r3", "r40"], "1": ["r5"]}, {"0": ["7", "Q"], "1": ["3"]})
    for move in dog.legal_moves(here):
        if str(move) in {str(m) for m in dog.legal_moves(there)}:
            by_move = dog.apply(there, move)
            by_text = dog.apply(there, str(move))
            assert dog.to_position(by_move) == dog.to_position(by_text)
            assert by_move.events == by_text.events
        else:
            with pytest.raises(IllegalMove):
                dog.apply(there, move)


@pytest.mark.parametrize("module", [tock, dog])
def test_cached_legal_moves_match_a_fresh_copy_along_a_game(module: Any) -> None:
    """Every state's (cached) legal moves equal those of the same position loaded anew."""
    rng = random.Random(11)
    state = module.new_game(4, {}, 11)
    for _ in range(300):
        if module.outcome(state) is not None:
            break
        seat = min(module.seats_to_act(state))
        moves = module.legal_moves(state, seat)
        fresh = module.from_position(module.to_position(state))
        assert [str(m) for m in module.legal_moves(fresh, seat)] == [str(m) for m in moves]
        state = module.apply(state, rng.choice(moves))
