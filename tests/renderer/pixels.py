"""Reading rendered PNGs back for structural checks."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager

from PIL import Image, ImageDraw, ImageFont

from renderer.style import keep_text_stamps

RGB = tuple[int, int, int]


def decode(png: bytes) -> Image.Image:
    """The RGB image of PNG bytes (and proof that they are a PNG)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(png)).convert("RGB")


def close(a: RGB, b: RGB, tolerance: int = 24) -> bool:
    """Whether two colours are equal up to palette reduction."""
    return sum(abs(x - y) for x, y in zip(a, b, strict=True)) <= tolerance


def pixel(image: Image.Image, x: float, y: float) -> RGB:
    """The colour at (x, y)."""
    return image.getpixel((round(x), round(y)))  # type: ignore[return-value]


def area_colour(image: Image.Image, x: float, y: float, radius: int = 3) -> RGB:
    """The most common colour around (x, y): the ground of an area, not a speck of its
    texture (city dots, field grass) that a single pixel may hit."""
    box = (round(x) - radius, round(y) - radius, round(x) + radius + 1, round(y) + radius + 1)
    colours = image.crop(box).getcolors(maxcolors=(2 * radius + 1) ** 2)
    assert colours
    return max(colours)[1]  # type: ignore[no-any-return]


@contextmanager
def recorded_texts() -> Iterator[list[tuple[str, float]]]:
    """Every text the renderer draws meanwhile, as (text, font size in px).

    Cached layers are not redrawn: call :func:`renderer.clear_caches` first.
    """
    drawn: list[tuple[str, float]] = []
    original = ImageDraw.ImageDraw.text

    def text(self, xy, text, fill=None, font=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        assert isinstance(font, ImageFont.FreeTypeFont), f"{text!r} drawn without the font"
        drawn.append((str(text), float(font.size)))
        return original(self, xy, text, fill, font, *args, **kwargs)

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    # Every text use is rasterised afresh meanwhile, so each one is seen and counted.
    keep_text_stamps(False)
    try:
        yield drawn
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
        keep_text_stamps(True)
