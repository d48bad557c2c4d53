"""Carcassonne for Pöppel: base game, farm options, River, Inns & Cathedrals, Traders & Builders.

Implements the rules digest ``carcassonne.md`` (K-) with the notation, legal lists, positions
and set-ups of ``carcassonne-notation.md`` (CN-), behind the protocol of
:mod:`engine.protocol`. The module itself is the game module::

    import engine.carcassonne as carc
    state = carc.new_game(2, {"farms": "third"}, seed=1)
    state = carc.apply(state, carc.legal_moves(state)[0])   # a placement
    state = carc.apply(state, "none")                       # the figure step

Moves are :class:`Placement`, :class:`Action` and :class:`Turn` values whose ``str()`` is the
canonical CN-3 text.
"""

from __future__ import annotations

from engine.carcassonne.api import (
    apply,
    auto_action,
    figure_spots,
    from_setup,
    leave,
    legal_moves,
    legal_placements,
    new_game,
    outcome,
    parse_move,
    sample_state,
    seats_to_act,
    to_position,
    to_setup,
    view,
)
from engine.carcassonne.notation import Action, Move, Placement, Turn
from engine.carcassonne.setup import NAME, OPTIONS, PLAYER_COUNTS
from engine.carcassonne.state import State
from engine.protocol import IllegalMove, InvalidOptions, InvalidPosition

__all__ = [
    "NAME",
    "OPTIONS",
    "PLAYER_COUNTS",
    "Action",
    "IllegalMove",
    "InvalidOptions",
    "InvalidPosition",
    "Move",
    "Placement",
    "State",
    "Turn",
    "apply",
    "auto_action",
    "figure_spots",
    "from_setup",
    "leave",
    "legal_moves",
    "legal_placements",
    "new_game",
    "outcome",
    "parse_move",
    "sample_state",
    "seats_to_act",
    "to_position",
    "to_setup",
    "view",
]
