"""Move choice for Carcassonne on a full state: random turns and the one-turn heuristic.

In phase ``place`` a bot answers with a whole turn (``"<tile> x,y@rot action"``); in phase
``figure`` (a placement made before the bot took over) with the figure action only.
"""

from __future__ import annotations

import random

import engine.carcassonne as carc
from engine.bots.carcassonne_eval import Memo, TileOdds, evaluate
from engine.carcassonne.notation import Action, Placement, Turn
from engine.carcassonne.state import State

Choice = Turn | Action


def candidates(state: State) -> list[tuple[Choice, State]]:
    """Every whole turn (or figure action) of the player to act, with the state after it."""
    out: list[tuple[Choice, State]] = []
    if state.phase == "figure":
        for action in carc.legal_moves(state):
            assert isinstance(action, Action)
            out.append((action, carc.apply(state, action)))
        return out
    tile = state.current
    assert tile is not None
    for placement in carc.legal_moves(state):
        assert isinstance(placement, Placement)
        placed = carc.apply(state, placement)
        for action in carc.legal_moves(placed):
            assert isinstance(action, Action)
            out.append((Turn(tile, placement, action), carc.apply(placed, action)))
    return out


def random_choice(state: State, rng: random.Random) -> Choice:
    """A uniformly random placement, then a uniformly random figure action on it."""
    if state.phase == "figure":
        actions = carc.legal_moves(state)
        action = actions[rng.randrange(len(actions))]
        assert isinstance(action, Action)
        return action
    tile = state.current
    assert tile is not None
    placements = carc.legal_moves(state)
    placement = placements[rng.randrange(len(placements))]
    assert isinstance(placement, Placement)
    actions = carc.legal_moves(carc.apply(state, placement))
    action = actions[rng.randrange(len(actions))]
    assert isinstance(action, Action)
    return Turn(tile, placement, action)


def scored_choices(
    state: State, seat: int, tile_odds: bool = False
) -> list[tuple[float, Choice, State]]:
    """Every whole turn with its one-turn score for ``seat``, best first (stable order).

    ``tile_odds`` judges completion chances by the unseen tiles (:class:`TileOdds`).
    """
    memo = Memo(odds=TileOdds(state) if tile_odds else None)
    scored = [(evaluate(after, seat, memo), choice, after) for choice, after in candidates(state)]
    order = sorted(range(len(scored)), key=lambda i: -scored[i][0])
    return [scored[i] for i in order]


def normal_choice(state: State, seat: int) -> Choice:
    """The one-turn heuristic: the turn after which the position looks best for ``seat``.

    The evaluation (:mod:`engine.bots.carcassonne_eval`) counts the points scored now and
    the expected worth of every feature holding a figure, and keeps followers in reserve.
    """
    return scored_choices(state, seat)[0][1]
