"""Writes one sample of every kind of image to a temp folder so a person can look at them.

Run ``pytest tests/renderer/test_samples.py -s`` and open the printed folder.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

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
from tests.renderer.pixels import decode
from tests.renderer.views import carcassonne_playout, race_playout


def test_write_sample_images() -> None:
    folder = Path(tempfile.gettempdir()) / "poeppel-renderer-samples"
    folder.mkdir(exist_ok=True)
    samples: dict[str, bytes] = {}
    for module, players, options in (
        (tock, 4, {"game_type": "2v2"}),
        (tock, 2, {}),
        (tock, 5, {}),
        (dog, 4, {}),
        (dog, 6, {}),
    ):
        _, views = race_playout(module, players, options, seed=7, steps=60)
        view = views[-1]
        name = f"{module.NAME}-{players}"
        samples[f"{name}-board.png"] = render_board(view, names=None)
        hand = view.get("hand")
        if isinstance(hand, list) and hand:
            playable = [i % 3 != 1 for i in range(len(hand))]
            samples[f"{name}-hand.png"] = render_hand(module.NAME, hand, playable=playable)
    samples["dog-joker-hand.png"] = render_hand("dog", ["A", "4", "7", "J", "X"])
    state = carcassonne_playout(
        4, {"inns_cathedrals": "full", "traders_builders": "full"}, seed=11, steps=150
    )
    if state.phase == "figure":
        state = carcassonne.apply(state, "none")
    view = carcassonne.view(state, 0)
    samples["carcassonne-board.png"] = render_board(view)
    if view["phase"] == "place":
        placements = carcassonne.legal_placements(state)
        samples["carcassonne-placements.png"] = render_placements(view, placements)
        cell = placement_order(placements)[0]
        rot = placements[cell][0]
        placed = carcassonne.apply(state, f"{cell[0]},{cell[1]}@{rot}")
        spots = [str(m) for m in carcassonne.legal_moves(placed)]
        samples["carcassonne-figure-spots.png"] = render_figure_spots(
            carcassonne.view(placed, 0), cell[0], cell[1], rot, view["current_tile"], spots
        )
    river = carcassonne_playout(2, {"river": True}, seed=5, steps=24)
    samples["carcassonne-river.png"] = render_board(carcassonne.view(river, None))
    for name, png in samples.items():
        assert decode(png).width > 100
        (folder / name).write_bytes(png)
    print(f"\nrenderer samples written to {folder}")
    assert len(list(folder.glob("*.png"))) >= len(samples) >= 10
