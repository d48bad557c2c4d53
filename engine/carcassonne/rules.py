"""Turn flow and legal lists: drawing, placing, the figure step, discards and the end (K-3 to K-8).

Functions here take a state the caller owns (already copied) unless their name says they
only read (``placements``, ``figure_actions``).
"""

from __future__ import annotations

from itertools import chain

from engine.carcassonne.features import cell_key, key_cell
from engine.carcassonne.notation import NONE, Action, Placement
from engine.carcassonne.scoring import final_scoring, score_placement
from engine.carcassonne.state import (
    FIGURE_INDEX,
    SEG_BITS,
    EventPart,
    Figure,
    State,
)
from engine.carcassonne.tiles import (
    CITY,
    FIELD,
    HALVES,
    MONASTERY,
    ROAD,
    SIDE_DELTA,
    SIDES,
    TILES,
)
from engine.protocol import Event


def _fit_table(tile: str) -> tuple[int, ...]:
    """For each frontier constraint code (features.decode_constraint): a bit mask of the
    canonical k that fit (bit k set).

    A rotation fits a code when every non-empty neighbour shows the terrain of that side, so
    the codes it fits are the 15 non-empty subsets of its own sides.
    """
    tt = TILES[tile]
    table = [0] * 625
    for k in tt.canonical_rots:
        digits = [(e + 1) * 5**side for side, e in enumerate(tt.rotations[k].edges)]
        for sides in range(1, 16):
            code = sum(d for side, d in enumerate(digits) if sides >> side & 1)
            table[code] |= 1 << k
    return tuple(table)


# The rotations k of each 4-bit mask, ascending.
_MASK_KS = tuple(tuple(k for k in range(4) if mask >> k & 1) for mask in range(16))
_FITS: dict[str, tuple[int, ...]] = {}


def _fits_of(tile: str) -> tuple[int, ...]:
    """The fit table of ``tile``, built on first use."""
    table = _FITS.get(tile)
    if table is None:
        table = _FITS[tile] = _fit_table(tile)
    return table


def placements(state: State) -> list[Placement]:
    """Legal placements of the current tile (canonical rotations), sorted as in CN-4.1."""
    cached = state.placements_cache
    if cached is not None:
        return cached
    tile = state.current
    result: list[Placement] = []
    if tile is not None:
        result = _compute_placements(state, tile)
    state.placements_cache = result
    return result


def is_legal_placement(state: State, placement: Placement) -> bool:
    """Whether a canonical placement of the current tile is legal (without listing them all)."""
    tile = state.current
    if tile is None:
        return False
    if TILES[tile].river:
        return placement in placements(state)
    code = state.frontier.get(cell_key(placement.x, placement.y))
    return code is not None and _fits_of(tile)[code] >> (placement.rot // 90) & 1 == 1


def _compute_placements(state: State, tile: str) -> list[Placement]:
    if TILES[tile].river:
        return _river_placements(state, tile)
    table = _fits_of(tile)
    # One int per cell with a fitting rotation: its row-major key and the mask of rotations,
    # so that sorting ints gives the CN-4.1 order; then each one's Placement values.
    hits = [key << 4 | mask for key, code in state.frontier.items() if (mask := table[code])]
    hits.sort()
    return list(chain.from_iterable(map(_KEY_PLACEMENTS.__getitem__, hits)))


def _river_placements(state: State, tile: str) -> list[Placement]:
    """K-12.3 and K-12.4: only at the open river end, and no two bends the same way."""
    if state.river_end is None:
        return []
    (ex, ey), side = state.river_end
    dx, dy = SIDE_DELTA[side]
    cell = (ex + dx, ey + dy)
    cons = state.frontier.get(cell_key(cell[0], cell[1]))
    if cons is None:
        return []
    tt = TILES[tile]
    enter = (side + 2) % 4
    flow = side
    result = []
    for k in _MASK_KS[_fits_of(tile)[cons]]:
        rsides = tt.rotations[k].river_sides
        if enter not in rsides:
            continue
        leave = [s for s in rsides if s != enter]
        if leave and leave[0] != flow:
            bend = 1 if leave[0] == (flow + 1) % 4 else -1
            if bend == state.last_bend:
                continue
        result.append(placement_value(cell[0], cell[1], k))
    return result


def figure_actions(state: State) -> list[Action]:
    """The CN-4.2 list for the tile just placed (phase ``figure``)."""
    cached = state.actions_cache
    if cached is None:
        cached = _figure_actions(state)
        state.actions_cache = cached
    return cached


# Per tile type, per segment: local index, kind and the four shared actions on it.
_Spot = tuple[int, int, Action, Action, Action, Action]
_SPOTS: dict[str, tuple[_Spot, ...]] = {}


def _spots_of(tile: str) -> tuple[_Spot, ...]:
    spots = _SPOTS.get(tile)
    if spots is None:
        spots = _SPOTS[tile] = tuple(
            (
                i,
                seg.kind,
                _action("follower", seg.name),
                _action("big", seg.name),
                _action("builder", seg.name),
                _action("pig", seg.name),
            )
            for i, seg in enumerate(TILES[tile].segments)
        )
    return spots


def _figure_actions(state: State) -> list[Action]:
    seat = state.to_act
    assert seat is not None
    index = len(state.tiles) - 1
    base = index << SEG_BITS
    followers, bigs, builders, pigs = state.supply[seat]
    farms_on = state.options.farms != "off"
    parent = state.parent
    blocked: set[int] = set()
    mine: set[int] = set()
    for fig in state.figures:
        if fig.kind == "follower" or fig.kind == "big":
            root = parent.get(fig.sid, fig.sid)
            blocked.add(root)
            if fig.player == seat:
                mine.add(root)
    out = [NONE]
    for i, kind, follower, big, builder, pig in _spots_of(state.tiles[index][0]):
        if kind == MONASTERY:
            if followers:
                out.append(follower)
            if bigs:
                out.append(big)
            continue
        if kind == FIELD and not farms_on:
            continue
        sid = base + i
        root = parent.get(sid, sid)
        if root not in blocked:
            if followers:
                out.append(follower)
            if bigs:
                out.append(big)
        if root in mine:
            if builders and kind != FIELD and state.feats[root].open > 0:
                out.append(builder)
            if pigs and kind == FIELD:
                out.append(pig)
    return out


_PLACEMENTS: dict[tuple[int, int, int], Placement] = {}


class _KeyPlacements(dict[int, tuple[Placement, ...]]):
    """Frontier key << 4 | mask of rotations -> the Placement values, filled on first use."""

    def __missing__(self, hit: int) -> tuple[Placement, ...]:
        x, y = key_cell(hit >> 4)
        values = self[hit] = tuple(placement_value(x, y, k) for k in _MASK_KS[hit & 15])
        return values


_KEY_PLACEMENTS = _KeyPlacements()


def placement_value(x: int, y: int, k: int) -> Placement:
    """Shared Placement values (cells repeat from game to game; frozen dataclasses are slow)."""
    key = (x, y, k)
    hit = _PLACEMENTS.get(key)
    if hit is None:
        hit = _PLACEMENTS[key] = Placement(x, y, 90 * k)
    return hit


_ACTIONS: dict[tuple[str, str], Action] = {}


def _action(kind: str, segment: str) -> Action:
    """Shared Action values: creating frozen dataclasses is slow and they are few."""
    key = (kind, segment)
    hit = _ACTIONS.get(key)
    if hit is None:
        hit = _ACTIONS[key] = Action(kind, segment)
    return hit


def place(state: State, x: int, y: int, k: int) -> None:
    """Step 2 on a state copy: put the current tile down and check the builder (K-14.7)."""
    tile = state.current
    seat = state.to_act
    assert tile is not None
    assert seat is not None
    state.place_tile(tile, x, y, k)
    state.last_tiles[seat] = (x, y)
    state.phase = "figure"
    state.pending = f"{tile} {x},{y}@{90 * k}"
    state.placements_cache = None
    state.actions_cache = None
    state.extra_earned = False
    if not state.extra_turn:
        builders = [f.sid for f in state.figures if f.kind == "builder" and f.player == seat]
        if builders:
            parent = state.parent
            base = state.last_index() << SEG_BITS
            joined = {
                parent.get(base + i, base + i)
                for i, seg in enumerate(TILES[tile].segments)
                if seg.kind == CITY or seg.kind == ROAD
            }
            state.extra_earned = any(parent.get(sid, sid) in joined for sid in builders)
    events: tuple[EventPart, ...] = ((_place_event, (seat, tile, x, y, k)),)
    if state.extra_earned:
        events += ((_builder_event, (seat,)),)
    state.event_parts += events


def _place_event(seat: int, tile: str, x: int, y: int, k: int) -> Event:
    return Event("place", seat, {"tile": tile, "x": x, "y": y, "rot": 90 * k})


def _builder_event(seat: int) -> Event:
    return Event("builder", seat, {})


def _figure_event(
    seat: int, kind: str, x: int, y: int, segment: str, tile: str, k: int, local: int
) -> Event:
    sides = segment_sides(tile, k, local)
    data = {"kind": kind, "x": x, "y": y, "segment": segment, "sides": sides}
    return Event("figure", seat, data)


def _no_figure_event(seat: int) -> Event:
    return Event("no_figure", seat, {})


def segment_sides(tile: str, k: int, local: int) -> list[str]:
    """The board sides (``N``, ``E``, ``S``, ``W``) a segment of a placed tile reaches, so a
    player can be told "the city to the north"; empty for a monastery or an inner field."""
    tt = TILES[tile]
    rotated = tt.rotations[k]
    if tt.segments[local].kind == FIELD:
        halves = {HALVES[h][0] for h, s in enumerate(rotated.half_seg) if s == local}
        return [side for side in SIDES if side in halves]
    if tt.segments[local].kind == MONASTERY:
        return []
    return [SIDES[s] for s in sorted(rotated.seg_sides[local])]


def act(state: State, action: Action) -> None:
    """Steps 3 to 5 on a state copy, then the next turn (or the end of the game)."""
    seat = state.to_act
    assert seat is not None
    assert state.pending is not None
    events: list[EventPart] = []
    if action.kind is not None and action.segment is not None:
        index = state.last_index()
        tid, x, y, k = state.tiles[index]
        local = TILES[tid].segment_index(action.segment)
        fig = Figure(seat, action.kind, x, y, (index << SEG_BITS) + local, action.segment)
        state.figures = (*state.figures, fig)
        supply = list(state.supply)
        mine = list(supply[seat])
        mine[FIGURE_INDEX[action.kind]] -= 1
        supply[seat] = (mine[0], mine[1], mine[2], mine[3])
        state.supply = tuple(supply)
        figure = (seat, action.kind, x, y, action.segment, tid, k, local)
        events.append((_figure_event, figure))
    else:
        # A fact of its own so that a log or chat line never reads "played none".
        events.append((_no_figure_event, (seat,)))
    events.extend(score_placement(state))
    state.log = (*state.log, f"{state.pending} {action}")
    state.pending = None
    state.event_parts += tuple(events)
    next_turn(state)


def next_turn(state: State) -> None:
    """Pass the turn on (or grant the builder's extra turn) and draw; end when the pile is out."""
    if state.tiles_left() == 0:
        finish(state)
        return
    assert state.to_act is not None
    if state.extra_earned and not state.extra_turn:
        state.extra_turn = True
    else:
        state.extra_turn = False
        state.to_act = (state.to_act + 1) % state.players
    state.extra_earned = False
    draw(state)


def draw(state: State) -> None:
    """Step 1: draw; discard tiles that fit nowhere (K-4.5), end if the pile runs out (K-4.6)."""
    events: list[Event] = []
    while state.pile_pos < len(state.pile):
        tile = state.pile[state.pile_pos]
        state.pile_pos += 1
        state.current = tile
        state.placements_cache = None
        state.phase = "place"
        if placements(state):
            state.event_parts += tuple(events)
            return
        state.discarded = (*state.discarded, tile)
        seat = state.to_act
        events.append(
            Event(
                "tile_discarded",
                seat,
                {"tile": tile},
            )
        )
    state.event_parts += tuple(events)
    finish(state)


def finish(state: State) -> None:
    """K-8: the final scoring, then the winners (K-10.1)."""
    events = final_scoring(state)
    state.phase = "finished"
    state.current = None
    state.to_act = None
    state.extra_turn = False
    state.extra_earned = False
    state.placements_cache = []
    best = max(state.scores)
    state.winners = tuple(s for s, v in enumerate(state.scores) if v == best)
    events.append(
        Event("game_over", None, {"scores": list(state.scores), "winners": list(state.winners)})
    )
    state.event_parts += tuple(events)
