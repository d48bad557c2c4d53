"""Carcassonne images composed in palette ("P") mode, and their PNG encoding.

A Carcassonne board is mostly tile art, which is the same from one image to the next. The
images used to be drawn in RGB and reduced to the fixed palette at the end, every pixel
every time, then compressed whole. Here the parts are reduced once and cached instead: each
tile bitmap, figure and board text is kept already mapped to the palette (each pixel takes
its nearest palette colour, exactly as the reduction of a whole image would map it), and the
board is composed from them by copying palette indices. Only the header, the rotation strip
and the scoreboard, full of changing words, are drawn in RGB and reduced per image.

The PNG is written here too (:func:`encode_indexed`), in horizontal bands each compressed on
its own: a band whose pixels equal a band of a recent image at the same place (the map grows
by one tile a move; most of the board, header and rows stay as they were) reuses its
compressed bytes. A band's compressed bytes depend only on its pixels, so the PNG is the same
byte for byte whether a band came from the cache or not.
"""

from __future__ import annotations

import math
import struct
import zlib
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from renderer.carcassonne.tiles import (
    CITY,
    FIELD,
    ROAD,
    ROAD_EDGE,
    TILE_COLOURS,
    WALL,
    tile_image,
)
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


@lru_cache(maxsize=1)
def _drawn_palette() -> bytes:
    """The palette with the entry that white is mapped to turned back to white: the colour
    the RGB drawing had under a text drawn over a white cell, which the text blends with."""
    colours = bytearray(_palette_bytes())
    white = index(WHITE)
    colours[3 * white : 3 * white + 3] = bytes(WHITE)
    return bytes(colours)


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
    """:func:`renderer.carcassonne.tiles.tile_image` mapped onto the palette."""
    return quantize(tile_image(tile_id, rot, size))


#: (text, size, anchor, fill, ground, stroke, fraction) -> (palette stamp, solid mask, dx, dy).
_TEXTS: OrderedDict[tuple[object, ...], tuple[Image.Image, Image.Image, int, int]] = OrderedDict()
_TEXTS_MAX = 4096


def _solid(mask: Image.Image) -> Image.Image:
    return mask.point(lambda v: 255 if v else 0)


def _text_stamp(
    text: str, size: int, anchor: str, fill: RGB, ground: RGB
) -> tuple[Image.Image, Image.Image, int, int]:
    """The text as :func:`renderer.style.draw_text` draws it onto ``ground``, mapped."""
    face = font(size)
    left, top, right, bottom = (int(v) for v in face.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    draw = ImageDraw.Draw(mask)
    if size >= MONO_TEXT:
        draw.fontmode = "1"  # as renderer.style draws large text: hinted, no grey edges
    draw.text((-left, -top), text, fill=255, font=face, anchor=anchor)
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
    key = (text, size, anchor, fill, ground)
    cached = _TEXTS.get(key)
    if cached is None:
        cached = _text_stamp(text, size, anchor, fill, ground)
        if keeps_text_stamps():
            if len(_TEXTS) >= _TEXTS_MAX:
                _TEXTS.popitem(last=False)
            _TEXTS[key] = cached
    patch, solid, left, top = cached
    x, y = math.floor(xy[0] + 0.5) + left, math.floor(xy[1] + 0.5) + top
    image.paste(patch, (x, y), solid)


#: Outlined texts by (text, size, fill, stroke, sub-pixel position, the ground's indices):
#: the ground with the text on it.
_STROKED: OrderedDict[tuple[object, ...], Image.Image] = OrderedDict()


def draw_stroked_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    stroke: int,
) -> None:
    """Outlined text centred on ``xy`` (``ImageDraw.text`` with a stroke of ``fill``) on a
    palette image: the pixels the RGB drawing had, reduced.

    Its anti-aliased edges blend with whatever lies under them (a cell's frame, its
    neighbours), so the text is drawn onto the ground it lands on, at the same sub-pixel
    position; the result is kept by that ground, which repeats from cell to cell.
    """
    text = clean_text(text)
    if not text:
        return
    face = font(size)
    left, top, right, bottom = face.getbbox(text, anchor="mm", stroke_width=stroke)
    x0 = math.floor(xy[0]) + math.floor(left) - 2
    y0 = math.floor(xy[1]) + math.floor(top) - 2
    box = (x0, y0, math.floor(xy[0]) + math.ceil(right) + 2, math.floor(xy[1]) + math.ceil(bottom) + 2)
    ground = image.crop(box)
    key = (text, size, fill, stroke, xy[0] - math.floor(xy[0]), xy[1] - math.floor(xy[1]))
    key += (ground.tobytes(),)
    drawn = _STROKED.get(key)
    if drawn is None:
        before = ground.copy()
        before.putpalette(_drawn_palette())
        before = before.convert("RGB")
        patch = before.copy()
        ImageDraw.Draw(patch).text(
            (xy[0] - x0, xy[1] - y0),
            text,
            fill=fill,
            font=face,
            anchor="mm",
            stroke_width=stroke,
            stroke_fill=fill,
        )
        # Only the pixels the text changed take its reduced colours.
        red, green, blue = ImageChops.difference(patch, before).split()
        changed = _solid(ImageChops.lighter(ImageChops.lighter(red, green), blue))
        drawn = ground.copy()
        drawn.paste(quantize(patch), (0, 0), changed)
        if keeps_text_stamps():
            if len(_STROKED) >= _TEXTS_MAX:
                _STROKED.popitem(last=False)
            _STROKED[key] = drawn
    image.paste(drawn, box[:2])


#: Figures by the key of :func:`renderer.carcassonne.board.draw_figure`: (palette sprite,
#: solid mask).
_SPRITES: dict[tuple[object, ...], tuple[Image.Image, Image.Image]] = {}


def sprite(key: tuple[object, ...], draw: Callable[[], Image.Image]) -> tuple[Image.Image, Image.Image]:
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
    """Forget every cached part (texts, figures, tiles, compressed bands)."""
    _TEXTS.clear()
    _STROKED.clear()
    _SPRITES.clear()
    tile.cache_clear()
    _BANDS.clear()


# --- PNG ---------------------------------------------------------------------------------

#: zlib level of the bands: measured on the boards of bench.render_reference, levels 1-3
#: cost the same time (deflate's floor on these flat images) and 3 gives the smallest PNG.
LEVEL = 3
#: Rows per band: small enough that one new tile changes few bands, large enough that the
#: per-band cost (a compressor, a lookup) stays small against compressing its bytes.
BAND_ROWS = 24
#: Recent bands kept per (row width, first row): a table's next board, and the board with
#: the numbered cells drawn between two of them, find theirs.
BAND_VERSIONS = 3
#: (row length, first row) -> recent (raw bytes, compressed bytes, adler32), newest last.
_BANDS: OrderedDict[tuple[int, int], list[tuple[bytes, bytes, int]]] = OrderedDict()
#: Most band positions kept (about 8 MB of raw and compressed bytes at 1000 px wide).
_BANDS_MAX = 120
_ADLER_BASE = 65521


def _adler_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two byte strings joined, from theirs (zlib's adler32_combine)."""
    rem = length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 += (second & 0xFFFF) + _ADLER_BASE - 1
    sum2 += (first >> 16) + (second >> 16) + _ADLER_BASE - rem
    sum1 %= _ADLER_BASE
    sum2 %= _ADLER_BASE
    return sum1 | (sum2 << 16)


def _compress_band(raw: bytes) -> tuple[bytes, int]:
    """Raw deflate blocks of ``raw`` ending byte-aligned (sync flush), and its Adler-32."""
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -15, 8)
    return compressor.compress(raw) + compressor.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(raw)


def _band(key: tuple[int, int], raw: bytes) -> tuple[bytes, int]:
    versions = _BANDS.get(key)
    if versions is not None:
        for stored, compressed, adler in versions:
            if stored == raw:
                return compressed, adler
    compressed, adler = _compress_band(raw)
    if not keeps_text_stamps():
        return compressed, adler
    if versions is None:
        versions = _BANDS[key] = []
        if len(_BANDS) > _BANDS_MAX:
            _BANDS.popitem(last=False)
    else:
        _BANDS.move_to_end(key)
    versions.append((raw, compressed, adler))
    del versions[:-BAND_VERSIONS]
    return compressed, adler


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_indexed(image: Image.Image) -> bytes:
    """PNG bytes of a palette image with the Carcassonne palette (8 bits, no filtering, as
    Pillow writes palette images), compressed band by band (see the module's docstring)."""
    width, height = image.size
    # Each PNG row starts with its filter byte (0, none): a column of index 0 on the left
    # makes tobytes() give the rows with their filter bytes in one copy.
    framed = Image.new("P", (width + 1, height), 0)
    framed.paste(image, (1, 0))
    raw = framed.tobytes()
    row = width + 1
    step = row * BAND_ROWS
    parts = [b"\x78\x01"]
    adler = 1
    for start in range(0, len(raw), step):
        piece = raw[start : start + step]
        compressed, piece_adler = _band((row, start), piece)
        parts.append(compressed)
        adler = _adler_combine(adler, piece_adler, len(piece))
    parts.append(b"\x03\x00")  # the final block: empty
    parts.append(struct.pack(">I", adler))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", _palette_bytes()),
            _chunk(b"IDAT", b"".join(parts)),
            _chunk(b"IEND", b""),
        )
    )
