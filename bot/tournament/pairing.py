"""Who meets whom in the next round.

- **Swiss**, two entrants a table: round 1 folds the field by seed (1st against the first of
  the lower half); later rounds pair entrants of equal or close points who have not met. The
  pairing is a maximum-weight matching (networkx's blossom algorithm) whose weights put, in
  this order: every entrant seated (or one bye when the count is odd), as few repeat meetings
  as possible (none while a pairing without repeats exists), no second bye for anyone while
  another can take it, then close points, then close rank. The bye goes to the lowest-ranked
  entrant who has had none.
- **Swiss**, more entrants a table (Carcassonne 3-5, Tock free-for-all): entrants are grouped
  by rank into tables as even as the table size allows (BGA's grouping by close scores); a
  group skips a candidate who met one of its entrants for the next one down when it can.
  Round 1 deals seeds out in a snake so tables are balanced.
- **Knockout**, two a table: a bracket by seed (1 meets the lowest, byes to the top seeds when
  the field is not a power of two); each winner goes on in bracket order.
- **Round robin**, two a table: the circle method; with an odd count one entrant rests each
  round.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import networkx as nx

from bot.tournament.model import Format, Match, Round, Tournament, total_rounds
from bot.tournament.standings import match_winner, opponents_of, points_of, standings

#: Weights of the Swiss matching, each tier larger than everything below it can add up to.
_NEW_PAIR = 10**15
_FIRST_BYE = 10**13
_POINTS = 10**4


def next_round(tournament: Tournament) -> Round | None:
    """The next round's pairing, or ``None`` once the last round is played (or when the
    current round has not finished)."""
    if tournament.rounds and not tournament.rounds[-1].finished:
        return None
    number = len(tournament.rounds) + 1
    if number > total_rounds(tournament):
        return None
    settings = tournament.settings
    if settings.format == Format.KNOCKOUT:
        return _knockout(tournament, number)
    if settings.format == Format.ROUND_ROBIN:
        return _round_robin(tournament, number)
    if settings.table_size == 2:
        return _swiss_pairs(tournament, number)
    return _swiss_groups(tournament, number)


def _by_seed(tournament: Tournament) -> list[str]:
    """The entrants by seed, strongest first (ties: the order they signed up)."""
    order = sorted(enumerate(tournament.entrants), key=lambda pair: (-pair[1].seed, pair[0]))
    return [e.key for _, e in order]


def _ranked(tournament: Tournament) -> list[str]:
    """The active entrants by current standing (by seed before any result)."""
    active = {e.key for e in tournament.active}
    if not tournament.rounds:
        return [k for k in _by_seed(tournament) if k in active]
    return [s.key for s in standings(tournament) if s.key in active]


def _had_bye(tournament: Tournament) -> set[str]:
    return {k for r in tournament.rounds for k in r.byes}


def _swiss_pairs(tournament: Tournament, number: int) -> Round:
    ranked = _ranked(tournament)
    if number == 1:
        bye = (ranked.pop(),) if len(ranked) % 2 else ()
        half = len(ranked) // 2
        matches = tuple(Match((ranked[i], ranked[i + half])) for i in range(half))
        return Round(number, matches, bye)
    points = points_of(tournament)
    met = opponents_of(tournament)
    had_bye = _had_bye(tournament)
    rank = {k: i for i, k in enumerate(ranked)}
    graph = nx.Graph()
    graph.add_nodes_from(ranked)
    for i, a in enumerate(ranked):
        for b in ranked[i + 1 :]:
            weight = _NEW_PAIR if b not in met[a] else 0
            weight -= _POINTS * (points[a] - points[b]) ** 2 + abs(rank[a] - rank[b])
            graph.add_edge(a, b, weight=weight + _NEW_PAIR)
    bye_node = None
    if len(ranked) % 2:
        bye_node = ("bye",)
        for a in ranked:
            weight = _NEW_PAIR + (_FIRST_BYE if a not in had_bye else 0) + rank[a]
            graph.add_edge(bye_node, a, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    byes: list[str] = []
    pairs: list[tuple[str, str]] = []
    for a, b in matching:
        if a == bye_node or b == bye_node:
            byes.append(b if a == bye_node else a)
        else:
            pairs.append((a, b) if rank[a] < rank[b] else (b, a))
    pairs.sort(key=lambda pair: rank[pair[0]])
    return Round(number, tuple(Match(pair) for pair in pairs), tuple(byes))


def table_sizes(count: int, size: int, smallest: int) -> list[int]:
    """Split ``count`` entrants into tables of at most ``size`` and at least ``smallest``,
    as even as possible; whoever does not fit sits out (a bye)."""
    tables = math.ceil(count / size)
    while tables > 0 and count // tables < smallest:
        tables -= 1
    if tables == 0:
        return []
    seated = min(count, tables * size)
    base, extra = divmod(seated, tables)
    return [base + 1 if i < extra else base for i in range(tables)]


def _swiss_groups(tournament: Tournament, number: int) -> Round:
    settings = tournament.settings
    ranked = _ranked(tournament)
    sizes = table_sizes(len(ranked), settings.table_size, settings.min_table)
    seated = sum(sizes)
    had_bye = _had_bye(tournament)
    # The byes: the lowest-ranked without one yet (then the lowest-ranked).
    candidates = sorted(range(len(ranked)), key=lambda i: (ranked[i] in had_bye, -i))
    bye_index = set(candidates[: len(ranked) - seated])
    byes = tuple(ranked[i] for i in sorted(bye_index))
    playing = [k for i, k in enumerate(ranked) if i not in bye_index]
    if number == 1:
        groups: list[list[str]] = [[] for _ in sizes]
        order = _snake(len(sizes), sizes)
        for key, table in zip(playing, order, strict=True):
            groups[table].append(key)
        return Round(number, tuple(Match(tuple(g)) for g in groups), byes)
    met = opponents_of(tournament)
    rest = list(playing)
    matches: list[Match] = []
    for size in sizes:
        group: list[str] = []
        while len(group) < size:
            pick = next(
                (k for k in rest if not any(k in met[g] for g in group)),
                rest[0],
            )
            rest.remove(pick)
            group.append(pick)
        matches.append(Match(tuple(group)))
    return Round(number, tuple(matches), byes)


def _snake(tables: int, sizes: Sequence[int]) -> list[int]:
    """Table numbers for entrants dealt in a snake (0, 1, 2, 2, 1, 0, ...), skipping full
    tables."""
    order: list[int] = []
    filled = [0] * tables
    forward = True
    while len(order) < sum(sizes):
        sweep = range(tables) if forward else range(tables - 1, -1, -1)
        for table in sweep:
            if filled[table] < sizes[table]:
                filled[table] += 1
                order.append(table)
        forward = not forward
    return order


def _bracket(size: int) -> list[int]:
    """Seed numbers (0-based) in bracket order: 1 meets the last, and the top seeds meet
    only in the last rounds."""
    order = [0]
    while len(order) < size:
        length = len(order) * 2
        order = [x for seed in order for x in (seed, length - 1 - seed)]
    return order


def _pairs_of(lineup: Sequence[str], number: int) -> Round:
    matches: list[Match] = []
    byes: list[str] = []
    for i in range(0, len(lineup), 2):
        a, b = lineup[i], lineup[i + 1]
        if a and b:
            matches.append(Match((a, b)))
        elif a or b:
            byes.append(a or b)
    return Round(number, tuple(matches), tuple(byes), tuple(lineup))


def _knockout(tournament: Tournament, number: int) -> Round:
    active = {e.key for e in tournament.active}
    if number == 1:
        seeds = [k for k in _by_seed(tournament) if k in active]
        size = 2 ** max(1, math.ceil(math.log2(max(len(seeds), 2))))
        lineup = [seeds[s] if s < len(seeds) else "" for s in _bracket(size)]
        return _pairs_of(lineup, number)
    last = tournament.rounds[-1]
    winners: list[str] = []
    for i in range(0, len(last.lineup), 2):
        a, b = last.lineup[i], last.lineup[i + 1]
        match = next((m for m in last.matches if set(m.entrants) == {a, b}), None)
        went_on = match_winner(tournament, match) if match is not None else (a or b)
        winners.append(went_on if went_on in active else "")
    return _pairs_of(winners, number)


def _round_robin(tournament: Tournament, number: int) -> Round:
    keys: list[str] = _by_seed(tournament)
    if len(keys) % 2:
        keys.append("")
    n = len(keys)
    # The circle method: the first stays, the others turn one place each round.
    turning = keys[1:]
    shift = (number - 1) % (n - 1)
    turning = turning[-shift:] + turning[:-shift] if shift else turning
    circle = [keys[0], *turning]
    active = {e.key for e in tournament.active}
    matches: list[Match] = []
    byes: list[str] = []
    for i in range(n // 2):
        a, b = circle[i], circle[n - 1 - i]
        a = a if a in active else ""
        b = b if b in active else ""
        if a and b:
            matches.append(Match((a, b)))
        elif a or b:
            byes.append(a or b)
    return Round(number, tuple(matches), tuple(byes))
