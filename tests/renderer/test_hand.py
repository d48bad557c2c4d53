"""Hand images: one readable face per card, numbered under it, unplayable cards greyed."""

from __future__ import annotations

import pytest

from renderer import render_hand
from renderer.cards import CARD_H, CARD_W, GAP, MARGIN, NUMBER_BAND
from renderer.style import INK
from tests.renderer.pixels import close, decode, pixel


def _card_count(image) -> int:
    """Cards found along the cards' top edge: one run of dark outline pixels per card."""
    y = MARGIN + 3
    runs, inside = 0, False
    for x in range(image.width):
        r, g, b = pixel(image, x, y)
        on_card = 0.3 * r + 0.6 * g + 0.1 * b < 110
        if on_card and not inside:
            runs += 1
        inside = on_card
    return runs


@pytest.mark.parametrize(
    ("game", "cards"),
    [
        ("tock", ["A"]),
        ("tock", ["A", "2", "4", "7", "10", "J", "K"]),
        ("dog", ["3", "4", "Q", "X", "X", "K"]),
        ("dog", ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X"]),
    ],
)
def test_hand_shows_one_card_per_card(game: str, cards: list[str]) -> None:
    image = decode(render_hand(game, cards))
    assert image.width == 2 * MARGIN + len(cards) * CARD_W + (len(cards) - 1) * GAP
    assert _card_count(image) == len(cards)


def test_numbers_under_cards_and_unplayable_cards_are_greyed() -> None:
    cards = ["A", "7", "J"]
    playable = [True, False, True]
    image = decode(render_hand("tock", cards, playable=playable))
    for i, usable in enumerate(playable):
        centre_x = MARGIN + i * (CARD_W + GAP) + CARD_W / 2
        badge = pixel(image, centre_x + 12, MARGIN + CARD_H + NUMBER_BAND / 2 + 2)
        # A dark number badge for playable cards, a pale one for greyed cards.
        assert close(badge, INK, 40) is usable
    playable_face = decode(render_hand("tock", ["7"]))
    greyed_face = decode(render_hand("tock", ["7"], playable=[False]))
    assert playable_face.tobytes() != greyed_face.tobytes()


def test_tock_and_dog_faces_differ_and_joker_is_drawn() -> None:
    assert render_hand("tock", ["K"]) != render_hand("dog", ["K"])
    assert render_hand("dog", ["X"]) != render_hand("dog", ["K"])


def test_hand_is_deterministic_and_empty_hand_renders() -> None:
    assert render_hand("dog", ["X", "7"]) == render_hand("dog", ["X", "7"])
    assert decode(render_hand("tock", [])).width > 0


def test_playable_flags_must_match_the_cards() -> None:
    with pytest.raises(ValueError, match="one entry per card"):
        render_hand("tock", ["A", "2"], playable=[True])
