"""A hint for a learner: the ``hard`` bot's choice for a seat, with reasons in facts.

:func:`hint` asks the ``hard`` bot what the viewer of ``view`` should play, then compares the
position before and after that move (on a state sampled from the same view, so nothing the
player cannot see is used) and names what the move achieves: a pawn home, an opponent sent
home, a pawn out of danger, points scored, a city claimed. Reasons are catalogue keys with
parameters (seat numbers, counts), never sentences: the front end says them in the reader's
language. Pure and deterministic given ``seed`` (and an ``iterations`` cap).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import engine.carcassonne as carc
from engine.bots.common import sub_seed
from engine.bots.race_eval import geometry, pawn_worth, seat_worths
from engine.carcassonne.state import State as CarcState
from engine.carcassonne.tiles import CITY, ROAD
from engine.race.api import RaceGame
from engine.race.geometry import HOME, KENNEL
from engine.race.state import State as RaceState

#: At most this many reasons are given (one line for a phone).
MAX_REASONS = 2
#: Expected steps of loss a move must save before it counts as "keeps your pawn safe".
SAFETY_STEPS = 3.0


@dataclass(frozen=True)
class Reason:
    """One thing a move achieves: ``key`` (``"capture"``, ``"home"``, …) and its facts."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Hint:
    """The move the ``hard`` bot would play (canonical text) and why, best reason first."""

    move: str
    reasons: tuple[Reason, ...]


def hint(
    game: str,
    view: Mapping[str, Any],
    *,
    seed: int,
    time_budget: float = 1.0,
    iterations: int | None = None,
) -> Hint:
    """The ``hard`` bot's move for ``view["viewer"]``, with up to two reasons.

    Takes the same arguments as :func:`engine.bots.choose_move`; raises ``ValueError`` if
    the viewer owes no decision.
    """
    from engine.bots import _race_game, choose_move

    move = choose_move(
        game, view, "hard", seed=seed, time_budget=time_budget, iterations=iterations
    )
    seat = int(view["viewer"])
    if game == "carcassonne":
        state = carc.sample_state(view, sub_seed(seed, 0))
        reasons = carcassonne_reasons(state, seat, move)
    else:
        race = _race_game(game)
        reasons = race_reasons(race, race.sample_state(view, sub_seed(seed, 0)), seat, move)
    return Hint(move, tuple(reasons[:MAX_REASONS]))


# -- Tock and Dog -------------------------------------------------------------------------------


def _kennelled(state: RaceState, seat: int) -> int:
    return sum(1 for loc in state.pawns[seat] if loc >= KENNEL)


def _at_home(state: RaceState, seat: int) -> int:
    return sum(1 for loc in state.pawns[seat] if HOME <= loc < KENNEL)


def _risk(state: RaceState, seats: tuple[int, ...]) -> float:
    """The expected loss (in steps) of ``seats``' pawns to the opponents' next cards."""
    worths = seat_worths(state)
    geo = geometry(state.cfg)
    total = 0.0
    for s in seats:
        full = sum(
            pawn_worth(geo, s, loc, s in state.guards and loc == geo.start[s])
            for loc in state.pawns[s]
        )
        total += full - worths[s]
    return total


def race_reasons(game: RaceGame, state: RaceState, seat: int, move: str) -> list[Reason]:
    """What ``move`` of ``seat`` achieves on ``state``, most important first."""
    if state.phase == "exchange":
        return _pick_reasons(state, seat, move[2:])
    if move == "F":
        return [Reason("fold")]
    if move.endswith(":D"):
        return [Reason("discard", {"card": move[:-2]})]
    cfg = state.cfg
    colour = state.moved_colour(seat)
    team = cfg.team_of(seat)
    after = game.apply(state, move, seat)
    reasons: list[Reason] = []
    if after.phase == "finished" and after.winner is not None and seat in after.winner:
        reasons.append(Reason("win"))
    others = [s for s in cfg.seats if s not in team]
    sent = [s for s in others if _kennelled(after, s) > _kennelled(state, s)]
    home = _at_home(after, colour) - _at_home(state, colour)
    if home > 0:
        key = "home" if colour == seat else "home_partner"
        reasons.append(Reason(key, {"count": home, "seat": colour}))
    if sent:
        reasons.append(Reason("capture", {"seats": tuple(sent)}))
    if _kennelled(after, colour) < _kennelled(state, colour):
        reasons.append(Reason("bring_out" if colour == seat else "bring_out_partner"))
    if not cfg.is_dog and after.banned and after.phase == "play":
        reasons.append(Reason("ban", {"seat": after.turn}))
    if after.phase == "play" and _risk(state, team) - _risk(after, team) >= SAFETY_STEPS:
        reasons.append(Reason("safe"))
    if colour != seat and not reasons:
        reasons.append(Reason("helps_partner", {"seat": colour}))
    if not reasons:
        reasons.append(Reason("advance"))
    return reasons


def _pick_reasons(state: RaceState, seat: int, card: str) -> list[Reason]:
    partner = state.cfg.partner[seat]
    if partner < 0:
        return [Reason("pick")]
    colour = state.moved_colour(partner)
    pawns = state.pawns[colour]
    stuck = all(loc >= HOME for loc in pawns) and any(loc >= KENNEL for loc in pawns)
    starts = ("A", "K", "X")
    if card in starts and stuck:
        return [Reason("pick_start", {"seat": partner})]
    mine = state.pawns[state.moved_colour(seat)]
    waiting = any(loc >= KENNEL for loc in mine)
    if waiting and card not in starts and any(c in starts for c in state.hands[seat]):
        return [Reason("pick_keep_start")]
    return [Reason("pick")]


# -- Carcassonne ----------------------------------------------------------------------------


def carcassonne_reasons(state: CarcState, seat: int, move: str) -> list[Reason]:
    """What the Carcassonne turn (or figure action) ``move`` achieves for ``seat``."""
    after = carc.apply(state, move)
    reasons: list[Reason] = []
    points = after.scores[seat] - state.scores[seat]
    if points > 0:
        reasons.append(Reason("score", {"count": points}))
    action = move.rsplit(" ", 1)[-1]
    kind, _, segment = action.partition(":")
    if kind in ("follower", "big"):
        feature = segment.rstrip("0123456789")
        reasons.append(Reason("claim", {"feature": feature}))
    elif kind in ("builder", "pig"):
        reasons.append(Reason(kind))
    if kind == "none" and points == 0:
        extended = _extended(after, seat, move)
        if extended is not None:
            reasons.append(Reason("extend", {"feature": extended}))
    if not reasons:
        reasons.append(Reason("keep_followers"))
    return reasons


_FEATURE_WORDS = {CITY: "city", ROAD: "road"}


def _extended(state: CarcState, seat: int, move: str) -> str | None:
    """``"city"`` or ``"road"`` if the placed tile grew an open feature ``seat`` holds."""
    parts = move.split(" ")
    if len(parts) != 3:
        return None
    x, _, y = parts[1].partition("@")[0].partition(",")
    cell = (int(x), int(y))
    for fig in state.figures:
        if fig.player != seat:
            continue
        feat = state.feats.get(state.find(fig.sid))
        if feat is not None and feat.kind in _FEATURE_WORDS and cell in feat.cells:
            return _FEATURE_WORDS[feat.kind]
    return None


__all__ = ["Hint", "Reason", "carcassonne_reasons", "hint", "race_reasons"]
