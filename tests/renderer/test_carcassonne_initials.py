"""Carcassonne images name the seats in the reader's language (issue 31): figures, score-row
chips, supply figures and the latest tile's badge carry the colour's initial in that
language (``colour.initial.N`` as on the race images, and entries of their own for Black and
Pink), never an English letter (German Grün and Gelb are "Gr" and "Ge", Rosa "Ro" beside
Rot's "R"; Hungarian Piros is "P", Fekete "F")."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PIL import Image, ImageDraw

import engine.carcassonne as carcassonne
from i18n import LOCALES, t
from renderer import (
    clear_caches,
    render_board,
    render_figure_spots,
    render_placements,
    render_results,
)
from renderer.carcassonne.board import _figure_sprite, seat_colour
from renderer.samples import ALL_EXPANSIONS, carcassonne_digest, carcassonne_position
from renderer.style import WHITE, font, min_text, seat_letter, text_colour_on
from tests.renderer.pixels import decode, recorded_texts

INITIALS = {
    "en": ["R", "B", "G", "Y", "K", "P"],
    "de": ["R", "B", "Gr", "Ge", "S", "Ro"],
    "hu": ["P", "K", "Z", "S", "F", "R"],
}
NAMES = ["Anna", "Bence", "Chloé", "Bot 4 (hard)", "Dóra", "Bot 6 (easy)"]


def _six_players() -> dict[str, Any]:
    """A six-player middle game with figures of every seat, the latest tile Yellow's (the
    badge of a two-letter German initial)."""
    options = {**ALL_EXPANSIONS, "river": True}
    view = carcassonne.view(carcassonne_position(6, options, seed=3, tiles=40), None)
    view = copy.deepcopy(view)
    latest = view["last_tiles"].pop("4")
    view["last_tiles"]["3"] = latest
    return view


SIX = _six_players()
#: An earlier six-player game (four seats with figures out): smaller, quicker to watch.
EARLY = carcassonne.view(
    carcassonne_position(6, {**ALL_EXPANSIONS, "river": True}, seed=3, tiles=20), None
)


def _texts(render: Any) -> tuple[list[tuple[str, float]], int]:
    """Every text an image draws, with its size, and the image's width."""
    clear_caches()  # cached layers and figures are not redrawn: draw everything afresh
    with recorded_texts() as drawn:
        png = render()
    return drawn, decode(png).width


@pytest.mark.parametrize("locale", LOCALES)
def test_the_six_initials_tell_the_colours_apart_and_begin_their_names(locale: str) -> None:
    initials = [seat_letter(seat, "carcassonne", locale) for seat in range(6)]
    assert initials == INITIALS[locale]
    assert len(set(initials)) == 6
    for seat, initial in enumerate(initials):
        if (locale, initial) != ("en", "K"):  # English Black is K (B is Blue), as in CMYK
            assert t(f"colour.carcassonne.{seat}", locale).startswith(initial)
    # Red, Blue, Green and Yellow are the race's colours: one initial each in a language.
    race = [t(f"colour.initial.{n}", locale) for n in (0, 1, 3, 2)]
    assert initials[:4] == race


@pytest.mark.parametrize("locale", LOCALES)
def test_every_seat_mark_on_the_board_is_the_readers_initial(locale: str) -> None:
    drawn, width = _texts(lambda: render_board(SIX, names=NAMES, locale=locale))
    texts = [text for text, _ in drawn]
    own = INITIALS[locale]
    on_board = {int(fig["player"]) for fig in SIX["figures"]}
    assert on_board == set(range(6))
    for seat, initial in enumerate(own):
        # Its chip, its supply (follower, big, builder, pig) and its figures on the board.
        placed = sum(int(fig["player"]) == seat for fig in SIX["figures"])
        assert texts.count(initial) >= 1 + 4 + min(placed, 1), (initial, texts.count(initial))
    assert texts.count(own[3]) >= 1 + 4 + 1 + 1, "Yellow's badge on the latest tile"
    english_only = set(INITIALS["en"]) - set(own)
    assert not english_only & set(texts), sorted(english_only & set(texts))
    for text, size in drawn:
        if text in own:
            assert size >= min_text(width), (text, size, width)


def _spots(locale: str) -> bytes:
    """The close-up of Yellow's latest tile: its neighbours' figures around it."""
    x, y = SIX["last_tiles"]["3"]
    tile = next(t for t in SIX["board"] if (t["x"], t["y"]) == (x, y))
    return render_figure_spots(SIX, x, y, tile["rot"], tile["tile"], [], locale=locale)


def _around_latest(figure: dict[str, Any]) -> bool:
    x, y = SIX["last_tiles"]["3"]
    fx, fy = int(figure["x"]), int(figure["y"])
    return (fx, fy) != (x, y) and max(abs(fx - x), abs(fy - y)) <= 1


#: The other Carcassonne images: how each is drawn, and the seats whose figures it shows.
OTHER_IMAGES: dict[str, tuple[Any, list[int]]] = {
    "whole map": (
        lambda locale: render_board(EARLY, names=NAMES, whole=True, locale=locale),
        [0, 1, 3, 5],
    ),
    "digest": (lambda locale: render_board(carcassonne_digest(), locale=locale), [0, 1]),
    "placements": (
        lambda locale: render_placements(EARLY, {(5, 6): [0]}, locale=locale),
        [0, 1, 3, 5],
    ),
    "figure spots": (_spots, [int(f["player"]) for f in SIX["figures"] if _around_latest(f)]),
}


@pytest.mark.parametrize("image", sorted(OTHER_IMAGES))
@pytest.mark.parametrize("locale", ["de", "hu"])
def test_the_other_images_say_the_same_initials(image: str, locale: str) -> None:
    render, seats = OTHER_IMAGES[image]
    drawn, _ = _texts(lambda: render(locale))
    texts = {text for text, _ in drawn}
    own, english_only = INITIALS[locale], set(INITIALS["en"]) - set(INITIALS[locale])
    assert seats
    assert {own[seat] for seat in seats} <= texts
    assert not english_only & texts, sorted(english_only & texts)


def _luminance(colour: tuple[int, int, int]) -> float:
    return 0.2126 * colour[0] + 0.7152 * colour[1] + 0.0722 * colour[2]


@pytest.mark.parametrize("locale", ["de", "hu"])
def test_the_results_image_uses_the_same_initials(locale: str) -> None:
    seats = [
        {"seat": s, "name": n, "place": p, "score": 40 - p, "team": None, "left": False}
        for s, n, p in ((0, "Ann", 2), (1, "Bob", 3), (2, "Cy", 1), (3, "Di", 4))
    ]
    summary = {
        "game": "carcassonne",
        "seats": seats,
        "winners": [2],
        "moves": 90,
        "options": {"inns_cathedrals": "full"},
        "categories": {str(s): {"road": 10, "inn": 4, "cathedral": 3} for s in range(4)},
        "timeline": [[0, 0, 0, 0, 0], [90, 38, 37, 39, 36]],
    }
    drawn, _ = _texts(lambda: render_results(summary, locale=locale))
    texts = [text for text, _ in drawn]
    said = " ".join(texts)
    for initial in INITIALS[locale][:4]:
        assert texts.count(initial) >= 2, "the seat's disc and its line in the chart"
        assert f"{initial} 4" in said, "the points from inns by initial"
    english_only = set(INITIALS["en"]) - set(INITIALS[locale])
    assert not english_only & set(texts)


@pytest.mark.parametrize("kind", ["follower", "big"])
def test_two_letters_on_a_meeple_stay_on_its_colour(kind: str) -> None:
    """German "Gr" is wider than a meeple's waist: where its letters cross the outline, a
    rim of the figure's colour keeps them on that colour, never on the black outline or the
    ground beside the figure."""
    letter = 18
    seat = 2  # Grün: white letters on green
    sprite = _figure_sprite((kind, seat, letter, None, "Gr")).convert("RGBA")
    half = sprite.width // 2
    scale = 1.08 if kind == "big" else 1.0
    glyphs = Image.new("L", sprite.size, 0)
    ImageDraw.Draw(glyphs).text(
        (half, half + 0.18 * letter / 1.15 * scale + 1),
        "Gr",
        fill=255,
        font=font(letter),
        anchor="mm",
    )
    fill = seat_colour(seat)
    ink = text_colour_on(fill)
    assert ink == WHITE
    for py in range(sprite.height):
        for px in range(sprite.width):
            if glyphs.getpixel((px, py)):
                r, g, b, a = sprite.getpixel((px, py))
                assert a == 255, (px, py)
                # The figure's colour, its letters' white and their blends; nothing darker
                # (the black outline, or a blend with it).
                assert _luminance((r, g, b)) >= _luminance(fill) - 8, (px, py, (r, g, b))
