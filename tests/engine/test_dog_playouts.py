"""Random Dog games from ``new_game``: invariants that every reachable position must keep.

Each example plays one whole game with random legal actions (biased a little towards progress
so that games end quickly), sometimes entering a 7 segment by segment and sometimes with a
seat that leaves mid-game. After every action the position must account for all 110 cards
(D-1.1, D-4.2), hold 4 pawns per seat and never two pawns on one field; positions must
round-trip through to_position / from_position (N-3.6), and the game must end.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from engine import dog
from tests.engine.dog_helpers import DECK, all_cards, occupied_fields

# A failing play-out is reported as drawn (players, preset, seed): shrinking whole games would
# take minutes and would not make them any simpler to read.
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)

# Random play with the bias below ends in well under 2,000 actions; the bound is generous.
MAX_ACTIONS = 6000


def check_invariants(state: Any, players: int) -> dict[str, Any]:
    """Assert the invariants of one position and return it."""
    pos = dog.to_position(state)
    assert all_cards(pos) == DECK
    assert sorted(pos["pawns"]) == [str(seat) for seat in range(players)]
    for seat, pawns in pos["pawns"].items():
        assert len(pawns) == 4
        for loc in pawns:
            if loc.startswith(("k", "h")):
                assert loc[1:].split(".")[0] == seat
    fields = occupied_fields(pos)
    assert len(fields) == len(set(fields)), fields
    return pos


def choose(rng: random.Random, moves: list[Any]) -> Any:
    """A random move, preferring bring-outs and home moves most of the time."""
    progress = [m for m in moves if "-h" in str(m) or ":E" in str(m)]
    if progress and rng.random() < 0.7:
        return rng.choice(progress)
    return rng.choice(moves)


def play_seven_in_segments(state: Any, rng: random.Random) -> Any | None:
    """Start a 7 (or joker 7) with a random first segment and finish it segment by segment."""
    hand = dog.view(state, dog.to_position(state)["turn"]).get("hand", [])
    for card in ("7", "X"):
        if card not in hand:
            continue
        starts = dog.seven_starts(state, card)
        if not starts:
            continue
        state = dog.apply(state, rng.choice(starts))
        while dog.to_position(state)["seven"] is not None:
            segments = dog.legal_moves(state)
            assert segments, "a pending 7 always has an acceptable segment (C-8.7)"
            state = dog.apply(state, rng.choice(segments))
        return state
    return None


def play_game(players: int, preset: str, seed: int, leaver: int | None, leave_at: int) -> int:
    """Play one random game, checking invariants after every action; return its length."""
    rng = random.Random(seed)
    state = dog.new_game(players, {"ruleset": preset}, seed)
    draw_size = len(check_invariants(state, players)["draw"])
    reshuffled = False
    for step in range(MAX_ACTIONS):
        if dog.outcome(state) is not None:
            pos = dog.to_position(state)
            assert pos["phase"] == "finished"
            assert dog.legal_moves(state) == []
            # 4 players use up the pile in round 7, 6 players in round 5 (D-4.2).
            assert reshuffled or pos["round"] < 7
            return step
        if leaver is not None and step == leave_at:
            state = dog.leave(state, leaver)
            check_invariants(state, players)
        to_act = sorted(dog.seats_to_act(state))
        assert to_act, "a running game always has a seat to act"
        seat = rng.choice(to_act)
        pos = dog.to_position(state)
        if leaver is not None and seat == leaver and step > leave_at:
            state = dog.auto_action(state, seat)
        elif (
            pos["phase"] == "play"
            and rng.random() < 0.1
            and ((after := play_seven_in_segments(state, rng)) is not None)
        ):
            state = after
        else:
            moves = dog.legal_moves(state, seat)
            assert moves, f"seat {seat} owes a decision but has no legal move"
            move = choose(rng, moves)
            if pos["phase"] == "play":
                # In the exchange "G:c" names no seat, so only play moves round-trip alone.
                assert dog.parse_move(state, str(move)) == move
            state = dog.apply(state, move)
        pos = check_invariants(state, players)
        reshuffled = reshuffled or len(pos["draw"]) > draw_size
        draw_size = len(pos["draw"])
        if step % 5 == 0:
            assert dog.to_position(dog.from_position(pos)) == pos
    raise AssertionError(f"game not over after {MAX_ACTIONS} actions")


@settings(max_examples=10, deadline=None, phases=NO_SHRINK)
@given(
    players=st.sampled_from([4, 6]),
    preset=st.sampled_from(["bsw", "braendi"]),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_dog_playout_keeps_cards_pawns_and_fields_consistent(
    players: int, preset: str, seed: int
) -> None:
    length = play_game(players, preset, seed, leaver=None, leave_at=0)
    assert length > 0


@settings(max_examples=5, deadline=None, phases=NO_SHRINK)
@given(
    players=st.sampled_from([4, 6]),
    preset=st.sampled_from(["bsw", "braendi"]),
    seed=st.integers(min_value=0, max_value=2**32),
    leaver=st.integers(min_value=0, max_value=5),
    leave_at=st.integers(min_value=0, max_value=200),
)
def test_dog_playout_with_a_seat_that_leaves(
    players: int, preset: str, seed: int, leaver: int, leave_at: int
) -> None:
    play_game(players, preset, seed, leaver=leaver % players, leave_at=leave_at)


@settings(max_examples=10, deadline=None, phases=NO_SHRINK)
@given(players=st.sampled_from([4, 6]), seed=st.integers(min_value=0, max_value=2**32))
def test_dog_playout_views_hide_other_hands(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = dog.new_game(players, {}, seed)
    for _ in range(60):
        if dog.outcome(state) is not None:
            break
        pos = dog.to_position(state)
        for seat in range(players):
            view = dog.view(state, seat)
            assert "hands" not in view
            assert Counter(view["hand"]) == Counter(pos["hands"][str(seat)])
            assert view["hand_sizes"] == {s: len(h) for s, h in pos["hands"].items()}
            assert view["draw"] == len(pos["draw"])
            assert view["to_act"] == sorted(dog.seats_to_act(state))
        # Determinization: the seat to act gets the same choices on any sampled state.
        for seat in dog.seats_to_act(state):
            sampled = dog.sample_state(dog.view(state, seat), rng.randrange(2**32))
            expected = {str(m) for m in dog.legal_moves(state, seat)}
            assert {str(m) for m in dog.legal_moves(sampled, seat)} == expected
        seat = rng.choice(sorted(dog.seats_to_act(state)))
        state = dog.apply(state, rng.choice(dog.legal_moves(state, seat)))


def outcome_of(state: Any, move: Any) -> tuple[str, str]:
    """C-1.10: the card token that leaves the hand and the board after ``move``."""
    text = str(move)
    card = text.split(":", 1)[0]
    token = "X" if card.startswith("X=") else card
    pawns = dog.to_position(dog.apply(state, move))["pawns"]
    return token, repr(sorted(pawns.items()))


@settings(max_examples=8, deadline=None, phases=NO_SHRINK)
@given(
    players=st.sampled_from([4, 6]),
    preset=st.sampled_from(["bsw", "braendi"]),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_dog_c_9_4_one_entry_per_distinct_outcome_in_random_positions(
    players: int, preset: str, seed: int
) -> None:
    rng = random.Random(seed)
    state = dog.new_game(players, {"ruleset": preset}, seed)
    for step in range(400):
        if dog.outcome(state) is not None:
            break
        seat = rng.choice(sorted(dog.seats_to_act(state)))
        moves = dog.legal_moves(state, seat)
        texts = [str(m) for m in moves]
        assert len(texts) == len(set(texts))
        if dog.to_position(state)["phase"] == "play":
            # D-6: folding is the fallback only, never beside a card play.
            assert texts == ["F"] or "F" not in texts
            if step % 4 == 0 and texts != ["F"]:
                before = dog.to_position(state)
                outcomes = [outcome_of(state, m) for m in moves]
                assert len(outcomes) == len(set(outcomes)), texts
                # apply never changes its input.
                assert dog.to_position(state) == before
        state = dog.apply(state, choose(rng, moves))
