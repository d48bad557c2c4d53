"""The state's speed devices keep results: full copies, lazy events, frontier keys."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import engine.carcassonne as carc
from engine.carcassonne.features import cell_key, key_cell
from engine.protocol import Event

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


def test_events_read_late_tell_what_happened_then() -> None:
    # Events are built on first read: reading them after the game moved on must still tell
    # the action that made the state, with the figures and names of that moment.
    setup = {"players": ["Ann", "Bob"], "start_player": 0, "draws": ["E", "E", "D", "E"]}
    state = carc.from_setup({**setup, "moves": ["E 0,-1@180 follower:city0"]})
    later = state
    for _ in range(4):
        later = carc.apply(later, carc.legal_moves(later)[-1])
    assert later.figures != state.figures or later.tiles != state.tiles
    assert [e.text for e in state.events] == [
        "Ann places E at (0,-1), turned 180°",
        "Ann puts a follower on city0 at (0,-1)",
        "city of 2 tiles ×2 = 4 — Ann",
        "Ann's follower on (0,-1) returns to supply",
    ]
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
    cells = [(x, y) for x in range(-130, 131, 13) for y in range(-130, 131, 17)]
    cells += [(-(1 << 19), 5), ((1 << 19), -5), (0, 1 << 19), (0, -(1 << 19))]
    assert sorted(cells, key=lambda c: cell_key(*c)) == sorted(cells, key=lambda c: (c[1], c[0]))
    assert all(key_cell(cell_key(x, y)) == (x, y) for x, y in cells)
