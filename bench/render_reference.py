"""Pöppel's Carcassonne images against the reference renderer, side by side in one run.

    python -m bench.render_reference [--seed 3] [--tile 64] [--runs 1] [--reference DIR]

The reference (``shared/reference/carcassonne-render``, a research prototype that draws
vector shapes, no tile art) plays a seeded 3-player base game and draws the board before
every placement; Pöppel plays a seeded 3-player base game of its own (same number of
placements, 71). Turn by turn, alternating which goes first, each draws its plain board and
its board with the legal placements marked, each image rendered and PNG-encoded; CPU time
(``time.process_time``) is summed per kind. Printed: mean CPU ms and PNG KB per image for
both, and the ratio of CPU means (reference ÷ Pöppel; above 1 Pöppel is faster), as the
reference's README asks. With ``--runs N`` the games are played N times over and the median
of each run's ratio is printed too (the machine is shared: one run can meet a busy moment).
Needs PyYAML (the reference reads the tile list from YAML).
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import engine.carcassonne as carcassonne
from renderer import clear_caches, render_board, render_placements, warm_up

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = Path("shared") / "reference" / "carcassonne-render"


def _find_reference() -> Path:
    """``shared/reference/carcassonne-render`` beside the checkout or one of its parents."""
    for folder in (ROOT, *ROOT.parents):
        if (folder / REFERENCE).is_dir():
            return folder / REFERENCE
    raise SystemExit(f"no {REFERENCE} found above {ROOT}; pass --reference")


def _timed(draw: Callable[[], bytes]) -> tuple[float, int]:
    """(CPU seconds, PNG bytes) of one image."""
    start = time.process_time()
    size = len(draw())
    return time.process_time() - start, size


def _bind(function: Callable[..., bytes], *args: Any) -> Callable[[], bytes]:
    return lambda: function(*args)


def _reference_png(module: Any, game: Any, tile: int, last: Any, legal: Any) -> bytes:
    image = module.render(game, tile, last, legal)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)  # as the reference's own timing does
    return buffer.getvalue()


def main(argv: list[str] | None = None) -> None:
    """Play both games turn by turn and print the comparison (per run, then the medians)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--tile", type=int, default=64, help="the reference's tile size (px)")
    parser.add_argument("--runs", type=int, default=1, help="games played, each compared")
    parser.add_argument("--reference", type=Path, default=None)
    args = parser.parse_args(argv)
    folder = args.reference or _find_reference()
    sys.path.insert(0, str(folder))
    import yaml

    proto_engine = importlib.import_module("proto_engine")
    proto_render = importlib.import_module("proto_render")
    rules = folder.parent.parent / "rules" / "carcassonne-tiles.yaml"
    with rules.open(encoding="utf-8") as handle:
        tiles = yaml.safe_load(handle)
    ratios: dict[str, list[float]] = {"plain board": [], "placements": []}
    for _ in range(args.runs):
        for label, ratio in _run(args, proto_engine, proto_render, tiles).items():
            ratios[label].append(ratio)
    if args.runs > 1:
        print(f"median ratio of {args.runs} runs (reference ÷ Pöppel):", end="")
        print("; ".join(f" {k} {statistics.median(v):.2f}" for k, v in ratios.items()))


def _run(
    args: argparse.Namespace, proto_engine: Any, proto_render: Any, tiles: Any
) -> dict[str, float]:
    """One game of each, compared turn by turn; prints the table, returns the ratios."""
    game = proto_engine.Game(tiles, players=3, rng=random.Random(args.seed))
    state = carcassonne.new_game(3, {}, args.seed)
    rng = random.Random(args.seed)
    cpu: dict[str, list[float]] = {k: [] for k in ("ref plain", "ref placements", "plain", "pl")}
    sizes: dict[str, list[int]] = {k: [] for k in cpu}
    last = None
    # Warm both (fonts, Pöppel's tile drawings), as the render pool's workers do; each run
    # starts from there, not from the caches the previous run filled (the same game again).
    clear_caches()
    warm_up()
    render_board(carcassonne.view(state, 0))
    _reference_png(proto_render, game, args.tile, None, None)
    turn = 0
    while game.pile and carcassonne.outcome(state) is None:
        while state.phase != "place" and carcassonne.outcome(state) is None:
            state = carcassonne.apply(state, rng.choice(carcassonne.legal_moves(state)))
        if carcassonne.outcome(state) is not None:
            break
        legal = game.legal_placements(game.pile[-1])
        view = carcassonne.view(state, 0)
        placements = carcassonne.legal_placements(state)
        cases: list[tuple[str, Callable[[], bytes]]] = [
            ("ref plain", _bind(_reference_png, proto_render, game, args.tile, last, None)),
            ("ref placements", _bind(_reference_png, proto_render, game, args.tile, last, legal)),
            ("plain", _bind(render_board, view)),
            ("pl", _bind(render_placements, view, placements)),
        ]
        # Alternate who goes first, so that neither always meets the other's cache misses.
        for name, draw in cases if turn % 2 == 0 else cases[::-1]:
            seconds, size = _timed(draw)
            cpu[name].append(seconds)
            sizes[name].append(size)
        last = game.play_turn()
        state = carcassonne.apply(state, rng.choice(carcassonne.legal_moves(state)))
        turn += 1
    one, five, fifteen = os.getloadavg()
    print(f"turns {turn}; load average {one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} cores)")
    print(
        f"{'image':<22} {'ref CPU ms':>11} {'Pöppel ms':>10} {'ratio':>6} {'ref KB':>7} {'KB':>7}"
        f" {'max KB':>7}"
    )
    ratios = {}
    for label, ref, ours in (
        ("plain board", "ref plain", "plain"),
        ("placements", "ref placements", "pl"),
    ):
        ref_ms = 1000 * statistics.mean(cpu[ref])
        our_ms = 1000 * statistics.mean(cpu[ours])
        ratios[label] = ref_ms / our_ms
        print(
            f"{label:<22} {ref_ms:11.2f} {our_ms:10.2f} {ref_ms / our_ms:6.2f}"
            f" {statistics.mean(sizes[ref]) / 1024:7.1f} {statistics.mean(sizes[ours]) / 1024:7.1f}"
            f" {max(sizes[ours]) / 1024:7.1f}"
        )
    return ratios


if __name__ == "__main__":
    main()
