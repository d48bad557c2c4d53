"""Move choice for Tock and Dog on a full state: random, the one-move heuristic, exchange picks.

These functions take a state (the bot's own determinization, or a state inside a search)
and a seat; they read only the board, the seat's own hand and public facts, so on a state
from ``sample_state(view, seed)`` they act on what the seat could see.
"""

from __future__ import annotations

import random

from engine.bots.race_eval import card_worth, evaluate
from engine.race.api import RaceGame
from engine.race.move import Move
from engine.race.state import State

#: How many positions the completion search of a pending 7 may look at.
SEVEN_NODES = 400


def random_move(game: RaceGame, state: State, seat: int, rng: random.Random) -> Move:
    """A uniformly random legal move of ``seat``."""
    moves = game.legal_moves(state, seat)
    return moves[rng.randrange(len(moves))]


def scored_moves(game: RaceGame, state: State, seat: int) -> list[tuple[float, Move]]:
    """Every legal move of ``seat`` with its one-move score, best first (stable order)."""
    moves = game.legal_moves(state, seat)
    if state.phase == "exchange":
        scored = [(pick_score(state, seat, m.card), m) for m in moves]
    elif state.seven is not None:
        scored = [(_segment_score(game, state, seat, m, [SEVEN_NODES]), m) for m in moves]
    else:
        scored = [(evaluate(game.apply(state, m), seat, hands="own"), m) for m in moves]
    order = sorted(range(len(scored)), key=lambda i: -scored[i][0])
    return [scored[i] for i in order]


def normal_move(game: RaceGame, state: State, seat: int) -> Move:
    """The one-move heuristic: the legal move after which the position looks best.

    The evaluation (:mod:`engine.bots.race_eval`) rewards finishing and advancing pawns,
    captures, bringing pawns out, keeping pawns out of reach of opponents and keeping the
    cards that are worth more (start cards while pawns wait in the kennel, 7, J, jokers),
    and in Tock a 10 that bans an opponent.
    """
    moves = game.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    return scored_moves(game, state, seat)[0][1]


def pick_score(state: State, seat: int, card: str) -> float:
    """How good passing ``card`` to the partner is: its worth to them minus to us."""
    partner = state.cfg.partner[seat]
    hand = state.hands[seat]
    copies = sum(1 for c in hand if c == card)
    keep = card_worth(state, seat, card, copies)
    give = card_worth(state, partner, card) if partner >= 0 else 0.0
    return give - keep


def _segment_score(game: RaceGame, state: State, seat: int, move: Move, nodes: list[int]) -> float:
    """The best completion of a pending 7 after ``move`` (depth-first, node-capped)."""
    after = game.apply(state, move)
    nodes[0] -= 1
    if after.seven is None or after.turn != seat or nodes[0] <= 0:
        return evaluate(after, seat, hands="own")
    best = -float("inf")
    for nxt in game.legal_moves(after, seat):
        best = max(best, _segment_score(game, after, seat, nxt, nodes))
        if nodes[0] <= 0:
            break
    return best
