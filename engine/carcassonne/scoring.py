"""Scoring: features completed by a placement (K-6, K-7, K-14.2) and the final scoring (K-8, K-9).

Every function here works on a state copy the caller owns, and returns readable events with
the breakdown of each score (K-15.3); figures going back to supply come as event recipes, built
only when read (``State.events``). Every ``score`` event's data holds ``feature``, ``final``,
``owners`` and ``awards`` (seat as a string -> points gained), plus feature details.
"""

from __future__ import annotations

from typing import Any

from engine.carcassonne.state import SEG_BITS, Cell, EventPart, Feature, Figure, State
from engine.carcassonne.tiles import CITY, FIELD, GOODS, MONASTERY, ROAD, TILES
from engine.protocol import Event

_KIND_WORD = {CITY: "city", ROAD: "road", FIELD: "farm", MONASTERY: "monastery"}


def owners_of(strengths: list[int]) -> list[int]:
    """The seats with the greatest strength above 0 (K-6.2)."""
    best = max(strengths, default=0)
    if best <= 0:
        return []
    return [seat for seat, s in enumerate(strengths) if s == best]


def road_city_value(state: State, feat: Feature, complete: bool) -> tuple[int, dict[str, Any]]:
    """Points of a road or city and the facts of its score (K-6.4, K-6.5, K-8.3, K-8.4)."""
    size = len(feat.cells)
    data: dict[str, Any] = {"tiles": size}
    if feat.kind == ROAD:
        data["inn"] = feat.inn
        mult = (2 if complete else 0) if feat.inn else 1
        data["multiplier"] = mult
        return size * mult, data
    shields = feat.shields
    data["shields"] = shields
    data["cathedral"] = feat.cathedral
    if feat.cathedral:
        mult = 3 if complete else 0
    elif complete and size == 2 and state.options.small_cities:
        mult = 1
    else:
        mult = 2 if complete else 1
    data["multiplier"] = mult
    return mult * (size + shields), data


def _awards(owners: list[int], points: int) -> dict[str, int]:
    """Seat (as a JSON key) -> points, the uniform part of every score event's data."""
    return {str(seat): points for seat in owners}


def _award(owners: list[int], points: int, data: dict[str, Any], scores: list[int]) -> Event:
    for seat in owners:
        scores[seat] += points
    data = {**data, "points": points, "owners": owners, "awards": _awards(owners, points)}
    return Event("score", owners[0] if len(owners) == 1 else None, data)


def _cell_of(state: State, sid: int) -> Cell:
    _tid, x, y, _k = state.tiles[sid >> SEG_BITS]
    return (x, y)


def _monastery_sid(state: State, index: int) -> int:
    tid = state.tiles[index][0]
    tt = TILES[tid]
    return (index << SEG_BITS) + len(tt.segments) - 1


def score_placement(state: State) -> list[EventPart]:
    """Steps 4 and 5 of a turn for the tile placed last: score, take goods, return figures.

    Returns the events, figures going back to supply as recipes (see ``State.events``).
    """
    events: list[EventPart] = []
    index = state.last_index()
    tid, x, y, _k = state.tiles[index]
    tt = TILES[tid]
    base = index << SEG_BITS
    scores = list(state.scores)
    done: list[int] = []  # roots of scored roads and cities, and monastery segment ids
    parent = state.parent
    feats = state.feats
    for i, seg in enumerate(tt.segments):
        if seg.kind != CITY and seg.kind != ROAD:
            continue
        root = parent.get(base + i, base + i)
        if root in done or feats[root].open != 0:
            continue
        done.append(root)
    # Cities first, then roads (K-6.7); segment order already lists cities before roads.
    for root in done:
        feat = state.feats[root]
        points, data = road_city_value(state, feat, True)
        owners = owners_of(state.strengths(root))
        data.update(feature=_KIND_WORD[feat.kind], final=False)
        events.append(_award(owners, points, data, scores))
        if feat.kind == CITY and any(feat.goods) and state.to_act is not None:
            events.append(_take_goods(state, feat))
    monasteries: list[int] = []
    if state.open_monasteries:
        # Only monasteries within one cell of the new tile can have just been completed;
        # they score in row-major order of their cells.
        found: list[tuple[int, int, int]] = []
        still: list[int] = []
        for mindex in state.open_monasteries:
            _t, mx, my, _r = state.tiles[mindex]
            near = -1 <= mx - x <= 1 and -1 <= my - y <= 1
            if near and state.monastery_neighbours((mx, my)) == 8:
                found.append((my, mx, mindex))
            else:
                still.append(mindex)
        if found:
            state.open_monasteries = tuple(still)
            monasteries = [_monastery_sid(state, mindex) for _y, _x, mindex in sorted(found)]
    for sid in monasteries:
        owners = owners_of(state.strengths(sid))
        data = {"feature": "monastery", "tiles": 9, "final": False}
        events.append(_award(owners, 9, data, scores))
    done.extend(monasteries)
    state.scores = tuple(scores)
    returned = _return_figures(state, set(done))
    if returned:
        events.extend(returned)
        # K-14.10 can only bite after a follower left the board: features only ever grow,
        # so a builder backed at the start of the turn stays backed unless figures went home.
        events.extend(_return_lonely_builders(state))
    return events


def _take_goods(state: State, feat: Feature) -> Event:
    seat = state.to_act
    assert seat is not None
    goods = list(state.goods)
    mine = goods[seat]
    goods[seat] = (mine[0] + feat.goods[0], mine[1] + feat.goods[1], mine[2] + feat.goods[2])
    state.goods = tuple(goods)
    got = {name: feat.goods[i] for i, name in enumerate(GOODS) if feat.goods[i]}
    return Event("goods", seat, {"goods": got})


def _return_figures(state: State, roots: set[int]) -> list[EventPart]:
    """K-7.1: followers, big followers and builders of scored features go back to supply."""
    if not roots:
        return []
    keep: list[Figure] = []
    back: list[Figure] = []
    parent = state.parent
    for fig in state.figures:
        if fig.kind != "pig" and parent.get(fig.sid, fig.sid) in roots:
            back.append(fig)
        else:
            keep.append(fig)
    return _send_back(state, keep, back)


def _send_back(state: State, keep: list[Figure], back: list[Figure]) -> list[EventPart]:
    if not back:
        return []
    supply = [list(s) for s in state.supply]
    events: list[EventPart] = []
    for fig in back:
        supply[fig.player][_FIG_INDEX[fig.kind]] += 1
        events.append((_returned_event, (fig,)))
    state.supply = tuple((s[0], s[1], s[2], s[3]) for s in supply)
    state.figures = tuple(keep)
    return events


def _returned_event(fig: Figure) -> Event:
    data = {"kind": fig.kind, "x": fig.x, "y": fig.y, "segment": fig.segment}
    return Event("figure_returned", fig.player, data)


_FIG_INDEX = {"follower": 0, "big": 1, "builder": 2, "pig": 3}


def _return_lonely_builders(state: State) -> list[EventPart]:
    """K-14.10: a builder whose feature holds no follower of its player goes home."""
    builders = [f for f in state.figures if f.kind == "builder"]
    if not builders:
        return []
    parent = state.parent
    # (root, player) of every follower and big follower: one pass, not one per builder.
    backed = {
        (parent.get(f.sid, f.sid), f.player)
        for f in state.figures
        if f.kind == "follower" or f.kind == "big"
    }
    back = [b for b in builders if (parent.get(b.sid, b.sid), b.player) not in backed]
    if not back:
        return []
    keep = [f for f in state.figures if f not in back]
    return _send_back(state, keep, back)


def final_scoring(state: State) -> list[Event]:
    """K-8: incomplete roads, cities, monasteries, then farms and goods."""
    events: list[Event] = []
    scores = list(state.scores)
    occupied: dict[int, list[int]] = {}
    for fig in state.figures:
        if fig.kind in ("follower", "big"):
            occupied.setdefault(state.find(fig.sid), [])
    for kind in (ROAD, CITY):
        for root in sorted(occupied):
            feat = state.feats.get(root)
            if feat is None or feat.kind != kind or feat.open == 0:
                continue
            points, data = road_city_value(state, feat, False)
            owners = owners_of(state.strengths(root))
            data.update(feature=_KIND_WORD[kind], final=True)
            events.append(_award(owners, points, data, scores))
    for root in sorted(occupied):
        if state.seg_kind(root) != MONASTERY:
            continue
        cell = _cell_of(state, root)
        around = state.monastery_neighbours(cell)
        if around == 8:
            continue
        owners = owners_of(state.strengths(root))
        points = 1 + around
        data = {"feature": "monastery", "tiles": points, "final": True}
        events.append(_award(owners, points, data, scores))
    if state.options.farms != "off":
        events.extend(_score_farms(state, scores, sorted(occupied)))
    events.extend(_score_goods(state, scores))
    state.scores = tuple(scores)
    return events


def _complete_cities(state: State) -> set[int]:
    return {r for r, f in state.feats.items() if f.kind == CITY and f.open == 0}


def _pigs(state: State) -> dict[int, int]:
    """Farm root -> bitmask of players with a pig on it."""
    out: dict[int, int] = {}
    for fig in state.figures:
        if fig.kind == "pig":
            root = state.find(fig.sid)
            out[root] = out.get(root, 0) | (1 << fig.player)
    return out


def _score_farms(state: State, scores: list[int], occupied: list[int]) -> list[Event]:
    complete = _complete_cities(state)
    pigs = _pigs(state)
    farms: list[tuple[int, list[int], set[int]]] = []  # root, strengths, bordered cities
    for root in occupied:
        feat = state.feats.get(root)
        if feat is None or feat.kind != FIELD:
            continue
        cities = {state.find(c) for c in feat.cities} & complete
        farms.append((root, state.strengths(root), cities))
    events: list[Event] = []
    mode = state.options.farms
    if mode == "third":
        for root, strengths, cities in farms:
            owners = owners_of(strengths)
            n = len(cities)
            if n == 0:
                continue  # nothing to pay; no message for every empty farm
            per_owner = [4 if pigs.get(root, 0) >> s & 1 else 3 for s in owners]
            pts = [n * p for p in per_owner]
            for s, p in zip(owners, pts, strict=True):
                scores[s] += p
            data = {
                "feature": "farm",
                "cities": n,
                "owners": owners,
                "points": pts,
                "awards": {str(o): p for o, p in zip(owners, pts, strict=True)},
                "final": True,
            }
            events.append(Event("score", owners[0] if len(owners) == 1 else None, data))
    elif mode == "second":
        for seat in range(state.players):
            paid: set[int] = set()
            pig_cities: set[int] = set()
            for root, strengths, cities in farms:
                if seat in owners_of(strengths):
                    paid |= cities
                    if pigs.get(root, 0) >> seat & 1:
                        pig_cities |= cities
            if not paid:
                continue
            points = 3 * len(paid) + len(pig_cities)
            scores[seat] += points
            data = {
                "feature": "farm",
                "cities": len(paid),
                "owners": [seat],
                "points": points,
                "awards": {str(seat): points},
                "final": True,
            }
            events.append(Event("score", seat, data))
    else:  # first edition: city by city (K-9.5)
        for city in sorted(complete):
            strengths = [0] * state.players
            pig_mask = 0
            touching = [f for f in farms if city in f[2]]
            for root, farm_strengths, _c in touching:
                for seat, v in enumerate(farm_strengths):
                    strengths[seat] += v
                pig_mask |= pigs.get(root, 0)
            owners = owners_of(strengths)
            if not owners:
                continue
            pts = [5 if pig_mask >> s & 1 else 4 for s in owners]
            for s, p in zip(owners, pts, strict=True):
                scores[s] += p
            cx, cy = _cell_of(state, city)
            data = {
                "feature": "farm",
                "city": [cx, cy],
                "segment": state.seg_name(city),
                "owners": owners,
                "points": pts,
                "awards": {str(o): p for o, p in zip(owners, pts, strict=True)},
                "final": True,
            }
            events.append(Event("score", owners[0] if len(owners) == 1 else None, data))
    return events


def _score_goods(state: State, scores: list[int]) -> list[Event]:
    events: list[Event] = []
    if state.options.traders_builders == "off":
        return events
    for i, name in enumerate(GOODS):
        counts = [g[i] for g in state.goods]
        owners = owners_of(counts)
        for s in owners:
            scores[s] += 10
        if owners:
            data = {
                "feature": "goods",
                "goods": name,
                "tokens": max(counts),
                "owners": owners,
                "points": 10,
                "awards": _awards(owners, 10),
                "final": True,
            }
            events.append(Event("score", owners[0] if len(owners) == 1 else None, data))
    return events
