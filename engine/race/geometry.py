"""Board geometry (C-2, T-2, D-2) and location notation (N-1).

Locations are small ints so that boards hash and compare fast, and so that integer order
is the location order of N-1.5: ring fields ``0 … R-1``, then home slots
``HOME + 10·seat + n``, then kennels ``KENNEL + seat``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from engine.race.cards import deck

HOME = 1000
KENNEL = 2000
MAX_COUNT = 13

Path = tuple[int, ...]


def home(seat: int, slot: int) -> int:
    """The location of home slot ``h<seat>.<slot>``."""
    return HOME + 10 * seat + slot


def kennel(seat: int) -> int:
    """The location of kennel ``k<seat>``."""
    return KENNEL + seat


def is_ring(loc: int) -> bool:
    """Whether ``loc`` is a ring field."""
    return loc < HOME


def is_home(loc: int) -> bool:
    """Whether ``loc`` is a home slot."""
    return HOME <= loc < KENNEL


def home_seat(loc: int) -> int:
    """The seat owning home slot ``loc``."""
    return (loc - HOME) // 10


def home_slot(loc: int) -> int:
    """The slot number 1 … 4 of home slot ``loc``."""
    return (loc - HOME) % 10


def _name(loc: int) -> str:
    if loc < HOME:
        return f"r{loc}"
    if loc < KENNEL:
        return f"h{home_seat(loc)}.{home_slot(loc)}"
    return f"k{loc - KENNEL}"


#: Every location's notation, computed once (move lists spell many locations).
NAMES: dict[int, str] = {
    loc: _name(loc)
    for loc in [
        *range(6 * 18),
        *(HOME + 10 * s + n for s in range(6) for n in range(1, 5)),
        *(KENNEL + s for s in range(6)),
    ]
}


def loc_text(loc: int) -> str:
    """The notation of a location (N-1): ``r17``, ``h0.2``, ``k3``."""
    name = NAMES.get(loc)
    return _name(loc) if name is None else name


_LOC = re.compile(r"r(0|[1-9][0-9]*)|h([0-5])\.([1-4])|k([0-5])")


def parse_loc(text: str) -> int | None:
    """Parse ``rN``, ``hS.n`` or ``kS`` (no range check); ``None`` if malformed."""
    m = _LOC.fullmatch(text)
    if m is None:
        return None
    if m.group(1) is not None:
        return int(m.group(1))
    if m.group(2) is not None:
        return home(int(m.group(2)), int(m.group(3)))
    return kennel(int(m.group(4)))


@dataclass(frozen=True, slots=True)
class Walk:
    """One way for a pawn to walk: the locations it enters, in order (C-4.1).

    ``origin`` is where the walk starts (-1 if unknown); the fields after ``home_fields``
    are derived once so that move generation only glues strings together.
    """

    target: int
    path: Path
    #: The walk turns into the home with its very first step (D-8.3 cares about this).
    turns_in_first: bool = False
    origin: int = -1
    #: The ring fields and the home slots of ``path``, for fast blocking checks (C-4.2).
    ring_fields: frozenset[int] = frozenset()
    home_fields: Path = ()
    #: Every field of ``path``: the walk is blocked if one is guarded or an occupied slot.
    fields: frozenset[int] = frozenset()
    #: ``"<origin>-<target>"`` in notation (N-5.1).
    body: str = ""
    #: The move action ``("walk", origin, target, path)`` (see :class:`~engine.race.move.Move`).
    action: tuple[Any, ...] = ()
    #: The segment keys of the walk (N-6.4), for the display order of moves.
    keys: tuple[tuple[int, int, int], ...] = ()

    def __post_init__(self) -> None:
        path, origin, target = self.path, self.origin, self.target
        object.__setattr__(self, "ring_fields", frozenset(p for p in path if p < HOME))
        object.__setattr__(self, "home_fields", tuple(p for p in path if p >= HOME))
        object.__setattr__(self, "fields", frozenset(path))
        if origin >= 0:
            object.__setattr__(self, "body", f"{loc_text(origin)}-{loc_text(target)}")
            object.__setattr__(self, "action", ("walk", origin, target, path))
            object.__setattr__(self, "keys", ((origin, len(path), target),))


@dataclass(frozen=True)
class Config:
    """Everything fixed for a table: game, seats, board size, options, deck, walks."""

    game: str
    players: int
    seats: tuple[int, ...]
    positions: int
    per_seat: int
    teams: tuple[tuple[int, ...], ...] | None
    options: tuple[tuple[str, Any], ...]
    deck: dict[str, int] = field(hash=False, compare=False)
    ring: int = 0
    start: tuple[int, ...] = ()
    branch: tuple[int, ...] = ()
    partner: tuple[int, ...] = ()
    # Precomputed walks, indexed [seat][location index][count] -> walks (see _walk_tables).
    forward: tuple[dict[int, tuple[tuple[Walk, ...], ...]], ...] = field(
        default=(), hash=False, compare=False, repr=False
    )
    backward4: dict[int, Walk] = field(default_factory=dict, hash=False, compare=False)
    step1: tuple[dict[int, tuple[int, ...]], ...] = field(
        default=(), hash=False, compare=False, repr=False
    )
    #: [seat][location] -> the location and every location a pawn of ``seat`` there can
    #: enter within 7 steps: pawns with disjoint reaches cannot meet in one 7.
    reach7: tuple[dict[int, frozenset[int]], ...] = field(
        default=(), hash=False, compare=False, repr=False
    )
    #: Derived flags, set by :func:`make_config` (plain attributes: read in hot loops).
    is_dog: bool = False
    braendi: bool = False  # Dog with the official Brändi Dog preset (D-1.3)
    seven_single: bool = False  # Tock with seven = single (T-9.3)
    variant5: bool = False  # Tock with variant 5 (T-7.5)

    #: ``following[s]`` is :meth:`next_seat` of ``s`` for every position (a lookup table).
    following: tuple[int, ...] = field(default=(), compare=False, repr=False)
    #: Tables derived lazily by move generation (:mod:`engine.race.movegen`): configs are
    #: shared by every table with the same options, so each entry is built once.
    memo: dict[Any, Any] = field(default_factory=dict, hash=False, compare=False, repr=False)

    def next_seat(self, seat: int) -> int:
        """The next seat in use after ``seat`` (C-1.2)."""
        seats = self.seats
        for s in seats:
            if s > seat:
                return s
        return seats[0]

    def team_of(self, seat: int) -> tuple[int, ...]:
        """The seats winning together with ``seat`` (just ``seat`` in free-for-all)."""
        if self.teams is None:
            return (seat,)
        for team in self.teams:
            if seat in team:
                return team
        return (seat,)

    def loc_ok(self, loc: int, seat: int) -> bool:
        """Whether ``loc`` exists for a pawn of ``seat`` (N-3.4 rule 5)."""
        if loc < HOME:
            return 0 <= loc < self.ring
        if loc < KENNEL:
            return home_seat(loc) == seat
        return loc == kennel(seat)


@lru_cache(maxsize=16)
def _walk_tables(
    ring: int, seats: tuple[int, ...], branch: tuple[int, ...]
) -> tuple[
    tuple[dict[int, tuple[tuple[Walk, ...], ...]], ...],
    dict[int, Walk],
    tuple[dict[int, tuple[int, ...]], ...],
]:
    """Precompute, per seat and start location, the forward walks of 1 … 13 steps."""
    forward: list[dict[int, tuple[tuple[Walk, ...], ...]]] = []
    step1: list[dict[int, tuple[int, ...]]] = []
    for s in range(len(branch)):
        table: dict[int, tuple[tuple[Walk, ...], ...]] = {}
        steps: dict[int, tuple[int, ...]] = {}
        if s not in seats:
            forward.append(table)
            step1.append(steps)
            continue
        b = branch[s]
        for loc in range(ring):
            per_count: list[tuple[Walk, ...]] = [()]
            to_branch = (b - loc) % ring
            for n in range(1, MAX_COUNT + 1):
                ring_path = tuple((loc + i) % ring for i in range(1, n + 1))
                walks = [Walk(ring_path[-1], ring_path, origin=loc)]
                if to_branch < n and n - to_branch <= 4:
                    path = ring_path[:to_branch] + tuple(
                        home(s, i) for i in range(1, n - to_branch + 1)
                    )
                    walks.append(Walk(path[-1], path, to_branch == 0, loc))
                per_count.append(tuple(walks))
            table[loc] = tuple(per_count)
            nxt = ((loc + 1) % ring,)
            steps[loc] = (*nxt, home(s, 1)) if loc == b else nxt
        for slot in range(1, 5):
            loc = home(s, slot)
            per_count = [()]
            for n in range(1, MAX_COUNT + 1):
                if slot + n <= 4:
                    path = tuple(home(s, i) for i in range(slot + 1, slot + n + 1))
                    per_count.append((Walk(path[-1], path, origin=loc),))
                else:
                    per_count.append(())
            table[loc] = tuple(per_count)
            steps[loc] = (home(s, slot + 1),) if slot < 4 else ()
        forward.append(table)
        step1.append(steps)
    backward = {
        loc: Walk((loc - 4) % ring, tuple((loc - i) % ring for i in range(1, 5)), origin=loc)
        for loc in range(ring)
    }
    return tuple(forward), backward, tuple(step1)


def _reach_tables(
    forward: tuple[dict[int, tuple[tuple[Walk, ...], ...]], ...],
) -> tuple[dict[int, frozenset[int]], ...]:
    """Per seat and location: the location and all it can reach in 1 … 7 steps."""
    return tuple(
        {
            loc: frozenset((loc, *(p for n in range(1, 8) for w in per[n] for p in w.path)))
            for loc, per in table.items()
        }
        for table in forward
    )


TOCK_SEATS: dict[int, tuple[int, ...]] = {
    2: (0, 2),
    3: (0, 1, 2),
    4: (0, 1, 2, 3),
    5: (0, 1, 2, 3, 4),
    6: (0, 1, 2, 3, 4, 5),
}
TEAMS_4: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
TEAMS_6: tuple[tuple[int, ...], ...] = ((0, 3), (1, 4), (2, 5))


@lru_cache(maxsize=64)
def make_config(
    game: str,
    players: int,
    options: tuple[tuple[str, Any], ...],
    teams: tuple[tuple[int, ...], ...] | None,
) -> Config:
    """Build (once) the configuration of a table. Inputs must already be validated."""
    if game == "dog":
        per_seat, positions = 16, players
        seats = tuple(range(players))
        the_deck = deck(jokers=6, copies=8)
    else:
        per_seat, positions = 18, (4 if players <= 4 else 6)
        seats = TOCK_SEATS[players]
        the_deck = deck(jokers=0, copies=4)
    ring = per_seat * positions
    start = tuple(per_seat * s for s in range(positions))
    if game == "dog":
        branch = start
    else:
        branch = tuple((per_seat * s - 2) % ring for s in range(positions))
    partner = [-1] * positions
    for team in teams or ():
        a, b = team
        partner[a], partner[b] = b, a
    forward, backward, step1 = _walk_tables(ring, seats, branch)
    return Config(
        game=game,
        players=players,
        seats=seats,
        positions=positions,
        per_seat=per_seat,
        teams=teams,
        options=options,
        deck=the_deck,
        ring=ring,
        start=start,
        branch=branch,
        partner=tuple(partner),
        forward=forward,
        backward4=backward,
        step1=step1,
        reach7=_reach_tables(forward),
        following=tuple(next((t for t in seats if t > s), seats[0]) for s in range(positions)),
        is_dog=game == "dog",
        braendi=game == "dog" and dict(options)["preset"] == "braendi",
        seven_single=game != "dog" and dict(options)["seven"] == "single",
        variant5=game != "dog" and bool(dict(options)["variant5"]),
    )
