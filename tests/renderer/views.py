"""Views for the renderer tests: hand-made ones in the documented formats, and real ones.

Hand-made views follow engine/protocol.py (race: N-3 fields; Carcassonne: CN-5 plus
``last_tiles``); real views come from the engines' ``new_game`` and seeded random play-outs.
"""

from __future__ import annotations

import random
from typing import Any


def race_view(game: str = "tock", players: int = 4, **fields: Any) -> dict[str, Any]:
    """A race view with defaults for every key the renderer reads."""
    if game == "tock":
        seats = {2: [0, 2], 3: [0, 1, 2]}.get(players, list(range(players)))
        ring, per_seat = (72 if players <= 4 else 108), 18
    else:
        seats = list(range(players))
        ring, per_seat = (64 if players == 4 else 96), 16
    view: dict[str, Any] = {
        "game": game,
        "viewer": None,
        "seats": seats,
        "to_act": [seats[0]],
        "finished": False,
        "winners": [],
        "events": [],
        "options": {},
        "players": players,
        "teams": None if game == "tock" else [[0, 2], [1, 3]],
        "pawns": {str(s): [f"k{s}"] * 4 for s in seats},
        "hand_sizes": {str(s): 4 for s in seats},
        "phase": "play",
        "turn": seats[0],
        "dealer": seats[-1],
        "exchanged": [],
        "my_pick": None,
        "received": None,
        "draw": 30,
        "discard": [],
        "left": [],
        "seven": None,
        "winner": None,
        "board": {"ring": ring, "per_seat": per_seat},
    }
    view.update(fields)
    return view


def carcassonne_view(**fields: Any) -> dict[str, Any]:
    """A two-player Carcassonne view: D at the origin plus the tiles given."""
    view: dict[str, Any] = {
        "game": "carcassonne",
        "viewer": 0,
        "seats": [0, 1],
        "to_act": [0],
        "finished": False,
        "winners": [],
        "events": [],
        "board": [{"tile": "D", "x": 0, "y": 0, "rot": 0}],
        "figures": [],
        "scores": [0, 0],
        "supply": [{"follower": 7, "big": 0, "builder": 0, "pig": 0}] * 2,
        "goods": [{"wine": 0, "grain": 0, "cloth": 0}] * 2,
        "tiles_left": 70,
        "current_tile": "E",
        "phase": "place",
        "extra_turn": False,
        "discarded": [],
        "last_tiles": {},
        "options": {},
    }
    view.update(fields)
    return view


def race_playout(module: Any, players: int, options: dict[str, Any], seed: int, steps: int):
    """Views along a seeded random play-out of a race engine (one per action)."""
    state = module.new_game(players, options, seed)
    rng = random.Random(seed)
    views = [module.view(state, None)]
    for _ in range(steps):
        if module.outcome(state) is not None:
            break
        seat = min(module.seats_to_act(state))
        state = module.apply(state, rng.choice(module.legal_moves(state, seat)))
        views.append(module.view(state, seat))
    return state, views


def carcassonne_playout(players: int, options: dict[str, Any], seed: int, steps: int):
    """The state after a seeded random Carcassonne play-out of ``steps`` actions."""
    import engine.carcassonne as carcassonne

    state = carcassonne.new_game(players, options, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if carcassonne.outcome(state) is not None:
            break
        state = carcassonne.apply(state, rng.choice(carcassonne.legal_moves(state)))
    return state
