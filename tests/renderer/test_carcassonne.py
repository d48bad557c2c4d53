"""Carcassonne images: tiles from the tile facts, figures, numbered cells, lettered spots."""

from __future__ import annotations

import pytest

import engine.carcassonne as carcassonne
from engine.protocol import InvalidOptions
from renderer import (
    carcassonne_cell_center,
    placement_order,
    render_board,
    render_figure_spots,
    render_placements,
)
from renderer.carcassonne.board import (
    MAX_CELLS,
    MIN_TILE,
    WINDOW_COLUMNS,
    board_top,
    board_width,
    figure_body_offset,
    figure_kind,
    letter_size,
    plan_layout,
    seat_colour,
)
from renderer.carcassonne.choices import SPOT_CELL
from renderer.carcassonne.tiledata import all_tile_ids, tile_facts
from renderer.carcassonne.tiles import CITY, FIELD, RIVER, segment_spot, tile_image
from renderer.style import HIGHLIGHT
from tests.renderer.pixels import area_colour, close, decode, pixel
from tests.renderer.views import carcassonne_playout, carcassonne_view


def _tile_point(view, cell, u: float, v: float, extra=()) -> tuple[float, float]:
    """The pixel at tile units (u, v) of ``cell`` in the board image."""
    layout = plan_layout(view, list(extra))
    ox, oy = layout.cell_origin(cell)
    return ox + u * layout.tile, oy + board_top(view, layout) + v * layout.tile


def _body(view, fig) -> tuple[float, float]:
    """A pixel of ``fig``'s body in the board image of ``view``."""
    layout = plan_layout(view, [])
    cells = {(t["x"], t["y"]): (t["tile"], t["rot"]) for t in view["board"]}
    tile, rot = cells[(fig["x"], fig["y"])]
    u, v = segment_spot(tile, rot, fig["segment"])
    x, y = _tile_point(view, (fig["x"], fig["y"]), u, v)
    letter = letter_size(layout.tile, board_width(view, layout))
    dx, dy = figure_body_offset(figure_kind(fig), letter)
    return x + dx, y + dy


def test_every_tile_type_of_the_engine_data_draws_in_every_rotation() -> None:
    ids = all_tile_ids()
    assert len(ids) == 75
    for tile_id in ids:
        images = {tile_image(tile_id, rot, 40).tobytes() for rot in (0, 90, 180, 270)}
        assert images  # drawn without error; symmetric tiles may repeat
        names = tile_facts(tile_id).segment_names()
        for name in names:
            u, v = segment_spot(tile_id, 0, name)
            assert 0.0 < u < 1.0
            assert 0.0 < v < 1.0


@pytest.mark.parametrize(
    ("tile", "rot", "city_side", "field_side"),
    [
        # Inside the frame that marks the latest tile.
        ("E", 0, (0.5, 0.1), (0.5, 0.9)),
        ("E", 90, (0.9, 0.5), (0.1, 0.5)),
        ("E", 180, (0.5, 0.9), (0.5, 0.1)),
        ("N", 270, (0.1, 0.9), (0.85, 0.15)),
    ],
)
def test_city_is_drawn_on_the_sides_the_rotation_turns_it_to(tile, rot, city_side, field_side):
    view = carcassonne_view(
        board=[{"tile": "D", "x": 0, "y": 0, "rot": 0}, {"tile": tile, "x": 1, "y": 0, "rot": rot}]
    )
    image = decode(render_board(view))
    assert close(area_colour(image, *_tile_point(view, (1, 0), *city_side)), CITY, 40)
    assert close(area_colour(image, *_tile_point(view, (1, 0), *field_side)), FIELD, 40)


def test_river_monastery_and_full_city_tiles_are_drawn_from_their_facts() -> None:
    view = carcassonne_view(
        board=[
            {"tile": "D", "x": 0, "y": 0, "rot": 0},
            {"tile": "R03", "x": 1, "y": 0, "rot": 0},
            {"tile": "B", "x": 2, "y": 0, "rot": 0},
            {"tile": "C", "x": 0, "y": -1, "rot": 0},
        ]
    )
    image = decode(render_board(view))
    assert close(pixel(image, *_tile_point(view, (1, 0), 0.5, 0.2)), RIVER, 40)
    assert not close(pixel(image, *_tile_point(view, (2, 0), 0.5, 0.55)), FIELD, 40)
    assert close(pixel(image, *_tile_point(view, (0, -1), 0.8, 0.2)), CITY, 40)


def _figure_view(kind: str) -> dict:
    return carcassonne_view(
        board=[{"tile": "D", "x": 0, "y": 0, "rot": 0}, {"tile": "E", "x": 0, "y": -1, "rot": 180}],
        figures=[{"player": 1, "kind": kind, "x": 0, "y": -1, "segment": "city0"}],
    )


@pytest.mark.parametrize("kind", ["follower", "big", "builder", "pig"])
def test_figure_stands_on_its_segment_in_its_players_colour(kind: str) -> None:
    view = _figure_view(kind)
    image = decode(render_board(view))
    assert close(pixel(image, *_body(view, view["figures"][0])), seat_colour(1), 40)


def test_figure_kinds_have_different_shapes() -> None:
    images = {
        kind: decode(render_board(_figure_view(kind))).tobytes()
        for kind in ("follower", "big", "builder", "pig")
    }
    assert len(set(images.values())) == 4


def test_last_tile_of_each_player_is_framed_in_their_colour() -> None:
    view = carcassonne_view(
        board=[{"tile": "D", "x": 0, "y": 0, "rot": 0}, {"tile": "U", "x": 1, "y": 0, "rot": 0}],
        last_tiles={"1": [1, 0]},
    )
    image = decode(render_board(view))
    assert close(pixel(image, *_tile_point(view, (1, 0), 0.97, 0.5)), seat_colour(1), 40)
    assert not close(pixel(image, *_tile_point(view, (0, 0), 0.97, 0.75)), seat_colour(1), 40)


def test_placements_are_numbered_in_the_published_order() -> None:
    placements = {(1, 0): [0], (0, -1): [180], (-1, 0): [0, 90], (0, 1): [90]}
    assert placement_order(placements) == [(0, -1), (-1, 0), (1, 0), (0, 1)]
    view = carcassonne_view(current_tile="U")
    image = decode(render_placements(view, placements))
    for cell in placements:
        x, y = _tile_point(view, cell, 0.5, 0.5, extra=placements)
        layout = plan_layout(view, list(placements))
        ox, oy = layout.cell_origin(cell)
        oy += board_top(view, layout)
        inset = max(2, layout.tile // 16) + 1
        assert close(pixel(image, ox + inset, oy + layout.tile / 2), HIGHLIGHT, 40)
        # The number itself: dark pixels in the middle of the white label.
        box = image.crop((round(x) - 12, round(y) - 12, round(x) + 12, round(y) + 12))
        assert min(sum(p) for p in box.get_flattened_data()) < 200


def test_figure_spots_are_lettered_on_their_segments() -> None:
    view = carcassonne_view(
        phase="figure",
        current_tile="U",
        board=[{"tile": "D", "x": 0, "y": 0, "rot": 0}, {"tile": "U", "x": 1, "y": 0, "rot": 0}],
    )
    spots = ["none", "follower:road0", "follower:field0", "follower:field1"]
    with_spots = decode(render_figure_spots(view, 1, 0, 0, "U", spots))
    without = decode(render_figure_spots(view, 1, 0, 0, "U", []))
    for spot in spots[1:]:
        u, v = segment_spot("U", 0, spot.split(":")[1])
        x, y = 12 + SPOT_CELL * (1 + u), 12 + SPOT_CELL * (1 + v)
        # A white bubble with a letter replaces the tile there.
        assert pixel(with_spots, x + 14, y) != pixel(without, x + 14, y)
    assert with_spots.height > without.height  # the legend lists A…D


def test_outputs_are_deterministic() -> None:
    state = carcassonne_playout(3, {"traders_builders": "full"}, seed=4, steps=30)
    view = carcassonne.view(state, 0)
    assert render_board(view) == render_board(view)
    if view["phase"] == "place":
        placements = carcassonne.legal_placements(state)
        assert render_placements(view, placements) == render_placements(view, placements)


def test_a_25_by_25_board_stays_readable_and_small() -> None:
    ids = ["U", "V", "E", "B", "C", "X", "I15", "T09", "R05"]
    board = [
        {"tile": ids[(x * 7 + y) % len(ids)], "x": x, "y": y, "rot": 90 * ((x + y) % 4)}
        for x in range(-12, 13)
        for y in range(-12, 13)
    ]
    figures = [
        {"player": (x + y) % 2, "kind": "follower", "x": x, "y": y, "segment": "road0"}
        for x in range(-12, 13, 3)
        for y in range(-12, 13, 3)
        if board[(x + 12) * 25 + y + 12]["tile"] in ("U", "V", "X")
    ]
    view = carcassonne_view(board=board, figures=figures, last_tiles={"0": [12, 12]})
    layout = plan_layout(view, [])
    assert layout.tile >= MIN_TILE
    assert layout.columns <= MAX_CELLS
    assert layout.rows <= MAX_CELLS
    png = render_board(view)
    assert len(png) <= 300_000
    assert decode(png).width <= 1200


def test_larger_boards_are_cropped_around_the_last_tile() -> None:
    board = [{"tile": "U", "x": x, "y": 0, "rot": 0} for x in range(60)]
    view = carcassonne_view(board=board)
    assert carcassonne_cell_center(view, (59, 0)) is not None
    assert carcassonne_cell_center(view, (0, 0)) is None


def test_placements_far_apart_on_a_wide_board_are_all_numbered_on_the_image() -> None:
    # A 60-tile road: the legal cells lie at both ends, 62 cells apart. The cell select
    # lists every one, so the image must show every number, even if it grows wider.
    board = [{"tile": "U", "x": x, "y": 0, "rot": 90} for x in range(60)]
    view = carcassonne_view(board=board, current_tile="U")
    placements = {(-1, 0): [90], (60, 0): [90], (30, 1): [0]}
    layout = plan_layout(view, list(placements))
    assert layout.columns > MAX_CELLS
    image = decode(render_placements(view, placements))
    for cell in placements:
        assert carcassonne_cell_center(view, cell, extra=list(placements)) is not None
        ox, oy = layout.cell_origin(cell)
        oy += board_top(view, layout)
        inset = max(2, layout.tile // 16) + 1
        assert close(pixel(image, ox + inset, oy + layout.tile / 2), HIGHLIGHT, 40)
    # Without placements to show, the same board is still cropped around the last tile.
    assert plan_layout(view, []).columns == WINDOW_COLUMNS


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_player_count_renders(players: int) -> None:
    state = carcassonne.new_game(players, {}, players)
    image = decode(render_board(carcassonne.view(state, None)))
    assert image.height > 400


def test_every_option_value_renders_with_its_scoreboard() -> None:
    for spec in carcassonne.OPTIONS:
        for value in spec.choices or (spec.default,):
            try:
                state = carcassonne_playout(2, {spec.name: value}, seed=3, steps=8)
            except InvalidOptions:
                pytest.fail(f"{spec.name}={value!r} refused")
            view = carcassonne.view(state, 0)
            assert decode(render_board(view)).width >= 560


@pytest.mark.parametrize("seed", [1, 2])
def test_random_playout_figures_are_drawn_in_their_players_colours(seed: int) -> None:
    state = carcassonne_playout(
        4, {"inns_cathedrals": "full", "traders_builders": "full"}, seed=seed, steps=60
    )
    view = carcassonne.view(state, None)
    image = decode(render_board(view))
    layout = plan_layout(view, [])
    assert view["figures"]
    for fig in view["figures"]:
        if not layout.contains((fig["x"], fig["y"])):
            continue
        assert close(pixel(image, *_body(view, fig)), seat_colour(fig["player"]), 40)


@pytest.mark.parametrize("tile", ["I07", "T07", "T12", "T22", "R08", "I14", "X"])
def test_separate_fields_of_one_tile_get_separate_figure_spots(tile: str) -> None:
    facts = tile_facts(tile)
    names = [f"field{i}" for i in range(len(facts.fields))]
    spots = {segment_spot(tile, 0, name) for name in names}
    assert len(spots) == len(names)
