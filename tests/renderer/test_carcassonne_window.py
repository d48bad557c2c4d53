"""Carcassonne boards that stay readable as the map grows: a steady window at full detail
with an overview, the whole map on request and at the end, figures that say what they are,
the latest tile marked unlike anything else."""

from __future__ import annotations

import pytest

import engine.carcassonne as carcassonne
from renderer import clear_caches, render_board
from renderer.carcassonne.board import (
    HIGHLIGHT,
    WINDOW_COLUMNS,
    WINDOW_ROWS,
    WINDOW_TILE,
    board_cells,
    board_top,
    board_width,
    letter_size,
    plan_layout,
    seat_colour,
    stable_window,
)
from renderer.carcassonne.tiledata import all_tile_ids, tile_facts
from renderer.carcassonne.tiles import _tile_spots
from renderer.samples import ALL_EXPANSIONS, carcassonne_position
from tests.renderer.pixels import close, decode, pixel, recorded_texts
from tests.renderer.views import carcassonne_view


@pytest.fixture(scope="module")
def big_game() -> carcassonne.CarcassonneState:  # type: ignore[name-defined]
    return carcassonne_position(4, ALL_EXPANSIONS, seed=11, tiles=72)


def test_posted_board_of_a_large_map_is_a_window_at_full_detail_with_an_overview(
    big_game,
) -> None:
    view = carcassonne.view(big_game, None)
    layout = plan_layout(view)
    assert layout.windowed
    assert (layout.columns, layout.rows) == (WINDOW_COLUMNS, WINDOW_ROWS)
    assert layout.tile == WINDOW_TILE
    # Full detail: figure letters keep their size relative to the tile (not raised to stay
    # legible), which is what makes them readable at 400 px wide.
    assert letter_size(layout.tile, board_width(view, layout)) <= WINDOW_TILE * 0.26
    last = (view["board"][-1]["x"], view["board"][-1]["y"])
    assert layout.contains(last)
    image = decode(render_board(view))
    header = image.crop((0, 0, image.width, board_top(view, layout)))
    # The overview's window frame is drawn in the header, in magenta.
    assert sum(1 for p in header.get_flattened_data() if close(p, HIGHLIGHT, 30)) > 100


def test_window_moves_only_when_the_latest_tile_would_leave_it_and_then_minimally(
    big_game,
) -> None:
    cells = [(x, y) for _, x, y, _ in big_game.tiles]
    previous = None
    moves = 0
    for count in range(1, len(cells) + 1):
        x0, y0, columns, rows = stable_window(cells[:count], WINDOW_COLUMNS, WINDOW_ROWS)
        x, y = cells[count - 1]
        # The latest tile and its neighbours are in the window.
        assert x0 <= x - 1
        assert x + 1 < x0 + columns
        assert y0 <= y - 1
        assert y + 1 < y0 + rows
        if previous is not None and (columns, rows) == previous[2:]:
            px0, py0 = previous[:2]
            need_x = max(0, px0 - (x - 1), (x + 1) - (px0 + columns - 1))
            need_y = max(0, py0 - (y - 1), (y + 1) - (py0 + rows - 1))
            assert abs(x0 - px0) <= need_x
            assert abs(y0 - py0) <= need_y
            moves += (x0, y0) != (px0, py0)
        previous = (x0, y0, columns, rows)
    assert moves < len(cells) / 2


def test_whole_map_on_request_and_at_the_end_of_the_game(big_game) -> None:
    view = carcassonne.view(big_game, None)
    cells = board_cells(view)
    assert not all(plan_layout(view).contains(c) for c in cells)
    assert all(plan_layout(view, whole=True).contains(c) for c in cells)
    assert render_board(view, whole=True) != render_board(view)
    finished = dict(view, finished=True, phase="finished", current_tile=None)
    assert all(plan_layout(finished).contains(c) for c in cells)


def _figure_image(kind: str, segment: str, tile: str = "A"):  # type: ignore[no-untyped-def]
    view = carcassonne_view(
        board=[{"tile": "D", "x": 0, "y": 0, "rot": 0}, {"tile": tile, "x": 1, "y": 0, "rot": 0}],
        figures=[{"player": 1, "kind": kind, "x": 1, "y": 0, "segment": segment}],
    )
    return decode(render_board(view)).tobytes()


def test_every_figure_has_its_own_silhouette() -> None:
    images = {
        "follower on a road": _figure_image("follower", "road0"),
        "farmer": _figure_image("follower", "field0"),
        "monk": _figure_image("follower", "monastery"),
        "big follower": _figure_image("big", "road0"),
        "builder": _figure_image("builder", "road0"),
        "pig": _figure_image("pig", "field0"),
    }
    assert len(set(images.values())) == len(images)


def test_figures_keep_their_seat_letter() -> None:
    view = carcassonne_view(
        board=[{"tile": "D", "x": 0, "y": 0, "rot": 0}, {"tile": "A", "x": 1, "y": 0, "rot": 0}],
        figures=[
            {"player": 1, "kind": kind, "x": 1, "y": 0, "segment": segment}
            for kind, segment in (("follower", "monastery"), ("pig", "field0"))
        ],
    )
    clear_caches()
    with recorded_texts() as drawn:
        render_board(view)
    assert sum(1 for text, _ in drawn if text == "B") >= 3  # two figures and the score row


def test_the_monk_leaves_the_monastery_in_sight_and_symbols_stay_beside_figures() -> None:
    for tile_id in all_tile_ids():
        facts = tile_facts(tile_id)
        spots, symbols = _tile_spots(tile_id)
        if facts.monastery and "monastery" in spots:
            monk = spots["monastery"]
            if tile_id != "R08":  # beside a river there is no room beside the cloister
                assert abs(monk[0] - 0.5) > 0.2, tile_id
                assert abs(monk[1] - 0.5) > 0.2, tile_id
        for index, city in enumerate(facts.cities):
            if city.shield or city.goods or city.cathedral:
                figure = spots[f"city{index}"]
                symbol = symbols[index]
                assert abs(figure[0] - symbol[0]) + abs(figure[1] - symbol[1]) > 0.2, tile_id


def test_latest_tile_is_marked_unlike_the_other_players_last_tiles() -> None:
    view = carcassonne_view(
        board=[
            {"tile": "D", "x": 0, "y": 0, "rot": 0},
            {"tile": "U", "x": 1, "y": 0, "rot": 0},
            {"tile": "U", "x": -1, "y": 0, "rot": 0},
        ],
        last_tiles={"0": [1, 0], "1": [-1, 0]},
    )
    layout = plan_layout(view)
    top = board_top(view, layout)
    image = decode(render_board(view))

    def at(cell, u, v):  # type: ignore[no-untyped-def]
        ox, oy = layout.cell_origin(cell)
        return pixel(image, ox + u * layout.tile, oy + top + v * layout.tile)

    # The latest tile (Blue's, placed last): a thick frame in Blue's colour and Blue's badge.
    assert close(at((-1, 0), 0.97, 0.5), seat_colour(1), 40)
    assert close(at((-1, 0), 0.5, 0.03), seat_colour(1), 40)
    corners = [at((-1, 0), u, v) for u in (0.1, 0.9) for v in (0.1, 0.9)]
    assert any(close(c, seat_colour(1), 40) for c in corners)
    # Red's earlier tile: only a thin line, no badge in any corner.
    assert not close(at((1, 0), 0.93, 0.5), seat_colour(0), 40)
    corners = [at((1, 0), u, v) for u in (0.1, 0.9) for v in (0.1, 0.9)]
    assert not any(close(c, seat_colour(0), 40) for c in corners)


def test_the_whole_map_of_a_large_game_stays_within_the_image_budget(big_game) -> None:
    view = carcassonne.view(big_game, None)
    for png in (render_board(view), render_board(view, whole=True)):
        assert len(png) <= 300_000


def test_the_end_of_the_game_names_the_winners_and_marks_their_rows() -> None:
    end = carcassonne_position(2, {}, seed=2, tiles=None)
    view = carcassonne.view(end, None)
    assert view["finished"]
    names = ["Anna", "Bence"]
    clear_caches()
    with recorded_texts() as drawn:
        render_board(view, names=names)
    texts = [text for text, _ in drawn]
    who = " + ".join(names[s] for s in view["winners"])
    assert f"Winner: {who}" in texts
    assert texts.count("winner") == len(view["winners"])
