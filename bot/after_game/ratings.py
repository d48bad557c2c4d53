"""Ratings per server and game with openskill's Plackett–Luce model (teams, ties, uncertainty).

A rating belongs to a *player*: ``u:<user id>`` for a person, ``bot:<level>`` for the bots of
one level, so a server sees how strong each level plays. Only finished, unhinted tables count
(an abandoned table has no result); a person who left is ranked behind everyone who stayed,
and the bot that took their seat is not rated for it.

:func:`rate_result` is the only place a rating changes, and it is a pure function of the
ratings before and the result: replaying every stored result in order (:func:`rebuild`)
gives the same numbers to the last bit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce

from bot.after_game.game_result import GameResult


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one game on one server: openskill's ``mu`` and ``sigma``."""

    player: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate the leaderboard sorts by (``mu - 3 sigma``)."""
        return self.mu - 3 * self.sigma


@cache
def model() -> PlackettLuce:
    """The rating model (openskill's defaults: mu 25, sigma 25/3)."""
    return PlackettLuce()


def new_rating(player: str) -> Rating:
    """The rating of a player who has not played yet."""
    start = model().rating()
    return Rating(player, start.mu, start.sigma)


def groups(result: GameResult) -> list[tuple[list[str], int]]:
    """The teams openskill ranks: ``(players, place)``; a person who left is a team alone."""
    found: dict[tuple[int, int], list[str]] = {}
    for seat in result.standings():
        if seat.player is None:
            continue
        if seat.left or seat.team is None:
            key = (seat.place, 100 + seat.seat)
        else:
            key = (seat.place, seat.team)
        found.setdefault(key, []).append(seat.player)
    return [(players, key[0]) for key, players in sorted(found.items())]


def counts(result: GameResult) -> bool:
    """Whether the result moves ratings: rated, and at least two sides to compare."""
    return result.rated and len(groups(result)) >= 2


def rate_result(result: GameResult, before: Mapping[str, Rating]) -> dict[str, Rating]:
    """The new ratings of the result's players, from their ratings ``before`` (missing
    players start fresh). Empty when the result does not count.

    Several bots of one level in one game are one player: each seat is rated as a copy and
    the copies' new ratings are averaged.
    """
    if not counts(result):
        return {}
    sides = groups(result)
    m = model()
    current = {p: before.get(p) or new_rating(p) for players, _ in sides for p in players}
    teams = [[m.rating(mu=current[p].mu, sigma=current[p].sigma) for p in ps] for ps, _ in sides]
    rated = m.rate(teams, ranks=[float(place) for _, place in sides])
    copies: dict[str, list[tuple[float, float]]] = {}
    best: dict[str, int] = {}
    for (players, place), team in zip(sides, rated, strict=True):
        for player, rating in zip(players, team, strict=True):
            copies.setdefault(player, []).append((rating.mu, rating.sigma))
            best[player] = min(best.get(player, place), place)
    after = {}
    for player, values in copies.items():
        old = current[player]
        mu = sum(v[0] for v in values) / len(values)
        sigma = sum(v[1] for v in values) / len(values)
        won = 1 if best[player] == 1 else 0
        after[player] = Rating(player, mu, sigma, old.games + 1, old.wins + won)
    return after


def rebuild(results: Iterable[GameResult]) -> dict[tuple[int, str], dict[str, Rating]]:
    """Every rating from scratch: ``{(guild, game): {player: rating}}``, replaying
    ``results`` in the order they were stored."""
    table: dict[tuple[int, str], dict[str, Rating]] = {}
    for result in results:
        ratings = table.setdefault((result.guild_id, result.game), {})
        ratings.update(rate_result(result, ratings))
    return table
