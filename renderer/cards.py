"""The player's hand: one readable card face per card, numbered like the bot's buttons."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from i18n import t
from i18n.words import card_text
from renderer.style import (
    INK,
    PAPER,
    RGB,
    WHITE,
    draw_centered_text,
    draw_text,
    fixed_palette,
    min_text,
    text_width,
    tint,
    wrap_text,
)

CARD_W = 120
CARD_H = 190
GAP = 14
MARGIN = 16
NUMBER_BAND = 50
#: Largest size of the words on a card face; smaller hands may use less, never below the
#: phone rule for the hand's width (a hand of six is 822 px wide: 19 px).
HINT_SIZE = 22
NUMBER_SIZE = 26

#: What each card does, printed small on the face so new players need no rules sheet. These
#: are the English words; every language's are the catalogue keys ``img.hint.<game>.<card>``.
TOCK_HINTS = {
    "A": "out / 1",
    "4": "4 back",
    "7": "split 7",
    "10": "10 + ban",
    "J": "swap",
    "Q": "12",
    "K": "out / 13",
}
DOG_HINTS = {
    "A": "out/1/11",
    "4": "4 fwd/back",
    "7": "split 7",
    "J": "swap",
    "Q": "12",
    "K": "out / 13",
    "X": "any card",
}
#: Tock faces alternate two suit-like marks (shapes, not colours only) by rank so that the
#: hand looks like playing cards; the engine knows no suits (C-1.6).
_TOCK_SUITS = ("diamond", "club", "heart", "spade")
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X")
RED_INK: RGB = (190, 40, 30)
DOG_BACK: RGB = (40, 96, 160)
JOKER_FRAME: RGB = (150, 60, 150)
STAR: RGB = (240, 200, 40)
NUMBER_OFF: RGB = (190, 186, 178)


def hand_palette() -> Image.Image:
    """The fixed palette of hand images (greyed faces use the grey ramp)."""
    base = (
        PAPER,
        WHITE,
        INK,
        RED_INK,
        DOG_BACK,
        JOKER_FRAME,
        STAR,
        NUMBER_OFF,
        tint(DOG_BACK, 0.2),
        tint(JOKER_FRAME, 0.2),
    )
    return fixed_palette(base, ((DOG_BACK, WHITE), (JOKER_FRAME, WHITE), (RED_INK, WHITE)))


def _suit_of(card: str) -> str:
    index = _RANKS.index(card) if card in _RANKS else 0
    return _TOCK_SUITS[index % 4]


#: The suit symbol of each suit mark, for words that name a card as its face shows it.
SUIT_SYMBOLS = {"diamond": "♦", "club": "♣", "heart": "♥", "spade": "♠"}


def card_suit_symbol(card: str) -> str:
    """The suit symbol drawn on ``card``'s face (``"♣"``), or ``""`` for the joker:
    a button can then name the card as the hand image shows it ("9 ♣")."""
    if card == "X":
        return ""
    return SUIT_SYMBOLS[_suit_of(card)]


def card_words(card: str, locale: object = "en") -> str:
    """A hand card in words as its face shows it, rank and suit (``9 ♣``), the joker by
    name: the Discord hand's buttons and the live board's hand say it alike."""
    suit = card_suit_symbol(card)
    if not suit:
        return card_text(card, locale)
    return t("race.card_face", locale, rank=card_text(card, locale), suit=suit)


def _draw_suit(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float, s: float) -> RGB:
    """A small suit mark centred on (x, y) with half-size ``s``; returns its colour."""
    if kind == "diamond":
        draw.polygon(((x, y - s), (x + s * 0.75, y), (x, y + s), (x - s * 0.75, y)), fill=RED_INK)
        return RED_INK
    if kind == "heart":
        r = s * 0.5
        draw.ellipse((x - s, y - s * 0.6, x, y + s * 0.4 - r * 0.2), fill=RED_INK)
        draw.ellipse((x, y - s * 0.6, x + s, y + s * 0.4 - r * 0.2), fill=RED_INK)
        draw.polygon(
            ((x - s * 0.98, y - s * 0.05), (x + s * 0.98, y - s * 0.05), (x, y + s)), fill=RED_INK
        )
        return RED_INK
    if kind == "club":
        r = s * 0.45
        for cx, cy in ((x, y - s * 0.45), (x - s * 0.5, y + s * 0.1), (x + s * 0.5, y + s * 0.1)):
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)
        draw.polygon(((x, y), (x - s * 0.3, y + s), (x + s * 0.3, y + s)), fill=INK)
        return INK
    draw.polygon(((x, y - s), (x + s * 0.9, y + s * 0.2), (x - s * 0.9, y + s * 0.2)), fill=INK)
    draw.ellipse((x - s * 0.9, y - s * 0.15, x, y + s * 0.6), fill=INK)
    draw.ellipse((x, y - s * 0.15, x + s * 0.9, y + s * 0.6), fill=INK)
    draw.polygon(((x, y + s * 0.1), (x - s * 0.3, y + s), (x + s * 0.3, y + s)), fill=INK)
    return INK


def card_hint(game: str, card: str, locale: str = "en") -> str | None:
    """The short reminder printed on ``card`` in ``locale``, or None for a plain number."""
    hints = DOG_HINTS if game == "dog" else TOCK_HINTS
    if card not in hints:
        return None
    return t(f"img.hint.{'dog' if game == 'dog' else 'tock'}.{card}", locale)


def card_rank(card: str, locale: str = "en") -> str:
    """The rank printed on a card: ``J`` is ``B`` (Bube, Bubi) in German and Hungarian."""
    return t(f"card.{card}", locale) if card in ("A", "J", "Q", "K") else card


@lru_cache(maxsize=128)
def card_face(game: str, card: str, locale: str = "en", min_size: int = 9) -> Image.Image:
    """One card face (cached), ``CARD_W`` × ``CARD_H``; its words at least ``min_size`` px."""
    face = Image.new("RGB", (CARD_W, CARD_H), PAPER)
    draw = ImageDraw.Draw(face)
    box = (2, 2, CARD_W - 3, CARD_H - 3)
    if game == "dog":
        _dog_face(draw, box, card, locale, min_size)
    else:
        _tock_face(draw, box, card, locale, min_size)
    return face


def _tock_face(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], card: str, locale: str, size: int
) -> None:
    draw.rounded_rectangle(box, radius=12, fill=WHITE, outline=INK, width=3)
    suit = _suit_of(card)
    colour = _draw_suit(draw, suit, 24, 50, 10)
    rank = card_rank(card, locale)
    draw_text(draw, (10, 6), rank, 30, colour)
    _draw_suit(draw, suit, CARD_W - 24, CARD_H - 50, 10)
    draw_centered_text(draw, (CARD_W / 2, CARD_H * 0.42), rank, 64 if len(rank) < 2 else 54, colour)
    _draw_hint(draw, card_hint("tock", card, locale), CARD_H - 22, CARD_W - 16, size)


def _dog_face(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], card: str, locale: str, size: int
) -> None:
    joker = card == "X"
    frame = JOKER_FRAME if joker else DOG_BACK
    draw.rounded_rectangle(box, radius=12, fill=frame, outline=INK, width=3)
    inner = (box[0] + 8, box[1] + 8, box[2] - 8, box[3] - 8)
    draw.rounded_rectangle(inner, radius=8, fill=WHITE)
    if joker:
        # A paw print as the joker's mark: four toes and a pad, drawn from ellipses.
        px, py, s = CARD_W - 30, 32, 6
        draw.ellipse((px - s * 1.5, py, px + s * 1.5, py + s * 2.2), fill=tint(frame, 0.2))
        for dx, dy in ((-1.6, -0.6), (-0.55, -1.5), (0.55, -1.5), (1.6, -0.6)):
            cx, cy = px + dx * s, py + dy * s
            draw.ellipse(
                (cx - s * 0.55, cy - s * 0.7, cx + s * 0.55, cy + s * 0.7), fill=tint(frame, 0.2)
            )
    else:
        # A real card's suit (the one its button names), in both corners.
        _draw_suit(draw, _suit_of(card), CARD_W - 30, 36, 10)
        _draw_suit(draw, _suit_of(card), 30, CARD_H - 60, 10)
    if joker:
        # The joker's index is a small star, not an X (a letter would be one language's
        # word); a big star so it stands out by shape as well as colour, and its name.
        _star(draw, (30, 30), 14)
        _star(draw, (CARD_W / 2, CARD_H * 0.36), 28)
        label = t("card.X", locale).upper()
        draw_centered_text(
            draw, (CARD_W / 2, CARD_H * 0.36 + 42), label, max(size, HINT_SIZE), frame
        )
    else:
        rank = card_rank(card, locale)
        draw_text(draw, (16, 12), rank, 30, frame)
        draw_centered_text(
            draw, (CARD_W / 2, CARD_H * 0.42), rank, 64 if len(rank) < 2 else 54, INK
        )
    _draw_hint(draw, card_hint("dog", card, locale), CARD_H - 28, CARD_W - 26, size)


def _star(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    """The joker's mark: a five-pointed star."""
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        points.append((centre[0] + radius * math.cos(a), centre[1] + radius * math.sin(a)))
    draw.polygon(points, fill=STAR, outline=INK)


def _draw_hint(
    draw: ImageDraw.ImageDraw, hint: str | None, bottom: float, room: float, min_size: int
) -> None:
    """The card's reminder, never cut: on one line at the largest size that fits ``room``,
    else on two lines; never below ``min_size``. Its last line is centred on ``bottom``."""
    if not hint:
        return
    sizes = range(max(HINT_SIZE, min_size), min_size - 1, -1)
    size = next((s for s in sizes if text_width(hint, s) <= room), None)
    if size is None:
        if any(text_width(word, min_size) > room for word in hint.split()):
            hint = hint.replace("/", "/ ")  # "előre/vissza" may break after its slash
        fits = (s for s in sizes if all(text_width(w, s) <= room for w in wrap_text(hint, s, room)))
        size = next(fits, min_size)
    for k, line in enumerate(reversed(wrap_text(hint, size, room))):
        draw_centered_text(draw, (CARD_W / 2, bottom - k * size * 1.05), line, size, INK)


def mini_card(game: str, card: str, height: int, locale: str = "en") -> Image.Image:
    """A small face of ``card`` (its rank large), ``height`` px tall: the card just played."""
    width = round(height * 0.7)
    face = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(face)
    box = (1, 1, width - 2, height - 2)
    rank = "X" if card == "X" else card_rank(card, locale)
    size = round(height * (0.5 if len(rank) < 2 else 0.4))
    if game == "dog":
        frame = JOKER_FRAME if card == "X" else DOG_BACK
        draw.rounded_rectangle(box, radius=height // 10, fill=frame, outline=INK, width=2)
        inner = (box[0] + 5, box[1] + 5, box[2] - 5, box[3] - 5)
        draw.rounded_rectangle(inner, radius=height // 14, fill=WHITE)
        colour = frame if card == "X" else INK
    else:
        draw.rounded_rectangle(box, radius=height // 10, fill=WHITE, outline=INK, width=2)
        colour = _draw_suit(draw, _suit_of(card), width * 0.24, height * 0.2, height * 0.08)
        _draw_suit(draw, _suit_of(card), width * 0.76, height * 0.8, height * 0.08)
    if card == "X":
        _star(draw, (width / 2, height / 2), height * 0.27)  # the joker's index (no letter)
    else:
        draw_centered_text(draw, (width / 2, height / 2), rank, size, colour)
    return face


def draw_hand(
    game: str,
    cards: Sequence[str],
    playable: Sequence[bool] | None = None,
    locale: str = "en",
) -> Image.Image:
    """The hand image: faces left to right, numbers 1…n under them, unplayable ones greyed."""
    if playable is not None and len(playable) != len(cards):
        raise ValueError("playable must have one entry per card")
    count = max(1, len(cards))
    width = MARGIN * 2 + count * CARD_W + (count - 1) * GAP
    height = MARGIN * 2 + CARD_H + NUMBER_BAND
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    if not cards:
        draw_centered_text(
            draw, (width / 2, height / 2), t("img.no_cards", locale), NUMBER_SIZE, INK
        )
        return image
    for i, card in enumerate(cards):
        x = MARGIN + i * (CARD_W + GAP)
        face = card_face(game, str(card), locale, min_text(width))
        usable = playable is None or bool(playable[i])
        if not usable:
            # Greyed: washed out towards the background, so the number still reads.
            face = Image.blend(
                face.convert("L").convert("RGB"), Image.new("RGB", face.size, PAPER), 0.55
            )
        image.paste(face, (x, MARGIN))
        number_centre = (x + CARD_W / 2, MARGIN + CARD_H + NUMBER_BAND / 2 + 2)
        r = 21
        draw.ellipse(
            (
                number_centre[0] - r,
                number_centre[1] - r,
                number_centre[0] + r,
                number_centre[1] + r,
            ),
            fill=INK if usable else NUMBER_OFF,
        )
        draw_centered_text(
            draw, (number_centre[0], number_centre[1] + 1), str(i + 1), NUMBER_SIZE, WHITE
        )
    return image
