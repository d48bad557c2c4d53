"""The ``hard`` bots: determinized Monte-Carlo search over the best few candidate moves.

One iteration draws a *world*: a full state consistent with the bot's view
(``sample_state(view, seed_i)``: other hands, draw pile or tile bag filled at random). In
that world every candidate move is played, then the game is rolled out with the fast
playout policies of :mod:`engine.bots.fast` (``normal``'s judgement at a fraction of its
cost, so several times more worlds fit in the budget) and the position is evaluated:

* Tock and Dog: the other seats answer, the bot plays its next turn too (so a move that
  sets up the next card of its hand is seen), the others answer again; the rollout stops
  earlier at the end of the hand (a new deal) or of the game. An exchange pick (the card
  passed to the partner) is searched the same way: the other seats pick, and the partner
  gets to play with the card before the position is evaluated.
* Carcassonne: the other players take their turns until the bot draws again; with only a
  few tiles left the rollout plays on to the end of the game, so the final scoring (farms,
  unfinished features) is counted exactly in that world.

Every candidate meets the same worlds (common random numbers), so differences between
candidates are not drowned by the luck of the draw. Candidates that are clearly worse than
the ``normal`` favourite after a few worlds are dropped, so the rest of the budget goes to
the close ones. The favourite is kept unless another candidate beats it clearly on those
worlds (see ``_pick``): a small budget then makes ``hard`` play like ``normal`` rather than
worse.

The candidates are the ``normal`` bot's top moves, so ``hard`` never considers a move that
the one-move heuristic ranks far down (in an exchange: every card of the hand); with a
single candidate it answers at once. The rest of a pending 7 is left to ``normal``, whose
segment search already looks at every completion.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import engine.carcassonne as carc
from engine.bots import carcassonne_eval, race_eval
from engine.bots.carcassonne_eval import Memo, TileOdds
from engine.bots.carcassonne_policy import Choice, normal_choice, scored_choices
from engine.bots.common import Budget, rng_for, sub_seed
from engine.bots.fast import fast_choice, fast_move
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
#: Safety cap on the plies of one Carcassonne rollout before the end game.
MAX_PLIES = 12
#: Own turns a race rollout plays with ``normal`` after the candidate, before evaluating.
#: Two turns let the search see what a move leaves for the rest of the hand (a card kept
#: for a pawn still to come out, a pawn parked where the next card brings it home); with
#: the engine's fast card plays the deeper rollouts still fit many worlds in the budget.
RACE_OWN_TURNS = 2
#: Safety cap on the plies (card plays, 7 segments) of one race rollout.
RACE_MAX_PLIES = 60
#: Exchange picks compared by the search (the cards of the hand, best pick score first).
RACE_PICK_CANDIDATES = 6
#: Own turns a rollout plays after an exchange pick (the partner's use of the card counts).
RACE_PICK_OWN_TURNS = 2
#: With this many tiles left or fewer, a Carcassonne rollout plays to the end of the game.
CARC_ENDGAME_TILES = 4
#: What winning outright adds to the final score margin of an end-game rollout.
FINAL_WIN = 5.0
#: Worlds before a clearly worse candidate may be dropped, and by how many standard errors
#: of the paired difference it must trail the ``normal`` choice.
PRUNE_WORLDS = 4
PRUNE_EVIDENCE = 2.0


def _paired(first: Sequence[float], other: Sequence[float]) -> tuple[int, float, float]:
    """(worlds, mean, standard error) of ``other - first`` on the worlds both met."""
    n = min(len(first), len(other))
    if n < 2:
        return n, 0.0, math.inf
    diffs = [other[w] - first[w] for w in range(n)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return n, mean, math.sqrt(var / n)


def _pick(scores: Sequence[Sequence[float]]) -> int:
    """The candidate to play, given each candidate's rollout scores on the same worlds.

    Candidate 0 is the ``normal`` bot's choice. Another candidate replaces it only with
    evidence: on the worlds both met, its mean gain over candidate 0 must be positive and
    larger than :data:`EVIDENCE` standard errors of that paired difference. With few worlds
    the best-looking of several noisy means is usually just lucky (the winner's curse);
    this keeps ``hard`` at least as good as ``normal`` when the budget is small.
    """
    if len(scores[0]) < MIN_WORLDS:
        return 0
    best, best_gain = 0, 0.0
    for i in range(1, len(scores)):
        n, mean, error = _paired(scores[0], scores[i])
        if n < MIN_WORLDS:
            continue
        if mean > EVIDENCE * error and mean > best_gain:
            best, best_gain = i, mean
    return best


def _still_in(scores: Sequence[Sequence[float]], alive: Sequence[int]) -> list[int]:
    """The candidates worth more worlds: the favourite and any not clearly worse than it."""
    kept = []
    for i in alive:
        n, mean, error = _paired(scores[0], scores[i])
        if i == 0 or n < PRUNE_WORLDS or mean >= -PRUNE_EVIDENCE * error:
            kept.append(i)
    return kept


def _search(count: int, budget: Budget, play: Callable[[int, int], float]) -> int:
    """Run worlds until the budget says stop; ``play(world, i)`` scores candidate ``i``.

    Before each rollout the clock must leave room for one more rollout of average length,
    so a search rarely overruns its budget. Only whole worlds count, so that candidates are
    always compared on the same worlds; a candidate dropped as clearly worse keeps the
    scores of the worlds it met. With an iteration cap and enough time the result depends
    on the seed only.
    """
    scores: list[list[float]] = [[] for _ in range(count)]
    alive = list(range(count))
    world = 0
    spent = 0.0
    rollouts = 0
    while budget.allows(world) and len(alive) > 1:
        found: list[float] = []
        for i in alive:
            average = spent / rollouts if rollouts else 0.0
            if not budget.time_left(reserve=average):
                break
            started = time.thread_time()
            found.append(play(world, i))
            spent += time.thread_time() - started
            rollouts += 1
        if len(found) < len(alive):
            break  # a world cut short would compare candidates on different worlds
        for i, score in zip(alive, found, strict=True):
            scores[i].append(score)
        world += 1
        alive = _still_in(scores, alive)
    return _pick(scores)


def race_move(
    game: RaceGame, view: Mapping[str, Any], seat: int, seed: int, budget: Budget
) -> Move:
    """The ``hard`` choice in Tock or Dog."""
    state = game.sample_state(view, sub_seed(seed, 0))
    if state.seven is not None:
        # The rest of a pending 7: the heuristic already searches every completion.
        return normal_move(game, state, seat)
    ranked = scored_moves(game, state, seat)
    if state.phase == "exchange":
        # Every card is a candidate: the heuristic's pick score is a rough guess, and the
        # partner's hand (which decides what the card is worth to them) is unknown.
        moves = [m for _, m in ranked[:RACE_PICK_CANDIDATES]]
    else:
        moves = [m for score, m in ranked[:RACE_CANDIDATES] if score >= ranked[0][0] - RACE_MARGIN]
    if len(moves) == 1:
        return moves[0]
    own_turns = RACE_PICK_OWN_TURNS if state.phase == "exchange" else RACE_OWN_TURNS
    worlds: dict[int, RaceState] = {}

    def play(world: int, i: int) -> float:
        if world not in worlds:
            worlds.clear()
            worlds[world] = game.sample_state(view, sub_seed(seed, 1, world))
        after = game.apply(worlds[world], moves[i].text, seat)
        return _race_rollout(game, after, seat, own_turns)

    return moves[_search(len(moves), budget, play)]


def _race_rollout(
    game: RaceGame, state: RaceState, seat: int, own_turns: int = RACE_OWN_TURNS
) -> float:
    """Roll out with ``normal`` for every seat; evaluate when ``seat`` is due again.

    ``seat`` itself plays ``own_turns`` more turns first, so the worth of a move that
    prepares the next card shows; the rollout ends early with the hand (a new deal brings
    fresh, random cards that no candidate earned) or the game. An exchange still open
    (the candidate was a pick) is completed with the ``normal`` picks of the other seats,
    after which the partner plays with the card it received.
    """
    hand = (state.number, state.dealer)
    own = 0
    for _ in range(RACE_MAX_PLIES):
        if state.phase not in ("play", "exchange") or (state.number, state.dealer) != hand:
            break
        if state.phase == "exchange":
            for s in sorted(game.seats_to_act(state)):
                state = game.apply(state, normal_move(game, state, s), s)
            continue
        actor = state.turn
        if actor == seat and state.seven is None:
            if own >= own_turns:
                break
            own += 1
        state = game.apply(state, fast_move(game, state, actor), actor)
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
        # The same replies' sample for every candidate of a world (common random numbers).
        return _carc_rollout(after, seat, to_end, rng_for(seed, 2, world))

    to_end = state.tiles_left() <= CARC_ENDGAME_TILES

    return choices[_search(len(choices), budget, play)]


def _carc_rollout(
    state: CarcState, seat: int, to_end: bool = False, rng: random.Random | None = None
) -> float:
    """Let the others take their turns; evaluate at ``seat``'s next draw.

    The others play the fast policy (:func:`~engine.bots.fast.fast_choice`, a sample of
    placements drawn with ``rng``), or ``normal`` without ``rng``. With ``to_end`` everyone
    (``seat`` too) plays on to the end of the game and the final score margin is the result.
    """
    plies = state.tiles_left() * state.players + MAX_PLIES if to_end else MAX_PLIES
    for _ in range(plies):
        if state.phase == "finished" or state.to_act is None:
            break
        if state.to_act == seat and not to_end:
            break
        actor = state.to_act
        choice = normal_choice(state, actor) if rng is None else fast_choice(state, actor, rng)
        state = carc.apply(state, choice)
    if state.phase == "finished":
        # The margin, not the +-WIN of ``evaluate``: a few worlds of win/loss swings would
        # hide every difference between candidates; a win still counts a little extra.
        scores = state.scores
        margin = scores[seat] - max(v for p, v in enumerate(scores) if p != seat)
        return margin + (FINAL_WIN if state.winners == (seat,) else 0.0)
    return carcassonne_eval.evaluate(state, seat, Memo(odds=TileOdds(state)))


__all__ = ["carcassonne_move", "race_move"]
