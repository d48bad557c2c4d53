"""Images for the Carcassonne player to act: numbered legal cells, and lettered figure spots."""

from __future__ import annotations

import math
import string
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

# Imported as ``translate``: ``t`` is the tile size throughout this module.
from i18n import t as translate
from renderer.carcassonne import indexed
from renderer.carcassonne.board import (
    board_cells,
    draw_board_area,
    draw_figure,
    draw_header,
    draw_score_rows,
    figure_kind,
    header_height,
    letter_size,
    plan_layout,
    rows_height,
    scoreboard_width,
)
from renderer.carcassonne.indexed import drawer
from renderer.carcassonne.tiles import segment_spot, tile_image
from renderer.style import (
    HIGHLIGHT,
    INK,
    PAPER,
    WHITE,
    draw_centered_text,
    draw_text,
    fit_text,
    legible,
    text_width,
)

STRIP_TILE = 88
STRIP_HEIGHT = STRIP_TILE + 76
SPOT_CELL = 180

#: Segment kinds and figure kinds with words in the catalogue (``img.kind.*``, ``figure.*``).
_KINDS = frozenset({"city", "road", "field", "monastery"})
_FIGURES = frozenset({"follower", "big", "builder", "pig"})


def spot_text(kind: str | None, segment: str, locale: str = "en") -> str:
    """The legend of a figure spot: ``follower on city (knight)``, or the segment alone."""
    base = segment.rstrip("0123456789")
    what = translate(f"img.kind.{base}", locale) if base in _KINDS else segment
    if not kind:
        return what
    figure = translate(f"figure.{kind}", locale) if kind in _FIGURES else kind
    return translate("img.figure_on", locale, figure=figure, what=what)


#: How the tile is turned, as an arrow showing where its top edge points: drawn beside each
#: turn of the rotation strip and, per cell, for the turns legal on that cell.
TURN_ARROWS = {0: "↑", 90: "→", 180: "↓", 270: "←"}


def turn_marks(rotations: Sequence[int]) -> str:
    """The arrows of ``rotations`` in the order of the strip (``"↑ ↓"``)."""
    return " ".join(TURN_ARROWS[int(r) % 360] for r in sorted({int(r) % 360 for r in rotations}))


def placement_order(placements: Mapping[tuple[int, int], Sequence[int]]) -> list[tuple[int, int]]:
    """The legal cells in the order they are numbered 1…n: by y, then x (as in CN-4.1)."""
    return sorted(((int(x), int(y)) for x, y in placements), key=lambda c: (c[1], c[0]))


def _rotations(placements: Mapping[tuple[int, int], Sequence[int]]) -> list[int]:
    return sorted({int(r) % 360 for rots in placements.values() for r in rots})


def draw_placements(
    view: Mapping[str, Any],
    placements: Mapping[tuple[int, int], Sequence[int]],
    names: Sequence[str] | None = None,
    locale: str = "en",
) -> Image.Image:
    """The board with each legal cell numbered, and the drawn tile in each legal rotation."""
    order = placement_order(placements)
    layout = plan_layout(view, order)
    rotations = _rotations(placements)
    # Each turned tile is captioned as the menus say it ("turned right"), so a slot of the
    # strip is as wide as its caption needs.
    captions = [
        f"{TURN_ARROWS[rot]} {translate(f'tile.turned.{rot}', locale)}" for rot in rotations
    ]
    width = max(layout.width + 8, scoreboard_width(view), 560)
    for _ in range(2):  # a wider image may need a larger font for the phone
        slot = _strip_slot(captions, legible(20, width))
        width = max(width, 12 + len(rotations) * slot)
    slot = _strip_slot(captions, legible(20, width))
    header = header_height(view, layout, width, locale)
    board_bottom = header + layout.height + 8
    height = board_bottom + STRIP_HEIGHT + rows_height(view, width)
    # Composed on the palette from cached tiles, figures and texts (see
    # renderer.carcassonne.indexed).
    image = indexed.new_image((width, height), PAPER)
    draw_header(image, 0, view, layout, locale, names)
    board = indexed.new_image((width, layout.height), PAPER)
    draw_board_area(board, layout, view, rulers=False, locale=locale)
    draw = drawer(board)
    t = layout.tile
    size = legible(t * 0.36, width)
    marks_size = legible(t * 0.28, width)
    for number, cell in enumerate(order, start=1):
        if not layout.contains(cell):
            continue
        ox, oy = layout.cell_origin(cell)
        inset = max(2, t // 16)
        draw.rectangle(
            (ox + inset, oy + inset, ox + t - 1 - inset, oy + t - 1 - inset),
            fill=WHITE,
            outline=HIGHLIGHT,
            width=max(2, t // 14),
        )
        # The number above, the turns legal on this very cell below (the strip says which
        # arrow is which turn).
        indexed.draw_text(board, (ox + t / 2, oy + t * 0.37), str(number), size, INK, WHITE)
        marks = turn_marks(placements.get(cell, ()))
        indexed.draw_stroked_text(
            board, (ox + t / 2, oy + t * 0.74), marks, marks_size, HIGHLIGHT, WHITE, 1
        )
    image.paste(board, (0, header))
    draw = drawer(image)
    tile_id = view.get("current_tile")
    y = board_bottom
    label = legible(20, width)
    if tile_id:
        title = fit_text(translate("img.rotations", locale), label, width - 24)
        indexed.draw_text(image, (12, y + 4), title, label, INK, PAPER, anchor="la")
        for i, rot in enumerate(rotations):
            x = 12 + i * slot + (slot - STRIP_TILE - 24) // 2
            image.paste(indexed.tile(str(tile_id), rot, STRIP_TILE), (x, y + 32))
            draw.rectangle(
                (x - 1, y + 31, x + STRIP_TILE, y + 32 + STRIP_TILE), outline=INK, width=2
            )
            caption = fit_text(captions[i], label, slot - 8)
            xy = (x + STRIP_TILE / 2, y + 46 + STRIP_TILE)
            indexed.draw_text(image, xy, caption, label, INK, PAPER)
    draw_score_rows(image, board_bottom + STRIP_HEIGHT, view, names, locale)
    return image


def _strip_slot(captions: Sequence[str], size: int) -> int:
    """The width of one slot of the rotation strip: a tile, or its caption if wider."""
    widest = max((text_width(text, size) for text in captions), default=0.0)
    return max(STRIP_TILE + 24, math.ceil(widest) + 16)


def _spot_segment(spot: str) -> tuple[str | None, str | None]:
    """(figure kind, segment) of a spot given as ``segment`` or ``kind:segment``."""
    if spot in ("", "none"):
        return None, None
    kind, _, segment = spot.rpartition(":")
    return (kind or None), segment


def spot_label(index: int) -> str:
    """The letter of the ``index``-th spot (A, B, … Z, then AA, AB, …)."""
    letters = string.ascii_uppercase
    if index < len(letters):
        return letters[index]
    return letters[index // len(letters) - 1] + letters[index % len(letters)]


def draw_figure_spots(
    view: Mapping[str, Any],
    x: int,
    y: int,
    rot: int,
    tile: str,
    spots: Sequence[str],
    locale: str = "en",
) -> Image.Image:
    """A close-up of the placed tile and its neighbours with the spots lettered A, B, C…"""
    cells = board_cells(view)
    cells[(x, y)] = (tile, rot % 360)
    t = SPOT_CELL
    legend_rows = max(1, len(spots))
    width = 3 * t + 24
    height = 3 * t + 24 + 12 + 30 * legend_rows
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    left, top = 12, 12
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            cell = (x + dx, y + dy)
            ox, oy = left + (dx + 1) * t, top + (dy + 1) * t
            if cell in cells:
                tile_id, r = cells[cell]
                layer = tile_image(tile_id, r, t)
                if cell != (x, y):
                    # Neighbours are faded so that the placed tile stands out.
                    layer = Image.blend(layer, Image.new("RGB", layer.size, PAPER), 0.45)
                image.paste(layer, (ox, oy))
            else:
                draw.rectangle((ox, oy, ox + t - 1, oy + t - 1), fill=(236, 232, 222))
            draw.rectangle((ox, oy, ox + t - 1, oy + t - 1), outline=(205, 200, 190))
    for fig in view.get("figures") or ():
        cell = (int(fig["x"]), int(fig["y"]))
        if cell == (x, y) or cell not in cells or max(abs(cell[0] - x), abs(cell[1] - y)) > 1:
            continue
        tile_id, r = cells[cell]
        sx, sy = segment_spot(tile_id, r, str(fig.get("segment", "")))
        ox, oy = left + (cell[0] - x + 1) * t, top + (cell[1] - y + 1) * t
        draw_figure(
            draw,
            (ox + sx * t, oy + sy * t),
            figure_kind(fig),
            int(fig["player"]),
            letter_size(80, width),
            locale=locale,
        )
    ox, oy = left + t, top + t
    draw.rectangle((ox - 2, oy - 2, ox + t + 1, oy + t + 1), outline=HIGHLIGHT, width=4)
    legend_y = top + 3 * t + 12
    placed: dict[str, list[str]] = {}
    for index, spot in enumerate(spots):
        letter = spot_label(index)
        kind, segment = _spot_segment(str(spot))
        if segment is None:
            text = translate("img.no_figure", locale)
        else:
            placed.setdefault(segment, []).append(letter)
            text = spot_text(kind, segment, locale)
        draw_text(draw, (left, legend_y + index * 30), f"{letter}", 22, HIGHLIGHT)
        draw_text(draw, (left + 40, legend_y + index * 30), fit_text(text, 20, width - 60), 20, INK)
    for segment, letters in placed.items():
        sx, sy = segment_spot(tile, rot % 360, segment)
        px, py = ox + sx * t, oy + sy * t
        label = "/".join(letters)
        r = 17 + 6 * (len(letters) - 1)
        draw.rounded_rectangle(
            (px - r, py - 17, px + r, py + 17), radius=17, fill=WHITE, outline=INK, width=3
        )
        draw_centered_text(draw, (px, py + 1), label, 24, INK)
    return image
