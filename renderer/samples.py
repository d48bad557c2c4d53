"""A fixed set of sample images of every game: ``python -m renderer.samples [--out DIR] [NAME…]``.

The samples come from seeded random play-outs of the real engines (so they are the same on
every run) plus a few positions a play-out rarely reaches: every game, every player count and
every phase, the largest boards included. The legibility test renders each of them, and
``--docs`` writes the four README screenshots to ``docs/images/``.

This is a developer's tool: it is the only renderer module that imports the engines.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from renderer import (
    placement_order,
    render_board,
    render_figure_spots,
    render_hand,
    render_placements,
)

Sample = Callable[[], bytes]

#: Display names as the Discord layer passes them: people by name, bots named as bots.
NAMES = ("Anna", "Bence", "Chloé", "Bot 4 (hard)", "Dóra", "Bot 6 (easy)")
ALL_EXPANSIONS = {"inns_cathedrals": "full", "traders_builders": "full"}
#: The README screenshots: sample name -> file in docs/images/.
DOCS = {
    "tock-4-play": "tock.png",
    "dog-4-play": "dog.png",
    "carcassonne-4-mid": "carcassonne-mid.png",
    "carcassonne-4-end": "carcassonne-end.png",
    "tock-4-digest": "tock-digest.png",
    "carcassonne-2-digest": "carcassonne-digest.png",
}


def race_position(module: Any, players: int, options: dict[str, Any], seed: int, steps: int):
    """(state, public view after the last action) of a seeded random race play-out.

    ``steps`` < 0 plays to the end of the game.
    """
    state = module.new_game(players, options, seed)
    rng = random.Random(seed)
    view = module.view(state, None)
    count = 0
    while module.outcome(state) is None and (steps < 0 or count < steps):
        seat = min(module.seats_to_act(state))
        state = module.apply(state, rng.choice(module.legal_moves(state, seat)))
        view = module.view(state, None)
        count += 1
    return state, view


def digest_position(module: Any, players: int, options: dict[str, Any]) -> dict[str, Any]:
    """A turn digest's view: the position after three moves of a seeded random play-out, a
    capture among them, each move's events under ``recent`` (oldest first)."""
    for seed in range(1, 200):
        state = module.new_game(players, options, seed)
        rng = random.Random(seed)
        moves: list[list[Any]] = []
        while module.outcome(state) is None and len(moves) < 400:
            seat = min(module.seats_to_act(state))
            state = module.apply(state, rng.choice(module.legal_moves(state, seat)))
            view = module.view(state, None)
            events = [e for e in view.get("events") or [] if e.get("kind") != "pick"]
            moves.append(events)
            kinds = [e.get("kind") for e in events]
            walked = [any(e.get("kind") == "move" for e in m) for m in moves[-3:]]
            if "capture" in kinds and len(moves) >= 3 and all(walked):
                return {**view, "recent": moves[-3:]}
    raise AssertionError("no capture in the play-outs")


def race_to_phase(module: Any, players: int, options: dict[str, Any], seed: int, phase: str):
    """The first view of a seeded random play-out that is in ``phase`` after a card play."""
    state = module.new_game(players, options, seed)
    rng = random.Random(seed)
    for _ in range(5000):
        if module.outcome(state) is not None:
            break
        seat = min(module.seats_to_act(state))
        state = module.apply(state, rng.choice(module.legal_moves(state, seat)))
        view = module.view(state, None)
        if view.get("phase") == phase and view.get("events"):
            return view
    raise LookupError(f"no {phase} phase reached")


def carcassonne_position(players: int, options: dict[str, Any], seed: int, tiles: int | None):
    """A seeded Carcassonne play-out with ``tiles`` tiles on the board (``None``: to the end),
    stopped in phase ``place``.

    The play is random but shaped like people's: a tile goes where it touches the most
    tiles (so the map stays compact), and a figure is placed about every second turn.
    """
    import engine.carcassonne as carcassonne

    state = carcassonne.new_game(players, options, seed)
    rng = random.Random(seed)
    while carcassonne.outcome(state) is None:
        if tiles is not None and len(state.tiles) >= tiles and state.phase == "place":
            break
        moves = [str(m) for m in carcassonne.legal_moves(state)]
        if state.phase == "place":
            taken = {(x, y) for _, x, y, _ in state.tiles}
            most = max(_touching(m, taken) for m in moves)
            moves = [m for m in moves if _touching(m, taken) == most]
        elif "none" in moves and len(moves) > 1:
            figures = [m for m in moves if m != "none"]
            moves = figures if rng.random() < 0.5 else ["none"]
        state = carcassonne.apply(state, rng.choice(moves))
    return state


def carcassonne_digest() -> dict[str, Any]:
    """A Carcassonne turn digest's view: three tiles of two players placed since the previous
    post, each move's events under ``recent``."""
    import engine.carcassonne as carcassonne

    state = carcassonne.new_game(2, {}, 3)
    rng = random.Random(3)
    moves: list[list[Any]] = []
    while len(moves) < 24:
        seat = min(carcassonne.seats_to_act(state))
        state = carcassonne.apply(state, rng.choice(carcassonne.legal_moves(state, seat)), seat)
        moves.append(list(carcassonne.view(state, None).get("events") or []))
    view = carcassonne.view(state, None)
    placed = [m for m in moves if any(e.get("kind") == "place" for e in m)]
    return {**view, "recent": placed[-3:]}


def _touching(move: str, taken: set[tuple[int, int]]) -> int:
    """How many placed tiles the cell of a placement ``x,y@rot`` touches."""
    x, y = (int(v) for v in move.split("@")[0].split(","))
    return sum((x + dx, y + dy) in taken for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))


def _race_samples() -> dict[str, Sample]:
    import engine.dog as dog
    import engine.tock as tock

    samples: dict[str, Sample] = {}
    for module, players, options in (
        (tock, 2, {}),
        (tock, 3, {}),
        (tock, 4, {"game_type": "2v2"}),
        (tock, 6, {"game_type": "2v2v2"}),
        (dog, 4, {}),
        (dog, 6, {}),
    ):
        names = list(NAMES[:players])
        _, view = race_position(module, players, options, seed=7, steps=60)
        game = module.NAME
        samples[f"{game}-{players}-play"] = _board(view, names)
        _, end = race_position(module, players, options, seed=7, steps=-1)
        samples[f"{game}-{players}-end"] = _board(end, names)
    samples["dog-4-exchange"] = _board(race_to_phase(dog, 4, {}, 5, "exchange"), NAMES[:4])
    samples["tock-4-exchange"] = _board(
        race_to_phase(tock, 4, {"game_type": "2v2"}, 5, "exchange"), NAMES[:4]
    )
    samples["tock-4-digest"] = _board(digest_position(tock, 4, {"game_type": "2v2"}), NAMES[:4])
    samples["tock-5-hand"] = lambda: render_hand("tock", ["A", "4", "7", "10", "J"])
    samples["dog-6-hand"] = lambda: render_hand(
        "dog", ["A", "4", "7", "J", "K", "X"], playable=[True, False, True, True, False, True]
    )
    samples["dog-empty-hand"] = lambda: render_hand("dog", [])
    return samples


def _board(view: Any, names: Any, **kwargs: Any) -> Sample:
    return lambda: render_board(view, names=list(names), **kwargs)


def _carcassonne_samples() -> dict[str, Sample]:
    import engine.carcassonne as carcassonne

    samples: dict[str, Sample] = {}
    early = carcassonne_position(2, {}, seed=2, tiles=8)
    samples["carcassonne-2-early"] = _board(carcassonne.view(early, None), NAMES[:2])
    mid = carcassonne_position(4, ALL_EXPANSIONS, seed=11, tiles=64)
    mid_view = carcassonne.view(mid, None)
    samples["carcassonne-4-mid"] = _board(mid_view, NAMES[:4])
    samples["carcassonne-2-digest"] = _board(carcassonne_digest(), NAMES[:2])
    samples["carcassonne-4-mid-whole"] = _board(mid_view, NAMES[:4], whole=True)
    end = carcassonne_position(4, ALL_EXPANSIONS, seed=11, tiles=None)
    samples["carcassonne-4-end"] = _board(carcassonne.view(end, None), NAMES[:4])
    river = carcassonne_position(3, {"river": True}, seed=5, tiles=14)
    samples["carcassonne-3-river"] = _board(carcassonne.view(river, None), NAMES[:3])
    largest = carcassonne_position(6, {**ALL_EXPANSIONS, "river": True}, seed=3, tiles=110)
    largest_view = carcassonne.view(largest, None)
    samples["carcassonne-6-largest"] = _board(largest_view, NAMES[:6])
    samples["carcassonne-6-largest-whole"] = _board(largest_view, NAMES[:6], whole=True)
    last = carcassonne_position(6, {**ALL_EXPANSIONS, "river": True}, seed=3, tiles=None)
    samples["carcassonne-6-end"] = _board(carcassonne.view(last, None), NAMES[:6])
    for name, state in (("carcassonne-4-mid", mid), ("carcassonne-6-largest", largest)):
        view = carcassonne.view(state, None)
        placements = carcassonne.legal_placements(state)
        samples[f"{name}-placements"] = (
            lambda v, p: lambda: render_placements(v, p, names=list(NAMES))
        )(view, placements)
        cell = placement_order(placements)[0]
        rot = placements[cell][0]
        placed = carcassonne.apply(state, f"{cell[0]},{cell[1]}@{rot}")
        spots = [str(m) for m in carcassonne.legal_moves(placed)]
        samples[f"{name}-figure-spots"] = (
            lambda v, c, r, tile, s: lambda: render_figure_spots(v, c[0], c[1], r, tile, s)
        )(carcassonne.view(placed, None), cell, rot, str(view["current_tile"]), spots)
        samples[f"{name}-figure-phase"] = _board(carcassonne.view(placed, None), NAMES)
    return samples


def samples() -> dict[str, Sample]:
    """Every sample image, by name, as a function that renders it."""
    return {**_race_samples(), **_carcassonne_samples()}


def main(argv: list[str] | None = None) -> None:
    """Write every sample (or, with ``--docs``, the README screenshots) as PNG files."""
    parser = argparse.ArgumentParser(description=__doc__)
    default = Path(tempfile.gettempdir()) / "poeppel-samples"
    parser.add_argument("--out", type=Path, default=default, help=f"folder (default {default})")
    parser.add_argument("--docs", action="store_true", help="write docs/images/ instead")
    parser.add_argument("names", nargs="*", help="only these samples (default: all)")
    args = parser.parse_args(argv)
    folder = Path(__file__).resolve().parent.parent / "docs" / "images" if args.docs else args.out
    folder.mkdir(parents=True, exist_ok=True)
    for name, render in samples().items():
        if (args.docs and name not in DOCS) or (args.names and name not in args.names):
            continue
        path = folder / (DOCS[name] if args.docs else f"{name}.png")
        data = render()
        path.write_bytes(data)
        print(f"{path}  {len(data) / 1024:.0f} KB")


if __name__ == "__main__":
    main()
