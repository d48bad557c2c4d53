"""Random legal play-outs (hypothesis): invariants of every position along the way."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import dog, tock

MAX_ACTIONS = 30000


def _cards(pos: dict[str, Any]) -> Counter[str]:
    cards: Counter[str] = Counter(pos["draw"] + pos["discard"])
    for hand in pos["hands"].values():
        cards.update(hand)
    if pos["seven"]:
        cards[pos["seven"]["card"]] += 1
    return cards


def _play_out(game: Any, players: int, options: dict[str, Any], seed: int) -> None:
    state = game.new_game(players, options, seed)
    deck = _cards(game.to_position(state))
    rng = random.Random(seed)
    seats = state.cfg.seats
    for _ in range(MAX_ACTIONS):
        if game.outcome(state) is not None:
            break
        owing = sorted(game.seats_to_act(state))
        seat = rng.choice(owing)
        roll = rng.random()
        if roll < 0.02:
            # At most one seat leaves, so that the game can still end (C-13.1).
            if roll < 0.002 and not state.left:
                state = game.leave(state, seat)
            else:
                state = game.auto_action(state, seat)
            continue
        move = rng.choice(game.legal_moves(state, seat))
        if move.kind == "play" and move.rank == "7" and roll < 0.3:
            move = rng.choice(game.seven_starts(state, move.card))
        before = state
        state = game.apply(state, move)
        pos = game.to_position(state)
        assert _cards(pos) == deck
        assert all(len(pos["pawns"][str(s)]) == 4 for s in seats)
        if before.phase == "play" and state.phase == "play" and state.seven is None:
            if state.number == before.number and any(e.kind == "deal" for e in state.events):
                continue
            if not any(e.kind == "deal" for e in state.events):
                # C-10.2: the turn goes to the next seat holding cards, never the actor again
                # while another seat still holds cards.
                nxt = before.cfg.next_seat(before.turn)
                while not state.hands[nxt] or nxt in state.folded:
                    nxt = before.cfg.next_seat(nxt)
                assert state.turn == nxt
    assert game.outcome(state) is not None, "the game did not end"
    winners = game.outcome(state).winners
    assert all(state.is_complete(s) for s in winners)


TOCK_SETUPS = st.sampled_from(
    [
        (2, {}),
        (3, {"seven": "single"}),
        (4, {}),
        (4, {"game_type": "2v2", "variant5": True}),
        (5, {"quick_start": True}),
        (6, {"game_type": "2v2v2"}),
        (6, {"variant5": True, "seven": "single"}),
    ]
)


@settings(max_examples=8, deadline=None)
@given(setup=TOCK_SETUPS, seed=st.integers(0, 2**32))
def test_tock_random_play_outs_keep_the_invariants(
    setup: tuple[int, dict[str, Any]], seed: int
) -> None:
    players, options = setup
    _play_out(tock, players, options, seed)


@settings(max_examples=3, deadline=None)
@given(
    players=st.sampled_from([4, 6]),
    ruleset=st.sampled_from(["bsw", "braendi"]),
    seed=st.integers(0, 2**32),
)
def test_dog_random_play_outs_keep_the_invariants(players: int, ruleset: str, seed: int) -> None:
    _play_out(dog, players, {"ruleset": ruleset}, seed)
