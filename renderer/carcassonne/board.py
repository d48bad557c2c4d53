"""Drawing the Carcassonne board from a public view (CN-5 position plus ``last_tiles``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from i18n import t
from i18n.events import colour_word
from renderer.carcassonne.tiles import (
    CITY,
    FIELD,
    ROAD,
    ROAD_EDGE,
    TILE_COLOURS,
    WALL,
    draw_goods,
    segment_spot,
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
    draw_centered_text,
    fit_text,
    fixed_palette,
    font,
    seat_colour_name,
    text_colour_on,
    tint,
)
from renderer.style import seat_colour as _seat_colour
from renderer.style import seat_letter as _seat_letter


def seat_colour(seat: int) -> RGB:
    """A Carcassonne player's figure colour."""
    return _seat_colour(seat, "carcassonne")


def seat_letter(seat: int) -> str:
    """A Carcassonne player's letter."""
    return _seat_letter(seat, "carcassonne")


Cell = tuple[int, int]

#: Most cells drawn across or down; larger boards are cropped around the action.
MAX_CELLS = 27
#: Pixel budget of the board area (tiles shrink to fit, down to ``MIN_TILE``).
BOARD_BUDGET = (1040, 900)
MIN_TILE = 34
MAX_TILE = 96
MARGIN_LEFT = 44
MARGIN_TOP = 30
ROW_HEIGHT = 56
HEADER_HEIGHT = 70
EMPTY: RGB = (236, 232, 222)
GRID: RGB = (222, 217, 205)


def carcassonne_palette() -> Image.Image:
    """The fixed palette of Carcassonne images: tiles, figures, board and scoreboard."""
    seats = [seat_colour(s) for s in range(6)]
    base = (
        PAPER,
        WHITE,
        INK,
        GREY,
        LIGHT_GREY,
        HIGHLIGHT,
        EMPTY,
        GRID,
        *TILE_COLOURS,
        *seats,
        *(tint(c, 0.8) for c in seats),
    )
    pairs = tuple((a, b) for i, a in enumerate(TILE_COLOURS) for b in TILE_COLOURS[i + 1 :])
    pairs += ((FIELD, EMPTY), (CITY, EMPTY), (WALL, EMPTY), (ROAD, FIELD), (ROAD_EDGE, EMPTY))
    return fixed_palette(base, pairs)


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """Which cells are drawn and where: cell (x, y) has its top-left at ``cell_origin``."""

    min_x: int
    min_y: int
    columns: int
    rows: int
    tile: int
    left: int
    top: int

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


def _window(lo: int, hi: int, focus: int, keep: tuple[int, int] | None = None) -> tuple[int, int]:
    """A run of cells inside [lo, hi] that keeps ``focus`` central: (first cell, count).

    At most ``MAX_CELLS`` long, unless the run [``keep[0]``, ``keep[1]``] must be shown
    whole: then it is as long as that run needs.
    """
    size = MAX_CELLS if keep is None else max(MAX_CELLS, keep[1] - keep[0] + 1)
    if hi - lo + 1 <= size:
        return lo, hi - lo + 1
    start = min(max(lo, focus - size // 2), hi - size + 1)
    if keep is not None:
        start = max(min(start, keep[0]), keep[1] - size + 1)
    return start, size


def plan_layout(view: Mapping[str, Any], extra: Iterable[Cell] = ()) -> BoardLayout:
    """Cells to draw (all tiles plus a free ring around them, and ``extra``) and tile size.

    Boards larger than ``MAX_CELLS`` are cropped around the last placed tile, or around the
    extra cells (the legal placements), so the action always stays readable. Extra cells
    are never cropped away: every numbered placement must be on the image, since the cell
    select lists them all; a wider spread only makes the image wider.
    """
    cells = list(board_cells(view)) or [(0, 0)]
    extra = list(extra)
    xs = [c[0] for c in cells + extra]
    ys = [c[1] for c in cells + extra]
    lo_x, hi_x, lo_y, hi_y = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    keep_x: tuple[int, int] | None = None
    keep_y: tuple[int, int] | None = None
    if extra:
        # The extra cells with the free ring around them.
        keep_x = (min(c[0] for c in extra) - 1, max(c[0] for c in extra) + 1)
        keep_y = (min(c[1] for c in extra) - 1, max(c[1] for c in extra) + 1)
        fx, fy = sum(keep_x) // 2, sum(keep_y) // 2
    else:
        last = (view.get("board") or [{"x": 0, "y": 0}])[-1]
        fx, fy = int(last["x"]), int(last["y"])
    min_x, columns = _window(lo_x, hi_x, fx, keep_x)
    min_y, rows = _window(lo_y, hi_y, fy, keep_y)
    tile = min(BOARD_BUDGET[0] // columns, BOARD_BUDGET[1] // rows, MAX_TILE)
    tile = max(MIN_TILE, tile)
    return BoardLayout(min_x, min_y, columns, rows, tile, MARGIN_LEFT, MARGIN_TOP)


def figure_radius(tile: int) -> float:
    """Radius of a follower on tiles of ``tile`` px; the other kinds scale from it."""
    return max(9.0, tile * 0.17)


def figure_body_offset(kind: str, tile: int) -> float:
    """How far below a figure's centre its body colour shows (clear of the letter)."""
    r = figure_radius(tile)
    return {"big": 1.0 * r, "pig": 0.7 * r, "builder": 0.8 * r}.get(kind, 0.75 * r)


def draw_figure(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], kind: str, seat: int, tile: int
) -> None:
    """A figure in its player's colour with the player's letter; the shape tells the kind.

    follower: disc; big follower: large disc with a double ring; builder: square;
    pig: wide oval with ears.
    """
    x, y = centre
    colour = seat_colour(seat)
    letter_colour = text_colour_on(colour)
    r = figure_radius(tile)
    if kind == "big":
        R = r * 1.4
        draw.ellipse((x - R - 3, y - R - 3, x + R + 3, y + R + 3), fill=INK)
        draw.ellipse((x - R, y - R, x + R, y + R), fill=WHITE)
        draw.ellipse((x - R + 3, y - R + 3, x + R - 3, y + R - 3), fill=colour)
        draw_centered_text(draw, (x, y + 1), seat_letter(seat), round(R * 1.2), letter_colour)
    elif kind == "builder":
        h = r * 1.05
        draw.rectangle((x - h, y - h, x + h, y + h), fill=colour, outline=INK, width=2)
        draw.polygon(
            ((x - h - 2, y - h), (x, y - h * 1.8), (x + h + 2, y - h)), fill=colour, outline=INK
        )
        draw_centered_text(draw, (x, y + 1), seat_letter(seat), round(h * 1.3), letter_colour)
    elif kind == "pig":
        w, h = r * 1.45, r * 0.95
        for ex in (-0.55, 0.55):
            draw.polygon(
                ((x + ex * w - 4, y - h + 2), (x + ex * w, y - h - 6), (x + ex * w + 4, y - h + 2)),
                fill=colour,
                outline=INK,
            )
        draw.ellipse((x - w, y - h, x + w, y + h), fill=colour, outline=INK, width=2)
        draw_centered_text(draw, (x, y + 1), seat_letter(seat), round(h * 1.5), letter_colour)
    else:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=INK, width=2)
        draw_centered_text(draw, (x, y + 1), seat_letter(seat), round(r * 1.3), letter_colour)


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
) -> None:
    """Tiles, coordinates, last-tile marks and figures of the view onto ``image``."""
    draw = ImageDraw.Draw(image)
    t = layout.tile
    x0, y0 = layout.cell_origin((layout.min_x, layout.min_y))
    draw.rectangle((x0, y0, x0 + layout.columns * t - 1, y0 + layout.rows * t - 1), fill=EMPTY)
    for col in range(layout.columns + 1):
        draw.line((x0 + col * t, y0, x0 + col * t, y0 + layout.rows * t), fill=GRID)
    for row in range(layout.rows + 1):
        draw.line((x0, y0 + row * t, x0 + layout.columns * t, y0 + row * t), fill=GRID)
    label_size = max(12, min(18, round(t * 0.3)))
    step = 1 if t >= 40 else 2
    for col in range(layout.columns):
        x = layout.min_x + col
        if x % step == 0:
            draw_centered_text(
                draw,
                (x0 + col * t + t / 2, layout.top / 2 + 2),
                str(x),
                label_size,
                INK if x else HIGHLIGHT,
            )
    for row in range(layout.rows):
        y = layout.min_y + row
        if y % step == 0:
            draw_centered_text(
                draw,
                (layout.left / 2, y0 + row * t + t / 2),
                str(y),
                label_size,
                INK if y else HIGHLIGHT,
            )
    cells = board_cells(view)
    if override:
        cells.update(override)
    for cell, (tile_id, rot) in cells.items():
        if layout.contains(cell):
            image.paste(tile_image(tile_id, rot, t), layout.cell_origin(cell))
    marks = view.get("last_tiles") or {}
    for seat_text, cell in sorted(marks.items()):
        seat = int(seat_text)
        c = (int(cell[0]), int(cell[1]))
        if not layout.contains(c):
            continue
        cx, cy = layout.cell_origin(c)
        w = max(3, t // 14)
        draw.rectangle((cx + 1, cy + 1, cx + t - 2, cy + t - 2), outline=seat_colour(seat), width=w)
        tag = max(9, t // 5)
        draw.rectangle(
            (cx, cy, cx + tag * 1.6, cy + tag * 1.6), fill=seat_colour(seat), outline=INK
        )
        draw_centered_text(
            draw,
            (cx + tag * 0.8, cy + tag * 0.8 + 1),
            seat_letter(seat),
            round(tag * 1.2),
            text_colour_on(seat_colour(seat)),
        )
    if figures:
        for fig in view.get("figures") or ():
            cell = (int(fig["x"]), int(fig["y"]))
            if not layout.contains(cell) or cell not in cells:
                continue
            tile_id, rot = cells[cell]
            sx, sy = segment_spot(tile_id, rot, str(fig.get("segment", "")))
            ox, oy = layout.cell_origin(cell)
            draw_figure(
                draw,
                (ox + sx * t, oy + sy * t),
                str(fig.get("kind", "follower")),
                int(fig["player"]),
                t,
            )


def _supply_icons(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    seat: int,
    supply: Mapping[str, int],
    options: Mapping[str, Any],
) -> float:
    """Followers left and the special figures in supply; returns the x after them."""
    draw_figure(draw, (x + 12, y), "follower", seat, 64)
    draw.text(
        (x + 26, y - 12),
        f"×{int(supply.get('follower', 0))}".replace("×", "x"),
        font=font(22),
        fill=INK,
    )
    x += 74
    specials = []
    if options.get("inns_cathedrals") == "full" or supply.get("big"):
        specials.append("big")
    if options.get("traders_builders") == "full" or supply.get("builder") or supply.get("pig"):
        specials += ["builder", "pig"]
    for kind in specials:
        have = int(supply.get(kind, 0)) > 0
        if have:
            draw_figure(draw, (x + 14, y), kind, seat, 56)
        else:
            draw.ellipse((x + 6, y - 8, x + 22, y + 8), outline=GREY, width=2)
            draw.line((x + 6, y + 8, x + 22, y - 8), fill=GREY, width=2)
        x += 40
    return x


def draw_scoreboard(
    image: Image.Image,
    top: int,
    view: Mapping[str, Any],
    names: Sequence[str] | None,
    locale: str = "en",
) -> None:
    """Header (tile to place, tiles left, discards) and one row per player."""
    draw = ImageDraw.Draw(image)
    width = image.width
    seats = [int(s) for s in view.get("seats") or range(len(view.get("scores") or []))]
    current = view.get("current_tile")
    x: float = 12
    if current:
        preview = tile_image(str(current), 0, 52)
        image.paste(preview, (12, top + 9))
        draw.rectangle((x - 1, top + 8, x + 52, top + 61), outline=INK, width=2)
        x += 64
        phase = view.get("phase")
        label = "img.tile_just_placed" if phase == "figure" else "img.tile_to_place"
        draw.text(
            (x, top + 10),
            fit_text(t(label, locale, tile=current), 22, width - x - 12),
            font=font(22),
            fill=INK,
        )
    else:
        draw.text(
            (x, top + 10),
            t("img.game_over", locale) if view.get("finished") else "",
            font=font(22),
            fill=INK,
        )
    info = [t("img.tiles_left", locale, count=view.get("tiles_left", 0))]
    discarded = view.get("discarded") or []
    if discarded:
        info.append(t("img.discarded", locale, tiles=", ".join(discarded[-6:])))
    if view.get("extra_turn"):
        info.append(t("img.builder_turn", locale))
    draw.text(
        (x, top + 38), fit_text(" · ".join(info), 18, width - x - 12), font=font(18), fill=INK
    )
    to_act = {int(s) for s in view.get("to_act") or []}
    winners = {int(s) for s in view.get("winners") or []}
    scores = view.get("scores") or []
    supplies = view.get("supply") or []
    goods = view.get("goods") or []
    options = view.get("options") or {}
    show_goods = options.get("traders_builders") in ("tiles", "full") or any(
        any(int(v) for v in g.values()) for g in goods
    )
    y0 = top + HEADER_HEIGHT
    for i, seat in enumerate(seats):
        y = y0 + i * ROW_HEIGHT
        acting = seat in to_act
        box = (6, y + 3, width - 6, y + ROW_HEIGHT - 3)
        draw.rounded_rectangle(
            box,
            radius=8,
            fill=tint(seat_colour(seat), 0.8) if acting else WHITE,
            outline=INK if acting else LIGHT_GREY,
            width=4 if acting else 2,
        )
        cy = (box[1] + box[3]) / 2
        draw.ellipse(
            (box[0] + 8, cy - 19, box[0] + 46, cy + 19),
            fill=seat_colour(seat),
            outline=INK,
            width=2,
        )
        draw_centered_text(
            draw, (box[0] + 27, cy + 1), seat_letter(seat), 24, text_colour_on(seat_colour(seat))
        )
        name = player_name(view, seat, names, locale)
        if seat in winners:
            name = t("img.winner_tag", locale, name=name)
        if acting:
            name = t("img.to_play_suffix", locale, name=name)
        draw.text((box[0] + 56, cy - 13), fit_text(name, 22, 250), font=font(22), fill=INK)
        score = scores[seat] if seat < len(scores) else 0
        draw_centered_text(draw, (box[0] + 345, cy + 1), str(score), 30, INK)
        x = box[0] + 395
        if seat < len(supplies):
            x = _supply_icons(draw, x, cy, seat, supplies[seat], options)
        if show_goods and seat < len(goods):
            x += 8
            for kind in ("wine", "grain", "cloth"):
                draw_goods(draw, kind, x + 10, cy, 9)
                draw.text(
                    (x + 24, cy - 11), str(int(goods[seat].get(kind, 0))), font=font(20), fill=INK
                )
                x += 52


def scoreboard_height(view: Mapping[str, Any]) -> int:
    """Height of the header plus one row per player."""
    seats = view.get("seats") or range(len(view.get("scores") or []))
    return HEADER_HEIGHT + ROW_HEIGHT * len(list(seats)) + 8


def scoreboard_width(view: Mapping[str, Any]) -> int:
    """The narrowest width at which every scoreboard row fits."""
    options = view.get("options") or {}
    width = 395 + 74 + 20
    if options.get("inns_cathedrals") == "full":
        width += 40
    if options.get("traders_builders") == "full":
        width += 80
    if options.get("traders_builders") in ("tiles", "full"):
        width += 8 + 3 * 52
    return width + 20


def draw_carcassonne_board(
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    highlight: Iterable[Cell] | None = None,
    locale: str = "en",
    *,
    whole: bool = False,
) -> Image.Image:
    """The whole board image: coordinates, tiles, figures, last tiles and the scoreboard."""
    highlight = [(int(c[0]), int(c[1])) for c in highlight or ()]
    layout = plan_layout(view, highlight)
    width = max(layout.width + 8, scoreboard_width(view), 560)
    height = layout.height + 8 + scoreboard_height(view)
    image = Image.new("RGB", (width, height), PAPER)
    draw_board_area(image, layout, view)
    draw = ImageDraw.Draw(image)
    for cell in highlight:
        if layout.contains(cell):
            ox, oy = layout.cell_origin(cell)
            draw.rectangle(
                (ox, oy, ox + layout.tile - 1, oy + layout.tile - 1),
                outline=HIGHLIGHT,
                width=max(3, layout.tile // 12),
            )
    draw_scoreboard(image, layout.height + 8, view, names, locale)
    return image


def carcassonne_cell_center(
    view: Mapping[str, Any], cell: Cell, *, extra: Iterable[Cell] = ()
) -> tuple[int, int] | None:
    """Pixel centre of ``cell`` in the board image, or ``None`` if it is cropped away.

    ``extra`` are the cells the image was asked to include: the highlight of
    ``render_board`` or the legal cells of ``render_placements``.
    """
    layout = plan_layout(view, list(extra))
    return layout.cell_centre(cell) if layout.contains(cell) else None
