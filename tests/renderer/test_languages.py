"""Every image of every game in every language: the words change, the drawing does not break.

Also writes the German and Hungarian samples next to ``test_samples.py``'s English ones, so a
person can check that the words fit (``pytest tests/renderer/test_languages.py -s``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageFont

import engine.carcassonne as carcassonne
import engine.dog as dog
import engine.tock as tock
from i18n import LOCALES
from i18n.catalog import catalogue
from renderer import (
    placement_order,
    render_board,
    render_figure_spots,
    render_hand,
    render_placements,
)
from renderer.style import FONT_PATH
from tests.renderer.pixels import decode
from tests.renderer.views import carcassonne_playout, race_playout, race_view

SAMPLES = Path(tempfile.gettempdir()) / "poeppel-renderer-samples"


def _race_images(module: Any, players: int, options: dict[str, Any]) -> dict[str, Any]:
    """Callables for a played race position: board (with a last move) and hand."""
    _, views = race_playout(module, players, options, seed=3, steps=40)
    view = views[-1]
    # A hand of the cards that carry words (A 4 7 10 J Q K, the joker) and a plain one.
    hand = (
        ["A", "4", "7", "10", "J", "Q", "K", "9"] if module is tock else ["A", "4", "J", "X", "5"]
    )
    name = f"{module.NAME}-{players}"
    return {
        f"{name}-board": lambda locale: render_board(view, locale=locale),
        f"{name}-hand": lambda locale: render_hand(
            module.NAME, hand, playable=[i % 2 == 0 for i in range(len(hand))], locale=locale
        ),
    }


def _race_states() -> dict[str, Any]:
    """Hand-made views for the lines a play-out may not reach: exchange, ban, 7, the end."""
    views = {
        "tock-exchange": race_view(
            "tock", 4, phase="exchange", exchanged=[1], teams=[[0, 2], [1, 3]]
        ),
        "tock-banned": race_view("tock", 3, banned=True, folded=[], discard=["10"]),
        "tock-seven": race_view("tock", 4, seven={"left": 3, "moved": []}),
        "dog-finished": race_view(
            "dog", 4, phase="finished", finished=True, winners=[0, 2], folded=[1]
        ),
        "dog-empty-hand": race_view("dog", 6),
    }
    images = {
        name: (lambda v: lambda locale: render_board(v, locale=locale))(view)
        for name, view in views.items()
    }
    images["dog-joker-hand"] = lambda locale: render_hand("dog", ["A", "4", "X"], locale=locale)
    images["tock-no-cards"] = lambda locale: render_hand("tock", [], locale=locale)
    return images


def _carcassonne_images() -> dict[str, Any]:
    state = carcassonne_playout(
        3, {"inns_cathedrals": "full", "traders_builders": "full"}, seed=11, steps=60
    )
    if state.phase == "figure":
        state = carcassonne.apply(state, "none")
    view = carcassonne.view(state, 0)
    placements = carcassonne.legal_placements(state)
    cell = placement_order(placements)[0]
    rot = placements[cell][0]
    placed = carcassonne.apply(state, f"{cell[0]},{cell[1]}@{rot}")
    spots = [str(m) for m in carcassonne.legal_moves(placed)]
    placed_view = carcassonne.view(placed, 0)
    tile = view["current_tile"]
    finished = carcassonne_playout(2, {}, seed=2, steps=400)
    return {
        "carcassonne-board": lambda locale: render_board(view, locale=locale),
        "carcassonne-placements": lambda locale: render_placements(view, placements, locale=locale),
        "carcassonne-figure-spots": lambda locale: render_figure_spots(
            placed_view, cell[0], cell[1], rot, tile, spots, locale=locale
        ),
        "carcassonne-finished": lambda locale: render_board(
            carcassonne.view(finished, None), locale=locale
        ),
    }


IMAGES: dict[str, Any] = {
    **_race_images(tock, 4, {"game_type": "2v2"}),
    **_race_images(tock, 5, {}),
    **_race_images(dog, 4, {}),
    **_race_images(dog, 6, {}),
    **_race_states(),
    **_carcassonne_images(),
}


@pytest.mark.parametrize("name", sorted(IMAGES))
def test_every_image_in_every_language(name: str) -> None:
    SAMPLES.mkdir(exist_ok=True)
    pngs = {locale: IMAGES[name](locale) for locale in LOCALES}
    for locale, png in pngs.items():
        image = decode(png)
        assert image.width > 100
        assert image.height > 100
        (SAMPLES / f"{name}-{locale}.png").write_bytes(png)
    # The words are the language's own: no image reads the same in two languages.
    assert len(set(pngs.values())) == len(LOCALES), f"{name}: some language kept English words"
    assert IMAGES[name]("de") == pngs["de"]  # deterministic in every language


def test_default_language_is_english() -> None:
    view = race_view("tock", 4)
    assert render_board(view) == render_board(view, locale="en-US")
    assert render_board(view, locale="fr") == render_board(view, locale="en")


def test_the_font_draws_every_letter_of_every_label() -> None:
    """German and Hungarian letters (ä, ß, ő, ű) must not come out as empty boxes."""
    font = ImageFont.truetype(str(FONT_PATH), 20)
    missing_glyph = bytes(font.getmask("\uffff"))
    texts = [
        text
        for locale in LOCALES
        for key, text in catalogue(locale).items()
        if key.startswith(("img.", "colour.", "game.", "figure.", "card."))
    ]
    letters = sorted({ch for text in texts for ch in text if not ch.isspace()})
    boxes = [ch for ch in letters if bytes(font.getmask(ch)) == missing_glyph]
    assert boxes == []
    assert {"ü", "ö", "ő", "á"} <= set(letters)  # the check really met non-English letters
