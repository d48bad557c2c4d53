"""The results image: legible at 400 px, every seat in its colour, deterministic."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from renderer import render_results
from renderer.style import seat_colour


def _summary(game: str, **extra: Any) -> dict[str, Any]:
    seats = [
        {"seat": 0, "name": "Ann", "place": 2, "score": 30, "team": None, "left": False},
        {"seat": 1, "name": "Bob", "place": 1, "score": 41, "team": None, "left": False},
        {"seat": 2, "name": "Cy", "place": 3, "score": 12, "team": None, "left": True},
    ]
    return {"game": game, "seats": seats, "winners": [1], "moves": 90, "options": {}, **extra}


def _image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _has_colour(image: Image.Image, colour: tuple[int, int, int]) -> bool:
    return any(count > 200 for count, c in image.getcolors(1 << 20) or [] if c == colour)


def test_carcassonne_results_show_every_seat_and_the_score_chart() -> None:
    summary = _summary(
        "carcassonne",
        categories={"0": {"road": 10, "city": 20}, "1": {"farm": 41}, "2": {"monastery": 12}},
        timeline=[[0, 0, 0, 0], [40, 10, 0, 12], [90, 30, 41, 12]],
        options={"inns_cathedrals": "full"},
    )
    png = render_results(summary, names=["Ann", "Bob", "Cy"])
    image = _image(png)
    assert image.width == 800  # shown at 400 px: text of 22 px and more stays readable
    for seat in range(3):
        assert _has_colour(image, seat_colour(seat, "carcassonne"))
    assert render_results(summary, names=["Ann", "Bob", "Cy"]) == png  # deterministic
    assert render_results(summary, names=["Ann", "Bob", "Cy"], locale="de") != png


def test_race_results_show_the_pawns_home_in_order() -> None:
    summary = _summary("tock", home=[[10, 1], [20, 1], [30, 0], [35, 1], [50, 1]], hands=4)
    summary["seats"][0]["team"] = 0
    image = _image(render_results(summary))
    assert image.width == 800
    for seat in range(3):
        assert _has_colour(image, seat_colour(seat, "tock"))
    more = _summary("tock", home=[], hands=1)
    more["seats"].append({"seat": 3, "name": "Di", "place": 4, "score": 0})
    assert _image(render_results(more)).height > image.height
