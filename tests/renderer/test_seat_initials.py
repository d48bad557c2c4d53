"""Race images name the seats in the reader's language (issue 31): the pawns, seat tags and
chips carry the colour's initial in that language, and the texts that point at them say the
same initial or the colour's name, never an English letter (German Gelb and Grün both begin
with G, so they are "Ge" and "Gr"; Hungarian Piros is "P", Kék "K")."""

from __future__ import annotations

import pytest

from i18n import LOCALES, t
from renderer import clear_caches, render_board
from tests.renderer.pixels import recorded_texts
from tests.renderer.views import race_view

INITIALS = {
    "en": ["R", "B", "Y", "G", "P", "O"],
    "de": ["R", "B", "Ge", "Gr", "L", "O"],
    "hu": ["P", "K", "S", "Z", "L", "N"],
}


def _drawn(view: dict, locale: str) -> list[str]:
    clear_caches()  # the empty board is cached per language: draw it afresh to watch it
    with recorded_texts() as drawn:
        render_board(
            view,
            names=["anna", "Bot 2", "Bot 3", "Bot 4", "Bot 5", "Bot 6"][: len(view["seats"])],
            locale=locale,
        )
    return [text for text, _ in drawn]


@pytest.mark.parametrize("locale", LOCALES)
def test_the_six_initials_tell_the_colours_apart_and_begin_their_names(locale: str) -> None:
    initials = [t(f"colour.initial.{seat}", locale) for seat in range(6)]
    assert initials == INITIALS[locale]
    assert len(set(initials)) == 6
    for seat, initial in enumerate(initials):
        assert t(f"colour.{seat}", locale).startswith(initial)


@pytest.mark.parametrize("locale", ["de", "hu"])
def test_pawns_tags_and_texts_carry_the_readers_initials(locale: str) -> None:
    view = race_view(
        "tock",
        6,
        pawns={str(s): [f"r{18 * s + 3}"] for s in range(6)},
        turn=3,
        to_act=[3],
        banned=True,
        teams=[[0, 3], [1, 4], [2, 5]],
    )
    texts = _drawn(view, locale)
    own = INITIALS[locale]
    english_only = set(INITIALS["en"]) - set(own)
    # Each seat's initial on its tag, its pawns (kennel and ring) and its chips.
    for initial in own:
        assert texts.count(initial) >= 4, (initial, texts.count(initial))
    assert not english_only & set(texts), sorted(english_only & set(texts))
    green = t("colour.3", locale)
    assert any("(" + own[3] + ")" in text for text in texts), "to play: anna (Gr) / (Z)"
    assert any(text.startswith(green) for text in texts), "the banned seat by its colour name"
    assert any(
        t("colour.0", locale) in text for text in texts if "Partner" in text or "társ" in text
    )


@pytest.mark.parametrize("locale", LOCALES)
def test_the_exchange_line_names_the_colours(locale: str) -> None:
    view = race_view("dog", 4, phase="exchange", exchanged=[1, 3], to_act=[0, 2])
    texts = _drawn(view, locale)
    blue, green = t("colour.1", locale), t("colour.3", locale)
    said = " ".join(texts)  # the centre's line may wrap
    assert t("list.and", locale, first=blue, last=green) in said, "the picked seats by name"


@pytest.mark.parametrize("locale", ["de", "hu"])
def test_the_race_results_image_uses_the_same_initials(locale: str) -> None:
    from renderer import render_results

    seats = [
        {"seat": s, "name": n, "place": p, "score": 4 - p, "team": None, "left": False}
        for s, n, p in ((0, "Ann", 2), (1, "Bob", 3), (2, "Cy", 1), (3, "Di", 4))
    ]
    summary = {
        "game": "tock",
        "seats": seats,
        "winners": [2],
        "moves": 90,
        "options": {},
        "home": [[10, 2], [20, 3], [30, 0]],
        "hands": 4,
    }
    clear_caches()
    with recorded_texts() as drawn:
        render_results(summary, locale=locale)
    texts = [text for text, _ in drawn]
    for initial in INITIALS[locale][:4]:
        assert initial in texts
    assert not (set(INITIALS["en"]) - set(INITIALS[locale])) & set(texts)
