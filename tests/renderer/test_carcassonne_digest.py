"""A Carcassonne turn digest's board: each tile placed since the previous post framed in its
owner's colour with its order number."""

from __future__ import annotations

from renderer.carcassonne.board import recent_tiles
from renderer.samples import carcassonne_digest
from tests.renderer.test_race_phone import drawn_texts

NAMES = ["Anna", "Bot 2"]


def test_each_tile_of_the_digest_gets_its_order_number() -> None:
    view = carcassonne_digest()
    tiles = recent_tiles(view)
    assert len(tiles) == 3
    assert {seat for _cell, seat in tiles} == {0, 1}, "both players' tiles"
    texts, _ = drawn_texts(view, names=NAMES)
    plain, _ = drawn_texts({k: v for k, v in view.items() if k != "recent"}, names=NAMES)
    added = list(texts)
    for text in plain:
        added.remove(text)
    assert sorted(added) == ["1", "2", "3"]
