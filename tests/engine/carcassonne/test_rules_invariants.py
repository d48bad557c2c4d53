"""Rules that hold on every turn of random legal games (K-1.2, K-3.3, K-4, K-15, CN-3.2, CN-5)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engine.carcassonne as carc
from tests.engine.carcassonne.rules_helpers import position

KINDS = ("follower", "big", "builder", "pig")


def _figures_per_seat(pos: dict[str, Any], seat: int) -> dict[str, int]:
    counts = dict(pos["supply"][seat])
    for fig in pos["figures"]:
        if fig["player"] == seat:
            counts[fig["kind"]] += 1
    return counts


def _check_turn(before: dict[str, Any], after: dict[str, Any], start: list[dict[str, int]]) -> None:
    # K-1.2: figures are never created or lost, only moved between supply and board.
    for seat, initial in enumerate(start):
        assert _figures_per_seat(after, seat) == initial
    # K-1.7 / K-3.3: scores never go down.
    assert all(b <= a for b, a in zip(before["scores"], after["scores"], strict=True))
    # K-4.7: placed tiles never move; the board only grows.
    assert after["board"][: len(before["board"])] == before["board"]
    # CN-5: at most one figure per tile; figures sorted by y, then x.
    cells = [(f["y"], f["x"]) for f in after["figures"]]
    assert cells == sorted(cells)
    assert len(set(cells)) == len(cells)
    placed = {(t["x"], t["y"]) for t in after["board"]}
    assert len(placed) == len(after["board"])
    assert {(f["x"], f["y"]) for f in after["figures"]} <= placed - {(0, 0)}
    assert after["tiles_left"] <= before["tiles_left"]


@pytest.mark.parametrize(
    ("seed", "players", "options"),
    [
        (1, 2, {}),
        (2, 4, {"farms": "first", "small_cities": True}),
        (3, 3, {"river": True, "inns_cathedrals": "full", "traders_builders": "full"}),
        (4, 5, {"inns_cathedrals": "full", "traders_builders": "full", "farms": "second"}),
    ],
)
def test_carcassonne_random_games_keep_the_invariants(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    rng = random.Random(seed)
    state = carc.new_game(players, options, seed)
    start = [_figures_per_seat(position(state), seat) for seat in range(players)]
    turns = 0
    while not position(state)["finished"]:
        before = position(state)
        assert before["phase"] == "place"
        placements = carc.legal_moves(state)
        # CN-4.1: never empty, canonical, sorted by y, then x, then rot.
        assert placements
        keys = []
        for move in placements:
            text = str(move)
            assert carc.parse_move(state, text) == move
            xy, rot = text.split("@")
            x, y = (int(v) for v in xy.split(","))
            keys.append((y, x, int(rot)))
        assert keys == sorted(keys)
        assert len(set(keys)) == len(keys)
        state = carc.apply(state, rng.choice(placements))
        actions = carc.legal_moves(state)
        assert str(actions[0]) == "none"
        for move in actions:
            assert carc.parse_move(state, str(move)) == move
        state = carc.apply(state, rng.choice(actions))
        after = position(state)
        _check_turn(before, after, start)
        json.dumps(after)
        turns += 1
    final = position(state)
    assert final["to_act"] is None
    assert final["current_tile"] is None
    top = max(final["scores"])
    assert final["winners"] == [s for s, v in enumerate(final["scores"]) if v == top]
    assert turns > 40
