"""Points per place and the standings, with the tie-breaks each format uses.

Points: by the settings' table (1st, 2nd, ...) or, by default, two for every entrant beaten at
the table and one for every entrant tied with (2/1/0 at a table of two, 2(n-1) down to 0 by
place at a table of n). A bye scores as a win at a full table.

Standings order: points first, then

- Swiss: Buchholz (the sum of the points of every opponent met), head-to-head, game score;
- round robin: head-to-head, game score;
- knockout: how far the entrant came (the champion first), then points and game score.

Head-to-head counts, among entrants still tied, the points each won against the others (two
per tied entrant beaten at a shared table, one per tie). The seed settles nothing: entrants
equal on every tie-break share their rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from bot.tournament.model import Format, Match, Settings, Tournament, total_rounds


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings. ``rank`` is shared by entrants tied on every tie-break;
    ``reached`` is the last knockout round an entrant played (0 elsewhere); ``champion`` marks
    a knockout's winner once the final is played."""

    key: str
    name: str
    rank: int
    points: int
    buchholz: int
    head_to_head: int
    score: int
    played: int
    byes: int
    reached: int = 0


def place_points(settings: Settings, match: Match, key: str) -> int:
    """The tournament points ``key`` won at the finished ``match``."""
    place = match.place_of(key)
    if settings.points:
        return settings.points[place - 1] if place <= len(settings.points) else 0
    assert match.places is not None
    beaten = sum(1 for p in match.places if p > place)
    tied = sum(1 for p in match.places if p == place) - 1
    return 2 * beaten + tied


def bye_points(settings: Settings) -> int:
    """What a bye scores: a win at a full table."""
    if settings.points:
        return settings.points[0]
    return 2 * (settings.table_size - 1)


def _finished_matches(tournament: Tournament) -> Iterable[Match]:
    for round_ in tournament.rounds:
        yield from (m for m in round_.matches if m.finished)


def points_of(tournament: Tournament) -> dict[str, int]:
    """Every entrant's points so far (finished tables and byes)."""
    points = {e.key: 0 for e in tournament.entrants}
    for match in _finished_matches(tournament):
        for key in match.entrants:
            points[key] += place_points(tournament.settings, match, key)
    for round_ in tournament.rounds:
        for key in round_.byes:
            points[key] += bye_points(tournament.settings)
    return points


def opponents_of(tournament: Tournament) -> dict[str, list[str]]:
    """Whom every entrant has met (once per table shared, finished or not)."""
    met: dict[str, list[str]] = {e.key: [] for e in tournament.entrants}
    for round_ in tournament.rounds:
        for match in round_.matches:
            for key in match.entrants:
                met[key].extend(k for k in match.entrants if k != key)
    return met


def _head_to_head(tournament: Tournament, group: set[str]) -> dict[str, int]:
    """Points each of ``group`` won against the others of ``group``."""
    won = dict.fromkeys(group, 0)
    for match in _finished_matches(tournament):
        inside = [k for k in match.entrants if k in group]
        for key in inside:
            mine = match.place_of(key)
            for other in inside:
                if other != key:
                    theirs = match.place_of(other)
                    won[key] += 2 if mine < theirs else (1 if mine == theirs else 0)
    return won


def _reached(tournament: Tournament) -> dict[str, int]:
    """Knockout: the last round each entrant took part in (a bye counts), the champion one
    more than the final."""
    reached = {e.key: 0 for e in tournament.entrants}
    for round_ in tournament.rounds:
        for key in round_.byes:
            reached[key] = round_.number
        for match in round_.matches:
            for key in match.entrants:
                reached[key] = round_.number
    winner = champion(tournament)
    if winner is not None:
        reached[winner] += 1
    return reached


def match_winner(tournament: Tournament, match: Match) -> str:
    """Who goes on from a finished knockout table: the best place, then the better game
    score, then the higher seed, then the first seated."""
    seeds = {e.key: e.seed for e in tournament.entrants}
    order = sorted(
        range(len(match.entrants)),
        key=lambda i: (
            match.place_of(match.entrants[i]),
            -match.score_of(match.entrants[i]),
            -seeds[match.entrants[i]],
            i,
        ),
    )
    return match.entrants[order[0]]


def champion(tournament: Tournament) -> str | None:
    """The knockout winner once the final is played; elsewhere the leader once every round
    is played; ``None`` before."""
    if not tournament.rounds or not tournament.rounds[-1].finished:
        return None
    if len(tournament.rounds) < total_rounds(tournament):
        return None
    if tournament.settings.format == Format.KNOCKOUT:
        last = tournament.rounds[-1]
        if len(last.matches) == 1:
            return match_winner(tournament, last.matches[0])
        return last.byes[0] if len(last.byes) == 1 and not last.matches else None
    table = standings(tournament)
    leaders = [s for s in table if s.rank == 1]
    return leaders[0].key if len(leaders) == 1 else None


def standings(tournament: Tournament) -> list[Standing]:
    """The standings, best first (see the module docstring for the order)."""
    settings = tournament.settings
    points = points_of(tournament)
    met = opponents_of(tournament)
    buchholz = {k: sum(points[o] for o in met[k]) for k in points}
    score: dict[str, int] = defaultdict(int)
    played: dict[str, int] = defaultdict(int)
    for match in _finished_matches(tournament):
        for key in match.entrants:
            score[key] += match.score_of(key)
            played[key] += 1
    byes: dict[str, int] = defaultdict(int)
    for round_ in tournament.rounds:
        for key in round_.byes:
            byes[key] += 1
    reached = (
        _reached(tournament) if settings.format == Format.KNOCKOUT else dict.fromkeys(points, 0)
    )
    use_buchholz = settings.format == Format.SWISS

    def before_h2h(key: str) -> tuple[int, ...]:
        return (reached[key], points[key], buchholz[key] if use_buchholz else 0)

    groups: dict[tuple[int, ...], set[str]] = defaultdict(set)
    for key in points:
        groups[before_h2h(key)].add(key)
    h2h: dict[str, int] = {}
    for group in groups.values():
        h2h.update(_head_to_head(tournament, group) if len(group) > 1 else dict.fromkeys(group, 0))

    def full(key: str) -> tuple[int, ...]:
        return (*before_h2h(key), h2h[key], score[key])

    names = {e.key: e.name for e in tournament.entrants}
    seeds = {e.key: e.seed for e in tournament.entrants}
    order = sorted(points, key=lambda k: (tuple(-x for x in full(k)), -seeds[k], names[k]))
    result: list[Standing] = []
    for position, key in enumerate(order, start=1):
        rank = position
        if result and full(order[position - 2]) == full(key):
            rank = result[-1].rank
        result.append(
            Standing(
                key=key,
                name=names[key],
                rank=rank,
                points=points[key],
                buchholz=buchholz[key],
                head_to_head=h2h[key],
                score=score[key],
                played=played[key],
                byes=byes[key],
                reached=reached[key],
            )
        )
    return result
