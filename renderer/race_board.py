"""Drawing the Tock / Dog board from a public race view (race-notation N-3 fields)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from i18n import t, tn
from i18n.events import card_name, colour_word
from i18n.message import list_words
from renderer.cards import mini_card
from renderer.race_events import LastMove, last_move, owner_of, walk_path
from renderer.race_layout import RaceLayout, layout_for, pawn_slots
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
    draw_seat_chip,
    draw_text,
    fit_text,
    fixed_palette,
    legible,
    seat_colour,
    seat_colour_name,
    seat_letter,
    shade,
    text_colour_on,
    text_width,
    tint,
    wrap_text,
)

RING_LINE: RGB = (205, 198, 185)
FIELD_FILL: RGB = (255, 253, 248)
FIELD_OUTLINE: RGB = (120, 114, 104)
CAPTURE: RGB = (20, 20, 20)
RING_BAND: RGB = (241, 236, 226)
#: The winner's star.
STAR: RGB = (240, 190, 30)


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
        WINNER_FILL,
        STAR,
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


def clear_race_layers() -> None:
    """Forget the cached empty boards."""
    _STATIC.clear()


def _static_layer(layout: RaceLayout) -> Image.Image:
    """The empty board (cached): ring, start fields, home lanes, kennels and the seat tags
    (their initials, which depend on the reader's language, are drawn per image:
    :func:`_draw_tag_initials`)."""
    cached = _STATIC.get(layout.key)
    if cached is None:
        if len(_STATIC) > 32:
            _STATIC.clear()
        cached = _STATIC[layout.key] = _draw_static_layer(layout)
    return cached


def _draw_tag_initials(draw: ImageDraw.ImageDraw, layout: RaceLayout, locale: str) -> None:
    """Each seat tag's initial in ``locale`` (Ge and Gr in German, P K S Z in Hungarian)."""
    for seat in layout.seats:
        label = layout.labels[seat]
        draw_centered_text(
            draw,
            (label[0], label[1] + 1),
            seat_letter(seat, locale=locale),
            legible(layout.pawn_radius * 1.3, layout.width),
            text_colour_on(seat_colour(seat)),
        )


def _draw_static_layer(layout: RaceLayout) -> Image.Image:
    image = Image.new("RGB", (layout.width, layout.width), PAPER)
    draw = ImageDraw.Draw(image)
    cx, cy = layout.centre
    r = layout.radius
    _circle(draw, layout.centre, r + layout.pawn_radius + 6, fill=RING_BAND)
    _circle(draw, layout.centre, r - layout.pawn_radius - 6, fill=PAPER)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=RING_LINE, width=3)
    for seat in layout.seats:
        # The home lane forks off the ring at the branch field and runs inwards beside it,
        # drawn under the ring so the branch field stays a plain ring field.
        colour = seat_colour(seat)
        branch = layout.ring[layout.branch_field(seat)]
        home = layout.homes[seat]
        width = round(layout.pawn_radius * 1.2)
        draw.line((branch, *home), fill=tint(colour, 0.65), width=width, joint="curve")
        draw.line((branch, home[0]), fill=colour, width=max(3, width // 4))
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
        for slot in layout.homes[seat]:
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
    return image


def _draw_pawn(
    draw: ImageDraw.ImageDraw,
    layout: RaceLayout,
    point: tuple[float, float],
    seat: int,
    guarded: bool,
    locale: str,
) -> None:
    pr = layout.pawn_radius
    colour = seat_colour(seat)
    if guarded:
        _guard_ring(draw, point, pr)
    _circle(draw, point, pr, fill=colour, outline=INK, width=2)
    draw_centered_text(
        draw,
        (point[0], point[1] + 1),
        seat_letter(seat, locale=locale),
        legible(pr * 1.25, layout.width),
        text_colour_on(colour),
    )


def _guard_ring(draw: ImageDraw.ImageDraw, point: tuple[float, float], pr: float) -> None:
    """The mark of a guarded pawn (protected in Tock, blocking in Dog): a thick black ring
    with a white gap, readable without colour; the legend under the board explains it."""
    _circle(draw, point, pr + 6, fill=INK)
    _circle(draw, point, pr + 3, fill=WHITE)


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
    draw: ImageDraw.ImageDraw,
    layout: RaceLayout,
    move: LastMove,
    view: Mapping[str, Any],
    *,
    faint: bool = False,
) -> list[ArrowHead]:
    """Draw the paths of the last action, under the pawns (``faint``: an earlier move of a
    turn digest, thinner and paler than the newest).

    The arrow heads stop at the edge of the pawn that now stands at the end of a path, so
    they show beside it; returns them so they are drawn after every path line.
    """
    heads: list[ArrowHead] = []
    pawns = view.get("pawns") or {}
    width = max(4, round(layout.pawn_radius * 0.35))
    if faint:
        width = max(3, round(width * 0.6))

    def paint(seat: int) -> RGB:
        return tint(seat_colour(seat), 0.55) if faint else shade(seat_colour(seat), 0.3)

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
        colour = paint(colour_seat) if colour_seat is not None else INK
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
        ink = GREY if faint else INK
        draw.line((pa, pb), fill=WHITE, width=width + 4)
        draw.line((pa, pb), fill=ink, width=width)
        tip_a = _stop_short([pb, pa], layout.pawn_radius + 2)[-1]
        tip_b = _stop_short([pa, pb], layout.pawn_radius + 2)[-1]
        heads.append((tip_a, pb, layout.pawn_radius * 1.4, ink))
        heads.append((tip_b, pa, layout.pawn_radius * 1.4, ink))
    for seat in move.bring_out:
        if seat not in layout.kennels:
            continue
        kennel = layout.kennels[seat]
        kc = (sum(p[0] for p in kennel) / 4, sum(p[1] for p in kennel) / 4)
        start_point = layout.ring[layout.start_field(seat)]
        colour = paint(seat)
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


def _centre_lines(
    view: Mapping[str, Any], names: Sequence[str] | None, locale: str = "en"
) -> tuple[str, list[str], list[str]]:
    """(title, status lines, the parts of the pile line) of the centre of the board."""
    seats = [int(s) for s in view.get("seats") or []]
    game = t(f"game.{view.get('game', '')}", locale)
    if view.get("game") == "tock":
        number = view.get("hand_number", view.get("hand"))
        deal, cycle = view.get("deal"), view.get("cycle_hands")
        if isinstance(number, int) and isinstance(deal, int) and isinstance(cycle, int):
            # The deals of the whole game; the hand restarts with every deck (#36).
            title = t("img.tock_deal", locale, deal=deal, number=number, cycle=cycle)
        elif isinstance(number, int):
            title = t("img.tock_hand", locale, game=game, number=number)
        else:
            title = game
    else:
        title = t("img.dog_round", locale, game=game, number=view.get("round", 1))
    lines: list[str] = []
    phase = view.get("phase")
    winners = _winners(view)
    if view.get("finished") or phase == "finished":
        who = list_words([seat_name(s, seats, names, locale) for s in winners], locale)
        winner = t("img.winner", locale, names=who, count=len(winners))
        lines.append(winner if who else t("img.game_over", locale))
    elif phase == "exchange":
        # The colours by name: the reader's words, not the board's initials.
        done = [colour_word(int(s), locale) for s in view.get("exchanged") or []]
        picked = list_words(done, locale) if done else t("img.nobody_yet", locale)
        lines.append(t("img.exchange", locale, seats=picked))
    else:
        turn = view.get("turn")
        if turn is not None:
            who = seat_name(int(turn), seats, names, locale)
            # The seat tag's initial in the reader's language ("anna (Gr)").
            letter = seat_letter(int(turn), locale=locale)
            lines.append(t("img.to_play", locale, name=who, letter=letter))
        if view.get("banned") and turn is not None:
            lines.append(t("img.banned", locale, colour=colour_word(int(turn), locale)))
        seven = view.get("seven")
        if seven:
            lines.append(t("img.seven", locale, count=int(seven.get("left") or 0)))
    draw_count = view.get("draw")
    discard = view.get("discard") or []
    pile = t("img.draw_pile", locale, count=draw_count) if isinstance(draw_count, int) else ""
    # The card by its name in the reader's words (a German queen is no "Q").
    top = t("img.discard_top", locale, card=card_name(str(discard[-1]), locale)) if discard else ""
    return title, lines, [part for part in (pile, top) if part]


def _winners(view: Mapping[str, Any]) -> list[int]:
    winners = view.get("winners") or view.get("winner") or []
    if isinstance(winners, int):
        winners = [winners]
    return [int(s) for s in winners]


def _chip(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    seat: int,
    r: float,
    size: int,
    locale: str,
) -> None:
    """A seat's colour disc with its initial in ``locale``."""
    draw_seat_chip(draw, centre, r, seat_colour(seat), seat_letter(seat, locale=locale), size)


def _draw_teams(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    teams: Sequence[Sequence[int]],
    size: int,
    locale: str,
) -> None:
    """The teams as rows of touching colour chips, "vs" between them: partners at a glance."""
    r = size * 0.72
    versus = t("img.vs", locale)
    gap = text_width(versus, size) + size
    width = sum(len(team) * 2 * r for team in teams) + gap * (len(teams) - 1)
    x = centre[0] - width / 2
    for index, team in enumerate(teams):
        if index:
            draw_centered_text(draw, (x + gap / 2, centre[1]), versus, size, INK)
            x += gap
        left = x
        for seat in team:
            _chip(draw, (x + r, centre[1]), int(seat), r, size, locale)
            x += 2 * r
        draw.rounded_rectangle(
            (left - 3, centre[1] - r - 3, x + 3, centre[1] + r + 3), radius=r, outline=INK, width=2
        )


def _draw_centre(
    draw: ImageDraw.ImageDraw,
    layout: RaceLayout,
    view: Mapping[str, Any],
    names: Sequence[str] | None,
    locale: str = "en",
) -> None:
    """Title, teams, whose turn (or the winner), draw pile: every line whole, wrapped."""
    cx, cy = layout.centre
    inner = layout.radius - (2 * layout.pawn_radius + 4) * 4.8
    max_width = inner * 1.7
    size = legible(layout.width * 0.026, layout.width)
    title_size = round(size * 1.25)
    title, status, pile = _centre_lines(view, names, locale)
    rows: list[tuple[str, int]] = [
        (line, title_size) for line in wrap_text(title, title_size, max_width)
    ]
    teams = view.get("teams")
    rows.append(("" if teams else t("img.ffa", locale), size))
    joined = " · ".join(pile)
    # The pile and the discard on one line when they fit, else one line each.
    piles = [joined] if text_width(joined, size) <= max_width else pile
    for line in (*status, *piles):
        rows += [(part, size) for part in wrap_text(line, size, max_width)]
    heights = [round(s * (1.9 if not text else 1.3)) for text, s in rows]
    y = cy - sum(heights) / 2
    for (text, line_size), height in zip(rows, heights, strict=True):
        middle = y + height / 2
        if text:
            draw_centered_text(draw, (cx, middle), text, line_size, INK)
        elif teams:
            _draw_teams(draw, (cx, middle), teams, size, locale)
        y += height


Painter = Callable[[Image.Image, int], None]


def _caption(layout: RaceLayout, move: LastMove, game: str, locale: str) -> tuple[int, Painter]:
    """The last action in words, the card that was played beside it and, tucked on the
    card's corner, the chip of the seat that played it: (height, painter)."""
    if not move.text and not move.card:
        return 0, lambda image, top: None
    size = legible(layout.width * 0.026, layout.width)
    card_height = round(size * 3.6)
    x = 20 + (round(card_height * 0.7) + 30 if move.card else 0)
    lines = wrap_text(move.text, size, layout.width - x - 20)
    text_height = round(len(lines) * size * 1.3)
    height = max(card_height if move.card else 0, text_height) + 20

    def paint(image: Image.Image, top: int) -> None:
        draw = ImageDraw.Draw(image)
        if move.card:
            face = mini_card(game, move.card, card_height, locale)
            image.paste(face, (20, top + 10))
            if move.seat is not None:
                r = size * 0.75
                corner = (20 + face.width, top + 10 + face.height - r * 0.6)
                _chip(draw, corner, move.seat, r, size, locale)
        y = top + 10 + (height - 20 - text_height) / 2
        for line in lines:
            draw_text(draw, (x, y), line, size, INK)
            y += size * 1.3

    return height, paint


def _legend(layout: RaceLayout, game: str, locale: str) -> tuple[int, Painter]:
    """What the guard ring means, beside a sample guarded pawn: (height, painter)."""
    size = legible(layout.width * 0.024, layout.width)
    pr = layout.pawn_radius
    x = 20 + pr + 6
    lines = wrap_text(t(f"img.legend.guard.{game}", locale), size, layout.width - x - pr - 40)
    height = round(max(2 * pr + 16, len(lines) * size * 1.3)) + 12

    def paint(image: Image.Image, top: int) -> None:
        draw = ImageDraw.Draw(image)
        middle = top + height / 2
        _guard_ring(draw, (x, middle), pr)
        _circle(draw, (x, middle), pr, fill=LIGHT_GREY, outline=INK, width=2)
        y = middle - len(lines) * size * 1.3 / 2
        for line in lines:
            draw_text(draw, (x + pr + 18, y), line, size, INK)
            y += size * 1.3

    return height, paint


def _strip_rows(
    view: Mapping[str, Any], names: Sequence[str] | None, locale: str
) -> list[tuple[int, str, list[str]]]:
    """(seat, name, facts) of every seat panel: cards, dealer, partner, turn, ban, fold…"""
    seats = [int(s) for s in view.get("seats") or []]
    sizes = view.get("hand_sizes") or {}
    to_act = {int(s) for s in view.get("to_act") or []}
    folded = {int(s) for s in view.get("folded") or []}
    left = {int(s) for s in view.get("left") or []}
    exchanged = {int(s) for s in view.get("exchanged") or []}
    in_exchange = view.get("phase") == "exchange"
    finished = bool(view.get("finished")) or view.get("phase") == "finished"
    winners = set(_winners(view))
    turn = view.get("turn")
    partners = _partners(view)
    rows = []
    for seat in seats:
        count = int(sizes.get(str(seat), sizes.get(seat, 0)))
        facts = []
        if finished and seat in winners:
            facts.append(t("img.race.winner", locale))
        facts.append(tn("img.cards", count, locale))
        if seat == view.get("dealer"):
            facts.append(t("img.dealer", locale))
        for partner in partners.get(seat, ()):
            # The colour's name: an English initial reads as another colour in German.
            facts.append(t("img.partner", locale, letter=colour_word(partner, locale)))
        if seat in to_act and not in_exchange and not finished:
            facts.append(t("img.to_play_tag", locale))
        if view.get("banned") and seat == turn:
            facts.append(t("img.banned_tag", locale))
        if seat in folded:
            facts.append(t("img.folded", locale))
        if in_exchange:
            facts.append(t("img.has_picked" if seat in exchanged else "img.still_picking", locale))
        if seat in left:
            facts.append(t("img.left", locale))
        rows.append((seat, seat_name(seat, seats, names, locale), [" · ".join(facts)]))
    return rows


def _partners(view: Mapping[str, Any]) -> dict[int, list[int]]:
    partners: dict[int, list[int]] = {}
    for team in view.get("teams") or []:
        for seat in team:
            partners[int(seat)] = [int(other) for other in team if other != seat]
    return partners


class _Strip:
    """The seat panels under the board: two per row, every line wrapped, none cut."""

    def __init__(
        self,
        layout: RaceLayout,
        view: Mapping[str, Any],
        names: Sequence[str] | None,
        locale: str,
    ) -> None:
        self.view = view
        self.locale = locale
        self.columns = 2 if len(view.get("seats") or []) > 1 else 1
        self.cell_width = (layout.width - 16) / self.columns
        self.size = legible(layout.width * 0.023, layout.width)
        self.name_size = round(self.size * 1.2)
        self.chip_r = self.name_size * 0.95
        self.text_x = 14 + 2 * self.chip_r + 14
        text_width_max = self.cell_width - 8 - self.text_x - 14
        self.rows = []
        for seat, name, facts in _strip_rows(view, names, locale):
            lines = [line for fact in facts for line in wrap_text(fact, self.size, text_width_max)]
            self.rows.append((seat, fit_text(name, self.name_size, text_width_max), lines))
        most = max((len(lines) for _, _, lines in self.rows), default=1)
        self.row_height = round(
            max(2 * self.chip_r + 20, self.name_size * 1.3 + most * self.size * 1.3 + 22)
        )

    @property
    def height(self) -> int:
        """Height of all panels."""
        return math.ceil(len(self.rows) / self.columns) * self.row_height + 12

    def draw(self, draw: ImageDraw.ImageDraw, top: int) -> None:
        """Draw the panels from ``top`` down."""
        to_act = {int(s) for s in self.view.get("to_act") or []}
        finished = bool(self.view.get("finished")) or self.view.get("phase") == "finished"
        winners = set(_winners(self.view))
        partners = _partners(self.view)
        for i, (seat, name, lines) in enumerate(self.rows):
            col, row = i % self.columns, i // self.columns
            x0 = 8 + col * self.cell_width
            y0 = top + row * self.row_height
            box = (x0 + 4, y0 + 4, x0 + self.cell_width - 4, y0 + self.row_height - 4)
            won = finished and seat in winners
            acting = seat in to_act and not finished
            draw_seat_box(draw, box, seat_colour(seat), acting=acting, won=won)
            chip = (box[0] + 10 + self.chip_r, (box[1] + box[3]) / 2)
            _chip(draw, chip, seat, self.chip_r, round(self.name_size * 1.15), self.locale)
            for k, partner in enumerate(partners.get(seat, ())):
                # The partner's colour tucked under the chip: teams show without reading.
                small = self.chip_r * 0.45
                spot = (chip[0] + self.chip_r * 0.8 - k * small * 1.4, chip[1] + self.chip_r * 0.8)
                _circle(draw, spot, small, fill=seat_colour(partner), outline=INK, width=2)
            if won:
                _star(draw, (box[2] - 30, box[1] + 28), 20)
            x = box[0] + self.text_x
            y: float = box[1] + 9
            draw_text(draw, (x, y), name, self.name_size, INK)
            y += self.name_size * 1.3
            for line in lines:
                draw_text(draw, (x, y), line, self.size, INK)
                y += self.size * 1.3


def _star(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    """A five-pointed star: the winner's mark, a shape as well as a colour."""
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        points.append((centre[0] + radius * math.cos(a), centre[1] + radius * math.sin(a)))
    draw.polygon(points, fill=STAR, outline=INK, width=2)


def draw_race_board(
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    highlight: Sequence[str] | None = None,
    locale: str = "en",
) -> Image.Image:
    """The board image of a Tock or Dog view, its words in ``locale``.

    From the top: the board (the last move's paths and captures, the pawns, the centre
    text), the last action in words beside the card played, the guard-ring legend when a
    pawn is guarded, and one panel per seat with the players' names.
    """
    layout = layout_for(view)
    game = str(view.get("game") or "tock")
    seats = [int(s) for s in view.get("seats") or []]
    by_seat = {seat: seat_name(seat, seats, names, locale) for seat in seats} if names else None
    move = last_move(
        view.get("events") or [], locale=locale, game=game, names=by_seat, board=view.get("board")
    )
    slots = pawn_slots(view)
    strip = _Strip(layout, view, names, locale)
    caption, paint_caption = _caption(layout, move, game, locale)
    guarded = any(g for _, g in slots.values())
    legend, paint_legend = _legend(layout, game, locale) if guarded else (0, None)
    height = layout.width + caption + legend + strip.height
    image = Image.new("RGB", (layout.width, height), PAPER)
    image.paste(_static_layer(layout), (0, 0))
    paint_caption(image, layout.width)
    if paint_legend is not None:
        paint_legend(image, layout.width + caption)
    draw = ImageDraw.Draw(image)
    _draw_tag_initials(draw, layout, locale)
    _draw_marks(draw, layout, view)
    # A turn digest draws every move since the previous post, numbered, the newest strongest.
    moves = recent_moves(view, locale, game, by_seat) or [move]
    arrows = [
        _draw_last_move(draw, layout, each, view, faint=number < len(moves))
        for number, each in enumerate(moves, 1)
    ]
    for heads in arrows:
        for tip, tail, size, colour in heads:
            _arrow_head(draw, tip, tail, size, colour)
    for location, (seat, is_guarded) in slots.items():
        try:
            point = layout.point(location)
        except (KeyError, ValueError, IndexError):
            continue
        _draw_pawn(draw, layout, point, seat, is_guarded, locale)
    for each in moves:
        _draw_captures(draw, layout, each)
    if len(moves) > 1:
        _draw_move_numbers(draw, layout, arrows)
    _draw_badges(draw, layout, view, highlight)
    _draw_centre(draw, layout, view, names, locale)
    strip.draw(draw, layout.width + caption + legend)
    return image


def recent_moves(
    view: Mapping[str, Any], locale: str, game: str, names: Mapping[int, str] | None
) -> list[LastMove]:
    """The moves of a turn digest (``view["recent"]``: each move's events, oldest first)."""
    return [
        last_move(events, locale=locale, game=game, names=names, board=view.get("board"))
        for events in view.get("recent") or []
    ]


def _draw_move_numbers(
    draw: ImageDraw.ImageDraw, layout: RaceLayout, arrows: Sequence[Sequence[ArrowHead]]
) -> None:
    """Each move's order number on its arrow, halfway back from the head; the newest ringed
    thicker."""
    size = legible(layout.pawn_radius * 0.85, layout.width)
    r = max(layout.pawn_radius * 0.6, size * 0.66)
    placed: list[tuple[float, float]] = []
    for number, heads in enumerate(arrows, 1):
        if not heads:
            continue
        (tx, ty), (fx, fy), _size, colour = heads[0]
        # Just behind the head (halfway back on a short arrow); moved towards the board's
        # centre while it would cover the number of another move (two moves ending on one
        # field).
        length = math.hypot(tx - fx, ty - fy) or 1.0
        back = min(length / 2, 3 * r) / length
        x, y = tx + (fx - tx) * back, ty + (fy - ty) * back
        a = math.atan2(y - layout.centre[1], x - layout.centre[0])
        for step in range(6):
            centre = (x - step * 2.3 * r * math.cos(a), y - step * 2.3 * r * math.sin(a))
            if all(math.hypot(centre[0] - px, centre[1] - py) > 2.2 * r for px, py in placed):
                break
        placed.append(centre)
        newest = number == len(arrows)
        _circle(
            draw, centre, r, fill=WHITE, outline=INK if newest else colour, width=3 if newest else 2
        )
        draw_centered_text(draw, (centre[0], centre[1] + 1), str(number), size, INK)


def _dealer_cards(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    """Two fanned cards in the dealer's chip: a picture, where a letter would be one
    language's word (D for dealer; Geber and osztó begin otherwise)."""
    x, y = centre
    w, h = r * 0.7, r * 1.0
    for dx, dy, fill in ((-0.2, -0.12, LIGHT_GREY), (0.2, 0.12, WHITE)):
        cx, cy = x + dx * r, y + dy * r
        draw.rounded_rectangle(
            (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2),
            radius=max(1, r * 0.12),
            fill=fill,
            outline=INK,
            width=2,
        )


def _draw_marks(draw: ImageDraw.ImageDraw, layout: RaceLayout, view: Mapping[str, Any]) -> None:
    """Around the seat tags: whose turn it is, the dealer's chip, a folded seat's stroke."""
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
            size = legible(layout.pawn_radius * 0.9, layout.width)
            r = max(layout.pawn_radius * 0.7, size * 0.62)
            chip = (
                label[0] - (layout.pawn_radius + r + 6) * math.sin(a),
                label[1] + (layout.pawn_radius + r + 6) * math.cos(a),
            )
            _circle(draw, chip, r, fill=WHITE, outline=INK, width=2)
            _dealer_cards(draw, chip, r)
        if seat in {int(s) for s in view.get("folded") or []}:
            draw.line(
                (label[0] - 20, label[1] + 20, label[0] + 20, label[1] - 20), fill=GREY, width=6
            )


def _draw_badges(
    draw: ImageDraw.ImageDraw,
    layout: RaceLayout,
    view: Mapping[str, Any],
    highlight: Sequence[str] | None,
) -> None:
    """The "7" badge of pawns already moved in a 7 being split, and the highlight rings."""
    seven = view.get("seven") or {}
    for location in seven.get("moved") or ():
        try:
            x, y = layout.point(str(location))
        except (KeyError, ValueError, IndexError):
            continue
        size = legible(layout.pawn_radius * 0.7, layout.width)
        r = max(layout.pawn_radius * 0.5, size * 0.62)
        badge = (x + layout.pawn_radius * 0.8, y - layout.pawn_radius * 0.8)
        _circle(draw, badge, r, fill=WHITE, outline=INK, width=2)
        draw_centered_text(draw, (badge[0], badge[1] + 1), "7", size, INK)
    for location in highlight or ():
        try:
            point = layout.point(str(location))
        except (KeyError, ValueError, IndexError):
            continue
        _circle(draw, point, layout.pawn_radius + 9, outline=HIGHLIGHT, width=5)
