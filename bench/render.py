"""Renderer benchmark: ``python -m bench.render`` prints render+encode time and PNG size.

Views come from seeded random play-outs of the real engines. Caches (fonts, static board
layers, tile drawings, text stamps, figures) are warmed by one untimed call, as they are in
a running bot's render workers. Budgets (issue 30), render + encode CPU time at p50: every
board <= 15 ms, the 6-seat boards and a full 72-tile Carcassonne map with all expansions
included; every PNG <= 60 KB. The last column says whether a case is within its budget (by
CPU time, which waiting for a core does not inflate on a shared machine).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import engine.carcassonne as carcassonne
import engine.dog as dog
import engine.tock as tock
from renderer import (
    placement_order,
    render_board,
    render_figure_spots,
    render_hand,
    render_placements,
)
from renderer.samples import carcassonne_digest, digest_position

#: Budgets of render + encode (CPU p50, ms) and of every PNG (bytes), issue 30.
RACE_MS = 15.0
MAP_MS = 15.0
PNG_BYTES = 60 * 1024


def _race_view(module: Any, players: int, options: dict[str, Any], steps: int) -> dict:
    state = module.new_game(players, options, 17)
    rng = random.Random(17)
    seat = 0
    for _ in range(steps):
        if module.outcome(state) is not None:
            break
        seat = min(module.seats_to_act(state))
        state = module.apply(state, rng.choice(module.legal_moves(state, seat)))
    return module.view(state, seat)


def _carcassonne_state(tiles: int) -> Any:
    """A game with ``tiles`` tiles on the board, in phase ``place`` (expansions on, so the
    pile is long enough to still be running then)."""
    options = {"inns_cathedrals": "full", "traders_builders": "full"}
    state = carcassonne.new_game(4, options, 23)
    rng = random.Random(23)
    while len(carcassonne.view(state, None)["board"]) < tiles or state.phase != "place":
        if carcassonne.outcome(state) is not None:
            break
        moves = carcassonne.legal_moves(state)
        # Prefer placing figures so the board carries a realistic number of them.
        figure_moves = [m for m in moves if str(m) != "none"]
        state = carcassonne.apply(state, rng.choice(figure_moves or moves))
    return state


# --- choice images (#36): where each option of a 7 and of a Jack lands ---------------------

#: A Tock 2v2 middle game: pawns of every colour on the ring, the person holds a 7 and a Jack.
_CHOICE_POSITION = {
    "game": "tock",
    "players": 4,
    "teams": [[0, 2], [1, 3]],
    "pawns": {"0": ["r3", "r20", "r50"], "1": ["r8", "r24"], "2": ["r40", "r33"], "3": ["r60"]},
    "hands": {"0": ["7", "J", "9", "K", "4"]},
    "turn": 0,
}


def _choice_cases(names: list[str]) -> list[tuple[str, Callable[[], bytes], float]]:
    """The choice images of the 7 (its first segments, as the prompt offers them) and of
    the Jack (every swap), from the person's seat."""
    from renderer.race_choices import render_race_choices

    state = tock.from_position(_CHOICE_POSITION)
    view = tock.view(state, 0)
    legal = [str(m) for m in tock.legal_moves(state, 0)]
    sevens = [str(m) for m in tock.seven_starts(state, "7")]
    jacks = [m for m in legal if m.startswith("J:")]
    return [
        (
            f"tock choices: 7 ({len(sevens)} options)",
            lambda: render_race_choices(view, sevens, names=names[:4]),
            RACE_MS,
        ),
        (
            f"tock choices: Jack ({len(jacks)} options)",
            lambda: render_race_choices(view, jacks, names=names[:4]),
            RACE_MS,
        ),
    ]


def _measure(render: Callable[[], bytes], repeat: int) -> tuple[float, float, float, int]:
    """(wall p50, wall p95, CPU p50) in ms and the PNG size in bytes.

    CPU time is printed too because on a shared machine wall time includes waiting for a core.
    """
    size = len(render())  # warm the caches
    times = []
    cpu = []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        render()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return statistics.median(times) * 1000, p95 * 1000, statistics.median(cpu) * 1000, size


def main(argv: list[str] | None = None) -> None:
    """Run every case and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=30, help="timed runs per case")
    args = parser.parse_args(argv)
    cases: list[tuple[str, Callable[[], bytes], float]] = []
    tock4 = _race_view(tock, 4, {"game_type": "2v2"}, 80)
    tock6 = _race_view(tock, 6, {}, 80)
    dog4 = _race_view(dog, 4, {}, 80)
    dog6 = _race_view(dog, 6, {}, 80)
    names = ["Anna", "Bence", "Chloé", "Bot 4 (hard)", "Dóra", "Bot 6 (easy)"]
    digest = digest_position(tock, 4, {"game_type": "2v2"})  # turn digests (#36)
    tiles3 = carcassonne_digest()
    cases += [
        ("tock board 4p", lambda: render_board(tock4, names=names[:4]), RACE_MS),
        ("tock board 6p", lambda: render_board(tock6, names=names), RACE_MS),
        ("dog board 4p", lambda: render_board(dog4, names=names[:4]), RACE_MS),
        ("dog board 6p", lambda: render_board(dog6, names=names), RACE_MS),
        ("dog hand 6 cards", lambda: render_hand("dog", ["A", "4", "7", "J", "K", "X"]), RACE_MS),
        ("tock digest board, 3 moves", lambda: render_board(digest, names=names[:4]), RACE_MS),
        ("carcassonne digest, 3 tiles", lambda: render_board(tiles3, names=names[:2]), MAP_MS),
    ]
    cases += _choice_cases(names)
    state = _carcassonne_state(72)
    view = carcassonne.view(state, 0)
    placements = carcassonne.legal_placements(state)
    cell = placement_order(placements)[0]
    rot = placements[cell][0]
    placed = carcassonne.apply(state, f"{cell[0]},{cell[1]}@{rot}")
    placed_view = carcassonne.view(placed, 0)
    spots = [str(m) for m in carcassonne.legal_moves(placed)]
    tiles = len(view["board"])
    cases += [
        (f"carcassonne board {tiles} tiles", lambda: render_board(view), MAP_MS),
        (f"carcassonne whole map {tiles} tiles", lambda: render_board(view, whole=True), MAP_MS),
        (
            f"carcassonne placements ({len(placements)} cells)",
            lambda: render_placements(view, placements),
            MAP_MS,
        ),
        (
            "carcassonne figure spots",
            lambda: render_figure_spots(
                placed_view, cell[0], cell[1], rot, str(view["current_tile"]), spots
            ),
            MAP_MS,
        ),
    ]
    header = f"{'case':<38} {'p50 ms':>8} {'p95 ms':>8} {'CPU p50':>8} {'PNG KB':>8}  budget"
    print(header)
    for name, render, budget in cases:
        p50, p95, cpu, size = _measure(render, args.repeat)
        # CPU time decides: on a shared machine wall time includes waiting for a core.
        within = "ok" if cpu <= budget and size <= PNG_BYTES else "OVER"
        print(
            f"{name:<38} {p50:8.1f} {p95:8.1f} {cpu:8.1f} {size / 1024:8.1f}"
            f"  {within} ({budget:.0f} ms)"
        )


if __name__ == "__main__":
    main()
