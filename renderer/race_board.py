"""Drawing the Tock / Dog board from a public race view (race-notation N-3 fields)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from i18n import t, tn
from i18n.events import colour_word
from renderer.race_events import LastMove, last_move, owner_of, walk_path
from renderer.race_layout import STRIP_ROW_HEIGHT, RaceLayout, layout_for, pawn_slots
from renderer.style import (
    GREY,
    HIGHLIGHT,
    INK,
    LIGHT_GREY,
    PAPER,
    RGB,
    WHITE,
    clean_text,
    draw_centered_text,
    fit_text,
    fixed_palette,
    font,
    seat_colour,
    seat_colour_name,
    seat_letter,
    shade,
    text_colour_on,
    tint,
)

RING_LINE: RGB = (205, 198, 185)
FIELD_FILL: RGB = (255, 253, 248)
FIELD_OUTLINE: RGB = (120, 114, 104)
CAPTURE: RGB = (20, 20, 20)
RING_BAND: RGB = (241, 236, 226)


def race_palette() -> Image.Image:
    """The fixed palette of race boards: every colour drawn, and anti-aliasing steps."""
    seats = [seat_colour(s) for s in range(6)]
    base = [
        PAPER,
        WHITE,
        INK,
        GREY,
        LIGHT_GREY,
        HIGHLIGHT,
        RING_LINE,
        FIELD_FILL,
        FIELD_OUTLINE,
        RING_BAND,
        *seats,
    ]
    for amount in (0.55, 0.65, 0.8, 0.82):
        base += [tint(c, amount) for c in seats]
    base += [shade(c, 0.3) for c in seats]
    return fixed_palette(tuple(base))


def seat_name(
    seat: int, seats: Sequence[int], names: Sequence[str] | None, locale: str = "en"
) -> str:
    """The display name of ``seat``.

    ``names`` may list one name per seat in use (in ``view["seats"]`` order) or be indexed by
    seat number; without names the seat's colour name (in ``locale``) is used.
    """
    if names:
        if len(names) == len(seats):
            return str(names[list(seats).index(seat)])
        if seat < len(names):
            return str(names[seat])
    if locale == "en":
        return seat_colour_name(seat)
    return colour_word(seat, locale)


def _circle(draw: ImageDraw.ImageDraw, p: tuple[float, float], r: float, **kw: Any) -> None:
    draw.ellipse((p[0] - r, p[1] - r, p[0] + r, p[1] + r), **kw)


_STATIC: dict[tuple[Any, ...], Image.Image] = {}


def _static_layer(layout: RaceLayout) -> Image.Image:
    """The empty board (cached): ring, start fields, home lanes, kennels and seat letters."""
    cached = _STATIC.get(layout.key)
    if cached is None:
        if len(_STATIC) > 32:
            _STATIC.clear()
        cached = _STATIC[layout.key] = _draw_static_layer(layout)
    return cached


def _draw_static_layer(layout: RaceLayout) -> Image.Image:
    image = Image.new("RGB", (layout.width, layout.height), PAPER)
    draw = ImageDraw.Draw(image)
    cx, cy = layout.centre
    r = layout.radius
    _circle(draw, layout.centre, r + layout.pawn_radius + 6, fill=RING_BAND)
    _circle(draw, layout.centre, r - layout.pawn_radius - 6, fill=PAPER)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=RING_LINE, width=3)
    fr = layout.field_radius
    for index, point in enumerate(layout.ring):
        _circle(draw, point, fr, fill=FIELD_FILL, outline=FIELD_OUTLINE, width=1)
        if index % 6 == 0:
            # Every sixth field gets a faint tick outside, so counting steps is easier.
            a = layout.angle(index)
            outer = r + layout.pawn_radius + 2
            draw.line(
                (
                    cx + (r + fr + 2) * math.cos(a),
                    cy + (r + fr + 2) * math.sin(a),
                    cx + outer * math.cos(a),
                    cy + outer * math.sin(a),
                ),
                fill=RING_LINE,
                width=2,
            )
    for seat in layout.seats:
        colour = seat_colour(seat)
        light = tint(colour, 0.65)
        start = layout.ring[layout.start_field(seat)]
        branch = layout.ring[layout.branch_field(seat)]
        home = layout.homes[seat]
        draw.line((branch, home[-1]), fill=light, width=round(layout.pawn_radius * 1.2))
        for slot in home:
            _circle(draw, slot, layout.pawn_radius * 0.72, fill=light, outline=colour, width=3)
        _circle(draw, start, layout.pawn_radius * 0.95, fill=light, outline=colour, width=4)
        kennel = layout.kennels[seat]
        xs = [p[0] for p in kennel]
        ys = [p[1] for p in kennel]
        pad = layout.pawn_radius + 5
        draw.rounded_rectangle(
            (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad),
            radius=pad * 0.6,
            fill=tint(colour, 0.8),
            outline=colour,
            width=2,
        )
        for slot in kennel:
            _circle(draw, slot, layout.pawn_radius * 0.55, fill=tint(colour, 0.55))
        label = layout.labels[seat]
        # A rounded square, not a disc, so the seat tag is never mistaken for a pawn.
        half = layout.pawn_radius * 1.05
        draw.rounded_rectangle(
            (label[0] - half, label[1] - half, label[0] + half, label[1] + half),
            radius=half * 0.3,
            fill=colour,
            outline=INK,
            width=2,
        )
        draw_centered_text(
            draw,
            (label[0], label[1] + 1),
            seat_letter(seat),
            round(layout.pawn_radius * 1.3),
            text_colour_on(colour),
        )
    return image


def _draw_pawn(
    draw: ImageDraw.ImageDraw,
    layout: RaceLayout,
    point: tuple[float, float],
    seat: int,
    guarded: bool,
) -> None:
    pr = layout.pawn_radius
    colour = seat_colour(seat)
    if guarded:
        # A guarded pawn (protected in Tock, blocking in Dog) wears a thick black ring with a
        # white gap, readable without colour.
        _circle(draw, point, pr + 6, fill=INK)
        _circle(draw, point, pr + 3, fill=WHITE)
    _circle(draw, point, pr, fill=colour, outline=INK, width=2)
    draw_centered_text(
        draw,
        (point[0], point[1] + 1),
        seat_letter(seat),
        round(pr * 1.25),
        text_colour_on(colour),
    )


def _arrow_head(
    draw: ImageDraw.ImageDraw,
    tip: tuple[float, float],
    frm: tuple[float, float],
    size: float,
    colour: RGB,
) -> None:
    angle = math.atan2(tip[1] - frm[1], tip[0] - frm[0])
    left = (tip[0] - size * math.cos(angle - 0.45), tip[1] - size * math.sin(angle - 0.45))
    right = (tip[0] - size * math.cos(angle + 0.45), tip[1] - size * math.sin(angle + 0.45))
    draw.polygon((tip, left, right), fill=colour, outline=WHITE)


def _stop_short(points: list[tuple[float, float]], gap: float) -> list[tuple[float, float]]:
    """``points`` with the last one pulled back by ``gap``, so the arrow head shows beside
    the pawn that now stands there instead of under it."""
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    if length <= 1:
        return points
    pull = min(gap, length * 0.6) / length
    return [*points[:-1], (x1 - (x1 - x0) * pull, y1 - (y1 - y0) * pull)]


ArrowHead = tuple[tuple[float, float], tuple[float, float], float, RGB]


def _draw_last_move(
    draw: ImageDraw.ImageDraw, layout: RaceLayout, move: LastMove, view: Mapping[str, Any]
) -> list[ArrowHead]:
    """Draw the paths of the last action, under the pawns.

    The arrow heads stop at the edge of the pawn that now stands at the end of a path, so
    they show beside it; returns them so they are drawn after every path line.
    """
    heads: list[ArrowHead] = []
    pawns = view.get("pawns") or {}
    width = max(4, round(layout.pawn_radius * 0.35))
    paths = list(move.paths)
    for start, end in move.walks:
        colour_seat = owner_of(end, pawns)
        if colour_seat is None:
            colour_seat = move.seat
        try:
            paths.append((walk_path(layout, start, end, colour_seat, move.card), colour_seat))
        except (KeyError, ValueError, IndexError):
            continue
    for path, colour_seat in paths:
        try:
            points = [layout.point(loc) for loc in path]
        except (KeyError, ValueError, IndexError):
            continue
        colour = shade(seat_colour(colour_seat), 0.3) if colour_seat is not None else INK
        if len(points) >= 2:
            points = _stop_short(points, layout.pawn_radius + 2)
            draw.line(points, fill=WHITE, width=width + 4, joint="curve")
            draw.line(points, fill=colour, width=width, joint="curve")
            heads.append((points[-1], points[-2], layout.pawn_radius * 1.5, colour))
            _circle(draw, points[0], layout.pawn_radius * 0.55, outline=colour, width=width)
    for a, b in move.swaps:
        try:
            pa, pb = layout.point(a), layout.point(b)
        except (KeyError, ValueError, IndexError):
            continue
        draw.line((pa, pb), fill=WHITE, width=width + 4)
        draw.line((pa, pb), fill=INK, width=width)
        tip_a = _stop_short([pb, pa], layout.pawn_radius + 2)[-1]
        tip_b = _stop_short([pa, pb], layout.pawn_radius + 2)[-1]
        heads.append((tip_a, pb, layout.pawn_radius * 1.4, INK))
        heads.append((tip_b, pa, layout.pawn_radius * 1.4, INK))
    for seat in move.bring_out:
        if seat not in layout.kennels:
            continue
        kennel = layout.kennels[seat]
        kc = (sum(p[0] for p in kennel) / 4, sum(p[1] for p in kennel) / 4)
        start_point = layout.ring[layout.start_field(seat)]
        colour = shade(seat_colour(seat), 0.3)
        tip = _stop_short([kc, start_point], layout.pawn_radius + 2)[-1]
        draw.line((kc, tip), fill=WHITE, width=width + 4)
        draw.line((kc, tip), fill=colour, width=width)
        heads.append((tip, kc, layout.pawn_radius * 1.5, colour))
    return heads


def _draw_captures(draw: ImageDraw.ImageDraw, layout: RaceLayout, move: LastMove) -> None:
    """A bold cross beside each field where a pawn was captured, in the victim's colour."""
    for location, victim in move.captures:
        try:
            x, y = layout.point(location)
        except (KeyError, ValueError, IndexError):
            continue
        a = math.atan2(y - layout.centre[1], x - layout.centre[0])
        # Put the mark just outside the ring so it does not hide the pawn now on the field.
        d = layout.pawn_radius * 2.1
        mx, my = x + d * math.cos(a), y + d * math.sin(a)
        s = layout.pawn_radius * 0.75
        colour = seat_colour(victim) if victim is not None else CAPTURE
        _circle(draw, (mx, my), s + 5, fill=WHITE, outline=INK, width=2)
        draw.line((mx - s, my - s, mx + s, my + s), fill=INK, width=7)
        draw.line((mx - s, my + s, mx + s, my - s), fill=INK, width=7)
        draw.line((mx - s, my - s, mx + s, my + s), fill=colour, width=3)
        draw.line((mx - s, my + s, mx + s, my - s), fill=colour, width=3)


def _team_text(view: Mapping[str, Any], locale: str) -> str:
    teams = view.get("teams")
    if not teams:
        return t("img.ffa", locale)
    versus = f"  {t('img.vs', locale)}  "
    return t(
        "img.teams",
        locale,
        teams=versus.join("+".join(seat_letter(int(s)) for s in team) for team in teams),
    )


def _centre_lines(
    view: Mapping[str, Any], names: Sequence[str] | None, locale: str = "en"
) -> list[str]:
    seats = [int(s) for s in view.get("seats") or []]
    game = t(f"game.{view.get('game', '')}", locale)
    lines: list[str] = []
    if view.get("game") == "tock":
        number = view.get("hand_number", view.get("hand"))
        lines.append(
            t("img.tock_hand", locale, game=game, number=number)
            if isinstance(number, int)
            else game
        )
    else:
        lines.append(t("img.dog_round", locale, game=game, number=view.get("round", 1)))
    lines.append(_team_text(view, locale))
    phase = view.get("phase")
    winners = view.get("winners") or view.get("winner") or []
    if view.get("finished") or phase == "finished":
        who = " + ".join(seat_name(int(s), seats, names, locale) for s in winners)
        lines.append(t("img.winner", locale, names=who) if who else t("img.game_over", locale))
    elif phase == "exchange":
        done = [seat_letter(int(s)) for s in view.get("exchanged") or []]
        picked = ", ".join(done) if done else t("img.nobody_yet", locale)
        lines.append(t("img.exchange", locale, seats=picked))
    else:
        turn = view.get("turn")
        if turn is not None:
            who = seat_name(int(turn), seats, names, locale)
            lines.append(t("img.to_play", locale, name=who, letter=seat_letter(int(turn))))
        if view.get("banned") and turn is not None:
            lines.append(t("img.banned", locale, letter=seat_letter(int(turn))))
        seven = view.get("seven")
        if seven:
            lines.append(t("img.seven", locale, count=int(seven.get("left") or 0)))
    draw_count = view.get("draw")
    discard = view.get("discard") or []
    pile = t("img.draw_pile", locale, count=draw_count) if isinstance(draw_count, int) else ""
    top = t("img.discard_top", locale, card=discard[-1]) if discard else ""
    lines.append(" · ".join(part for part in (pile, top) if part))
    return [line for line in lines if line]


def _draw_centre(
    draw: ImageDraw.ImageDraw,
    layout: RaceLayout,
    view: Mapping[str, Any],
    names: Sequence[str] | None,
    move: LastMove,
    locale: str = "en",
) -> None:
    cx, cy = layout.centre
    inner = layout.radius - (2 * layout.pawn_radius + 4) * 4.6
    max_width = inner * 1.75
    size = round(layout.width * 0.026)
    small = round(size * 0.85)
    lines = [(line, size) for line in _centre_lines(view, names, locale)]
    lines[0] = (lines[0][0], round(size * 1.25))
    if move.text:
        lines.append(("", small))
        lines += [(line, small) for line in _wrap(move.text, small, max_width)[:4]]
    total = sum(s * 1.25 for _, s in lines)
    y = cy - total / 2 + lines[0][1] * 0.6
    for line, line_size in lines:
        if line:
            draw_centered_text(draw, (cx, y), fit_text(line, line_size, max_width), line_size, INK)
        y += line_size * 1.25


def _wrap(text: str, size: int, max_width: float) -> list[str]:
    words = clean_text(text).split()
    lines: list[str] = []
    current = ""
    for word in words:
        candidate = f"{current} {word}".strip()
        if current and font(size).getlength(candidate) > max_width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


def _draw_strip(
    draw: ImageDraw.ImageDraw,
    layout: RaceLayout,
    view: Mapping[str, Any],
    names: Sequence[str] | None,
    locale: str = "en",
) -> None:
    """One box per seat: letter, name, cards, dealer, turn, ban, fold, pick, partner."""
    seats = [int(s) for s in view.get("seats") or []]
    sizes = view.get("hand_sizes") or {}
    to_act = {int(s) for s in view.get("to_act") or []}
    folded = {int(s) for s in view.get("folded") or []}
    left = {int(s) for s in view.get("left") or []}
    exchanged = {int(s) for s in view.get("exchanged") or []}
    in_exchange = view.get("phase") == "exchange"
    dealer = view.get("dealer")
    turn = view.get("turn")
    partners: dict[int, int] = {}
    for team in view.get("teams") or []:
        for s in team:
            for other in team:
                if s != other:
                    partners[int(s)] = int(other)
    columns = layout.strip_columns
    cell_w = (layout.width - 16) / columns
    top = layout.board_height
    for i, seat in enumerate(seats):
        col, row = i % columns, i // columns
        x0 = 8 + col * cell_w
        y0 = top + row * STRIP_ROW_HEIGHT
        box = (x0 + 4, y0 + 4, x0 + cell_w - 4, y0 + STRIP_ROW_HEIGHT - 4)
        acting = seat in to_act
        draw.rounded_rectangle(
            box,
            radius=10,
            fill=tint(seat_colour(seat), 0.82) if acting else WHITE,
            outline=INK if acting else LIGHT_GREY,
            width=5 if acting else 2,
        )
        chip = (box[0] + 34, (box[1] + box[3]) / 2)
        _circle(draw, chip, 24, fill=seat_colour(seat), outline=INK, width=2)
        draw_centered_text(
            draw, (chip[0], chip[1] + 1), seat_letter(seat), 30, text_colour_on(seat_colour(seat))
        )
        text_x = box[0] + 68
        max_w = box[2] - text_x - 8
        name = seat_name(seat, seats, names, locale)
        draw.text((text_x, box[1] + 8), fit_text(name, 24, max_w), font=font(24), fill=INK)
        count = int(sizes.get(str(seat), sizes.get(seat, 0)))
        facts = [tn("img.cards", count, locale)]
        if seat == dealer:
            facts.append(t("img.dealer", locale))
        if seat in partners:
            facts.append(t("img.partner", locale, letter=seat_letter(partners[seat])))
        status = []
        if acting and not in_exchange:
            status.append(t("img.to_play_tag", locale))
        if view.get("banned") and seat == turn:
            status.append(t("img.banned_tag", locale))
        if seat in folded:
            status.append(t("img.folded", locale))
        if in_exchange:
            status.append(t("img.has_picked" if seat in exchanged else "img.still_picking", locale))
        if seat in left:
            status.append(t("img.left", locale))
        line = " · ".join(facts + status)
        draw.text((text_x, box[1] + 40), fit_text(line, 19, max_w), font=font(19), fill=INK)


def draw_race_board(
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    highlight: Sequence[str] | None = None,
    locale: str = "en",
) -> Image.Image:
    """The board image of a Tock or Dog view, its words in ``locale``."""
    layout = layout_for(view)
    image = _static_layer(layout).copy()
    draw = ImageDraw.Draw(image)
    move = last_move(
        view.get("events") or [],
        locale=locale,
        game=str(view.get("game") or "tock"),
        board=view.get("board"),
    )
    to_act = {int(s) for s in view.get("to_act") or []}
    for seat in layout.seats:
        label = layout.labels[seat]
        if seat in to_act:
            half = layout.pawn_radius * 1.05 + 8
            draw.rounded_rectangle(
                (label[0] - half, label[1] - half, label[0] + half, label[1] + half),
                radius=half * 0.35,
                outline=INK,
                width=5,
            )
        if seat == view.get("dealer"):
            a = layout.angle(layout.start_field(seat) + 0.5)
            chip = (
                label[0] - 1.9 * layout.pawn_radius * math.sin(a),
                label[1] + 1.9 * layout.pawn_radius * math.cos(a),
            )
            _circle(draw, chip, layout.pawn_radius * 0.7, fill=WHITE, outline=INK, width=2)
            draw_centered_text(
                draw, (chip[0], chip[1] + 1), "D", round(layout.pawn_radius * 0.9), INK
            )
        if seat in {int(s) for s in view.get("folded") or []}:
            draw.line(
                (label[0] - 20, label[1] + 20, label[0] + 20, label[1] - 20), fill=GREY, width=6
            )
    for tip, tail, size, colour in _draw_last_move(draw, layout, move, view):
        _arrow_head(draw, tip, tail, size, colour)
    for location, (seat, guarded) in pawn_slots(view).items():
        try:
            point = layout.point(location)
        except (KeyError, ValueError, IndexError):
            continue
        _draw_pawn(draw, layout, point, seat, guarded)
    _draw_captures(draw, layout, move)
    seven = view.get("seven") or {}
    for location in seven.get("moved") or ():
        # Pawns that already stepped in a 7 being split carry a small "7" badge.
        try:
            x, y = layout.point(str(location))
        except (KeyError, ValueError, IndexError):
            continue
        badge = (x + layout.pawn_radius * 0.8, y - layout.pawn_radius * 0.8)
        _circle(draw, badge, layout.pawn_radius * 0.5, fill=WHITE, outline=INK, width=2)
        draw_centered_text(
            draw, (badge[0], badge[1] + 1), "7", round(layout.pawn_radius * 0.7), INK
        )
    for location in highlight or ():
        try:
            point = layout.point(str(location))
        except (KeyError, ValueError, IndexError):
            continue
        _circle(draw, point, layout.pawn_radius + 9, outline=HIGHLIGHT, width=5)
    _draw_centre(draw, layout, view, names, move, locale)
    _draw_strip(draw, layout, view, names, locale)
    return image
