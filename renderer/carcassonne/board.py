"""Drawing the Carcassonne board from a public view (CN-5 position plus ``last_tiles``)."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw, ImageFilter

from i18n import t
from i18n.events import colour_word
from i18n.message import list_words
from renderer.carcassonne import indexed
from renderer.carcassonne.indexed import EMPTY, GRID, drawer
from renderer.carcassonne.tiles import (
    draw_goods,
    segment_spot,
    symbol_spots,
    tile_image,
)
from renderer.style import (
    GREY,
    HIGHLIGHT,
    INK,
    LIGHT_GREY,
    PAPER,
    RGB,
    WHITE,
    WINNER_FILL,
    draw_centered_text,
    draw_seat_box,
    draw_text,
    fit_text,
    keeps_text_stamps,
    legible,
    seat_colour_name,
    text_colour_on,
    text_width,
    tint,
    wrap_text,
)
from renderer.style import seat_colour as _seat_colour
from renderer.style import seat_letter as _seat_letter


def seat_colour(seat: int) -> RGB:
    """A Carcassonne player's figure colour."""
    return _seat_colour(seat, "carcassonne")


def seat_letter(seat: int, locale: str = "en") -> str:
    """A Carcassonne player's letter: the initial of the seat's colour in ``locale`` (German
    Grün and Gelb are "Gr" and "Ge", Hungarian Piros is "P")."""
    return _seat_letter(seat, "carcassonne", locale)


Cell = tuple[int, int]

#: The posted board of a large map: a window of this many cells around the latest placement,
#: at ``WINDOW_TILE`` px a cell, so that every figure letter stays 9 px tall on a phone.
WINDOW_COLUMNS = 10
WINDOW_ROWS = 8
WINDOW_TILE = 88
#: Pixel budget of the board area of a whole map (tiles shrink to fit, down to ``MIN_TILE``).
BOARD_BUDGET = (1040, 900)
MIN_TILE = 34
MAX_TILE = 96
MARGIN_LEFT = 48
MARGIN_TOP = 34
ROW_HEIGHT = 60
HEADER_HEIGHT = 76
#: Space between the board and the players' rows.
ROWS_GAP = 8
#: Largest size of the overview of the whole map, drawn in the header beside a window.
OVERVIEW = (210, 120)


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """Which cells are drawn and where: cell (x, y) has its top-left at ``cell_origin``.

    ``bounds`` is the whole map with its free ring (min x, min y, columns, rows); when the
    drawn cells are only a window of it, ``windowed`` is true and an overview is drawn.
    """

    min_x: int
    min_y: int
    columns: int
    rows: int
    tile: int
    left: int
    top: int
    bounds: tuple[int, int, int, int] = (0, 0, 0, 0)
    windowed: bool = False

    def cell_origin(self, cell: Cell) -> tuple[int, int]:
        """Top-left pixel of ``cell``."""
        return (
            self.left + (cell[0] - self.min_x) * self.tile,
            self.top + (cell[1] - self.min_y) * self.tile,
        )

    def cell_centre(self, cell: Cell) -> tuple[int, int]:
        """Centre pixel of ``cell``."""
        x, y = self.cell_origin(cell)
        return (x + self.tile // 2, y + self.tile // 2)

    def contains(self, cell: Cell) -> bool:
        """Whether ``cell`` is drawn."""
        return (
            self.min_x <= cell[0] < self.min_x + self.columns
            and self.min_y <= cell[1] < self.min_y + self.rows
        )

    @property
    def width(self) -> int:
        """Width of the board area including the coordinate margin."""
        return self.left + self.columns * self.tile

    @property
    def height(self) -> int:
        """Height of the board area including the coordinate margin."""
        return self.top + self.rows * self.tile


def board_cells(view: Mapping[str, Any]) -> dict[Cell, tuple[str, int]]:
    """Placed tiles by cell: ``{(x, y): (tile id, rot)}``."""
    return {
        (int(t["x"]), int(t["y"])): (str(t["tile"]), int(t.get("rot", 0)))
        for t in view.get("board") or ()
    }


def _placed_in_order(view: Mapping[str, Any]) -> list[Cell]:
    """The cells of the placed tiles in the order they were placed (the view's order)."""
    return [(int(t["x"]), int(t["y"])) for t in view.get("board") or ()] or [(0, 0)]


def _follow(start: int | None, focus: int, lo: int, hi: int, size: int) -> int:
    """First cell of a run of ``size`` cells inside [lo, hi] that shows ``focus`` and its
    neighbours, moved as little as possible from ``start`` (the previous window)."""
    if hi - lo + 1 <= size:
        return lo
    if start is None:
        start = focus - size // 2
    start = min(start, focus - 1)
    start = max(start, focus + 1 - size + 1)
    return max(lo, min(start, hi - size + 1))


def stable_window(cells: Sequence[Cell], columns: int, rows: int) -> tuple[int, int, int, int]:
    """The window (min x, min y, columns, rows) the posted board shows after ``cells`` were
    placed in this order.

    The window is replayed placement by placement: it stays where it was while the newest
    tile and its neighbours are inside it, and otherwise moves just far enough to show them,
    so that from one move to the next it moves as little as possible. The renderer keeps no
    state: the view's placement order is enough to replay it.
    """
    lo_x = hi_x = lo_y = hi_y = 0
    x0: int | None = None
    y0: int | None = None
    for index, (x, y) in enumerate(cells):
        if index == 0:
            lo_x, hi_x, lo_y, hi_y = x - 1, x + 1, y - 1, y + 1
        lo_x, hi_x = min(lo_x, x - 1), max(hi_x, x + 1)
        lo_y, hi_y = min(lo_y, y - 1), max(hi_y, y + 1)
        x0 = _follow(x0, x, lo_x, hi_x, columns)
        y0 = _follow(y0, y, lo_y, hi_y, rows)
    assert x0 is not None
    assert y0 is not None
    return x0, y0, min(columns, hi_x - lo_x + 1), min(rows, hi_y - lo_y + 1)


def _span(lo: int, hi: int, keep: tuple[int, int], size: int) -> tuple[int, int]:
    """A run of cells inside [lo, hi]: all of it up to ``size`` long, else centred on
    ``keep``, which is always shown whole."""
    if hi - lo + 1 <= max(size, keep[1] - keep[0] + 1):
        return lo, hi - lo + 1
    size = max(size, keep[1] - keep[0] + 1)
    start = min(max(lo, (keep[0] + keep[1]) // 2 - size // 2), hi - size + 1)
    start = max(min(start, keep[0]), keep[1] - size + 1)
    return start, size


#: Most cells drawn across or down in the whole map of an enormous game.
MAX_CELLS = 27


def plan_layout(
    view: Mapping[str, Any], extra: Iterable[Cell] = (), *, whole: bool = False
) -> BoardLayout:
    """Cells to draw and the tile size.

    The posted board of a map larger than ``WINDOW_COLUMNS`` × ``WINDOW_ROWS`` shows the
    :func:`stable_window` around the latest placement at ``WINDOW_TILE`` px. ``whole`` (and a
    finished game) draws the whole map with its free ring, tiles shrunk to fit; ``extra``
    cells (the legal placements) are never cropped away, since the cell select lists them.
    """
    cells = list(board_cells(view)) or [(0, 0)]
    extra = list(extra)
    xs = [c[0] for c in cells + extra]
    ys = [c[1] for c in cells + extra]
    lo_x, hi_x, lo_y, hi_y = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    bounds = (lo_x, lo_y, hi_x - lo_x + 1, hi_y - lo_y + 1)
    fits = bounds[2] <= WINDOW_COLUMNS and bounds[3] <= WINDOW_ROWS
    if not extra and not whole and not view.get("finished") and not fits:
        x0, y0, columns, rows = stable_window(_placed_in_order(view), WINDOW_COLUMNS, WINDOW_ROWS)
        return BoardLayout(
            x0, y0, columns, rows, WINDOW_TILE, MARGIN_LEFT, MARGIN_TOP, bounds, windowed=True
        )
    if extra:
        keep_x = (min(c[0] for c in extra) - 1, max(c[0] for c in extra) + 1)
        keep_y = (min(c[1] for c in extra) - 1, max(c[1] for c in extra) + 1)
    else:
        keep_x, keep_y = (lo_x, lo_x), (lo_y, lo_y)
    min_x, columns = _span(lo_x, hi_x, keep_x, bounds[2] if not extra else MAX_CELLS)
    min_y, rows = _span(lo_y, hi_y, keep_y, bounds[3] if not extra else MAX_CELLS)
    tile = min(BOARD_BUDGET[0] // columns, BOARD_BUDGET[1] // rows, MAX_TILE)
    tile = max(MIN_TILE, tile)
    return BoardLayout(min_x, min_y, columns, rows, tile, MARGIN_LEFT, MARGIN_TOP, bounds)


def letter_size(tile: int, image_width: int) -> int:
    """Font size of the seat letter on figures: a quarter of a tile, and never smaller than
    the phone rule allows for an image ``image_width`` px wide."""
    return legible(tile * 0.25, image_width)


#: Drawn figures by (kind, seat, letter size, colour, initial): a board shows the same few
#: dozen. Keyed by the initial, not the language: languages that share a colour's initial
#: (Blau and Blue are both "B") share its figures.
_SPRITES: dict[tuple[str, int, int, RGB | None, str], Image.Image] = {}


def clear_figure_sprites() -> None:
    """Forget the drawn figures."""
    _SPRITES.clear()


def draw_figure(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    kind: str,
    seat: int,
    letter: int,
    *,
    colour: RGB | None = None,
    locale: str = "en",
) -> None:
    """A figure in its player's colour with the player's initial in ``locale`` (``letter``
    px); the silhouette tells the kind (see :func:`_draw_figure`).

    Each figure is drawn once onto a transparent sprite and pasted from then on, centred on
    the nearest whole pixel.
    """
    initial = seat_letter(seat, locale)
    if not keeps_text_stamps():  # the tests watching every text drawn see every letter
        _draw_figure(draw, centre, kind, seat, letter, initial, colour=colour)
        return
    key = (kind, seat, letter, colour, initial)
    image: Image.Image = draw._image  # type: ignore[attr-defined]
    if image.mode == "P":
        paletted, solid = indexed.sprite(key, lambda: _figure_sprite(key))
        half = paletted.width // 2
        image.paste(paletted, (round(centre[0]) - half, round(centre[1]) - half), solid)
        return
    sprite = _SPRITES.get(key)
    if sprite is None:
        sprite = _figure_sprite(key)
        if len(_SPRITES) > 512:
            _SPRITES.clear()
        _SPRITES[key] = sprite
    half = sprite.width // 2
    image.paste(sprite, (round(centre[0]) - half, round(centre[1]) - half), sprite)


def _figure_sprite(key: tuple[str, int, int, RGB | None, str]) -> Image.Image:
    """The figure of ``key`` (kind, seat, letter size, colour, initial) on a transparent
    sprite."""
    kind, seat, letter, colour, initial = key
    half = math.ceil(letter * 3)
    sprite = Image.new("RGBA", (2 * half, 2 * half), (0, 0, 0, 0))
    _draw_figure(ImageDraw.Draw(sprite), (half, half), kind, seat, letter, initial, colour=colour)
    return sprite


def _draw_figure(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    kind: str,
    seat: int,
    letter: int,
    initial: str,
    *,
    colour: RGB | None = None,
) -> None:
    """A figure in its player's colour with the player's ``initial`` (``letter`` px); the
    silhouette tells the kind.

    follower: a standing meeple; farmer: a meeple lying on its back; monk: a hooded robe;
    big: a larger meeple with a white and black double outline; builder: a house-shaped
    figure; pig: a pig with ears, snout and legs. ``colour`` overrides the seat colour (the
    greyed figures of an empty supply).
    """
    x, y = centre
    fill = seat_colour(seat) if colour is None else colour
    ink = text_colour_on(fill)
    s = letter / 1.15
    outline = max(2, round(letter / 10))

    def poly(points: Sequence[tuple[float, float]], scale: float = 1.0) -> list[Point]:
        return [(x + px * s * scale, y + py * s * scale) for px, py in points]

    if kind in ("follower", "big"):
        scale = 1.08 if kind == "big" else 1.0
        if kind == "big":
            # The big follower's double outline: white halo, then black.
            _meeple(draw, x, y, s * scale * 1.22, INK, INK, 0)
            _meeple(draw, x, y, s * scale * 1.11, WHITE, WHITE, 0)
        _meeple(draw, x, y, s * scale, fill, INK, outline)
        at = (x, y + 0.18 * s * scale + 1)
        if len(initial) > 1:
            _letter_rim(draw, at, initial, letter, fill)
        draw_centered_text(draw, at, initial, letter, ink)
    elif kind == "farmer":
        # Lying on its back: head to the left, feet to the right, a wide body for the letter.
        hr = 0.4 * s
        draw.ellipse(
            (x - 1.45 * s, y - hr, x - 1.45 * s + 2 * hr, y + hr),
            fill=fill,
            outline=INK,
            width=outline,
        )
        for dy in (-0.32, 0.32):
            draw.rounded_rectangle(
                (x + 0.6 * s, y + dy * s - 0.2 * s, x + 1.35 * s, y + dy * s + 0.2 * s),
                radius=0.2 * s,
                fill=fill,
                outline=INK,
                width=outline,
            )
        draw.rounded_rectangle(
            (x - 0.75 * s, y - 0.62 * s, x + 0.8 * s, y + 0.62 * s),
            radius=0.45 * s,
            fill=fill,
            outline=INK,
            width=outline,
        )
        draw_centered_text(draw, (x + 0.02 * s, y + 1), initial, letter, ink)
    elif kind == "monk":
        draw.polygon(poly(_ROBE), fill=fill, outline=INK, width=outline)
        hr = 0.42 * s
        draw.ellipse(
            (x - hr, y - 0.72 * s - hr, x + hr, y - 0.72 * s + hr),
            fill=fill,
            outline=INK,
            width=outline,
        )
        draw.ellipse(
            (x - hr * 0.5, y - 0.68 * s - hr * 0.5, x + hr * 0.5, y - 0.68 * s + hr * 0.5),
            fill=INK,
        )
        draw_centered_text(draw, (x, y + 0.3 * s + 1), initial, letter, ink)
    elif kind == "builder":
        draw.polygon(poly(_HOUSE), fill=fill, outline=INK, width=outline)
        draw_centered_text(draw, (x, y + 0.2 * s + 1), initial, letter, ink)
    elif kind == "pig":
        w, h = 1.05 * s, 0.72 * s
        for leg in (-0.6, -0.2, 0.25, 0.65):
            draw.rectangle(
                (x + leg * w - 0.1 * s, y + h * 0.6, x + leg * w + 0.1 * s, y + h * 1.25),
                fill=INK,
            )
        for ex in (-0.45, 0.35):
            draw.polygon(
                poly([(ex - 0.18, -0.55), (ex, -0.95), (ex + 0.18, -0.55)]),
                fill=fill,
                outline=INK,
            )
        draw.ellipse((x - w, y - h, x + w, y + h), fill=fill, outline=INK, width=outline)
        draw.ellipse(
            (x + w - 0.15 * s, y - 0.25 * s, x + w + 0.25 * s, y + 0.2 * s),
            fill=fill,
            outline=INK,
            width=outline,
        )
        draw_centered_text(draw, (x - 0.05 * s, y + 1), initial, letter, ink)
    else:
        r = 0.9 * s
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK, width=outline)
        draw_centered_text(draw, (x, y + 1), initial, letter, ink)


def _letter_rim(
    draw: ImageDraw.ImageDraw, at: tuple[float, float], text: str, size: int, fill: RGB
) -> None:
    """A rim of the figure's colour under ``text``: a two-letter initial (German "Gr", "Ge",
    "Ro") is wider than a meeple's waist, and where its letters cross the outline the rim
    keeps them on the figure's colour, so they read as well as one letter does.

    Drawn solid (no anti-aliasing) around the letters as they are drawn: a sprite's pixels
    stay opaque or clear (see :func:`renderer.carcassonne.indexed.sprite`), and the letters
    over the rim blend with the figure's colour only.
    """
    rim = max(1, round(size / 9))
    room = math.ceil(text_width(text, size)) + 2 * size
    x0, y0 = math.floor(at[0]) - room // 2, math.floor(at[1]) - size * 2
    letters = Image.new("L", (room, 4 * size), 0)
    draw_centered_text(ImageDraw.Draw(letters), (at[0] - x0, at[1] - y0), text, size, 255)  # type: ignore[arg-type]
    solid = letters.filter(ImageFilter.MaxFilter(2 * rim + 1)).point([0] + [255] * 255)
    draw.bitmap((x0, y0), solid, fill=fill)


Point = tuple[float, float]

#: Figure outlines in units of the letter size (y grows down; the letter sits in the body).
_MEEPLE: tuple[Point, ...] = (
    (-0.32, -0.42),
    (0.32, -0.42),
    (1.0, -0.12),
    (1.02, 0.24),
    (0.5, 0.26),
    (0.82, 1.0),
    (0.14, 1.0),
    (0.0, 0.78),
    (-0.14, 1.0),
    (-0.82, 1.0),
    (-0.5, 0.26),
    (-1.02, 0.24),
    (-1.0, -0.12),
)
_ROBE: tuple[Point, ...] = ((-0.42, -0.45), (0.42, -0.45), (0.95, 1.0), (-0.95, 1.0))
_HOUSE: tuple[Point, ...] = (
    (0.0, -1.0),
    (0.95, -0.25),
    (0.8, -0.25),
    (0.8, 0.95),
    (-0.8, 0.95),
    (-0.8, -0.25),
    (-0.95, -0.25),
)


def _meeple(
    draw: ImageDraw.ImageDraw, x: float, y: float, s: float, fill: RGB, ink: RGB, width: int
) -> None:
    """The standing follower: round head, arms out, legs apart (``s``: the size unit)."""
    hr, hy = 0.36 * s, y - 0.72 * s
    draw.ellipse((x - hr, hy - hr, x + hr, hy + hr), fill=fill, outline=ink, width=width)
    draw.polygon(
        [(x + px * s, y + py * s) for px, py in _MEEPLE], fill=fill, outline=ink, width=width
    )


def figure_body_offset(kind: str, letter: int) -> tuple[float, float]:
    """A point of a figure's body clear of its letter, relative to its centre (for tests and
    image maps): where its colour shows."""
    s = letter / 1.15
    return {
        "farmer": (1.0 * s, -0.32 * s),
        "pig": (-0.75 * s, 0.0),
        "monk": (-0.6 * s, 0.85 * s),
        "builder": (-0.6 * s, 0.8 * s),
    }.get(kind, (-0.45 * s, 0.8 * s))


def figure_kind(figure: Mapping[str, Any]) -> str:
    """The silhouette of a figure in a view: ``follower`` becomes ``farmer`` on a field and
    ``monk`` on a monastery, as players call them."""
    kind = str(figure.get("kind", "follower"))
    segment = str(figure.get("segment", ""))
    if kind == "follower" and segment.startswith("field"):
        return "farmer"
    if kind == "follower" and segment == "monastery":
        return "monk"
    return kind


def player_name(
    view: Mapping[str, Any], seat: int, names: Sequence[str] | None, locale: str = "en"
) -> str:
    """Display name of ``seat``: ``names``, else the view's ``names``, else the colour name."""
    colour = seat_colour_name(seat, "carcassonne")
    for source in (names, view.get("names")):
        if source and seat < len(source) and source[seat]:
            name = str(source[seat])
            if name != colour:
                return name
            break  # the engine's default name is the colour: say it in the reader's language
    return colour if locale == "en" else colour_word(seat, locale, "carcassonne")


def draw_board_area(
    image: Image.Image,
    layout: BoardLayout,
    view: Mapping[str, Any],
    override: Mapping[Cell, tuple[str, int]] | None = None,
    figures: bool = True,
    rulers: bool = True,
    locale: str = "en",
) -> None:
    """Tiles, coordinates, the latest-tile mark and figures of the view onto ``image``, the
    seats' initials in ``locale``.

    Text sizes follow the phone rule for the width of ``image``: create it at its final
    width before drawing. ``rulers=False`` leaves the coordinates out (the placement image
    numbers its cells, and a column "1" would read as cell 1). A palette image (mode "P")
    gets the same pixels as an RGB one reduced to :func:`carcassonne_palette`, from cached
    parts (see :mod:`renderer.carcassonne.indexed`).
    """
    cells = board_cells(view)
    if override:
        cells.update(override)
    shown = {cell: tile for cell, tile in cells.items() if layout.contains(cell)}
    if image.mode == "P" and keeps_text_stamps():
        image.paste(_tile_layer(image.size, layout, shown, rulers), (0, 0))
    else:
        _draw_ground(image, layout, rulers)
        _paste_tiles(image, layout, shown)
    draw = drawer(image)
    t = layout.tile
    placed = [fig for fig in view.get("figures") or () if (int(fig["x"]), int(fig["y"])) in cells]
    _draw_last_tiles(draw, layout, view, cells, placed, image.width, locale)
    if figures:
        letter = letter_size(t, image.width)
        for fig in placed:
            cell = (int(fig["x"]), int(fig["y"]))
            if not layout.contains(cell):
                continue
            sx, sy = figure_spot(cells[cell], fig)
            ox, oy = layout.cell_origin(cell)
            draw_figure(
                draw,
                (ox + sx * t, oy + sy * t),
                figure_kind(fig),
                int(fig["player"]),
                letter,
                locale=locale,
            )


def _draw_ground(image: Image.Image, layout: BoardLayout, rulers: bool) -> None:
    """The empty cells, their grid and (with ``rulers``) the coordinates around them."""
    draw = drawer(image)
    t = layout.tile
    x0, y0 = layout.cell_origin((layout.min_x, layout.min_y))
    draw.rectangle((x0, y0, x0 + layout.columns * t - 1, y0 + layout.rows * t - 1), fill=EMPTY)
    for col in range(layout.columns + 1):
        draw.line((x0 + col * t, y0, x0 + col * t, y0 + layout.rows * t), fill=GRID)
    for row in range(layout.rows + 1):
        draw.line((x0, y0 + row * t, x0 + layout.columns * t, y0 + row * t), fill=GRID)
    label_size = legible(min(18, t * 0.3), image.width)
    # Every coordinate while it fits its cell, else every second one.
    step = 1 if t >= label_size * 2.1 else 2
    for col in range(layout.columns if rulers else 0):
        x = layout.min_x + col
        if x % step == 0:
            _centred(
                draw,
                (x0 + col * t + t / 2, layout.top / 2 + 2),
                str(x),
                label_size,
                INK if x else HIGHLIGHT,
                PAPER,
            )
    for row in range(layout.rows if rulers else 0):
        y = layout.min_y + row
        if y % step == 0:
            _centred(
                draw,
                (layout.left / 2, y0 + row * t + t / 2),
                str(y),
                label_size,
                INK if y else HIGHLIGHT,
                PAPER,
            )


def _paste_tiles(
    image: Image.Image, layout: BoardLayout, cells: Mapping[Cell, tuple[str, int]]
) -> None:
    bitmap = indexed.tile if image.mode == "P" else tile_image
    for cell, (tile_id, rot) in cells.items():
        image.paste(bitmap(tile_id, rot, layout.tile), layout.cell_origin(cell))


#: The ground and tiles of recent boards by (size, layout, rulers): [(layer, cells drawn)].
_LAYERS: OrderedDict[tuple[Any, ...], list[tuple[Image.Image, dict[Cell, tuple[str, int]]]]] = (
    OrderedDict()
)
#: Layouts kept (a windowed board's layer is about 0.7 MB: a worker keeps at most 4), and
#: layers per layout (the latest: a table's next board finds its own).
_LAYERS_MAX = 4
_LAYER_VERSIONS = 1


def clear_tile_layers() -> None:
    """Forget the kept ground-and-tiles layers."""
    _LAYERS.clear()


def _tile_layer(
    size: tuple[int, int],
    layout: BoardLayout,
    cells: Mapping[Cell, tuple[str, int]],
    rulers: bool,
) -> Image.Image:
    """The board's ground with the tiles of ``cells`` on it, on the palette (read only).

    Tiles never move once placed, so the layer of an earlier board of the same layout is
    reused when each tile it shows is still there: only the tiles placed since are pasted.
    Tiles do not overlap one another or the coordinates, so the layer has the same pixels
    as one drawn from scratch.
    """
    key = (size, layout, rulers)
    versions = _LAYERS.get(key)
    if versions is None:
        versions = _LAYERS[key] = []
        if len(_LAYERS) > _LAYERS_MAX:
            _LAYERS.popitem(last=False)
    else:
        _LAYERS.move_to_end(key)
    for i, (layer, drawn) in enumerate(versions):
        if len(drawn) <= len(cells) and all(cells.get(c) == tile for c, tile in drawn.items()):
            missing = {c: tile for c, tile in cells.items() if c not in drawn}
            if missing:
                layer = layer.copy()
                _paste_tiles(layer, layout, missing)
                versions[i] = (layer, dict(cells))
            return layer
    layer = indexed.new_image(size, PAPER)
    _draw_ground(layer, layout, rulers)
    _paste_tiles(layer, layout, cells)
    versions.append((layer, dict(cells)))
    del versions[:-_LAYER_VERSIONS]
    return layer


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    ground: RGB,
    *,
    anchor: str = "la",
) -> None:
    """Text at ``xy`` whose ground is ``ground``, on an RGB or a palette image."""
    image: Image.Image = draw._image  # type: ignore[attr-defined]
    if image.mode == "P":
        indexed.draw_text(image, xy, text, size, fill, ground, anchor=anchor)
    else:
        draw_text(draw, xy, text, size, fill, anchor=anchor)


def _seat_box_fill(colour: RGB, *, acting: bool, won: bool) -> RGB:
    """The fill of :func:`renderer.style.draw_seat_box`: the ground of a row's words."""
    return WINNER_FILL if won else tint(colour, 0.82) if acting else WHITE


def _seat_chip(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    r: float,
    seat: int,
    size: int,
    locale: str = "en",
) -> None:
    """A seat's colour disc with its initial in ``locale``, as
    :func:`renderer.style.draw_seat_chip`."""
    x, y = centre
    colour = seat_colour(seat)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=INK, width=2)
    initial = seat_letter(seat, locale)
    _centred(draw, (x, y + 1), initial, size, text_colour_on(colour), colour)


def _centred(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    ground: RGB,
) -> None:
    """Text centred on ``xy`` whose ground is ``ground``, on an RGB or a palette image."""
    image: Image.Image = draw._image  # type: ignore[attr-defined]
    if image.mode == "P":
        indexed.draw_text(image, xy, text, size, fill, ground)
    else:
        draw_centered_text(draw, xy, text, size, fill)


def figure_spot(tile: tuple[str, int], figure: Mapping[str, Any]) -> tuple[float, float]:
    """Where ``figure`` stands on ``tile`` (id, rot), in tile units."""
    return segment_spot(tile[0], tile[1], str(figure.get("segment", "")))


def _draw_last_tiles(
    draw: ImageDraw.ImageDraw,
    layout: BoardLayout,
    view: Mapping[str, Any],
    cells: Mapping[Cell, tuple[str, int]],
    figures: Sequence[Mapping[str, Any]],
    image_width: int,
    locale: str = "en",
) -> None:
    """The latest tile in a bold black-colour-black frame with its player's badge; the other
    players' last tiles with a thin line in their colour only."""
    t = layout.tile
    order = _placed_in_order(view)
    latest = order[-1] if view.get("board") else None
    marks = {(int(c[0]), int(c[1])): int(s) for s, c in (view.get("last_tiles") or {}).items()}
    recent = recent_tiles(view)
    numbers = {cell: n for n, (cell, _seat) in enumerate(recent, 1)} if len(recent) > 1 else {}
    for cell, seat in sorted(marks.items()):
        if cell == latest or cell in numbers or not layout.contains(cell):
            continue
        ox, oy = layout.cell_origin(cell)
        w = max(2, t // 30)
        draw.rectangle(
            (ox + w, oy + w, ox + t - 1 - w, oy + t - 1 - w), outline=seat_colour(seat), width=w
        )
    # A turn digest: each tile placed since the previous post framed in its owner's colour
    # with its order number (the latest one also gets the bold frame below).
    for cell, seat in recent:
        if not layout.contains(cell) or cell not in cells:
            continue
        ox, oy = layout.cell_origin(cell)
        w = max(3, t // 18)
        if cell != latest:
            draw.rectangle((ox, oy, ox + t - 1, oy + t - 1), outline=seat_colour(seat), width=w)
        _number_badge(draw, (ox, oy), t, w, numbers.get(cell), image_width)
    if latest is None or not layout.contains(latest):
        return
    owner = marks.get(latest)
    colour = seat_colour(owner) if owner is not None else INK
    ox, oy = layout.cell_origin(latest)
    w = max(4, t // 14)
    draw.rectangle((ox - 2, oy - 2, ox + t + 1, oy + t + 1), outline=INK, width=2)
    draw.rectangle((ox, oy, ox + t - 1, oy + t - 1), outline=colour, width=w)
    draw.rectangle((ox + w, oy + w, ox + t - 1 - w, oy + t - 1 - w), outline=INK, width=1)
    if owner is None:
        return
    # The owner badge goes to the corner farthest from the tile's figures, so none hides it.
    spots = [
        figure_spot(cells[latest], fig)
        for fig in figures
        if (int(fig["x"]), int(fig["y"])) == latest
    ]
    spots += symbol_spots(*cells[latest])
    corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)]
    if latest in numbers:
        corners = corners[1:]  # the top-left corner shows its order number
    corner = max(corners, key=lambda c: min((math.dist(c, p) for p in spots), default=9))
    size = legible(t * 0.22, image_width)
    initial = seat_letter(owner, locale)
    half = size * 0.62
    # A two-letter initial (German "Gr", "Ro") widens the badge: the letters stay on it.
    half_x = max(half, text_width(initial, size) / 2 + 3)
    bx = ox + (half_x + w if corner[0] == 0 else t - half_x - w)
    by = oy + (half + w if corner[1] == 0 else t - half - w)
    box = (bx - half_x, by - half, bx + half_x, by + half)
    draw.rectangle(box, fill=colour, outline=INK, width=2)
    _centred(draw, (bx, by + 1), initial, size, text_colour_on(colour), colour)


def recent_tiles(view: Mapping[str, Any]) -> list[tuple[Cell, int]]:
    """The tiles a turn digest tells (``view["recent"]``: each move's events, oldest first),
    as (cell, seat) in the order they were placed."""
    placed: list[tuple[Cell, int]] = []
    for events in view.get("recent") or ():
        for event in events:
            data = event.get("data") or {}
            if event.get("kind") == "place" and "x" in data and event.get("seat") is not None:
                placed.append(((int(data["x"]), int(data["y"])), int(event["seat"])))
    return placed


def _number_badge(
    draw: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    t: int,
    w: int,
    number: int | None,
    image_width: int,
) -> None:
    """A tile's order number in the digest, in a white square at its top-left corner."""
    if number is None:
        return
    size = legible(t * 0.22, image_width)
    half = size * 0.62
    bx, by = origin[0] + half + w, origin[1] + half + w
    draw.rectangle((bx - half, by - half, bx + half, by + half), fill=WHITE, outline=INK, width=2)
    _centred(draw, (bx, by + 1), str(number), size, INK, WHITE)


def draw_overview(
    image: Image.Image, box: tuple[int, int, int, int], layout: BoardLayout, view: Mapping[str, Any]
) -> None:
    """The whole map in small inside ``box``, the window of the board framed in magenta and
    the latest tile dotted, so a player sees where the window lies."""
    lo_x, lo_y, columns, rows = layout.bounds
    cell = max(2, min((box[2] - box[0]) // columns, (box[3] - box[1]) // rows, 12))
    left = box[2] - cell * columns
    top = box[1]
    draw = drawer(image)
    bitmap = indexed.tile if image.mode == "P" else tile_image
    draw.rectangle(
        (left - 2, top - 2, left + cell * columns + 1, top + cell * rows + 1), fill=EMPTY
    )
    for (x, y), (tile_id, rot) in board_cells(view).items():
        image.paste(bitmap(tile_id, rot, cell), (left + (x - lo_x) * cell, top + (y - lo_y) * cell))
    wx = left + (layout.min_x - lo_x) * cell
    wy = top + (layout.min_y - lo_y) * cell
    draw.rectangle(
        (wx - 2, wy - 2, wx + layout.columns * cell + 1, wy + layout.rows * cell + 1),
        outline=HIGHLIGHT,
        width=3,
    )
    latest = _placed_in_order(view)[-1]
    cx = left + (latest[0] - lo_x + 0.5) * cell
    cy = top + (latest[1] - lo_y + 0.5) * cell
    r = max(3, cell * 0.6)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=INK, width=2)
    draw.rectangle(
        (left - 2, top - 2, left + cell * columns + 1, top + cell * rows + 1), outline=INK
    )


def overview_size(layout: BoardLayout) -> tuple[int, int]:
    """(width, height) the overview of ``layout`` takes (0, 0 without a window)."""
    if not layout.windowed:
        return (0, 0)
    _, _, columns, rows = layout.bounds
    cell = max(2, min(OVERVIEW[0] // columns, OVERVIEW[1] // rows, 12))
    return (cell * columns + 4, cell * rows + 4)


#: Half the width of each figure's silhouette, in letter sizes (see :func:`draw_figure`).
_HALF_WIDTH = {"follower": 0.9, "big": 1.2, "builder": 0.85, "pig": 1.15}


def _supply_kinds(supply: Mapping[str, int], options: Mapping[str, Any]) -> list[str]:
    kinds = ["follower"]
    if options.get("inns_cathedrals") == "full" or supply.get("big"):
        kinds.append("big")
    if options.get("traders_builders") == "full" or supply.get("builder") or supply.get("pig"):
        kinds += ["builder", "pig"]
    return kinds


def _supply_icons(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    seat: int,
    supply: Mapping[str, int],
    options: Mapping[str, Any],
    size: int,
    ground: RGB = WHITE,
    locale: str = "en",
) -> float:
    """Every figure kind in the supply with how many are left ("×0" greyed when all are on
    the board) on a row of colour ``ground``; returns the x after them."""
    for kind in _supply_kinds(supply, options):
        count = int(supply.get(kind, 0))
        colour = None if count else LIGHT_GREY
        half = _HALF_WIDTH[kind] * size
        draw_figure(draw, (x + half, y - 2), kind, seat, size, colour=colour, locale=locale)
        ink = INK if count else GREY
        _text(draw, (x + 2 * half + 3, y), f"×{count}", size, ink, ground, anchor="lm")
        x += 2 * half + 3 + text_width(f"×{count}", size) + size * 0.5
    return x


def draw_header(
    image: Image.Image,
    top: int,
    view: Mapping[str, Any],
    layout: BoardLayout | None,
    locale: str = "en",
    names: Sequence[str] | None = None,
) -> None:
    """The tile to place, tiles left and discards (at the end: the winners); beside a
    windowed board, the overview."""
    draw = drawer(image)
    width = image.width
    current = view.get("current_tile")
    overview = overview_size(layout) if layout is not None else (0, 0)
    text_right = _text_right(width, overview)
    if layout is not None and overview[0]:
        draw_overview(
            image,
            (width - 12 - overview[0], top + 8, width - 12, top + 8 + overview[1]),
            layout,
            view,
        )
    x, paragraphs = _header_paragraphs(view, layout, width, locale)
    if current:
        preview = (indexed.tile if image.mode == "P" else tile_image)(str(current), 0, 56)
        image.paste(preview, (12, top + 9))
        draw.rectangle((11, top + 8, 68, top + 65), outline=INK, width=2)
    y: float = top + 8
    for text, size, colour in paragraphs:
        for line in wrap_text(text, size, text_right - x):
            _text(draw, (x, y), line, size, colour, PAPER)
            y += size * 1.25  # as renderer.style.draw_paragraph spaces lines
    winners = _winners(view)
    if winners:
        who = list_words([player_name(view, seat, names, locale) for seat in winners], locale)
        big = _text_sizes(width)[0]
        winner = t("img.winner", locale, names=who, count=len(winners))
        line = fit_text(winner, big, text_right - x)
        _text(draw, (x, y), line, big, INK, PAPER)


def _winners(view: Mapping[str, Any]) -> list[int]:
    """The winners' seats once the game is over (their names take one header line)."""
    return [int(s) for s in view.get("winners") or []] if view.get("finished") else []


def _header_paragraphs(
    view: Mapping[str, Any], layout: BoardLayout | None, width: int, locale: str
) -> tuple[int, list[tuple[str, int, RGB]]]:
    """(left edge, the header's paragraphs as (text, size, colour))."""
    big, small = _text_sizes(width)
    current = view.get("current_tile")
    if current:
        label = "img.tile_just_placed" if view.get("phase") == "figure" else "img.tile_to_place"
        title = t(label, locale)
    else:
        title = t("img.game_over", locale) if view.get("finished") else ""
    info = (
        []
        if view.get("finished")
        else [t("img.tiles_left", locale, count=view.get("tiles_left", 0))]
    )
    discarded = view.get("discarded") or []
    if discarded:
        info.append(t("img.discarded", locale, count=len(discarded)))
    if view.get("extra_turn"):
        info.append(t("img.builder_turn", locale))
    paragraphs = [(title, big, INK)]
    if info:
        paragraphs.append((" · ".join(info), small, INK))
    if layout is not None and layout.windowed:
        paragraphs.append((t("img.c.window_hint", locale), small, HIGHLIGHT))
    return (80 if current else 12), paragraphs


def _text_sizes(width: int) -> tuple[int, int]:
    """(large, small) text sizes of the header and the rows in an image ``width`` px wide."""
    return legible(23, width), legible(19, width)


def draw_score_rows(
    image: Image.Image,
    top: int,
    view: Mapping[str, Any],
    names: Sequence[str] | None,
    locale: str = "en",
) -> None:
    """One row per player: letter, name (winner / to-play tag), score, supply, goods."""
    draw = drawer(image)
    width = image.width
    big, small = _text_sizes(width)
    seats = [int(s) for s in view.get("seats") or range(len(view.get("scores") or []))]
    to_act = {int(s) for s in view.get("to_act") or []}
    winners = {int(s) for s in view.get("winners") or []}
    finished = bool(view.get("finished"))
    scores = view.get("scores") or []
    supplies = view.get("supply") or []
    goods = view.get("goods") or []
    options = view.get("options") or {}
    show_goods = _show_goods(view)
    y0 = top
    row = _row_height(width)
    for i, seat in enumerate(seats):
        y = y0 + i * row
        acting = seat in to_act and not finished
        won = finished and seat in winners
        box = (6, y + 3, width - 6, y + row - 3)
        draw_seat_box(draw, box, seat_colour(seat), acting=acting, won=won)
        ground = _seat_box_fill(seat_colour(seat), acting=acting, won=won)
        cy = (box[1] + box[3]) / 2
        chip = row * 0.36
        _seat_chip(draw, (box[0] + 8 + chip, cy), chip, seat, legible(24, width), locale)
        name_x = box[0] + 16 + 2 * chip
        score_x = box[0] + 360
        tag = "img.c.winner" if won else "img.c.to_play" if acting else None
        tag_text = t(tag, locale) if tag else ""
        tag_width = text_width(tag_text, small) + 16 if tag else 0
        name = fit_text(
            player_name(view, seat, names, locale), big, score_x - 34 - name_x - tag_width
        )
        _text(draw, (name_x, cy), name, big, INK, ground, anchor="lm")
        if tag:
            tx = name_x + text_width(name, big) + 8
            draw.rounded_rectangle(
                (tx, cy - small * 0.7, tx + tag_width - 4, cy + small * 0.7),
                radius=small * 0.6,
                fill=INK,
            )
            _centred(draw, (tx + (tag_width - 4) / 2, cy), tag_text, small, WHITE, INK)
        score = scores[seat] if seat < len(scores) else 0
        _centred(draw, (score_x, cy + 1), str(score), legible(30, width), INK, ground)
        x: float = score_x + 40
        if seat < len(supplies):
            x = _supply_icons(draw, x, cy, seat, supplies[seat], options, small, ground, locale)
        if show_goods and seat < len(goods):
            for kind in ("wine", "grain", "cloth"):
                draw_goods(draw, kind, x + 10, cy, 10)
                count = str(int(goods[seat].get(kind, 0)))
                _text(draw, (x + 24, cy), count, small, INK, ground, anchor="lm")
                x += 30 + text_width("00", small)


def _show_goods(view: Mapping[str, Any]) -> bool:
    options = view.get("options") or {}
    return options.get("traders_builders") in ("tiles", "full") or any(
        any(int(v) for v in g.values()) for g in view.get("goods") or []
    )


def _row_height(width: int) -> int:
    return max(ROW_HEIGHT, round(_text_sizes(width)[0] * 2.5))


def _text_right(width: int, overview: tuple[int, int]) -> int:
    return width - 12 - (overview[0] + 12 if overview[0] else 0)


def header_height(
    view: Mapping[str, Any], layout: BoardLayout | None, width: int, locale: str = "en"
) -> int:
    """Height of the header: its words, wrapped, or the overview if that is taller."""
    overview = overview_size(layout) if layout is not None else (0, 0)
    x, paragraphs = _header_paragraphs(view, layout, width, locale)
    room = _text_right(width, overview) - x
    text = sum(len(wrap_text(p, size, room)) * size * 1.25 for p, size, _ in paragraphs)
    if _winners(view):
        text += _text_sizes(width)[0] * 1.25
    return max(HEADER_HEIGHT, round(text) + 20, overview[1] + 16)


def rows_height(view: Mapping[str, Any], width: int) -> int:
    """Height of the players' rows."""
    seats = view.get("seats") or range(len(view.get("scores") or []))
    return _row_height(width) * len(list(seats)) + 8


def scoreboard_width(view: Mapping[str, Any]) -> int:
    """The narrowest width at which every scoreboard row fits (at the phone-rule sizes of a
    board about that wide)."""
    options = view.get("options") or {}
    size = 20
    width = 6 + 400
    kinds = _supply_kinds({}, options)
    for kind in kinds:
        width += round(2 * _HALF_WIDTH[kind] * size + 3 + text_width("×0", size) + size * 0.5)
    if _show_goods(view):
        width += 3 * round(30 + text_width("00", size))
    return width + 20


def draw_carcassonne_board(
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    highlight: Iterable[Cell] | None = None,
    locale: str = "en",
    *,
    whole: bool = False,
) -> Image.Image:
    """The board image: the header (with the overview when the board is a window), the
    board with its figures and the latest tile marked, and the scoreboard."""
    highlight = [(int(c[0]), int(c[1])) for c in highlight or ()]
    layout = plan_layout(view, highlight, whole=whole)
    width = board_width(view, layout)
    header = header_height(view, layout, width, locale)
    rows = rows_height(view, width)
    image = indexed.new_image((width, header + layout.height + 8 + rows), PAPER)
    draw_header(image, 0, view, layout, locale, names)
    board = indexed.new_image((width, layout.height), PAPER)
    draw_board_area(board, layout, view, locale=locale)
    draw = drawer(board)
    for cell in highlight:
        if layout.contains(cell):
            ox, oy = layout.cell_origin(cell)
            draw.rectangle(
                (ox, oy, ox + layout.tile - 1, oy + layout.tile - 1),
                outline=HIGHLIGHT,
                width=max(3, layout.tile // 12),
            )
    image.paste(board, (0, header))
    draw_score_rows(image, header + layout.height + ROWS_GAP, view, names, locale)
    return image


def board_width(view: Mapping[str, Any], layout: BoardLayout) -> int:
    """Width of the board image of ``layout``."""
    return max(layout.width + 8, scoreboard_width(view), 560)


def carcassonne_cell_center(
    view: Mapping[str, Any],
    cell: Cell,
    *,
    extra: Iterable[Cell] = (),
    whole: bool = False,
    locale: str = "en",
) -> tuple[int, int] | None:
    """Pixel centre of ``cell`` in the board image, or ``None`` if it is cropped away.

    ``extra`` are the cells the image was asked to include: the highlight of
    ``render_board`` or the legal cells of ``render_placements``; ``whole`` as in
    ``render_board``; ``locale`` the language of the image (its header may wrap).
    """
    layout = plan_layout(view, list(extra), whole=whole)
    if not layout.contains(cell):
        return None
    x, y = layout.cell_centre(cell)
    return x, y + board_top(view, layout, locale)


def board_top(view: Mapping[str, Any], layout: BoardLayout, locale: str = "en") -> int:
    """How far below the top of the image the board area of ``layout`` starts."""
    return header_height(view, layout, board_width(view, layout), locale)
