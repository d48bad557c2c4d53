"""What a placement does to the board, in facts a UI can put into words (issue #36).

``placement_effects`` answers "what does putting the tile here do?" for every legal
placement a player is offered: which features of the placed tile it closes (with the points
they are worth now), which existing features it extends (and who holds them), how many it
joins, and whether it starts a monastery. Pure, like the rest of the engine; it only reads a
copy of the state after the placement.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.carcassonne import api
from engine.carcassonne.notation import Placement, parse_syntax
from engine.carcassonne.scoring import owners_of, road_city_value
from engine.carcassonne.state import SEG_BITS, State
from engine.carcassonne.tiles import CITY, FIELD, MONASTERY, ROAD, TILES

_KIND = {CITY: "city", ROAD: "road", FIELD: "field", MONASTERY: "monastery"}


def placement_effects(state: State, placement: str) -> list[dict[str, Any]]:
    """The effects of placing the current tile at ``placement`` (``x,y@rot``), one entry per
    feature the placed tile belongs to, in segment order (CN-2.2):

    ``{"kind": "city" | "road" | "field" | "monastery", "joined": n, "owners": [seats],
    "closed": bool, "points": int | None}``

    ``joined``: how many features already on the board it becomes part of (0: it starts a
    new one; 2 or more: it joins them). ``owners``: the seats holding the feature by
    majority (K-6.2) once placed. ``closed``: a road or city completed by this tile, or a
    monastery surrounded; ``points``: what it scores when closed (None otherwise).
    Raises :class:`engine.protocol.IllegalMove` for an illegal placement.
    """
    move = parse_syntax(placement)
    if not isinstance(move, Placement):
        raise ValueError(f"not a placement: {placement!r}")
    after = api.apply(state, move)
    index = after.last_index()
    tid, x, y, _k = after.tiles[index]
    base = index << SEG_BITS
    effects: list[dict[str, Any]] = []
    seen: set[int] = set()
    for local, segment in enumerate(TILES[tid].segments):
        sid = base + local
        if segment.kind == MONASTERY:
            around = after.monastery_neighbours((x, y))
            closed = around == 8
            effects.append(
                {
                    "kind": "monastery",
                    "joined": 0,
                    "owners": [],
                    "closed": closed,
                    "points": 9 if closed else None,
                }
            )
            continue
        root = after.find(sid)
        if root in seen:
            continue
        seen.add(root)
        feature = after.feats[root]
        others = {state.find(m) for m in feature.members if m >> SEG_BITS != index}
        closed = segment.kind in (CITY, ROAD) and feature.open == 0
        points = road_city_value(after, feature, True)[0] if closed else None
        effects.append(
            {
                "kind": _KIND[segment.kind],
                "joined": len(others),
                "owners": owners_of(after.strengths(root)),
                "closed": closed,
                "points": points,
            }
        )
    return effects


def effects_of_view(
    view: Mapping[str, Any], cell: tuple[int, int] | None = None
) -> dict[tuple[int, int, int], list[dict[str, Any]]]:
    """:func:`placement_effects` of every legal placement of the drawn tile, read from a
    public view (:func:`engine.carcassonne.api.sample_state`: the board and the tile are
    public); ``(x, y, rot)`` -> facts, only those of ``cell`` when given. Empty outside
    phase ``place``."""
    if view.get("phase") != "place" or not view.get("current_tile"):
        return {}
    state = api.sample_state(view, 0)
    found: dict[tuple[int, int, int], list[dict[str, Any]]] = {}
    for move in api.legal_moves(state):
        text = str(move)
        where, _, rot = text.partition("@")
        x, _, y = where.partition(",")
        if cell is not None and (int(x), int(y)) != tuple(cell):
            continue
        found[(int(x), int(y), int(rot))] = placement_effects(state, text)
    return found
