"""Turn flow and legal lists: drawing, placing, the figure step, discards and the end (K-3 to K-8).

Functions here take a state the caller owns (already copied) unless their name says they
only read (``placements``, ``figure_actions``).
"""

from __future__ import annotations

from engine.carcassonne.notation import NONE, Action, Placement
from engine.carcassonne.scoring import final_scoring, join_names, score_placement
from engine.carcassonne.state import (
    FIGURE_INDEX,
    SEG_BITS,
    Figure,
    State,
)
from engine.carcassonne.tiles import CITY, FIELD, MONASTERY, ROAD, SIDE_DELTA, TILES
from engine.protocol import Event


def _fit_table(tile: str) -> tuple[tuple[int, ...], ...]:
    """For each frontier constraint code (features.decode_constraint): the canonical k that fit.

    A rotation fits a code when every non-empty neighbour shows the terrain of that side, so
    the codes it fits are the 15 non-empty subsets of its own sides.
    """
    tt = TILES[tile]
    table: list[list[int]] = [[] for _ in range(625)]
    for k in tt.canonical_rots:
        digits = [(e + 1) * 5**side for side, e in enumerate(tt.rotations[k].edges)]
        for mask in range(1, 16):
            code = sum(d for side, d in enumerate(digits) if mask >> side & 1)
            table[code].append(k)
    return tuple(tuple(ks) for ks in table)


_FITS: dict[str, tuple[tuple[int, ...], ...]] = {}


def _fits_of(tile: str) -> tuple[tuple[int, ...], ...]:
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
    code = state.frontier.get((placement.x, placement.y))
    return code is not None and placement.rot // 90 in _fits_of(tile)[code]


def _compute_placements(state: State, tile: str) -> list[Placement]:
    if TILES[tile].river:
        return _river_placements(state, tile)
    table = _fits_of(tile)
    result: list[tuple[int, int, int, Placement]] = []
    cell_placements = _CELL_PLACEMENTS
    for cell, code in state.frontier.items():
        ks = table[code]
        if ks:
            values = cell_placements.get(cell)
            if values is None:
                values = _cell_values(cell)
            x, y = cell
            for k in ks:
                result.append((y, x, k, values[k]))
    result.sort()  # (y, x, k) are unique, so the Placement values are never compared
    return [entry[3] for entry in result]


def _river_placements(state: State, tile: str) -> list[Placement]:
    """K-12.3 and K-12.4: only at the open river end, and no two bends the same way."""
    if state.river_end is None:
        return []
    (ex, ey), side = state.river_end
    dx, dy = SIDE_DELTA[side]
    cell = (ex + dx, ey + dy)
    cons = state.frontier.get(cell)
    if cons is None:
        return []
    tt = TILES[tile]
    enter = (side + 2) % 4
    flow = side
    result = []
    for k in _fits_of(tile)[cons]:
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


def _figure_actions(state: State) -> list[Action]:
    seat = state.to_act
    assert seat is not None
    index = state.last_index()
    tt = TILES[state.tiles[index][0]]
    base = index << SEG_BITS
    supply = state.supply[seat]
    farms_on = state.options.farms != "off"
    blocked: set[int] = set()
    mine: set[int] = set()
    for fig in state.figures:
        if fig.kind == "follower" or fig.kind == "big":
            root = state.find(fig.sid)
            blocked.add(root)
            if fig.player == seat:
                mine.add(root)
    out = [NONE]
    for i, seg in enumerate(tt.segments):
        name = seg.name
        if seg.kind == MONASTERY:
            if supply[0]:
                out.append(_action("follower", name))
            if supply[1]:
                out.append(_action("big", name))
            continue
        if seg.kind == FIELD and not farms_on:
            continue
        root = state.find(base + i)
        if root not in blocked:
            if supply[0]:
                out.append(_action("follower", name))
            if supply[1]:
                out.append(_action("big", name))
        if root in mine:
            if supply[2] and seg.kind in (CITY, ROAD) and state.feats[root].open > 0:
                out.append(_action("builder", name))
            if supply[3] and seg.kind == FIELD:
                out.append(_action("pig", name))
    return out


_PLACEMENTS: dict[tuple[int, int, int], Placement] = {}


_CELL_PLACEMENTS: dict[tuple[int, int], tuple[Placement, ...]] = {}


def _cell_values(cell: tuple[int, int]) -> tuple[Placement, ...]:
    values = tuple(placement_value(cell[0], cell[1], k) for k in range(4))
    _CELL_PLACEMENTS[cell] = values
    return values


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
        index = state.last_index()
        base = index << SEG_BITS
        segs = TILES[tile].segments
        for fig in state.figures:
            if fig.kind != "builder" or fig.player != seat:
                continue
            root = state.find(fig.sid)
            if any(
                seg.kind in (CITY, ROAD) and state.find(base + i) == root
                for i, seg in enumerate(segs)
            ):
                state.extra_earned = True
    name = state.names[seat]
    events = [
        Event(
            "place",
            seat,
            {"tile": tile, "x": x, "y": y, "rot": 90 * k},
            f"{name} places {tile} at ({x},{y}), turned {90 * k}°",
        )
    ]
    if state.extra_earned:
        events.append(Event("builder", seat, {}, f"{name}'s builder earns an extra turn"))
    state.events = state.events + tuple(events)


def act(state: State, action: Action) -> None:
    """Steps 3 to 5 on a state copy, then the next turn (or the end of the game)."""
    seat = state.to_act
    assert seat is not None
    assert state.pending is not None
    events: list[Event] = []
    if action.kind is not None and action.segment is not None:
        index = state.last_index()
        tid, x, y, _k = state.tiles[index]
        local = TILES[tid].segment_index(action.segment)
        fig = Figure(seat, action.kind, x, y, (index << SEG_BITS) + local, action.segment)
        state.figures = (*state.figures, fig)
        supply = list(state.supply)
        mine = list(supply[seat])
        mine[FIGURE_INDEX[action.kind]] -= 1
        supply[seat] = (mine[0], mine[1], mine[2], mine[3])
        state.supply = tuple(supply)
        word = {
            "follower": "a follower",
            "big": "the big follower",
            "builder": "the builder",
            "pig": "the pig",
        }[action.kind]
        events.append(
            Event(
                "figure",
                seat,
                {"kind": action.kind, "x": x, "y": y, "segment": action.segment},
                f"{state.names[seat]} puts {word} on {action.segment} at ({x},{y})",
            )
        )
    events.extend(score_placement(state))
    state.log = (*state.log, f"{state.pending} {action}")
    state.pending = None
    state.events = state.events + tuple(events)
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
            state.events = state.events + tuple(events)
            return
        state.discarded = (*state.discarded, tile)
        seat = state.to_act
        who = state.names[seat] if seat is not None else "nobody"
        events.append(
            Event(
                "tile_discarded",
                seat,
                {"tile": tile},
                f"{tile} fits nowhere and is discarded; {who} draws again",
            )
        )
    state.events = state.events + tuple(events)
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
    scores = ", ".join(f"{state.names[s]} {v}" for s, v in enumerate(state.scores))
    events.append(
        Event(
            "game_over",
            None,
            {"scores": list(state.scores), "winners": list(state.winners)},
            f"Game over. Scores: {scores}. "
            f"{'Winner' if len(state.winners) == 1 else 'Winners'}: "
            f"{join_names(state, list(state.winners))}",
        )
    )
    state.events = state.events + tuple(events)
