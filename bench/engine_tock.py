"""Tock engine benchmark: ``python -m bench.engine tock``.

Also holds the measurements shared with ``bench.engine_dog`` (figures, never asserts).
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from engine import tock
from engine.race.api import RaceGame


def _fresh(game: RaceGame, state: Any) -> Any:
    """The same state without its memoized legal moves."""
    return game.from_position(game.to_position(state))


def random_positions(game: RaceGame, count: int, seed: int = 1) -> list[Any]:
    """Positions met in random 4-player games (sampled along the way)."""
    rng = random.Random(seed)
    found: list[Any] = []
    game_seed = seed
    while len(found) < count:
        state = game.new_game(4, {}, game_seed)
        game_seed += 1
        while game.outcome(state) is None and len(found) < count:
            seat = min(game.seats_to_act(state))
            if state.phase == "play" and rng.random() < 0.3:
                found.append(_fresh(game, state))
            state = game.apply(state, rng.choice(game.legal_moves(state, seat)))
    return found


def time_legal_moves(game: RaceGame, states: list[Any], repeat: int = 3) -> tuple[float, float]:
    """Mean and max CPU seconds of ``legal_moves`` on fresh states (best of ``repeat``)."""
    times = []
    for state in states:
        position = game.to_position(state)
        best = float("inf")
        for _ in range(repeat):
            fresh = game.from_position(position)
            start = time.process_time()
            game.legal_moves(fresh)
            best = min(best, time.process_time() - start)
        times.append(best)
    return statistics.fmean(times), max(times)


def games_per_second(game: RaceGame, games: int, seed: int = 100) -> tuple[float, float, float]:
    """Complete random 4-player games per CPU second and per wall second, actions per game.

    A game: from ``new_game``, every seat plays a uniformly random legal move (exchange
    picks included) until ``outcome`` is not None. Fixed seeds, so every run plays the
    same games; CPU time is the figure to compare on a shared machine.
    """
    # Warm up outside the timing: the board tables and the move tables that fill lazily
    # (they are built once per table configuration and then shared by every game).
    for n in range(2):
        rng = random.Random(seed - 1 - n)
        state = game.new_game(4, {}, seed - 1 - n)
        while game.outcome(state) is None:
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    wall = time.perf_counter()
    start = time.process_time()
    actions = 0
    for n in range(games):
        rng = random.Random(seed + n)
        state = game.new_game(4, {}, seed + n)
        while game.outcome(state) is None:
            seat = min(game.seats_to_act(state))
            state = game.apply(state, rng.choice(game.legal_moves(state, seat)))
            actions += 1
    elapsed = time.process_time() - start
    wall = time.perf_counter() - wall
    return games / elapsed, games / wall, actions / games


def report(
    game: RaceGame, worst: list[tuple[str, dict[str, Any]]], targets: dict[str, str]
) -> None:
    """Print the figures of one game."""
    states = random_positions(game, 1500)
    mean, peak = time_legal_moves(game, states)
    print(f"{game.name}: legal_moves over {len(states)} random positions")
    print(f"  mean {mean * 1e3:.3f} ms, max {peak * 1e3:.3f} ms   (target: {targets['mean']})")
    for label, position in worst:
        state = game.from_position(position)
        _, peak7 = time_legal_moves(game, [state], repeat=5)
        count = len(game.legal_moves(state))
        print(
            f"  worst 7 '{label}': {peak7 * 1e3:.2f} ms, {count} moves"
            f"   (target: {targets['seven']})"
        )
    rate, wall_rate, actions = games_per_second(game, 20)
    print(
        f"  random 4-player games: {rate:.1f} games/s on one core (CPU time; wall clock"
        f" {wall_rate:.1f}), {actions:.0f} actions/game, {1e6 / (rate * actions):.0f} µs/action"
        f"   (target: {targets['games']})"
    )


#: Hard split-7 positions: four free own pawns, some near the junction (branch choices),
#: with opponents to burn in between.
WORST = [
    (
        "4 own pawns spread, opponents between",
        {
            "game": "tock",
            "pawns": {"0": ["r20", "r24", "r28", "r32"], "1": ["r22", "r26", "r30"]},
            "hands": {"0": ["7"]},
            "turn": 0,
        },
    ),
    (
        "4 own pawns at the junction",
        {
            "game": "tock",
            "pawns": {"0": ["r63", "r65", "r67", "r69"], "1": ["r64", "r66"]},
            "hands": {"0": ["7", "7"]},
            "turn": 0,
        },
    ),
]


def main() -> None:
    """Print the Tock figures."""
    report(
        tock.GAME,
        WORST,
        {"mean": "≤ 1 ms", "seven": "≤ 10 ms", "games": "≥ 50 games/s"},
    )
