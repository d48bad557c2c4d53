"""The tournament standings image: legible on a phone, in every language, long names cut."""

from __future__ import annotations

import pytest

from renderer.standings import render_standings
from tests.renderer.pixels import decode
from tests.renderer.test_legibility import small_texts

ROWS = [
    {"rank": 1, "name": "Anna", "points": 6, "buchholz": 10, "score": 212, "played": 3},
    {
        "rank": 2,
        "name": "Bartholomew the Unbeatable " * 3,
        "points": 4,
        "buchholz": 12,
        "score": 190,
        "played": 3,
    },
    {"rank": 2, "name": "Cid & Dee", "points": 4, "buchholz": 12, "score": 190, "played": 3},
    {"rank": 4, "name": "Éva", "points": 0, "buchholz": 8, "score": 88, "played": 2},
]


@pytest.mark.parametrize("locale", ["en", "de", "hu"])
@pytest.mark.parametrize("buchholz", [True, False])
def test_the_standings_image_reads_at_400_px(locale: str, buchholz: bool) -> None:
    def draw() -> bytes:
        return render_standings(
            ROWS,
            title="Carcassonne tournament #12",
            subtitle="Final standings",
            buchholz=buchholz,
            locale=locale,
        )

    _width, small = small_texts(draw)
    assert not small, small
    assert decode(draw()).height > 4 * 56
