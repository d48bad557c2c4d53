"""Carcassonne engine speed: legal placements per turn and random games per second.

Run ``python -m bench.engine_carcassonne [--games N]``. Prints figures; asserts nothing.
Targets (brief): legal placements of one tile ≤ 0.15 ms on average; ≥ 100 random 2-player
base games per second; all three expansions within a factor 1.5 of the base game.

All figures are CPU time of this process (``time.process_time``), so that other jobs on a
shared machine disturb them less. The expansions' pile holds 126 tiles against 72: a game
within 1.5 times the base game needs a tile to cost at most 1.5 × 72 / 126 ≈ 0.86 times a
base tile, which is why the per-tile ratio is printed too.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Mapping
from typing import Any

import engine.carcassonne as carc
from engine.carcassonne import rules

ALL_EXPANSIONS: dict[str, Any] = {
    "river": True,
    "inns_cathedrals": "full",
    "traders_builders": "full",
}


def random_game(options: Mapping[str, Any], seed: int, players: int = 2) -> carc.State:
    """Play one game with uniformly random placements and figure actions."""
    rng = random.Random(seed)
    state = carc.new_game(players, options, seed)
    while carc.outcome(state) is None:
        moves = carc.legal_moves(state)
        state = carc.apply(state, moves[rng.randrange(len(moves))])
    return state


def time_placements(options: Mapping[str, Any], games: int) -> tuple[float, int]:
    """Mean seconds of computing the legal placements of one tile, over all turns of games.

    The turns are collected first and timed in one run, so that the clock's own cost is not
    counted in every turn.
    """
    turns: list[carc.State] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = carc.new_game(2, options, seed)
        while carc.outcome(state) is None:
            if state.phase == "place":
                turns.append(state)
            moves = carc.legal_moves(state)
            state = carc.apply(state, moves[rng.randrange(len(moves))])
    t0 = time.process_time()
    for state in turns:
        state.placements_cache = None  # measure the computation, not the cache
        rules.placements(state)
    return (time.process_time() - t0) / max(len(turns), 1), len(turns)


def games_per_second(options: Mapping[str, Any], games: int) -> tuple[float, float]:
    """Random 2-player games per second, and milliseconds per placed tile.

    CPU time of this process, so that other jobs on a shared machine disturb it less.
    """
    tiles = 0
    t0 = time.process_time()
    for seed in range(games):
        tiles += len(random_game(options, seed).tiles) - 1
    elapsed = time.process_time() - t0
    return games / elapsed, 1000 * elapsed / tiles


def main(argv: list[str] | None = None) -> None:
    """Print the benchmark figures (``argv`` None: defaults, as the bench dispatcher calls it)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100, help="games per measurement")
    args = parser.parse_args(argv if argv is not None else [])
    mean, turns = time_placements({}, max(args.games // 5, 1))
    print(f"legal placements, base game: {mean * 1000:.4f} ms mean over {turns} turns")
    mean_x, turns_x = time_placements(ALL_EXPANSIONS, max(args.games // 5, 1))
    print(f"legal placements, all expansions: {mean_x * 1000:.4f} ms mean over {turns_x} turns")
    base, base_turn = games_per_second({}, args.games)
    print(f"random 2-player base games: {base:.1f} games/s ({base_turn:.3f} ms per tile)")
    full, full_turn = games_per_second(ALL_EXPANSIONS, args.games)
    print(
        f"random 2-player games, all three expansions: {full:.1f} games/s "
        f"({full_turn:.3f} ms per tile)"
    )
    print(
        f"expansions slow-down: {base / full:.2f} per game (target ≤ 1.5; the pile holds 1.75 "
        f"times as many tiles), {full_turn / base_turn:.2f} per tile (≤ 0.86 would meet it)"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
