"""Carcassonne images composed on the palette look exactly as the RGB drawing reduced to it,
and their PNGs are the same bytes whatever the caches held (issue 30)."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image, ImageChops

import engine.carcassonne as carcassonne
from renderer import clear_caches, render_board, render_placements
from renderer.carcassonne import indexed
from renderer.carcassonne.board import (
    board_width,
    draw_board_area,
    draw_header,
    draw_score_rows,
    header_height,
    plan_layout,
    rows_height,
)
from renderer.samples import ALL_EXPANSIONS, carcassonne_digest, carcassonne_position
from renderer.style import PAPER
from tests.renderer.pixels import decode

NAMES = ["Anna", "Bence", "Chloé", "Bot 4 (hard)", "Dóra", "Bot 6 (easy)"]


def _rgb_board(view: dict[str, Any], names: list[str], locale: str, whole: bool) -> Image.Image:
    """The board as it was drawn before issue 30: in RGB, reduced to the palette at the end."""
    layout = plan_layout(view, whole=whole)
    width = board_width(view, layout)
    header = header_height(view, layout, width, locale)
    image = Image.new("RGB", (width, header + layout.height + 8 + rows_height(view, width)), PAPER)
    draw_header(image, 0, view, layout, locale, names)
    board = Image.new("RGB", (width, layout.height), PAPER)
    draw_board_area(board, layout, view, locale=locale)
    image.paste(board, (0, header))
    draw_score_rows(image, header + layout.height + 8, view, names, locale)
    return indexed.quantize(image).convert("RGB")


def _views() -> dict[str, tuple[dict[str, Any], int, bool]]:
    mid = carcassonne.view(carcassonne_position(4, ALL_EXPANSIONS, seed=11, tiles=64), None)
    end = carcassonne.view(carcassonne_position(4, ALL_EXPANSIONS, seed=11, tiles=None), None)
    early = carcassonne.view(carcassonne_position(2, {}, seed=2, tiles=8), None)
    return {
        "early": (early, 2, False),
        "windowed, all expansions": (mid, 4, False),
        "whole map": (mid, 4, True),
        "finished": (end, 4, False),
        "digest": (carcassonne_digest(), 2, False),
    }


VIEWS = _views()


@pytest.mark.parametrize("name", sorted(VIEWS))
@pytest.mark.parametrize("locale", ["en", "de", "hu"])
def test_the_board_has_the_pixels_of_the_rgb_drawing(name: str, locale: str) -> None:
    view, players, whole = VIEWS[name]
    names = NAMES[:players]
    expected = _rgb_board(view, names, locale, whole)
    for _ in range(2):  # with the caches cold, then warm
        got = decode(render_board(view, names=names, whole=whole, locale=locale))
        assert got.size == expected.size
        assert ImageChops.difference(got, expected).getbbox() is None


def _game_views(seed: int, turns: int) -> list[tuple[dict[str, Any], Any]]:
    """The views before each of the first ``turns`` placements of a seeded 3-player game."""
    state = carcassonne.new_game(3, {}, seed)
    rng = random.Random(seed)
    views = []
    while len(views) < turns:
        if state.phase == "place":
            views.append((carcassonne.view(state, 0), carcassonne.legal_placements(state)))
        state = carcassonne.apply(state, rng.choice(carcassonne.legal_moves(state)))
    return views


def test_successive_boards_are_the_same_bytes_as_drawn_from_scratch() -> None:
    """Tiles, stamps and the ground-and-tiles layer of the previous board are reused; each
    PNG is still byte for byte the one a fresh process (a render worker) would make."""
    views = _game_views(seed=5, turns=40)
    clear_caches()
    warm = [(render_board(v), render_placements(v, p)) for v, p in views]
    for index in (3, 17, 39):
        clear_caches()
        view, placements = views[index]
        assert render_board(view) == warm[index][0]
        assert render_placements(view, placements) == warm[index][1]


def test_the_png_decodes_to_the_palette_image() -> None:
    rng = random.Random(1)
    image = indexed.new_image((37, 23), PAPER)
    image.putdata([rng.randrange(256) for _ in range(37 * 23)])
    png = indexed.encode_indexed(image)
    decoded = Image.open(io.BytesIO(png))
    assert decoded.mode == "P"
    assert decoded.convert("RGB").tobytes() == image.convert("RGB").tobytes()
    assert indexed.encode_indexed(image) == png
