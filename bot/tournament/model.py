"""A tournament's values: settings, entrants, rounds and their matches.

An *entrant* is who scores in the tournament: one player, or a fixed pair of partners in a team
game (Tock and Dog teams). A *match* is one table of a round: the entrants seated there and,
once the table has finished, each entrant's place and game score. A round also lists its
*byes* (entrants who sit out and score as winners). Everything is frozen and JSON-able
(:meth:`Tournament.to_json`), so storage keeps a tournament as one document.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any


class Format(enum.StrEnum):
    """How entrants meet."""

    SWISS = "swiss"  # a fixed number of rounds, entrants of close scores meet, no repeats
    KNOCKOUT = "knockout"  # the winner of each table goes on, the others are out
    ROUND_ROBIN = "round_robin"  # everyone meets everyone once


@dataclass(frozen=True, slots=True)
class Settings:
    """How a tournament is played.

    ``table_size`` is the number of *entrants* per table (a Dog table of two pairs has 2).
    ``min_table`` is the fewest entrants a table may start with (grouped Swiss tables).
    ``points`` are the points per place (1st, 2nd, ...); empty: the default, two points for
    each entrant beaten and one for each tied with (2/1/0 at a table of two, by place at a
    larger one). ``rounds`` is the number of Swiss rounds (others follow from the format).
    """

    format: Format
    rounds: int = 3
    table_size: int = 2
    min_table: int = 2
    points: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON data."""
        return {
            "format": str(self.format),
            "rounds": self.rounds,
            "table_size": self.table_size,
            "min_table": self.min_table,
            "points": list(self.points),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Settings:
        """Rebuild from :meth:`to_json`."""
        return cls(
            format=Format(data["format"]),
            rounds=int(data.get("rounds", 3)),
            table_size=int(data.get("table_size", 2)),
            min_table=int(data.get("min_table", 2)),
            points=tuple(int(p) for p in data.get("points") or ()),
        )


@dataclass(frozen=True, slots=True)
class Entrant:
    """One player or a fixed pair. ``key`` is unique in the tournament; ``members`` are the
    Discord user ids seated for it (partners side by side in a team game); ``seed`` is the
    rating it was seeded with (higher is stronger)."""

    key: str
    name: str
    members: tuple[int, ...]
    seed: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The entrant as JSON data."""
        return {
            "key": self.key,
            "name": self.name,
            "members": list(self.members),
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entrant:
        """Rebuild from :meth:`to_json`."""
        return cls(
            key=str(data["key"]),
            name=str(data["name"]),
            members=tuple(int(m) for m in data["members"]),
            seed=float(data.get("seed", 0.0)),
        )


@dataclass(frozen=True, slots=True)
class Match:
    """One table of a round: its entrants (in seating order) and, once finished, each one's
    place (1 is best; ties share) and game score."""

    entrants: tuple[str, ...]
    places: tuple[int, ...] | None = None
    scores: tuple[int, ...] = ()
    table_id: int | None = None

    @property
    def finished(self) -> bool:
        """True once the table's result is in."""
        return self.places is not None

    def place_of(self, key: str) -> int:
        """``key``'s place at this finished table."""
        assert self.places is not None
        return self.places[self.entrants.index(key)]

    def score_of(self, key: str) -> int:
        """``key``'s game score (0 before the end)."""
        return self.scores[self.entrants.index(key)] if self.scores else 0

    def to_json(self) -> dict[str, Any]:
        """The match as JSON data."""
        return {
            "entrants": list(self.entrants),
            "places": None if self.places is None else list(self.places),
            "scores": list(self.scores),
            "table_id": self.table_id,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Match:
        """Rebuild from :meth:`to_json`."""
        places = data.get("places")
        return cls(
            entrants=tuple(str(e) for e in data["entrants"]),
            places=None if places is None else tuple(int(p) for p in places),
            scores=tuple(int(s) for s in data.get("scores") or ()),
            table_id=data.get("table_id"),
        )


@dataclass(frozen=True, slots=True)
class Round:
    """A round: its matches and byes. ``lineup`` is a knockout round's bracket order (the
    entrants in the order their winners meet next; ``""`` for an empty slot)."""

    number: int
    matches: tuple[Match, ...]
    byes: tuple[str, ...] = ()
    lineup: tuple[str, ...] = ()

    @property
    def finished(self) -> bool:
        """True once every table of the round has its result."""
        return all(m.finished for m in self.matches)

    def to_json(self) -> dict[str, Any]:
        """The round as JSON data."""
        return {
            "number": self.number,
            "matches": [m.to_json() for m in self.matches],
            "byes": list(self.byes),
            "lineup": list(self.lineup),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Round:
        """Rebuild from :meth:`to_json`."""
        return cls(
            number=int(data["number"]),
            matches=tuple(Match.from_json(m) for m in data["matches"]),
            byes=tuple(str(b) for b in data.get("byes") or ()),
            lineup=tuple(str(x) for x in data.get("lineup") or ()),
        )


@dataclass(frozen=True, slots=True)
class Tournament:
    """The pure state of a tournament: settings, entrants, the rounds so far, and the
    entrants the host removed (they are paired no more and keep what they scored)."""

    settings: Settings
    entrants: tuple[Entrant, ...]
    rounds: tuple[Round, ...] = ()
    removed: frozenset[str] = field(default_factory=frozenset)

    def entrant(self, key: str) -> Entrant:
        """The entrant with ``key``."""
        return next(e for e in self.entrants if e.key == key)

    @property
    def active(self) -> tuple[Entrant, ...]:
        """The entrants still paired."""
        return tuple(e for e in self.entrants if e.key not in self.removed)

    def with_round(self, new: Round) -> Tournament:
        """A copy with ``new`` appended."""
        return replace(self, rounds=(*self.rounds, new))

    def with_result(
        self, round_number: int, index: int, places: Sequence[int], scores: Sequence[int]
    ) -> Tournament:
        """A copy where match ``index`` of round ``round_number`` has its result."""
        rounds = list(self.rounds)
        at = round_number - 1
        matches = list(rounds[at].matches)
        matches[index] = replace(matches[index], places=tuple(places), scores=tuple(scores))
        rounds[at] = replace(rounds[at], matches=tuple(matches))
        return replace(self, rounds=tuple(rounds))

    def with_table(self, round_number: int, index: int, table_id: int) -> Tournament:
        """A copy where match ``index`` of round ``round_number`` is played at ``table_id``."""
        rounds = list(self.rounds)
        at = round_number - 1
        matches = list(rounds[at].matches)
        matches[index] = replace(matches[index], table_id=table_id)
        rounds[at] = replace(rounds[at], matches=tuple(matches))
        return replace(self, rounds=tuple(rounds))

    def without(self, key: str) -> Tournament:
        """A copy where ``key`` is removed from later pairings."""
        return replace(self, removed=self.removed | {key})

    def to_json(self) -> dict[str, Any]:
        """The tournament as one JSON document."""
        return {
            "settings": self.settings.to_json(),
            "entrants": [e.to_json() for e in self.entrants],
            "rounds": [r.to_json() for r in self.rounds],
            "removed": sorted(self.removed),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tournament:
        """Rebuild from :meth:`to_json`."""
        return cls(
            settings=Settings.from_json(data["settings"]),
            entrants=tuple(Entrant.from_json(e) for e in data["entrants"]),
            rounds=tuple(Round.from_json(r) for r in data.get("rounds") or ()),
            removed=frozenset(str(k) for k in data.get("removed") or ()),
        )


def total_rounds(tournament: Tournament) -> int:
    """How many rounds the tournament has."""
    settings = tournament.settings
    count = len(tournament.entrants)
    if settings.format == Format.SWISS:
        return settings.rounds
    if settings.format == Format.KNOCKOUT:
        return max(1, math.ceil(math.log2(max(count, 2))))
    return count - 1 if count % 2 == 0 else count
