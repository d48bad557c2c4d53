"""Carcassonne images composed in palette ("P") mode, and their PNG encoding.

A Carcassonne board is mostly tile art, which is the same from one image to the next. The
images used to be drawn in RGB and reduced to the fixed palette at the end, every pixel
every time, then compressed whole. Here the parts are reduced once and cached instead: each
tile bitmap, figure and board text is kept already mapped to the palette (each pixel takes
its nearest palette colour, exactly as the reduction of a whole image would map it), and the
board is composed from them by copying palette indices. Only the header, the rotation strip
and the scoreboard, full of changing words, are drawn in RGB and reduced per image.

The PNG is written without a second reduction (:func:`encode_indexed`, by
:mod:`renderer.png`).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from renderer.carcassonne.tiles import (
    CITY,
    FIELD,
    ROAD,
    ROAD_EDGE,
    ROTATIONS,
    TILE_COLOURS,
    WALL,
    master_size,
    tile_master,
)
from renderer.png import encode_palette_png
from renderer.style import (
    GREY,
    HIGHLIGHT,
    INK,
    LIGHT_GREY,
    MONO_TEXT,
    PAPER,
    RGB,
    WHITE,
    WINNER_FILL,
    clean_text,
    fixed_palette,
    font,
    keeps_text_stamps,
    seat_colour,
    text_width,
    tint,
)

EMPTY: RGB = (236, 232, 222)
GRID: RGB = (222, 217, 205)


@lru_cache(maxsize=1)
def carcassonne_palette() -> Image.Image:
    """The fixed palette of Carcassonne images: tiles, figures, board and scoreboard.

    Computed once (it takes over a millisecond of Python) and shared: callers only read it.
    """
    seats = [seat_colour(s, "carcassonne") for s in range(6)]
    base = (
        PAPER,
        WHITE,
        INK,
        GREY,
        LIGHT_GREY,
        HIGHLIGHT,
        EMPTY,
        GRID,
        WINNER_FILL,
        *TILE_COLOURS,
        *seats,
        *(tint(c, 0.8) for c in seats),
    )
    pairs = tuple((a, b) for i, a in enumerate(TILE_COLOURS) for b in TILE_COLOURS[i + 1 :])
    pairs += ((FIELD, EMPTY), (CITY, EMPTY), (WALL, EMPTY), (ROAD, FIELD), (ROAD_EDGE, EMPTY))
    return fixed_palette(base, pairs)


@lru_cache(maxsize=1)
def _palette_bytes() -> bytes:
    return bytes(carcassonne_palette().getpalette()[:768])  # type: ignore[index]


def quantize(image: Image.Image) -> Image.Image:
    """``image`` (RGB) mapped onto the Carcassonne palette, each pixel to its nearest colour."""
    return image.quantize(palette=carcassonne_palette(), dither=Image.Dither.NONE)


@lru_cache(maxsize=1024)
def index(colour: RGB) -> int:
    """The palette index an RGB pixel of ``colour`` is mapped to (see :func:`quantize`).

    Not always the colour's own entry: white, for one, maps to the paper colour, as it does
    when a whole RGB image is reduced.
    """
    return int(quantize(Image.new("RGB", (1, 1), colour)).getpixel((0, 0)))  # type: ignore[arg-type]


def new_image(size: tuple[int, int], colour: RGB) -> Image.Image:
    """A palette image of ``size`` filled with ``colour``."""
    image = Image.new("P", size, index(colour))
    image.putpalette(_palette_bytes())
    return image


class _Nearest:
    """Stands in for an image's palette in :class:`IndexedDraw`: RGB inks to indices."""

    def getcolor(self, colour: RGB, image: object = None) -> int:
        return index(tuple(colour[:3]))  # type: ignore[arg-type]


class IndexedDraw(ImageDraw.ImageDraw):
    """``ImageDraw`` on a palette image that takes RGB colours as the RGB drawing did: each
    shape's colour becomes the index an RGB pixel of it would have been reduced to.

    Shapes only: text goes through :func:`draw_text` (anti-aliased text needs its blended
    edge pixels, which palette indices cannot blend).
    """

    def __init__(self, image: Image.Image) -> None:
        super().__init__(image)
        self.palette = _Nearest()  # type: ignore[assignment]


def drawer(image: Image.Image) -> ImageDraw.ImageDraw:
    """The right ``ImageDraw`` for ``image``: :class:`IndexedDraw` for palette images."""
    return IndexedDraw(image) if image.mode == "P" else ImageDraw.Draw(image)


# --- cached parts ------------------------------------------------------------------------


@lru_cache(maxsize=2048)
def tile(tile_id: str, rot: int, size: int) -> Image.Image:
    """:func:`renderer.carcassonne.tiles.tile_image` mapped onto the palette.

    Scaled and turned from the tile's master mapped onto the palette once: mapping is done
    pixel by pixel, and the nearest-pixel scaling and the quarter turns only pick pixels, so
    the order makes no difference to the result, only to the time a new size takes.
    """
    scaled = _master(tile_id, master_size(size)).resize((size, size), Image.Resampling.NEAREST)
    turn = ROTATIONS[rot % 360]
    return scaled.transpose(turn) if turn is not None else scaled


@lru_cache(maxsize=256)
def _master(tile_id: str, size: int) -> Image.Image:
    return quantize(tile_master(tile_id, size))


#: Texts by (text, size, anchor, fill, ground[, stroke, sub-pixel position]): (the text on
#: its ground mapped onto the palette, a mask of the pixels it covers, offset from the
#: anchor point). Kept while the tests that watch every text drawn do not say otherwise.
_TEXTS: OrderedDict[tuple[object, ...], tuple[Image.Image, Image.Image, int, int] | None] = (
    OrderedDict()
)
_TEXTS_MAX = 2048  # two small images each: a few MB at most


_SOLID = [0] + [255] * 255


def _solid(mask: Image.Image) -> Image.Image:
    """255 wherever ``mask`` is not 0."""
    return mask.point(_SOLID)


def _coverage(
    text: str, size: int, anchor: str, at: tuple[float, float] = (0.0, 0.0), stroke: int = 0
) -> tuple[Image.Image, int, int] | None:
    """(coverage mask, left, top) of ``text`` drawn by ``ImageDraw.text`` with its anchor at
    ``at`` (a sub-pixel position), the offsets counted from the whole pixel of ``at``;
    None when it covers no pixel.

    Drawn on a canvas with room for any anchor and cropped to what it covers: asking
    FreeType for the text's box first would lay the text out twice.
    """
    face = font(size)
    room = math.ceil(text_width(text, size)) + 2 * stroke + 2 * size
    canvas = Image.new("L", (2 * room, 4 * size + 2 * stroke), 0)
    draw = ImageDraw.Draw(canvas)
    if size >= MONO_TEXT and not stroke:
        draw.fontmode = "1"  # as renderer.style draws large text: hinted, no grey edges
    origin = (room, 2 * size + stroke)
    draw.text(
        (origin[0] + at[0], origin[1] + at[1]),
        text,
        fill=255,
        font=face,
        anchor=anchor,
        stroke_width=stroke,
        stroke_fill=255 if stroke else None,
    )
    box = canvas.getbbox()
    if box is None:
        return None
    return canvas.crop(box), box[0] - origin[0], box[1] - origin[1]


def _text_stamp(
    text: str,
    size: int,
    anchor: str,
    fill: RGB,
    ground: RGB,
    at: tuple[float, float] = (0.0, 0.0),
    stroke: int = 0,
) -> tuple[Image.Image, Image.Image, int, int] | None:
    """The text as ``ImageDraw.text`` draws it onto ``ground`` (as
    :func:`renderer.style.draw_text` does), mapped onto the palette, with the mask of the
    pixels it covers and its offset."""
    covered = _coverage(text, size, anchor, at, stroke)
    if covered is None:
        return None
    mask, left, top = covered
    patch = Image.new("RGB", mask.size, ground)
    patch.paste(fill, (0, 0), mask)
    return quantize(patch), _solid(mask), left, top


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    ground: RGB,
    *,
    anchor: str = "mm",
) -> None:
    """Text on a palette image where the ground under it is ``ground``: the same pixels as
    :func:`renderer.style.draw_text` on the RGB image, then reduced to the palette."""
    text = clean_text(text)
    if not text:
        return
    if not keeps_text_stamps():
        x, y = math.floor(xy[0] + 0.5), math.floor(xy[1] + 0.5)
        _in_place(image, (x, y), text, size, fill, anchor=anchor)
        return
    key = (text, size, anchor, fill, ground)
    if key in _TEXTS:
        cached = _TEXTS[key]
    else:
        cached = _TEXTS[key] = _text_stamp(text, size, anchor, fill, ground)
        if len(_TEXTS) > _TEXTS_MAX:
            _TEXTS.popitem(last=False)
    if cached is None:
        return
    patch, solid, left, top = cached
    x, y = math.floor(xy[0] + 0.5) + left, math.floor(xy[1] + 0.5) + top
    image.paste(patch, (x, y), solid)


def draw_stroked_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    ground: RGB,
    stroke: int,
) -> None:
    """Outlined text centred on ``xy`` (``ImageDraw.text`` with a stroke of ``fill``, at the
    same sub-pixel position) on a palette image, drawn as onto ``ground``.

    Where the text reaches beyond that ground (a cell's number marks wider than the cell),
    its few anti-aliased edge pixels there are blended with ``ground`` instead of what lies
    under them: a faint difference at most, for a stamp that serves every cell.
    """
    text = clean_text(text)
    if not text:
        return
    if not keeps_text_stamps():
        _in_place(image, xy, text, size, fill, anchor="mm", stroke=stroke)
        return
    # FreeType places glyphs in 64ths of a pixel: the sub-pixel position in those units
    # (the float fraction of x + 0.5 differs in its last bits from one x to the next).
    fx = round((xy[0] - math.floor(xy[0])) * 64) / 64
    fy = round((xy[1] - math.floor(xy[1])) * 64) / 64
    key = (text, size, "stroke", fill, ground, stroke, fx, fy)
    if key in _TEXTS:
        cached = _TEXTS[key]
    else:
        cached = _TEXTS[key] = _text_stamp(text, size, "mm", fill, ground, (fx, fy), stroke)
        if len(_TEXTS) > _TEXTS_MAX:
            _TEXTS.popitem(last=False)
    if cached is None:
        return
    patch, solid, dx, dy = cached
    image.paste(patch, (math.floor(xy[0]) + dx, math.floor(xy[1]) + dy), solid)


def _in_place(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    *,
    anchor: str,
    stroke: int = 0,
) -> None:
    """Text drawn through ``ImageDraw.text`` where it lands on (an RGB copy of) the whole
    image: slow, for the tests that watch every text drawn (no stamps are kept then)."""
    before = image.convert("RGB")
    patch = before.copy()
    draw = ImageDraw.Draw(patch)
    draw.fontmode = "1" if size >= MONO_TEXT and not stroke else "L"
    draw.text(
        xy,
        text,
        fill=fill,
        font=font(size),
        anchor=anchor,
        stroke_width=stroke,
        stroke_fill=fill if stroke else None,
    )
    red, green, blue = ImageChops.difference(patch, before).split()
    image.paste(
        quantize(patch), (0, 0), _solid(ImageChops.lighter(ImageChops.lighter(red, green), blue))
    )


#: Figures by the key of :func:`renderer.carcassonne.board.draw_figure`: (palette sprite,
#: solid mask).
_SPRITES: dict[tuple[object, ...], tuple[Image.Image, Image.Image]] = {}


def sprite(
    key: tuple[object, ...], draw: Callable[[], Image.Image]
) -> tuple[Image.Image, Image.Image]:
    """The figure of ``key`` mapped onto the palette, drawn by ``draw`` (an RGBA sprite whose
    alpha is 0 or 255) the first time."""
    cached = _SPRITES.get(key)
    if cached is None:
        rgba = draw()
        cached = (quantize(rgba.convert("RGB")), _solid(rgba.getchannel("A")))
        if len(_SPRITES) > 512:
            _SPRITES.clear()
        _SPRITES[key] = cached
    return cached


def clear() -> None:
    """Forget every cached part (texts, figures, tiles)."""
    _TEXTS.clear()
    _SPRITES.clear()
    tile.cache_clear()
    _master.cache_clear()


# --- PNG ---------------------------------------------------------------------------------


def encode_indexed(image: Image.Image) -> bytes:
    """PNG bytes of a palette image with the Carcassonne palette (:mod:`renderer.png`)."""
    return encode_palette_png(image, _palette_bytes())
