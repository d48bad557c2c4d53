"""Bot strength: seeded matches between bot levels, win rates with 95 % Wilson intervals.

Run ``python -m bench.bots [--games N] [--hard-games N] [--budget S] [--timing N]``
(``--only GAME``, ``--pairs hard-normal`` select what to play).
Matches: ``normal`` vs ``easy``, ``hard`` vs ``normal`` and ``hard`` vs ``easy`` in Tock
2v2, Dog with 4 players under both rulesets (``dog`` = bsw, ``dog-braendi``) and Carcassonne
with 2 players. The sides swap seats every game (race games: the first level plays seats 0
and 2 in even games, 1 and 3 in odd games; Carcassonne: seat 0, then seat 1). A Carcassonne
draw counts as half a win. Game ``i`` of every match-up uses seed ``1000 + i``, so runs
with the same options play the same games until the bots differ.
Move times are the CPU time of the thread that chose the move (``time.thread_time``): one
core's figure, not inflated by other processes on a shared machine; the search budget is
CPU time too (see :class:`engine.bots.common.Budget`). Printed: the median and 99th
percentile of a ``hard`` move during the matches (at ``--budget``) and, with ``--timing N``,
of N ``hard`` moves at the production budget of 1 s.
Targets (issue 22): hard beats normal in >= 65 % of games with the 95 % Wilson lower bound
>= 0.58 in every game, at <= 0.5 s per move at the median and <= 1.5 s at the 99th
percentile. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import get_game
from engine.bots import choose_move

#: (label, game, players, options)
GAMES: tuple[tuple[str, str, int, Mapping[str, Any]], ...] = (
    ("tock", "tock", 4, {"game_type": "2v2"}),
    ("dog", "dog", 4, {}),
    ("dog-braendi", "dog", 4, {"ruleset": "braendi"}),
    ("carcassonne", "carcassonne", 2, {}),
)
PAIRS: tuple[tuple[str, str], ...] = (("normal", "easy"), ("hard", "normal"), ("hard", "easy"))
MAX_ACTIONS = 5000


@dataclass
class Tally:
    """Results of one match-up and the times of its ``hard`` moves."""

    wins: float = 0.0
    games: int = 0
    hard_times: list[float] = field(default_factory=list)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_match(
    name: str,
    players: int,
    options: Mapping[str, Any],
    levels: Mapping[int, str],
    seed: int,
    budget: float,
    iterations: int | None,
    hard_times: list[float],
) -> tuple[int, ...]:
    """Play one seeded game with the given level per seat; return the winning seats."""
    game = get_game(name)
    state = game.new_game(players, options, seed)
    for ply in range(MAX_ACTIONS):
        result = game.outcome(state)
        if result is not None:
            return result.winners
        seat = min(game.seats_to_act(state))
        level = levels[seat]
        started = time.thread_time()
        text = choose_move(
            name,
            game.view(state, seat),
            level,
            seed=seed * 100_003 + ply,
            time_budget=budget,
            iterations=iterations,
        )
        if level == "hard":
            hard_times.append(time.thread_time() - started)
        if name == "carcassonne":
            state = game.apply(state, text)
        else:
            state = game.apply(state, text, seat)
    raise RuntimeError(f"{name} game {seed} did not end in {MAX_ACTIONS} actions")


def run_pair(
    name: str,
    players: int,
    options: Mapping[str, Any],
    first: str,
    second: str,
    games: int,
    budget: float,
    iterations: int | None,
    progress: bool = False,
    label: str = "",
    offset: int = 0,
) -> Tally:
    """``games`` games of ``first`` against ``second``, swapping seats every game.

    With ``progress``, prints the running tally after every game (long runs on a loaded
    machine can then be read, or stopped, half-way). ``offset`` starts at game ``offset``
    of the series (seed ``1000 + offset``), so that runs of games 0..59 and 60..99 together
    are the 100-game series.
    """
    tally = Tally()
    for i in range(offset, offset + games):
        mine = {0, 2} if players == 4 else {0}
        if i % 2:
            mine = {1, 3} if players == 4 else {1}
        levels = {s: (first if s in mine else second) for s in range(players)}
        winners = play_match(
            name, players, options, levels, 1000 + i, budget, iterations, tally.hard_times
        )
        ours = sum(1 for w in winners if w in mine)
        if ours:
            tally.wins += 1.0 if ours == len(winners) else 0.5
        tally.games += 1
        if progress:
            low, high = wilson(tally.wins, tally.games)
            print(
                f"  .. {label or name} {first} v {second}: {tally.wins:g}/{tally.games}"
                f"  [{low:.2f}, {high:.2f}]",
                flush=True,
            )
    return tally


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank; 0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def time_hard_moves(count: int, only: str | None = None) -> list[tuple[str, float, float]]:
    """Median and 99th percentile CPU seconds of ``hard`` moves at the 1 s budget, per game.

    With ``only``, just that game is timed.
    """
    out = []
    for label, name, players, options in GAMES:
        if only and label != only:
            continue
        game = get_game(name)
        state = game.new_game(players, options, 7)
        times: list[float] = []
        ply = 0
        while len(times) < count and game.outcome(state) is None:
            seat = min(game.seats_to_act(state))
            view = game.view(state, seat)
            if ply % 3 == 0:
                started = time.thread_time()
                choose_move(name, view, "hard", seed=ply)
                times.append(time.thread_time() - started)
            text = choose_move(name, view, "normal", seed=ply)
            if name == "carcassonne":
                state = game.apply(state, text)
            else:
                state = game.apply(state, text, seat)
            ply += 1
        out.append((label, percentile(times, 0.5), percentile(times, 0.99)))
    return out


def main(argv: list[str] | None = None) -> None:
    """Run the matches and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games of normal vs easy")
    parser.add_argument("--hard-games", type=int, default=6, help="games of each hard match")
    parser.add_argument("--budget", type=float, default=0.25, help="seconds per hard move")
    parser.add_argument("--iterations", type=int, default=None, help="cap on hard worlds")
    parser.add_argument("--timing", type=int, default=8, help="hard moves timed at 1 s")
    parser.add_argument("--progress", action="store_true", help="print after every game")
    parser.add_argument("--offset", type=int, default=0, help="first game of the series")
    parser.add_argument("--only", choices=[g[0] for g in GAMES], default=None)
    parser.add_argument(
        "--pairs",
        default=",".join(f"{a}-{b}" for a, b in PAIRS),
        help="match-ups to play, e.g. hard-normal,hard-easy",
    )
    args = parser.parse_args(argv)
    print(f"hard budget {args.budget} s (CPU) per move, iterations cap {args.iterations}")
    print(
        f"{'game':<12} {'match':<16} {'games':>5} {'win rate':>9}  95 % CI"
        "       hard move CPU s p50 / p99"
    )
    for label, name, players, options in GAMES:
        if args.only and label != args.only:
            continue
        for first, second in PAIRS:
            if f"{first}-{second}" not in args.pairs.split(","):
                continue
            games = args.games if first != "hard" else args.hard_games
            if games <= 0:
                continue
            started = time.perf_counter()
            tally = run_pair(
                name,
                players,
                options,
                first,
                second,
                games,
                args.budget,
                args.iterations,
                args.progress,
                label,
                args.offset,
            )
            low, high = wilson(tally.wins, tally.games)
            rate = tally.wins / tally.games
            times = tally.hard_times
            timing = (
                f"{percentile(times, 0.5):.3f} / {percentile(times, 0.99):.3f}" if times else ""
            )
            print(
                f"{label:<12} {first + ' v ' + second:<16} {tally.games:>5} {rate:>8.0%}"
                f"  [{low:.2f}, {high:.2f}]  {timing}"
                f"  ({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
    if args.timing > 0:
        for label, median, p99 in time_hard_moves(args.timing, args.only):
            print(f"{label:<12} hard move at 1 s budget: p50 {median:.3f} s, p99 {p99:.3f} s CPU")


if __name__ == "__main__":
    main()
