"""A Carcassonne placement said as the numbered placement image shows it: the cell's number
and how the tile is turned, in words (as drawn, turned right, upside down, turned left), with
no coordinates and no degrees, alike in the menus, the prompts, the hint and the console."""

from __future__ import annotations

import re

import pytest

from bot.discord_ui.tile_words import placed_words, placement_words, turn_words
from i18n import t
from i18n.moves import tile_label
from tests.sentence_lint import problems

TURNS = {
    "en": ["as drawn", "turned right", "upside down", "turned left"],
    "de": ["wie gezogen", "rechts gedreht", "auf dem Kopf", "links gedreht"],
    "hu": ["ahogy húztad", "jobbra forgatva", "fejjel lefelé", "balra forgatva"],
}


@pytest.mark.parametrize("locale", sorted(TURNS))
def test_each_rotation_has_its_own_words_and_the_strip_says_the_same(locale: str) -> None:
    said = [turn_words(rot).text(locale) for rot in (0, 90, 180, 270)]
    assert said == TURNS[locale]
    # The strip under the placement image captions each turned tile with these words.
    assert [t(f"tile.turned.{rot}", locale) for rot in (0, 90, 180, 270)] == said


@pytest.mark.parametrize("locale", sorted(TURNS))
def test_a_placement_names_its_cell_and_its_turn_and_nothing_else(locale: str) -> None:
    for rot in (0, 90, 180, 270):
        option = placement_words(3, rot).text(locale)
        whole = placed_words("E", 3, rot, t("clicks.no_figure_possible", locale)).text(locale)
        console = t("console.cell", locale, number=3, turn=turn_words(rot).text(locale))
        for text in (option, whole, console):
            assert "°" not in text, text
            assert "(" not in text, text
            assert re.findall(r"\d+", text) == ["3"], text  # the cell's number, nothing else
            assert TURNS[locale][rot // 90] in text, text
            assert problems(text, locale, "label") == [], text
    assert placement_words(1, 0).text("en") == "Cell 1, as drawn"
    assert placement_words(2, 90).text("de") == "Feld 2, rechts gedreht"
    assert placement_words(4, 180).text("hu") == "4. cella, fejjel lefelé"


def test_a_placement_label_counts_its_cell_among_the_legal_cells_as_the_image_does() -> None:
    legal = ["-1,0@90", "1,0@0", "1,0@270", "0,-1@180", "0,1@0"]
    # Numbered by y, then x: (0,-1) is 1, (-1,0) is 2, (1,0) is 3, (0,1) is 4.
    assert tile_label("1,0@270", legal=legal).text("en") == "cell 3, turned left"
    assert tile_label("0,-1@180", legal=legal).text("de") == "Feld 1, auf dem Kopf"
    assert tile_label("0,1@0", legal=legal).text("hu") == "4. cella, ahogy húztad"
