"""PNG files of palette images, written for speed and size together.

Every Pöppel image is a flat drawing of a few hundred colours, kept as a palette ("P") image
of 8 bits a pixel. Its rows are written as they are (no row filters, as Pillow writes palette
images) and deflated by ISA-L, which on these images is as small as zlib's level 3 in a third
to a tenth of its time (zlib's deflate was up to half of an image's cost); the densest images
are deflated by libdeflate, to stay within the 60 KB budget. Both give the same bytes for the
same pixels on a machine, so a render worker and the bot's own process make the same PNG.
"""

from __future__ import annotations

import struct
import zlib
from functools import lru_cache

import deflate
from isal import isal_zlib
from PIL import Image

#: ISA-L's deflate level (0-3): measured on the boards of bench.render_reference, level 1
#: makes PNGs as small as zlib's level 3 in a third to a tenth of its time (ISA-L's level 2
#: is the same, level 3 both slower and larger on these flat images, level 0 a third larger).
LEVEL = 1
#: Pixel data deflated larger than this by ISA-L (a large map full of expansion tiles, its
#: numbered cells at small tiles; a 6-seat Dog board) is deflated again by libdeflate at
#: :data:`DENSE_LEVEL`, which makes it about 30 % smaller (66 KB -> 46 KB for bench.render's
#: 72-tile placement board, 66 KB -> 41 KB for its 6-seat Dog board) in about 4 ms more:
#: every PNG stays within the 60 KB budget (the palette and the chunks take under 1 KB).
DENSE = 58 * 1024
DENSE_LEVEL = 6
#: Bytes of pixel data in a band of :func:`encode_palette_png` (small enough for the heap).
BAND_BYTES = 64 * 1024


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@lru_cache(maxsize=8)
def _band_buffer(width: int) -> Image.Image:
    """The band :func:`encode_palette_png` pastes rows of an image ``width`` - 1 px wide into."""
    return Image.new("P", (width, max(1, BAND_BYTES // width)), 0)


def encode_palette_png(image: Image.Image, palette: bytes) -> bytes:
    """PNG bytes of the palette image ``image`` whose colours are ``palette`` (RGB triples):
    8 bits a pixel, no row filters, deflated by ISA-L (see :data:`LEVEL`), or by libdeflate
    when that is too large (see :data:`DENSE`)."""
    width, height = image.size
    # Each PNG row starts with its filter byte (0, none): rows pasted into a band one pixel
    # wider, whose first column stays index 0, come out of tobytes() with their filter
    # bytes. Band by band, so that no buffer is as large as the image: large ones are
    # mapped afresh and faulted in page by page each time, which cost more than deflating.
    band = _band_buffer(width + 1)
    compressor = isal_zlib.compressobj(LEVEL, isal_zlib.DEFLATED, 15, 9)
    pieces = []
    for top in range(0, height, band.height):
        band.paste(image, (1, -top))
        rows = min(band.height, height - top)
        piece = (
            band.tobytes() if rows == band.height else band.crop((0, 0, width + 1, rows)).tobytes()
        )
        pieces.append(piece)
        compressor.compress(piece)
    data = compressor.flush()
    if len(data) > DENSE:
        data = deflate.zlib_compress(b"".join(pieces), DENSE_LEVEL)
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette[:768]),
            _chunk(b"IDAT", data),
            _chunk(b"IEND", b""),
        )
    )
