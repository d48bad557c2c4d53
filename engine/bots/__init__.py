"""Engine-side players that fill empty seats: ``easy``, ``normal`` and ``hard`` for every game.

The table service calls :func:`choose_move` with the view of the seat the bot plays. A bot
sees exactly what a player in that seat sees: it rebuilds a full state with the game's
``sample_state(view, seed)`` (hidden hands, draw pile or tile bag filled at random) and never
reads the real state, so its choice cannot depend on hidden information. Everything is pure
and deterministic given ``seed`` (``hard`` also given an ``iterations`` cap; its time budget
only ever cuts a search short).

Levels:

* ``easy``: a uniformly random legal move (seeded).
* ``normal``: a one-move heuristic (:mod:`engine.bots.race_policy`,
  :mod:`engine.bots.carcassonne_policy`).
* ``hard``: determinized Monte-Carlo search over the ``normal`` bot's best candidates, and
  over every card of the hand for a Tock/Dog exchange pick (:mod:`engine.bots.search`),
  with fast playout policies in its rollouts (:mod:`engine.bots.fast`).

:func:`engine.bots.hints.hint` gives a learner the ``hard`` choice with its reasons.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine.carcassonne as carc
from engine.bots import carcassonne_policy, race_policy, search
from engine.bots.common import LEVELS, Budget, check_level, rng_for, sub_seed
from engine.race.api import RaceGame

__all__ = ["LEVELS", "choose_move"]


def _race_game(game: str) -> RaceGame:
    if game == "tock":
        from engine import tock

        return tock.GAME
    from engine import dog

    return dog.GAME


def choose_move(
    game: str,
    view: Mapping[str, Any],
    level: str,
    *,
    seed: int,
    time_budget: float = 1.0,
    iterations: int | None = None,
) -> str:
    """The move text (canonical notation) the bot playing ``view["viewer"]`` chooses.

    ``game`` is ``"tock"``, ``"dog"`` or ``"carcassonne"``; ``view`` is
    ``get_game(game).view(state, seat)``; ``level`` is ``"easy"``, ``"normal"`` or
    ``"hard"`` (anything else raises ``ValueError``). The answer fits the phase of the view:
    an exchange pick ``G:c``, a whole card play (a whole 7), the next segment of a pending
    7, a whole Carcassonne turn ``"<tile> x,y@rot action"``, or a figure action in phase
    ``figure``. ``hard`` searches for at most ``time_budget`` seconds of CPU time (and at
    most three times that on the wall clock) and, if given, at most ``iterations`` sampled
    worlds (deterministic for a seed when the cap is reached
    first). Raises ``ValueError`` if the viewer owes no decision.
    """
    check_level(level)
    if game not in ("tock", "dog", "carcassonne"):
        raise ValueError(f"unknown game {game!r}; choose one of tock, dog, carcassonne")
    seat = view.get("viewer")
    if not isinstance(seat, int) or seat not in view.get("to_act", ()):
        raise ValueError(f"seat {seat!r} owes no decision in this view")
    # Keep a margin for the work around the search (sampling, ranking, the caller).
    budget = Budget(max(0.0, 0.75 * time_budget), iterations)
    if game == "carcassonne":
        return _carcassonne(view, level, seat, seed, budget)
    return _race(_race_game(game), view, level, seat, seed, budget)


def _race(
    game: RaceGame, view: Mapping[str, Any], level: str, seat: int, seed: int, budget: Budget
) -> str:
    if level == "hard":
        return search.race_move(game, view, seat, seed, budget).text
    state = game.sample_state(view, sub_seed(seed, 0))
    if level == "easy":
        return race_policy.random_move(game, state, seat, rng_for(seed, 1)).text
    return race_policy.normal_move(game, state, seat).text


def _carcassonne(view: Mapping[str, Any], level: str, seat: int, seed: int, budget: Budget) -> str:
    if level == "hard":
        return str(search.carcassonne_move(view, seat, seed, budget))
    state = carc.sample_state(view, sub_seed(seed, 0))
    if level == "easy":
        return str(carcassonne_policy.random_choice(state, rng_for(seed, 1)))
    return str(carcassonne_policy.normal_choice(state, seat))
