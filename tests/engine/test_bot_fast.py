"""The fast playout policies of the hard search play only moves from the engine's list."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine.carcassonne as carc
from engine import dog, tock
from engine.bots.fast import fast_choice, fast_move
from engine.carcassonne.notation import Turn

RACES = [
    (tock, 4, {"game_type": "2v2"}),
    (tock, 2, {"seven": "single"}),
    (tock, 3, {"quick_start": True}),
    (tock, 5, {"variant5": True}),
    (tock, 6, {"game_type": "2v2v2"}),
    (dog, 4, {}),
    (dog, 4, {"ruleset": "braendi"}),
    (dog, 6, {}),
]


@pytest.mark.parametrize(("game", "players", "options"), RACES)
def test_fast_race_moves_are_in_the_engines_legal_list(
    game: Any, players: int, options: dict[str, Any]
) -> None:
    """Whole games in which every seat plays the fast policy, or (one move in four, to
    reach other positions) a random legal move; each fast move is checked first."""
    rng = random.Random(players)
    checked = 0
    for seed in range(3):
        state = game.new_game(players, options, seed)
        for _ply in range(3000):
            if game.outcome(state) is not None:
                break
            seat = min(game.seats_to_act(state))
            legal = game.legal_moves(state, seat)
            move = fast_move(game.GAME, state, seat)
            assert move.text in {m.text for m in legal}, (game.to_position(state), move)
            checked += 1
            if rng.random() < 0.25:
                move = legal[rng.randrange(len(legal))]
            state = game.apply(state, move, seat)
        assert game.outcome(state) is not None
    assert checked > 300


def test_fast_carcassonne_turns_are_legal() -> None:
    rng = random.Random(5)
    checked = 0
    for seed, options in enumerate([{}, {"inns_cathedrals": "full", "traders_builders": "full"}]):
        state = carc.new_game(2, options, seed)
        while carc.outcome(state) is None:
            choice = fast_choice(state, state.to_act, rng)
            assert isinstance(choice, Turn)
            assert choice.placement in carc.legal_moves(state)
            placed = carc.apply(state, choice.placement)
            assert choice.action in carc.legal_moves(placed)
            state = carc.apply(state, choice)
            checked += 1
    assert checked > 100
