"""The ``hard`` bots: determinized Monte-Carlo search over the best few candidate moves.

One iteration draws a *world*: a full state consistent with the bot's view
(``sample_state(view, seed_i)``: other hands, draw pile or tile bag filled at random). In
that world every candidate move is played, then the other seats (partner included) answer
with the ``normal`` policy until the bot is to act again, and the position is evaluated.
Every candidate meets the same worlds (common random numbers), so differences between
candidates are not drowned by the luck of the draw. The ``normal`` bot's favourite is kept
unless another candidate beats it clearly on those worlds (see ``_pick``): a small budget
then makes ``hard`` play like ``normal`` rather than worse.

The candidates are the ``normal`` bot's top moves, so ``hard`` never considers a move that
the one-move heuristic ranks far down; with a single candidate it answers at once.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import engine.carcassonne as carc
from engine.bots import carcassonne_eval, race_eval
from engine.bots.carcassonne_eval import Memo, TileOdds
from engine.bots.carcassonne_policy import Choice, normal_choice, scored_choices
from engine.bots.common import Budget, sub_seed
from engine.bots.race_policy import normal_move, scored_moves
from engine.carcassonne.state import State as CarcState
from engine.race.api import RaceGame
from engine.race.move import Move
from engine.race.state import State as RaceState

#: How many of the ``normal`` bot's best moves the search compares.
RACE_CANDIDATES = 5
CARC_CANDIDATES = 3
#: Candidates scoring this much below the ``normal`` favourite are not searched: with few
#: worlds, noise would otherwise pick them now and then (the winner's curse).
RACE_MARGIN = 12.0
CARC_MARGIN = 6.0
#: Fewest whole worlds before the search may overrule the ``normal`` choice.
MIN_WORLDS = 3
#: Standard errors by which a candidate must beat the ``normal`` choice (see ``_pick``).
EVIDENCE = 1.0
#: Safety cap on the plies of one rollout (the bot's next turn normally ends it first).
MAX_PLIES = 12


def _pick(scores: Sequence[Sequence[float]]) -> int:
    """The candidate to play, given each candidate's rollout scores on the same worlds.

    Candidate 0 is the ``normal`` bot's choice. Another candidate replaces it only with
    evidence: on the worlds both met, its mean gain over candidate 0 must be positive and
    larger than :data:`EVIDENCE` standard errors of that paired difference. With few worlds
    the best-looking of several noisy means is usually just lucky (the winner's curse);
    this keeps ``hard`` at least as good as ``normal`` when the budget is small.
    """
    worlds = len(scores[0])
    if worlds < MIN_WORLDS:
        return 0
    best, best_gain = 0, 0.0
    for i in range(1, len(scores)):
        diffs = [scores[i][w] - scores[0][w] for w in range(min(worlds, len(scores[i])))]
        n = len(diffs)
        if n < MIN_WORLDS:
            continue
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        error = math.sqrt(var / n)
        if mean > EVIDENCE * error and mean > best_gain:
            best, best_gain = i, mean
    return best


def _search(count: int, budget: Budget, play: Callable[[int, int], float]) -> int:
    """Run worlds until the budget says stop; ``play(world, i)`` scores candidate ``i``.

    Before each rollout the clock must leave room for one more rollout of average length,
    so a search rarely overruns its budget. Only whole worlds count, so that candidates are
    always compared on the same worlds. With an iteration cap and enough time the result
    depends on the seed only.
    """
    scores: list[list[float]] = [[] for _ in range(count)]
    world = 0
    spent = 0.0
    rollouts = 0
    while budget.allows(world):
        found: list[float] = []
        for i in range(count):
            average = spent / rollouts if rollouts else 0.0
            if not budget.time_left(reserve=average):
                break
            started = time.perf_counter()
            found.append(play(world, i))
            spent += time.perf_counter() - started
            rollouts += 1
        if len(found) < count:
            break  # a world cut short would compare candidates on different worlds
        for i, score in enumerate(found):
            scores[i].append(score)
        world += 1
    return _pick(scores)


def race_move(
    game: RaceGame, view: Mapping[str, Any], seat: int, seed: int, budget: Budget
) -> Move:
    """The ``hard`` choice in Tock or Dog."""
    state = game.sample_state(view, sub_seed(seed, 0))
    if state.phase == "exchange" or state.seven is not None:
        # An exchange pick or the rest of a pending 7: the heuristic already looks at every
        # option against the known board; searching the unknown hands adds little.
        return normal_move(game, state, seat)
    ranked = scored_moves(game, state, seat)
    moves = [m for score, m in ranked[:RACE_CANDIDATES] if score >= ranked[0][0] - RACE_MARGIN]
    if len(moves) == 1:
        return moves[0]
    worlds: dict[int, RaceState] = {}

    def play(world: int, i: int) -> float:
        if world not in worlds:
            worlds.clear()
            worlds[world] = game.sample_state(view, sub_seed(seed, 1, world))
        after = game.apply(worlds[world], moves[i].text, seat)
        return _race_rollout(game, after, seat)

    return moves[_search(len(moves), budget, play)]


def _race_rollout(game: RaceGame, state: RaceState, seat: int) -> float:
    """Let the other seats answer with ``normal`` until ``seat`` acts again; evaluate."""
    for _ in range(MAX_PLIES):
        if state.phase == "finished":
            break
        to_act = game.seats_to_act(state)
        if state.phase == "play" and seat in to_act:
            break
        actor = min(to_act) if state.phase == "exchange" else state.turn
        state = game.apply(state, normal_move(game, state, actor), actor)
    return race_eval.evaluate(state, seat)


def carcassonne_move(view: Mapping[str, Any], seat: int, seed: int, budget: Budget) -> Choice:
    """The ``hard`` choice in Carcassonne."""
    state = carc.sample_state(view, sub_seed(seed, 0))
    ranked = scored_choices(state, seat, tile_odds=True)
    if len(ranked) == 1 or state.tiles_left() == 0:
        return ranked[0][1]
    choices = [c for v, c, _ in ranked[:CARC_CANDIDATES] if v >= ranked[0][0] - CARC_MARGIN]
    if len(choices) == 1:
        return choices[0]
    worlds: dict[int, CarcState] = {}

    def play(world: int, i: int) -> float:
        if world not in worlds:
            worlds.clear()
            worlds[world] = carc.sample_state(view, sub_seed(seed, 1, world))
        after = carc.apply(worlds[world], choices[i])
        return _carc_rollout(after, seat)

    return choices[_search(len(choices), budget, play)]


def _carc_rollout(state: CarcState, seat: int) -> float:
    """Let the other players take their turns with ``normal``; evaluate at ``seat``'s turn."""
    for _ in range(MAX_PLIES):
        if state.phase == "finished" or state.to_act == seat or state.to_act is None:
            break
        state = carc.apply(state, normal_choice(state, state.to_act))
    return carcassonne_eval.evaluate(state, seat, Memo(odds=TileOdds(state)))


__all__ = ["carcassonne_move", "race_move"]
