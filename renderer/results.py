"""The results image of a finished table: standings, and the story of the game.

Drawn from a result summary (the JSON of ``bot.results.GameResult``: public facts only) and
the seats' display names. 800 px wide, with text of at least 24 px, so that it reads when
Discord shows it 400 px wide on a phone.

* Every game: the places, each seat's colour and letter, name and team.
* Carcassonne: each seat's points by category (roads, cities, monasteries, farms, goods), the
  points from inns and cathedrals beside them, and a chart of the scores over the game.
* Tock and Dog: the pawns each seat brought home, numbered in the order they arrived, a strip
  showing when each pawn arrived, and how many hands were dealt.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from i18n import t, tn
from renderer.style import (
    GREY,
    INK,
    LIGHT_GREY,
    PAPER,
    WHITE,
    draw_centered_text,
    draw_text,
    fit_text,
    font,
    seat_colour,
    seat_letter,
    text_colour_on,
    tint,
)

WIDTH = 800
MARGIN = 24
ROW = 84
CATEGORIES = ("road", "city", "monastery", "farm", "goods")


def draw_results(
    summary: Mapping[str, Any], names: Sequence[str] | None, locale: str
) -> Image.Image:
    """The results image (see the module docstring)."""
    game = str(summary["game"])
    seats = sorted(summary["seats"], key=lambda s: (s["place"], s.get("team") or 0, s["seat"]))
    name_of = _names(summary, names)
    carcassonne = game == "carcassonne"
    shown = _categories(summary) if carcassonne else ()
    height = 88 + ROW * len(seats) + 12
    if carcassonne:
        height += (48 if _extras(summary) else 0) + 320
    else:
        height += 260
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    title = t("results.image.title", locale, game=t(f"game.{game}", locale))
    draw_text(draw, (MARGIN, 22), fit_text(title, 36, WIDTH - 2 * MARGIN), 36, INK)
    y = 88
    for seat in seats:
        _standing_row(draw, summary, seat, name_of, shown, y, locale)
        y += ROW
    y += 12
    if carcassonne:
        y = _extras_line(draw, summary, y, locale)
        _score_chart(draw, summary, y + 8, locale)
    else:
        _home_strip(draw, summary, y, locale)
    return image


def _names(summary: Mapping[str, Any], names: Sequence[str] | None) -> dict[int, str]:
    """Display names by seat: the given ones (one per seat, in seat order) or the stored."""
    seats = sorted(s["seat"] for s in summary["seats"])
    given = list(names or ())
    found = {}
    for position, seat in enumerate(seats):
        stored = next(s["name"] for s in summary["seats"] if s["seat"] == seat)
        found[seat] = given[position] if position < len(given) else stored
    return found


def _categories(summary: Mapping[str, Any]) -> tuple[str, ...]:
    """The categories worth a column: goods only when Traders & Builders was played."""
    traders = (summary.get("options") or {}).get("traders_builders", "off") != "off"
    return tuple(c for c in CATEGORIES if c != "goods" or traders)


def _extras(summary: Mapping[str, Any]) -> bool:
    return (summary.get("options") or {}).get("inns_cathedrals", "off") != "off"


def _standing_row(
    draw: ImageDraw.ImageDraw,
    summary: Mapping[str, Any],
    seat: Mapping[str, Any],
    name_of: Mapping[int, str],
    shown: Sequence[str],
    y: int,
    locale: str,
) -> None:
    """Place, colour and letter, name, and on a second line the team, a leave and (for
    Carcassonne) the points by category; the total or the pawns home at the right."""
    game = str(summary["game"])
    index = int(seat["seat"])
    colour = seat_colour(index, game)
    if seat["place"] == 1:
        box = (MARGIN - 8, y + 2, WIDTH - MARGIN + 8, y + ROW - 4)
        draw.rounded_rectangle(box, 12, tint(colour, 0.8))
    cy = y + ROW // 2
    draw_centered_text(draw, (MARGIN + 22, cy), f"{seat['place']}.", 34, INK)
    cx = MARGIN + 82
    draw.ellipse((cx - 26, cy - 26, cx + 26, cy + 26), fill=colour, outline=INK, width=2)
    draw_centered_text(draw, (cx, cy), seat_letter(index, game, locale), 28, text_colour_on(colour))
    name_x = cx + 42
    right = WIDTH - MARGIN - (110 if game == "carcassonne" else 4 * 46 + 12)
    draw_text(draw, (name_x, y + 8), fit_text(name_of[index], 30, right - name_x), 30, INK)
    notes = []
    if seat.get("team") is not None:
        notes.append(t("results.image.team", locale, number=int(seat["team"]) + 1))
    if seat.get("left"):
        notes.append(t("results.image.left", locale))
    if game == "carcassonne":
        points = (summary.get("categories") or {}).get(str(index), {})
        for category in shown:
            if points.get(category):  # a category that scored nothing would only crowd the line
                label = t(f"results.image.{category}", locale)
                notes.append(f"{label} {points[category]}")
        total = str(seat["score"])
        draw_text(draw, (WIDTH - MARGIN - 8, cy), total, 40, INK, anchor="rm")
    else:
        _home_pawns(draw, summary, index, WIDTH - MARGIN - 4 * 46, cy)
    line = " · ".join(notes)
    width = WIDTH - MARGIN - name_x - (0 if game == "carcassonne" else 4 * 46 + 12)
    draw_text(draw, (name_x, y + 46), fit_text(line, 22, width), 22, GREY)


def _home_pawns(
    draw: ImageDraw.ImageDraw, summary: Mapping[str, Any], colour_seat: int, x: int, cy: int
) -> None:
    """Four pawn circles of ``colour_seat``: filled and numbered by arrival when home."""
    game = str(summary["game"])
    colour = seat_colour(colour_seat, game)
    arrivals = [
        n for n, (_step, c) in enumerate(summary.get("home") or (), start=1) if c == colour_seat
    ]
    for slot in range(4):
        px = x + slot * 46 + 20
        box = (px - 19, cy - 19, px + 19, cy + 19)
        if slot < len(arrivals):
            draw.ellipse(box, fill=colour, outline=INK, width=2)
            draw_centered_text(draw, (px, cy), str(arrivals[slot]), 20, text_colour_on(colour))
        else:
            draw.ellipse(box, fill=WHITE, outline=LIGHT_GREY, width=3)


def _home_strip(draw: ImageDraw.ImageDraw, summary: Mapping[str, Any], y: int, locale: str) -> None:
    """When each pawn reached home, along the game's moves; and the hands dealt."""
    moves = max(1, int(summary.get("moves") or 1))
    hands = int(summary.get("hands") or 0)
    line = (
        tn("results.image.hands", hands, locale) + " · " + tn("results.image.moves", moves, locale)
    )
    draw_text(draw, (MARGIN, y), fit_text(line, 26, WIDTH - 2 * MARGIN), 26, INK)
    draw_text(draw, (MARGIN, y + 44), t("results.image.home_order", locale), 22, GREY)
    bottom = y + 200
    left, right = MARGIN + 10, WIDTH - MARGIN - 10
    draw.line((left, bottom, right, bottom), fill=INK, width=3)
    for tick in range(5):
        tx = left + (right - left) * tick / 4
        draw.line((tx, bottom - 6, tx, bottom + 6), fill=INK, width=2)
    game = str(summary["game"])
    levels: list[list[int]] = []  # the x of the dots on each level, so none overlap
    for step, colour_seat in summary.get("home") or ():
        px = round(left + (right - left) * int(step) / moves)
        level = next((n for n, xs in enumerate(levels) if all(abs(px - x) >= 30 for x in xs)), None)
        if level is None:
            level = len(levels)
            levels.append([])
        levels[level].append(px)
        py = bottom - 22 - 30 * min(level, 3)
        colour = seat_colour(int(colour_seat), game)
        draw.ellipse((px - 14, py - 14, px + 14, py + 14), fill=colour, outline=INK, width=2)
        letter = seat_letter(int(colour_seat), game, locale)
        draw_centered_text(draw, (px, py), letter, 18, text_colour_on(colour))
    draw_text(draw, (left, bottom + 10), "1", 20, GREY)
    end = str(moves)
    draw_text(draw, (right - font(20).getlength(end), bottom + 10), end, 20, GREY)


def _extras_line(
    draw: ImageDraw.ImageDraw,
    summary: Mapping[str, Any],
    y: int,
    locale: str,
) -> int:
    """The points from inns and cathedrals (already in the roads and cities), by letter."""
    if not _extras(summary):
        return y
    parts = []
    categories = summary.get("categories") or {}
    for key in ("inn", "cathedral"):
        got = [
            f"{seat_letter(int(s), 'carcassonne', locale)} {points[key]}"
            for s, points in sorted(categories.items())
            if points.get(key)
        ]
        label = t(f"results.image.{key}", locale)
        parts.append(f"{label}: {', '.join(got) if got else '0'}")
    line = " · ".join(parts)
    draw_text(draw, (MARGIN, y), fit_text(line, 24, WIDTH - 2 * MARGIN), 24, INK)
    return y + 48


def _score_chart(
    draw: ImageDraw.ImageDraw, summary: Mapping[str, Any], y: int, locale: str
) -> None:
    """The scores over the game: one line per seat, its letter at the end."""
    timeline = [list(map(int, row)) for row in summary.get("timeline") or ()]
    draw_text(draw, (MARGIN, y), t("results.image.chart", locale), 24, INK)
    left, right = MARGIN + 48, WIDTH - MARGIN - 40
    top, bottom = y + 44, y + 290
    draw.rectangle((left, top, right, bottom), outline=LIGHT_GREY, width=2)
    if not timeline:
        return
    steps = max(1, timeline[-1][0], int(summary.get("moves") or 1))
    best = max(1, max(max(row[1:]) for row in timeline))
    for fraction in (0.5, 1.0):
        value = round(best * fraction)
        gy = bottom - (bottom - top) * value / best
        draw.line((left, gy, right, gy), fill=LIGHT_GREY, width=1)
        draw_text(draw, (left - 8, gy), str(value), 20, GREY, anchor="rm")
    draw_text(draw, (left - 8, bottom), "0", 20, GREY, anchor="rm")
    game = "carcassonne"
    seats = len(timeline[0]) - 1
    ends = []
    for seat in range(seats):
        points: list[tuple[float, float]] = []
        last = 0
        for row in timeline:
            px = left + (right - left) * row[0] / steps
            if points:
                points.append((px, points[-1][1]))  # a step: scores change at one move
            last = row[seat + 1]
            points.append((px, bottom - (bottom - top) * last / best))
        points.append((right, points[-1][1]))
        colour = seat_colour(seat, game)
        draw.line(points, fill=colour, width=5, joint="curve")
        ends.append((points[-1][1], seat, colour))
    placed: list[float] = []
    for end_y, seat, colour in sorted(ends):
        ly = end_y
        # Discs 32 px apart, letters of 18 px: 9 px on a phone, two-letter initials (Gr) inside.
        while any(abs(ly - p) < 32 for p in placed):
            ly += 32
        placed.append(ly)
        cx = right + 22
        draw.ellipse((cx - 16, ly - 16, cx + 16, ly + 16), fill=colour, outline=INK, width=2)
        letter = seat_letter(seat, game, locale)
        draw_centered_text(draw, (cx, ly), letter, 18, text_colour_on(colour))


#: The animated summary: at most this many positions, shown this wide (Discord's preview).
ANIMATION_FRAMES = 36
ANIMATION_WIDTH = 400
FRAME_MS = 300
LAST_FRAME_MS = 3000


def pick_frames(count: int, frames: int = ANIMATION_FRAMES) -> list[int]:
    """Evenly spaced positions out of ``count``, always the first and the last."""
    if count <= frames:
        return list(range(count))
    return sorted({round(i * (count - 1) / (frames - 1)) for i in range(frames)})


def draw_animation(boards: Sequence[Image.Image]) -> bytes:
    """An animated GIF of ``boards`` (each drawn for the same view format), 400 px wide,
    each frame centred on one canvas; the last frame stays longest."""
    import io

    widest = max(b.width for b in boards)
    tallest = max(b.height for b in boards)
    scale = ANIMATION_WIDTH / widest
    size = (ANIMATION_WIDTH, max(1, round(tallest * scale)))
    frames = []
    for board in boards:
        scaled = board.resize(
            (max(1, round(board.width * scale)), max(1, round(board.height * scale))),
            Image.Resampling.LANCZOS,
        )
        canvas = Image.new("RGB", size, PAPER)
        canvas.paste(scaled, ((size[0] - scaled.width) // 2, (size[1] - scaled.height) // 2))
        frames.append(canvas.quantize(colors=128, method=Image.Quantize.FASTOCTREE))
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=False,
    )
    return buffer.getvalue()
