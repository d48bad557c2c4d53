"""The renderer's public entry points: argument checks, threads, warm-up."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

import renderer
from tests.renderer.views import carcassonne_view, race_view


def test_renders_from_worker_threads_are_identical() -> None:
    renderer.warm_up()
    views = [race_view("tock", 6, pawns={"4": ["r75"]}), carcassonne_view()]
    expected = [renderer.render_board(v) for v in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(renderer.render_board, views * 4))
    assert results == expected * 4


def test_hands_exist_only_in_race_games() -> None:
    with pytest.raises(ValueError, match="no hands"):
        renderer.render_hand("carcassonne", ["A"])


def test_names_replace_colour_names_in_the_seat_strip() -> None:
    view = race_view("tock", 2)
    plain = renderer.render_board(view)
    # Two seats in use (0 and 2): names may come in seat order or indexed by seat number.
    assert renderer.render_board(view, names=["Ann", "Bo"]) != plain
    assert renderer.render_board(view, names=["Ann", "Bo"]) == renderer.render_board(
        view, names=["Ann", "-", "Bo"]
    )
