"""Where each choice of a card lands: the race board from the player's seat, every option
numbered like its button.

On top of the ordinary board (:func:`renderer.race_board.draw_race_board`, drawn without the
last move's arrows so that only the choices show): each pawn that one of the options moves
is ringed in magenta, each option's number sits in a badge on the field where it lands, a
pawn that the option would capture is crossed (a 7 captures every pawn it passes, C-8.3) and
a swap partner gets a dashed ring. A split 7 that moves two pawns carries its number at both
landing fields. A line in words under the board says what the marks mean. Each number is
drawn once at each field where its option lands, and nowhere else on the image (a pawn
already moved in a pending 7 is ticked, not marked "7"), so "3" on a button is the "3" on
the board.

The options are move texts in race notation (race-notation N-5), exactly as the engine lists
them; an option that lands nowhere (a Jack that changes nothing, a discard) gets no badge.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from i18n import normalise_locale, t
from i18n.catalog import game_terms
from renderer.race_board import draw_race_board, race_palette
from renderer.race_events import walk_path
from renderer.race_layout import RaceLayout, layout_for, pawn_slots
from renderer.style import (
    HIGHLIGHT,
    INK,
    PAPER,
    WHITE,
    draw_centered_text,
    encode_png,
    font,
    legible,
    wrap_text,
)

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class ChoiceMark:
    """What the board shows of one option (``number`` as on its button, from 1)."""

    number: int
    #: Locations of the pawns the option moves (a kennel pawn as ``kS.n``).
    pawns: tuple[str, ...]
    #: Where the option's number goes: where its (longest) walk ends; None: nowhere.
    landing: str | None
    #: (from, to) of every walk, for the faint path lines.
    walks: tuple[tuple[str, str], ...]
    #: A pawn the option swaps with (Jack), or None.
    partner: str | None
    #: Pawns the option captures by landing on them.
    captures: tuple[str, ...]
    #: The card that moves (direction of a 4).
    card: str
    #: Where the other walks of a split 7 end: its number goes there too.
    also: tuple[str, ...] = ()

    @property
    def landings(self) -> tuple[str, ...]:
        """Every field where the option's number goes, ``landing`` first."""
        return ((self.landing,) if self.landing is not None else ()) + self.also


def _card_and_action(move: str) -> tuple[str, str] | None:
    card, sep, action = move.partition(":")
    if not sep:
        # A step of a pending 7 is a bare walk (``r5-r9``).
        return ("7", move) if "-" in move else None
    if card in ("G", "F"):
        return None
    if card.startswith("X="):
        card = card[2:]
    return card, action


def _occupied(view: Mapping[str, Any]) -> dict[str, int]:
    """{location: seat} of every pawn outside the kennels."""
    return {loc: seat for loc, (seat, _) in pawn_slots(view).items() if not loc.startswith("k")}


def choice_marks(view: Mapping[str, Any], moves: Sequence[str]) -> list[ChoiceMark]:
    """The marks of each option of ``moves`` (numbered from 1 in that order)."""
    layout = layout_for(view)
    occupied = _occupied(view)
    slots = pawn_slots(view)
    viewer = view.get("viewer")
    seven = view.get("seven") or {}
    mover = int(seven.get("colour", viewer if viewer is not None else 0) or 0)
    marks: list[ChoiceMark] = []
    captured: tuple[str, ...]
    for number, move in enumerate(moves, start=1):
        parsed = _card_and_action(move)
        if parsed is None:
            marks.append(ChoiceMark(number, (), None, (), None, (), ""))
            continue
        card, action = parsed
        if action in ("D", "N") or not action:
            marks.append(ChoiceMark(number, (), None, (), None, (), card))
            continue
        if action.startswith("E"):
            seat = int(action[1:]) if len(action) > 1 else mover
            start = f"r{layout.start_field(seat)}"
            kennel = next((loc for loc in sorted(slots) if loc.startswith(f"k{seat}.")), None)
            captured = (start,) if start in occupied else ()
            marks.append(
                ChoiceMark(
                    number,
                    (kennel,) if kennel else (),
                    start,
                    ((kennel, start),) if kennel else (),
                    None,
                    captured,
                    card,
                )
            )
            continue
        if "<>" in action:
            a, _, b = action.partition("<>")
            own, other = (a, b) if occupied.get(a) == mover or occupied.get(b) != mover else (b, a)
            marks.append(ChoiceMark(number, (own,), other, (), other, (), card))
            continue
        walks = tuple(
            (start, end)
            for walk in action.split(",")
            for start, _, end in [walk.partition("-")]
            if end
        )
        if not walks:
            marks.append(ChoiceMark(number, (), None, (), None, (), card))
            continue

        # The number goes where the longest walk ends (the last of equals): the pawn that
        # goes furthest is the one a player looks for; a split 7's other walks get it too.
        longest = max(reversed(walks), key=lambda w, c=card: _walk_length(layout, w, occupied, c))
        if card == "7":
            captured = _burned(layout, walks, occupied)
        else:
            movers = {start for start, _ in walks}
            captured = tuple(
                end for _, end in walks if end in occupied and end not in movers and end != ""
            )
        others = tuple(end for _, end in walks if end != longest[1])
        marks.append(
            ChoiceMark(
                number,
                tuple(s for s, _ in walks),
                longest[1],
                walks,
                None,
                captured,
                card,
                tuple(dict.fromkeys(others)),
            )
        )
    return marks


def _burned(
    layout: RaceLayout, walks: Sequence[tuple[str, str]], occupied: Mapping[str, int]
) -> tuple[str, ...]:
    """Where the walks of a 7, made in order, capture: every ring field a step enters that
    holds a pawn, passed or landed on, of any colour (C-8.3, Dog's "burning")."""
    board = dict(occupied)
    captured: list[str] = []
    for start, end in walks:
        seat = board.pop(start, None)
        try:
            path = walk_path(layout, start, end, seat, "7")
        except (KeyError, ValueError, IndexError):
            path = [start, end]
        for location in path[1:]:
            if location.startswith("r") and location in board:
                del board[location]
                captured.append(location)
        if seat is not None:
            board[end] = seat
    return tuple(dict.fromkeys(captured))


def _walk_length(
    layout: RaceLayout, walk: tuple[str, str], occupied: Mapping[str, int], card: str
) -> int:
    try:
        return len(walk_path(layout, walk[0], walk[1], occupied.get(walk[0]), card))
    except (KeyError, ValueError, IndexError):
        return 0


def _badge_radius(layout: RaceLayout) -> tuple[float, int]:
    size = legible(layout.pawn_radius * 1.05, layout.width)
    return max(layout.pawn_radius * 0.95, size * 0.72), size


def badge_centres(view: Mapping[str, Any], moves: Sequence[str]) -> dict[int, Point]:
    """{option number: centre of its badge at its main landing} in the choice image (options
    landing nowhere are left out); every badge, a split 7's second one too, is in
    :func:`badge_spots`."""
    marks = choice_marks(view, moves)
    return {
        number: centre
        for number, landing, centre in badge_spots(view, moves)
        if landing == marks[number - 1].landing
    }


def badge_spots(view: Mapping[str, Any], moves: Sequence[str]) -> list[tuple[int, str, Point]]:
    """(option number, landing field, centre of the badge) of every badge in the choice
    image: one per field where an option lands. Several options landing on one field share
    it: the first on the field (if it is empty), the others around it."""
    layout = layout_for(view)
    occupied = _occupied(view)
    r, _ = _badge_radius(layout)
    by_landing: dict[str, list[int]] = {}
    for mark in choice_marks(view, moves):
        for landing in mark.landings:
            by_landing.setdefault(landing, []).append(mark.number)
    centres: list[tuple[int, str, Point]] = []
    for landing, numbers in by_landing.items():
        try:
            x, y = layout.point(landing)
        except (KeyError, ValueError, IndexError):
            continue
        outward = math.atan2(y - layout.centre[1], x - layout.centre[0])
        if landing.startswith("h"):
            outward += math.pi / 2  # beside the home lane, not along it
        first_free = 0 if landing not in occupied else 1
        for k, number in enumerate(numbers):
            slot = k + first_free
            if slot == 0:
                centres.append((number, landing, (x, y)))
                continue
            # Around the field: outwards first, then alternately either side of it.
            ring = (slot - 1) // 5
            turn = ((slot - 1) % 5 + 1) // 2 * (1 if (slot - 1) % 2 else -1)
            a = outward + turn * 0.85
            d = 2.05 * r * (1 + ring)
            cx = min(max(x + d * math.cos(a), r + 2), layout.width - r - 2)
            cy = min(max(y + d * math.sin(a), r + 2), layout.width - r - 2)
            centres.append((number, landing, (cx, cy)))
    return centres


def _dashed_circle(draw: ImageDraw.ImageDraw, centre: Point, r: float, width: int) -> None:
    for k in range(12):
        start = k * 30
        draw.arc(
            (centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r),
            start,
            start + 18,
            fill=INK,
            width=width,
        )


def draw_race_choices(
    view: Mapping[str, Any],
    moves: Sequence[str],
    names: Sequence[str] | None = None,
    locale: str = "en",
) -> Image.Image:
    """The board from ``view``'s seat with every option of ``moves`` marked (see the module)."""
    quiet = dict(view)
    quiet["events"] = []  # the last move's arrows would read as choices
    seven = view.get("seven") or {}
    moved = [str(loc) for loc in seven.get("moved") or ()]
    if moved:
        # The board badges them "7": a number that is an option's here. Ticked below.
        quiet["seven"] = {**seven, "moved": []}
    board = draw_race_board(quiet, names, [], locale)
    layout = layout_for(view)
    marks = choice_marks(view, moves)
    draw = ImageDraw.Draw(board)
    line = max(3, round(layout.pawn_radius * 0.18))
    for mark in marks:
        for start, end in mark.walks:
            try:
                path = walk_path(layout, start, end, _occupied(view).get(start), mark.card)
                points = [layout.point(loc) for loc in path]
            except (KeyError, ValueError, IndexError):
                continue
            if len(points) >= 2:
                draw.line(points, fill=HIGHLIGHT, width=line, joint="curve")
        if mark.partner is not None and mark.pawns:
            with contextlib.suppress(KeyError, ValueError, IndexError):
                # A straight, thin line: which own pawn each partner swaps with.
                ends = (layout.point(mark.pawns[0]), layout.point(mark.partner))
                draw.line(ends, fill=HIGHLIGHT, width=max(2, line - 2))
    ring_r = layout.pawn_radius + 7
    for location in dict.fromkeys(p for mark in marks for p in mark.pawns):
        try:
            x, y = layout.point(location)
        except (KeyError, ValueError, IndexError):
            continue
        draw.ellipse((x - ring_r, y - ring_r, x + ring_r, y + ring_r), outline=HIGHLIGHT, width=5)
    for location in dict.fromkeys(m.partner for m in marks if m.partner):
        _dashed_circle(draw, layout.point(location), ring_r, 4)
    for location in dict.fromkeys(c for mark in marks for c in mark.captures):
        x, y = layout.point(location)
        s = layout.pawn_radius * 0.8
        draw.line((x - s, y - s, x + s, y + s), fill=WHITE, width=9)
        draw.line((x - s, y + s, x + s, y - s), fill=WHITE, width=9)
        draw.line((x - s, y - s, x + s, y + s), fill=INK, width=5)
        draw.line((x - s, y + s, x + s, y - s), fill=INK, width=5)
    for location in moved:
        with contextlib.suppress(KeyError, ValueError, IndexError):
            _tick(draw, layout, layout.point(location))
    r, size = _badge_radius(layout)
    for number, _landing, (x, y) in badge_spots(view, moves):
        draw.ellipse((x - r, y - r, x + r, y + r), fill=WHITE, outline=HIGHLIGHT, width=4)
        text = str(number)
        fitted = size if len(text) < 2 else max(legible(size * 0.8, layout.width), 1)
        draw_centered_text(draw, (x, y + 1), text, fitted, INK)
    with game_terms(str(view.get("game") or "tock")):
        legend = t("img.choices.legend", locale)
        if moved:
            legend += " " + t("img.choices.legend_moved", locale)
    return _with_legend(board, layout, legend)


def _tick(draw: ImageDraw.ImageDraw, layout: RaceLayout, point: Point) -> None:
    """The mark of a pawn already moved in the pending 7: a tick on a white badge at its
    top right, where the board's own "7" badge would be."""
    size = legible(layout.pawn_radius * 0.8, layout.width)
    r = max(layout.pawn_radius * 0.5, size * 0.62)
    x, y = point[0] + layout.pawn_radius * 0.8, point[1] - layout.pawn_radius * 0.8
    draw.ellipse((x - r, y - r, x + r, y + r), fill=WHITE, outline=INK, width=2)
    draw_centered_text(draw, (x, y + 1), "\u2713", size, INK)


def _with_legend(board: Image.Image, layout: RaceLayout, legend: str) -> Image.Image:
    """``board`` with the meaning of the marks (``legend``) in words at its foot."""
    size = legible(layout.width * 0.024, layout.width)
    lines = wrap_text(legend, size, board.width - 40)
    height = round(len(lines) * size * 1.3) + 24
    image = Image.new("RGB", (board.width, board.height + height), PAPER)
    image.paste(board, (0, 0))
    draw = ImageDraw.Draw(image)
    y = board.height + 12
    for text in lines:
        draw.text((20, y), text, font=font(size), fill=INK)
        y += size * 1.3
    return image


def render_race_choices(
    view: Mapping[str, Any],
    moves: Sequence[str],
    *,
    names: Sequence[str] | None = None,
    locale: object = None,
) -> bytes:
    """PNG of :func:`draw_race_choices` (pure; takes turns with the renderer's other
    functions, like them)."""
    from renderer import _LOCK  # the package's drawing lock (shared caches)

    with _LOCK:
        image = draw_race_choices(view, list(moves), names, normalise_locale(locale))
        return encode_png(image, race_palette())
