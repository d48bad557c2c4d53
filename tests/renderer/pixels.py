"""Reading rendered PNGs back for structural checks."""

from __future__ import annotations

import io

from PIL import Image

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
