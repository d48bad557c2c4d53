"""Colours, seat letters, fonts and small drawing helpers shared by every renderer module.

The seat colours are the Okabe–Ito palette, which stays distinguishable under the common
forms of colour blindness; every pawn and figure also carries its seat's letter, so colour
is never the only cue.
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from i18n import t as _t
from renderer.png import encode_palette_png

RGB = tuple[int, int, int]

#: Seat colours of Tock and Dog in seat order (Okabe–Ito): the engines call seats 0–5 Red,
#: Blue, Yellow, Green, Purple and Orange (race-notation N-8).
SEAT_COLOURS: tuple[RGB, ...] = (
    (213, 94, 0),
    (0, 114, 178),
    (240, 228, 66),
    (0, 158, 115),
    (204, 121, 167),
    (230, 159, 0),
)
#: The letter drawn on every pawn and seat label, in seat order.
SEAT_LETTERS: tuple[str, ...] = ("R", "B", "Y", "G", "P", "O")
#: English colour names in seat order, as the race engines use them.
SEAT_COLOUR_NAMES: tuple[str, ...] = ("Red", "Blue", "Yellow", "Green", "Purple", "Orange")

#: Carcassonne's figure colours follow the engine's default player names (Red, Blue, Green,
#: Yellow, Black, Pink), again from the Okabe–Ito set plus black.
CARCASSONNE_COLOURS: tuple[RGB, ...] = (
    (213, 94, 0),
    (0, 114, 178),
    (0, 158, 115),
    (240, 228, 66),
    (45, 45, 45),
    (204, 121, 167),
)
CARCASSONNE_LETTERS: tuple[str, ...] = ("R", "B", "G", "Y", "K", "P")
CARCASSONNE_COLOUR_NAMES: tuple[str, ...] = ("Red", "Blue", "Green", "Yellow", "Black", "Pink")
#: The catalogue entries of the Carcassonne colours' initials in seat order: Red, Blue, Green
#: and Yellow say the race colours' initials (one initial per colour in a language), Black
#: and Pink have their own.
CARCASSONNE_INITIALS: tuple[str, ...] = (
    "colour.initial.0",
    "colour.initial.1",
    "colour.initial.3",
    "colour.initial.2",
    "colour.initial.carcassonne.4",
    "colour.initial.carcassonne.5",
)

INK: RGB = (30, 30, 30)
PAPER: RGB = (250, 247, 240)
GREY: RGB = (150, 150, 150)
LIGHT_GREY: RGB = (215, 212, 205)
WHITE: RGB = (255, 255, 255)
HIGHLIGHT: RGB = (230, 0, 126)


#: Discord shows an image about this wide on a phone (px); every text must stay readable there.
PHONE_WIDTH = 400
#: The smallest text allowed at :data:`PHONE_WIDTH`: the font size (em height, px) of every
#: label, caption and pawn or figure letter once the image is scaled to 400 px wide.
MIN_PHONE_TEXT = 9


def min_text(width: float) -> int:
    """The smallest font size that stays :data:`MIN_PHONE_TEXT` px tall in an image ``width``
    px wide shown :data:`PHONE_WIDTH` px wide (never below that size for narrow images)."""
    return max(MIN_PHONE_TEXT, math.ceil(MIN_PHONE_TEXT * width / PHONE_WIDTH - 1e-9))


def legible(size: float, width: float) -> int:
    """``size`` rounded, raised to :func:`min_text` of an image ``width`` px wide."""
    return max(round(size), min_text(width))


def seat_colour(seat: int, game: str = "tock") -> RGB:
    """The colour of ``seat`` in ``game`` (Tock and Dog share a palette)."""
    palette = CARCASSONNE_COLOURS if game == "carcassonne" else SEAT_COLOURS
    return palette[seat % len(palette)]


def seat_letter(seat: int, game: str = "tock", locale: str | None = None) -> str:
    """The letter of ``seat`` in ``game``: with a ``locale``, the seat colour's initial in that
    language (``colour.initial.N``: German Gelb and Grün are "Ge" and "Gr", Hungarian Piros
    is "P"; Carcassonne's by :data:`CARCASSONNE_INITIALS`), else the English letter of
    :data:`SEAT_LETTERS` or :data:`CARCASSONNE_LETTERS`."""
    if locale is not None:
        if game == "carcassonne":
            return _t(CARCASSONNE_INITIALS[seat % len(CARCASSONNE_INITIALS)], locale)
        return _t(f"colour.initial.{seat % len(SEAT_LETTERS)}", locale)
    letters = CARCASSONNE_LETTERS if game == "carcassonne" else SEAT_LETTERS
    return letters[seat % len(letters)]


def seat_colour_name(seat: int, game: str = "tock") -> str:
    """The English colour name of ``seat`` in ``game``."""
    names = CARCASSONNE_COLOUR_NAMES if game == "carcassonne" else SEAT_COLOUR_NAMES
    return names[seat % len(names)]


def text_colour_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on ``colour`` (relative luminance)."""
    r, g, b = colour
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return INK if luminance > 140 else WHITE


def tint(colour: RGB, amount: float) -> RGB:
    """``colour`` mixed towards white by ``amount`` (0 = unchanged, 1 = white)."""
    return tuple(round(c + (255 - c) * amount) for c in colour)  # type: ignore[return-value]


def shade(colour: RGB, amount: float) -> RGB:
    """``colour`` mixed towards black by ``amount``."""
    return tuple(round(c * (1 - amount)) for c in colour)  # type: ignore[return-value]


#: DejaVu Sans Condensed, shipped with the package (no system fonts: CI machines differ).
#: Pillow's own default font has no glyph beyond ASCII, so German and Hungarian labels (ä, ß,
#: ő, ű) and players' names would show as boxes; the condensed cut is about as wide as that
#: font, so the layouts keep fitting. Licence: ``renderer/fonts/LICENSE-DejaVu.txt``.
FONT_PATH = Path(__file__).with_name("fonts") / "DejaVuSansCondensed.ttf"


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The renderer's font (DejaVu Sans Condensed) at ``size`` px."""
    return ImageFont.truetype(str(FONT_PATH), size)


#: Characters the font lacks, with readable stand-ins (DejaVu has the arrows, × and ·; emoji
#: such as a trophy from a chat message are not drawn).
_STAND_INS = str.maketrans({"🏆": "", "🤖": ""})


def clean_text(text: str) -> str:
    """``text`` with characters the font cannot draw replaced."""
    return text.translate(_STAND_INS)


def draw_centered_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    *,
    stroke: int = 0,
    stroke_fill: RGB | None = None,
) -> None:
    """Draw ``text`` centred on ``xy`` (middle-middle anchor)."""
    if stroke:
        draw.text(
            xy,
            clean_text(text),
            font=font(size),
            fill=fill,
            anchor="mm",
            stroke_width=stroke,
            stroke_fill=stroke_fill,
        )
        return
    draw_text(draw, xy, text, size, fill, anchor="mm")


#: Rendered text stamps: (text, size, anchor) -> (coverage mask, left, top offset from the
#: anchor point). Boards repeat the same few hundred words, letters and numbers, and asking
#: FreeType to rasterise them again for every image was a third of a board's drawing time.
_STAMPS: dict[tuple[str, int, str], tuple[Image.Image, int, int]] = {}
_STAMPS_MAX = 4096
#: From this size (px) up, text is drawn without anti-aliasing (see :func:`_stamp`).
MONO_TEXT = 20
_KEEP_STAMPS = [True]


def clear_text_stamps() -> None:
    """Forget the rendered text stamps (the legibility test watches the text being drawn)."""
    _STAMPS.clear()


def keeps_text_stamps() -> bool:
    """Whether drawn texts (and the figures that carry letters) are kept for reuse."""
    return _KEEP_STAMPS[0]


def keep_text_stamps(keep: bool) -> None:
    """Whether text stamps are kept for reuse; off, every text is rasterised afresh through
    ``ImageDraw.text`` (tests that count the texts drawn turn it off)."""
    _KEEP_STAMPS[0] = keep
    _STAMPS.clear()


def _stamp(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    key = (text, size, anchor)
    cached = _STAMPS.get(key)
    if cached is None:
        face = font(size)
        left, top, right, bottom = (int(v) for v in face.getbbox(text, anchor=anchor))
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        draw = ImageDraw.Draw(mask)
        if size >= MONO_TEXT:
            # Large text is drawn hinted and without grey edges: the images it appears in are
            # shown scaled down (which smooths the edges), and flat pixels make the PNG about
            # a fifth smaller and cheaper to encode.
            draw.fontmode = "1"
        # Drawn through ImageDraw.text like any other text, so that the phone-legibility
        # instrument of the tests sees every size that reaches an image.
        draw.text((-left, -top), text, fill=255, font=face, anchor=anchor)
        cached = (mask, left, top)
        if _KEEP_STAMPS[0]:
            if len(_STAMPS) >= _STAMPS_MAX:
                _STAMPS.clear()
            _STAMPS[key] = cached
    return cached


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    *,
    anchor: str = "la",
) -> None:
    """Draw ``text`` at ``xy`` (``anchor`` as in Pillow) from a cached stamp.

    The position is rounded to whole pixels, so a word looks the same wherever it stands
    and its stamp can be reused; the result is what ``draw.text`` draws, give or take the
    sub-pixel shift.
    """
    text = clean_text(text)
    if not text:
        return
    x, y = math.floor(xy[0] + 0.5), math.floor(xy[1] + 0.5)
    if not _KEEP_STAMPS[0]:
        # Tests that watch ImageDraw.text see each text where it lands on its image.
        mode = draw.fontmode
        draw.fontmode = "1" if size >= MONO_TEXT else "L"
        draw.text((x, y), text, fill=fill, font=font(size), anchor=anchor)
        draw.fontmode = mode
        return
    mask, left, top = _stamp(text, size, anchor)
    x += left
    y += top
    # ImageDraw keeps its image private; pasting the ink through the coverage mask is what
    # draw.text itself does with the glyphs.
    image: Image.Image = draw._image  # type: ignore[attr-defined]
    image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)


#: The winner's panel.
WINNER_FILL: RGB = (255, 236, 160)


def draw_seat_box(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    colour: RGB,
    *,
    acting: bool,
    won: bool,
) -> None:
    """A seat's panel: gold with a bold frame for a winner, tinted in the seat's colour with a
    bold frame while it is to act, else white with a light frame."""
    fill = WINNER_FILL if won else tint(colour, 0.82) if acting else WHITE
    draw.rounded_rectangle(
        box,
        radius=10,
        fill=fill,
        outline=INK if acting or won else LIGHT_GREY,
        width=5 if acting or won else 2,
    )


def draw_seat_chip(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    r: float,
    colour: RGB,
    letter: str,
    size: int,
) -> None:
    """A seat's colour disc with its letter (``size`` px) on it."""
    x, y = centre
    draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=INK, width=2)
    draw_centered_text(draw, (x, y + 1), letter, size, text_colour_on(colour))


@lru_cache(maxsize=8192)
def text_width(text: str, size: int) -> float:
    """Width in px of ``text`` at ``size`` (cached: wrapping measures the same words often)."""
    return font(size).getlength(text)


def wrap_text(text: str, size: int, max_width: float) -> list[str]:
    """``text`` broken into lines at spaces so that each fits ``max_width`` at ``size``.

    Nothing is cut off: a single word wider than ``max_width`` gets a line of its own. A
    non-breaking space (``4.\u00a0bot``) holds its words together.
    """
    lines: list[str] = []
    current = ""
    for word in clean_text(text).split(" "):
        if not word:
            continue
        candidate = f"{current} {word}".strip()
        if current and text_width(candidate, size) > max_width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


def draw_paragraph(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    max_width: float,
    fill: RGB = INK,
    spacing: float = 1.25,
) -> float:
    """Draw ``text`` wrapped to ``max_width`` from its top-left ``xy``; returns the y below."""
    x, y = xy
    for line in wrap_text(text, size, max_width):
        draw_text(draw, (x, y), line, size, fill)
        y += size * spacing
    return y


def fit_text(text: str, size: int, max_width: float) -> str:
    """``text`` shortened with an ellipsis so that it fits ``max_width`` at ``size``."""
    text = clean_text(text)
    if text_width(text, size) <= max_width:
        return text
    while text and text_width(text + "…", size) > max_width:
        text = text[:-1]
    return text + "…"


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


@lru_cache(maxsize=8)
def fixed_palette(
    base: tuple[RGB, ...], blend_pairs: tuple[tuple[RGB, RGB], ...] = ()
) -> Image.Image:
    """A 256-colour palette image: ``base`` exactly, then the blends anti-aliasing makes.

    Text is anti-aliased against its background and scaled tiles blend neighbouring colours,
    so the palette also holds steps between every base colour and ink / white, between the
    given ``blend_pairs``, and a grey ramp. Mapping an image onto a fixed palette is ten
    times faster than computing one per image, and gives identical colours on every board.
    """
    colours: list[RGB] = []

    def add(colour: RGB, spacing: int) -> None:
        if len(colours) >= 256:
            return
        if all(sum(abs(a - b) for a, b in zip(colour, c, strict=True)) > spacing for c in colours):
            colours.append(colour)

    for colour in base:
        add(colour, 0)
    for t in (0.5, 0.25, 0.75):
        for colour in base:
            add(_mix(colour, INK, t), 10)
            add(_mix(colour, WHITE, t), 10)
        for a, b in blend_pairs:
            add(_mix(a, b, t), 10)
    for level in range(0, 256, 16):
        add((level, level, level), 8)
    for t in (0.125, 0.375, 0.625, 0.875):
        for colour in base:
            add(_mix(colour, INK, t), 14)
            add(_mix(colour, WHITE, t), 14)
    colours += [colours[-1]] * (256 - len(colours))
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in colours for channel in colour])
    return palette


def encode_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes of ``image``, reduced to 256 colours: flat drawings compress far better.

    With a ``palette`` (see :func:`fixed_palette`) each pixel takes the nearest palette
    colour, which is fast; without one, Pillow's octree quantiser picks the colours.
    Both are deterministic for the same pixels. Written by :mod:`renderer.png`.
    """
    if palette is not None:
        reduced = image.quantize(palette=palette, dither=Image.Dither.NONE)
    else:
        reduced = image.quantize(
            colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    return encode_palette_png(reduced, bytes(reduced.getpalette() or ()))
