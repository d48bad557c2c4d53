"""The state's speed devices keep results: full copies, lazy events, frontier keys."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import engine.carcassonne as carc
from engine.carcassonne.features import MAX_DRAWS, cell_key, key_cell
from engine.carcassonne.tiles import TILES
from engine.protocol import Event, InvalidPosition

ALL_EXPANSIONS: dict[str, Any] = {
    "river": True,
    "inns_cathedrals": "full",
    "traders_builders": "full",
}
# Fields a copy starts afresh: the events of the action to come and the per-state caches.
FRESH = {"event_parts", "placements_cache", "actions_cache"}
BOARD = {"tiles", "cells", "parent", "feats", "frontier", "last_tiles"}


def midgame(options: dict[str, Any], seed: int, moves: int) -> carc.State:
    rng = random.Random(seed)
    state = carc.new_game(2, options, seed)
    for _ in range(moves):
        legal = carc.legal_moves(state)
        state = carc.apply(state, legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("share_board", [False, True])
def test_copy_carries_every_field_and_shares_the_board_only_when_asked(share_board: bool) -> None:
    state = midgame(ALL_EXPANSIONS, 3, 41)
    assert state.figures
    assert state.open_monasteries
    copy = state.copy(share_board=share_board)
    for f in dataclasses.fields(carc.State):
        if f.name in FRESH:
            continue
        original, copied = getattr(state, f.name), getattr(copy, f.name)
        assert copied == original, f.name
        if f.name in BOARD:
            assert (copied is original) == share_board, f.name
    assert copy.event_parts == ()
    assert copy.placements_cache is None
    assert copy.actions_cache is None


def test_a_full_copy_can_place_a_tile_without_touching_the_original() -> None:
    state = midgame({}, 5, 20)
    assert state.phase == "place"
    before = carc.to_position(state), dict(state.frontier), dict(state.parent)
    first = carc.legal_moves(state)[0]
    after = carc.apply(state, first)
    assert len(after.tiles) == len(state.tiles) + 1
    assert (carc.to_position(state), dict(state.frontier), dict(state.parent)) == before


@pytest.mark.parametrize(("options", "seed"), [({}, 4), (ALL_EXPANSIONS, 6)])
def test_open_monasteries_are_exactly_those_not_yet_surrounded(
    options: dict[str, Any], seed: int
) -> None:
    # Completion checks only look at the monasteries listed as open: the list must never
    # lose one that can still be completed, nor keep one that scored.
    rng = random.Random(seed)
    state = carc.new_game(2, options, seed)
    completed = 0
    while carc.outcome(state) is None:
        legal = carc.legal_moves(state)
        if state.phase == "place":  # a compact board, so that monasteries get surrounded
            move = min(legal, key=lambda p: p.x * p.x + p.y * p.y)  # type: ignore[union-attr]
        else:
            move = legal[rng.randrange(len(legal))]
        state = carc.apply(state, move)
        if state.phase == "figure":
            continue  # a placement completes a monastery, the figure step scores it
        monasteries = [i for i, (tid, *_rest) in enumerate(state.tiles) if TILES[tid].has_monastery]
        surrounded = {
            i for i in monasteries if state.monastery_neighbours(state.tiles[i][1:3]) == 8
        }
        assert set(state.open_monasteries) == set(monasteries) - surrounded
        completed = max(completed, len(surrounded))
    assert completed  # some monastery did get all 8 neighbours


def test_events_read_late_tell_what_happened_then() -> None:
    # Events are built on first read: reading them after the game moved on must still tell
    # the action that made the state, with the figures and names of that moment.
    setup = {"players": ["Ann", "Bob"], "start_player": 0, "draws": ["E", "E", "D", "E"]}
    state = carc.from_setup({**setup, "moves": ["E 0,-1@180 follower:city0"]})
    later = state
    for _ in range(4):
        later = carc.apply(later, carc.legal_moves(later)[-1])
    assert later.figures != state.figures or later.tiles != state.tiles
    assert [(e.kind, e.seat) for e in state.events] == [
        ("place", 0),
        ("figure", 0),
        ("score", 0),
        ("figure_returned", 0),
    ]
    assert state.events[0].data == {"tile": "E", "x": 0, "y": -1, "rot": 180}
    assert state.events[1].data["sides"] == ["S"]  # E turned 180°: its city faces south
    assert state.events[2].data["points"] == 4
    assert state.events[-1].data == {"kind": "follower", "x": 0, "y": -1, "segment": "city0"}
    assert all(isinstance(e, Event) for e in later.events)
    assert state.events is state.events  # built once, then kept


def test_placement_and_figure_steps_each_carry_their_own_events() -> None:
    state = carc.from_setup({"players": ["Ann", "Bob"], "start_player": 0, "draws": ["E", "E"]})
    placed = carc.apply(state, "0,-1@180")
    scored = carc.apply(placed, "follower:city0")
    assert [e.kind for e in placed.events] == ["place"]
    assert [e.kind for e in scored.events] == ["figure", "score", "figure_returned"]
    assert [e.seat for e in scored.events] == [0, 0, 0]


def test_frontier_keys_sort_cells_row_by_row_and_decode_back() -> None:
    edge = MAX_DRAWS + 1  # a straight line of every forced draw, and the cell beyond it
    cells = [(x, y) for x in range(-130, 131, 13) for y in range(-130, 131, 17)]
    cells += [(-edge, 5), (edge, -5), (0, edge), (0, -edge), (edge, edge), (-edge, -edge)]
    assert sorted(cells, key=lambda c: cell_key(*c)) == sorted(cells, key=lambda c: (c[1], c[0]))
    assert all(key_cell(cell_key(x, y)) == (x, y) for x, y in cells)
    assert all(0 <= cell_key(x, y) << 4 < 1 << 30 for x, y in cells)


def test_forced_draw_orders_beyond_the_board_window_are_refused() -> None:
    with pytest.raises(InvalidPosition, match=f"at most {MAX_DRAWS} tiles"):
        carc.from_setup({"draws": ["E"] * (MAX_DRAWS + 1)})
    assert carc.legal_moves(carc.from_setup({"draws": ["E"] * MAX_DRAWS}))
