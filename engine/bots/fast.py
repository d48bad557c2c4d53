"""Fast playout policies for the ``hard`` search: good moves at a fraction of ``normal``'s cost.

``normal`` applies every legal move and evaluates the whole position after each; in a Tock
or Dog rollout that is four fifths of the time (the move list itself is the rest). The fast
race policy scores each legal move from what it does (the pawns it moves, the pawns it
captures on the way, the danger where they land, the card it uses up) and applies only the
move it plays, so a search fits several times more worlds in its budget. The fast
Carcassonne policy looks at a random sample of the placements instead of all of them.

Both only ever play moves from the engine's own legal list (``tests/engine/test_bot_fast.py``
checks that on many positions). Pure and deterministic given the ``random.Random`` passed in.
"""

from __future__ import annotations

import random

import engine.carcassonne as carc
from engine.bots.carcassonne_eval import Memo, evaluate
from engine.bots.carcassonne_policy import Choice
from engine.bots.race_eval import (
    BAN_BONUS,
    DANGER,
    Geometry,
    card_worth,
    geometry,
    pawn_worth,
)
from engine.carcassonne.notation import Action, Placement, Turn
from engine.carcassonne.state import State as CarcState
from engine.race.api import RaceGame
from engine.race.geometry import HOME, KENNEL, home_slot
from engine.race.move import Move
from engine.race.state import State as RaceState

#: Placements a fast Carcassonne reply looks at (with every figure action on each).
CARC_SAMPLE = 6


class _Board:
    """What the fast race scores need of one position, computed once per decision."""

    __slots__ = ("enemies", "geo", "occ", "state", "team")

    def __init__(self, state: RaceState, seat: int) -> None:
        cfg = state.cfg
        self.state = state
        self.geo = geometry(cfg)
        self.occ = state.occupied()
        self.team = cfg.team_of(seat)
        #: ring fields of the pawns that threaten each side (keyed by a member seat)
        self.enemies: dict[int, list[int]] = {}
        for s in cfg.seats:
            friends = cfg.team_of(s)
            self.enemies[s] = [q for q, o in self.occ.items() if q < HOME and o not in friends]

    def worth(self, owner: int, loc: int, moved: int = -1, to: int = -1) -> float:
        """A pawn's worth on ``loc`` less its danger, with the pawn on ``moved`` now on
        ``to`` (an enemy that moved no longer threatens from where it stood)."""
        if loc >= KENNEL:
            return 0.0
        geo = self.geo
        value = pawn_worth(geo, owner, loc, False)
        if loc >= HOME:
            return value
        miss = geo.miss
        ring = geo.ring
        safe = 1.0
        for q in self.enemies[owner]:
            if q == moved:
                q = to
                if q >= HOME:
                    continue
            safe *= miss[(loc - q) % ring]
        return value - DANGER * (1.0 - safe) * value

    def sign(self, owner: int) -> float:
        return 1.0 if owner in self.team else -1.0


def _segment_fields(geo: Geometry, frm: int, steps: int, to: int) -> list[int]:
    """The ring fields a segment of a 7 steps onto (each one burns a pawn, C-8.3)."""
    if frm >= HOME:
        return []
    ring_steps = steps - home_slot(to) if to >= HOME else steps
    return [(frm + i) % geo.ring for i in range(1, ring_steps + 1)]


def move_score(board: _Board, seat: int, move: Move) -> float:
    """How much ``move`` gains for ``seat``'s side, from what it does (no position is made).

    Each pawn that moves or is captured counts the change of its worth (progress, danger
    where it stands), for the side it belongs to; the card played costs what holding it is
    worth; a Tock 10 bans the next seat.
    """
    state = board.state
    occ = board.occ
    action = move.action
    kind = action[0] if action else ""
    score = 0.0
    if kind == "walk":
        frm, to = action[1], action[2]
        owner = occ.get(frm, seat)
        score += board.sign(owner) * (board.worth(owner, to, frm, to) - board.worth(owner, frm))
        hit = occ.get(to)
        if hit is not None and to < HOME:
            score -= board.sign(hit) * board.worth(hit, to)
    elif kind == "out":
        colour = action[1]
        start = board.geo.start[colour]
        score += board.sign(colour) * board.worth(colour, start, -1, -1)
        hit = occ.get(start)
        if hit is not None:
            score -= board.sign(hit) * board.worth(hit, start)
    elif kind == "swap":
        a, b = action[1], action[2]
        mine, other = occ.get(a, seat), occ.get(b, seat)
        score += board.sign(mine) * (board.worth(mine, b, b, a) - board.worth(mine, a))
        score += board.sign(other) * (board.worth(other, a, a, b) - board.worth(other, b))
    elif kind == "steps":
        burnt: set[int] = set()
        for frm, steps, to in action[1]:
            owner = occ.get(frm, state.moved_colour(seat))
            score += board.sign(owner) * (board.worth(owner, to, frm, to) - board.worth(owner, frm))
            for field in _segment_fields(board.geo, frm, steps, to):
                hit = occ.get(field)
                if hit is not None and field != frm and field not in burnt:
                    burnt.add(field)
                    score -= board.sign(hit) * board.worth(hit, field)
    if move.card:
        copies = state.hands[seat].count(move.card)
        score -= card_worth(state, seat, move.card, copies)
    if move.rank == "10" and not state.cfg.is_dog and kind:
        score += BAN_BONUS
    return score


def fast_move(game: RaceGame, state: RaceState, seat: int) -> Move:
    """The fast policy's move for ``seat`` (a card play, a discard, a fold, or a pick).

    Exchange picks and the segments of a pending 7 are left to ``normal`` (they are rare
    in a rollout and cheap or subtle); card plays are scored by :func:`move_score`.
    """
    from engine.bots.race_policy import normal_move

    if state.phase != "play" or state.seven is not None:
        return normal_move(game, state, seat)
    moves = game.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    board = _Board(state, seat)
    best, best_score = moves[0], -float("inf")
    for move in moves:
        score = move_score(board, seat, move)
        if score > best_score:
            best, best_score = move, score
    return best


def fast_choice(state: CarcState, seat: int, rng: random.Random) -> Choice:
    """A Carcassonne turn for ``seat``: the best of a random sample of placements.

    Every figure action of each sampled placement is judged by the ``normal`` evaluation;
    with few placements all are looked at, as ``normal`` does.
    """
    if state.phase == "figure":
        from engine.bots.carcassonne_policy import normal_choice

        return normal_choice(state, seat)
    tile = state.current
    assert tile is not None
    placements = carc.legal_moves(state)
    if len(placements) > CARC_SAMPLE:
        placements = rng.sample(placements, CARC_SAMPLE)
    memo = Memo()
    best: Choice | None = None
    best_value = -float("inf")
    for placement in placements:
        assert isinstance(placement, Placement)
        placed = carc.apply(state, placement)
        for action in carc.legal_moves(placed):
            assert isinstance(action, Action)
            value = evaluate(carc.apply(placed, action), seat, memo)
            if value > best_value:
                best, best_value = Turn(tile, placement, action), value
    assert best is not None
    return best


__all__ = ["CARC_SAMPLE", "fast_choice", "fast_move", "move_score"]
