"""The phone rule: every text of every image stays at least 9 px tall when shown 400 px wide.

The renderer's text drawing is instrumented (every ``ImageDraw.text`` call records its font
size), so the rule is checked on what was really drawn, labels and pawn or figure letters
alike, over the fixed sample set of :mod:`renderer.samples`: every game, player count and
phase, the largest boards included.
"""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from renderer import clear_caches, render_results
from renderer.samples import samples
from renderer.style import MIN_PHONE_TEXT, PHONE_WIDTH, draw_centered_text, encode_png
from tests.renderer.pixels import decode, recorded_texts
from tests.renderer.test_results_image import _summary

SAMPLES = samples()


def small_texts(render) -> tuple[int, list[tuple[str, float]]]:  # type: ignore[no-untyped-def]
    """(image width, the texts smaller than the rule allows, as shown 400 px wide)."""
    clear_caches()  # cached layers hold text too: draw everything afresh
    with recorded_texts() as drawn:
        png = render()
    assert len(png) <= 300 * 1024, "every PNG stays within 300 KB"
    width = decode(png).width
    assert drawn, "the image has no text at all"
    scale = PHONE_WIDTH / width
    return width, [(text, size * scale) for text, size in drawn if size * scale < MIN_PHONE_TEXT]


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_text_stays_9_px_tall_on_a_phone(name: str) -> None:
    width, small = small_texts(SAMPLES[name])
    shown = sorted({(text, round(size, 1)) for text, size in small}, key=lambda x: x[1])
    assert not small, f"{name} ({width} px wide) at 400 px: {shown[:12]}"


def test_the_instrument_sees_pawn_letters_and_catches_small_text() -> None:

    def tiny() -> bytes:
        image = Image.new("RGB", (800, 100))
        draw_centered_text(ImageDraw.Draw(image), (50, 50), "R", 12, (255, 255, 255))
        draw_centered_text(ImageDraw.Draw(image), (150, 50), "B", 20, (255, 255, 255))

        return encode_png(image)

    assert small_texts(tiny)[1] == [("R", 6.0)]


@pytest.mark.parametrize("locale", ["en", "de", "hu"])
@pytest.mark.parametrize("game", ["carcassonne", "tock", "dog"])
def test_every_text_of_the_results_image_stays_9_px_tall_on_a_phone(game: str, locale: str) -> None:
    if game == "carcassonne":
        summary = _summary(game, timeline=[[0, 0, 0, 0], [10, 12, 8, 20], [20, 30, 31, 29]])
    else:
        summary = _summary(game, home=[[10, 1], [20, 1], [30, 0]], hands=3)
    names = ["Ann", "Bob", "Cy"]
    width, small = small_texts(lambda: render_results(summary, names=names, locale=locale))
    shown = sorted({(text, round(size, 1)) for text, size in small}, key=lambda x: x[1])
    assert not small, f"{game} results ({width} px wide) at 400 px: {shown[:12]}"
