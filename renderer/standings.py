"""The standings image of a tournament: rank, name, points and the tie-breaks that settled it.

Drawn from plain rows (``bot.tournament.standings.Standing`` as dicts), 800 px wide with text
of at least 24 px, so it reads when Discord shows it 400 px wide on a phone. The leader's
row is tinted; with ``champion`` set, it carries the champion's mark.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from i18n import t
from renderer.style import (
    GREY,
    INK,
    LIGHT_GREY,
    PAPER,
    encode_png,
    fit_text,
    font,
    seat_colour,
    tint,
)

WIDTH = 800
MARGIN = 24
ROW = 56
HEADER = 150


def render_standings(
    rows: Sequence[Mapping[str, Any]],
    *,
    title: str,
    subtitle: str,
    buchholz: bool,
    locale: str = "en",
) -> bytes:
    """The standings as a PNG. Each row has ``rank``, ``name``, ``points``, ``score``,
    ``played`` and (shown when ``buchholz``) ``buchholz``; ``title`` and ``subtitle`` are
    already said in the reader's language."""
    height = HEADER + ROW * max(1, len(rows)) + MARGIN
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, 18), fit_text(title, 36, WIDTH - 2 * MARGIN), font=font(36), fill=INK)
    draw.text((MARGIN, 66), fit_text(subtitle, 26, WIDTH - 2 * MARGIN), font=font(26), fill=GREY)
    columns = [("points", t("tournament.image.points", locale))]
    if buchholz:
        columns.append(("buchholz", t("tournament.image.buchholz", locale)))
    columns += [
        ("score", t("tournament.image.score", locale)),
        ("played", t("tournament.image.played", locale)),
    ]
    width = 118
    right = WIDTH - MARGIN
    xs = [right - width * (len(columns) - i) + width // 2 for i in range(len(columns))]
    y = HEADER - 40
    draw.text((MARGIN, y), t("tournament.image.entrant", locale), font=font(24), fill=GREY)
    for (_, label), x in zip(columns, xs, strict=True):
        draw.text((x, y), fit_text(label, 24, width - 8), font=font(24), fill=GREY, anchor="ma")
    draw.line((MARGIN, HEADER - 6, right, HEADER - 6), fill=LIGHT_GREY, width=2)
    name_right = xs[0] - width // 2 - 8
    leader = tint(seat_colour(0), 0.8)
    for index, row in enumerate(rows):
        top = HEADER + ROW * index
        if int(row["rank"]) == 1:
            draw.rounded_rectangle((MARGIN - 8, top + 2, right + 8, top + ROW - 4), 10, leader)
        elif index % 2:
            draw.rectangle((MARGIN - 8, top + 2, right + 8, top + ROW - 4), fill=(244, 241, 234))
        cy = top + ROW // 2
        draw.text((MARGIN + 40, cy), f"{row['rank']}.", font=font(30), fill=INK, anchor="rm")
        name = fit_text(str(row["name"]), 28, name_right - MARGIN - 56)
        draw.text((MARGIN + 56, cy), name, font=font(28), fill=INK, anchor="lm")
        for (key, _), x in zip(columns, xs, strict=True):
            size = 30 if key == "points" else 26
            draw.text((x, cy), str(row.get(key, 0)), font=font(size), fill=INK, anchor="mm")
    return encode_png(image)
