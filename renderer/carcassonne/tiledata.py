"""Tile facts for drawing: edges, segments, half-edges, shields, goods, inns, cathedrals, river.

The single source of the facts is ``carcassonne-tiles.yaml``. The renderer never reads the
shared folder at run time: it takes the engine's pure data constant
``engine.carcassonne.tiles_data.TILE_DATA`` (a converted copy of the YAML that the engine's
tests check against it) and turns each entry into a small immutable :class:`TileFacts`.
Importing pure data from the engine keeps the one-way flow engine -> renderer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

SIDES = "NESW"
HALVES = ("Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn")


@dataclass(frozen=True, slots=True)
class CitySegment:
    """A city area: the sides it reaches (0 N … 3 W) and its printed symbols."""

    sides: tuple[int, ...]
    shield: bool = False
    cathedral: bool = False
    goods: str | None = None


@dataclass(frozen=True, slots=True)
class RoadSegment:
    """A road: the sides it reaches (one side: it ends on the tile) and whether it has an inn."""

    sides: tuple[int, ...]
    inn: bool = False


@dataclass(frozen=True, slots=True)
class FieldSegment:
    """A field: its half-edges (0 Nw … 7 Wn; empty for an inner field) and bordering cities."""

    halves: tuple[int, ...]
    cities: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TileFacts:
    """Everything the renderer needs to draw one tile type in its YAML orientation."""

    id: str
    edges: tuple[str, str, str, str]
    cities: tuple[CitySegment, ...] = ()
    roads: tuple[RoadSegment, ...] = ()
    fields: tuple[FieldSegment, ...] = ()
    monastery: bool = False
    river: tuple[int, ...] = ()
    river_kind: str | None = None

    def segment_names(self) -> list[str]:
        """Segment names in segment order (CN-2.2)."""
        return (
            [f"city{i}" for i in range(len(self.cities))]
            + [f"road{i}" for i in range(len(self.roads))]
            + [f"field{i}" for i in range(len(self.fields))]
            + (["monastery"] if self.monastery else [])
        )


def _side_indexes(sides: Any) -> tuple[int, ...]:
    return tuple(SIDES.index(str(s)) for s in sides)


def facts_from_entry(entry: Sequence[Any]) -> TileFacts:
    """:class:`TileFacts` of one ``TILE_DATA`` entry.

    An entry is ``(id, set, count, edges N E S W, cities, roads, fields, monastery, river)``
    with cities ``(sides, shield, goods, cathedral)``, roads ``(sides, inn)``, fields
    ``(halves, city indexes)`` and river ``(sides, kind)`` or ``None``.
    """
    tile_id, _set, _count, edges, cities, roads, fields, monastery, river = entry
    return TileFacts(
        id=str(tile_id),
        edges=tuple(str(e) for e in edges),  # type: ignore[arg-type]
        cities=tuple(
            CitySegment(_side_indexes(sides), bool(shield), bool(cathedral), goods or None)
            for sides, shield, goods, cathedral in cities
        ),
        roads=tuple(RoadSegment(_side_indexes(sides), bool(inn)) for sides, inn in roads),
        fields=tuple(
            FieldSegment(tuple(HALVES.index(str(h)) for h in halves), tuple(links))
            for halves, links in fields
        ),
        monastery=bool(monastery),
        river=_side_indexes(river[0]) if river else (),
        river_kind=(str(river[1]) or None) if river else None,
    )


@lru_cache(maxsize=1)
def _all_facts() -> dict[str, TileFacts]:
    from engine.carcassonne.tiles_data import TILE_DATA

    return {str(entry[0]): facts_from_entry(entry) for entry in TILE_DATA}


def tile_facts(tile_id: str) -> TileFacts:
    """The facts of tile type ``tile_id`` (``"D"``, ``"R04"``, ``"I15"``, ``"T09"``…)."""
    return _all_facts()[tile_id]


def all_tile_ids() -> list[str]:
    """Every tile type id, in data order."""
    return list(_all_facts())
