"""A turn digest's board: every move since the previous post drawn and numbered in order, and
each captured pawn marked (``view["recent"]``, made by bot.discord_ui.digest)."""

from __future__ import annotations

import engine.tock as tock
from renderer.samples import digest_position
from tests.renderer.pixels import decode
from tests.renderer.test_race_phone import drawn_texts

NAMES = ["Anna", "Bence", "Bot 3", "Bot 4"]


def test_each_move_of_the_digest_gets_its_number_once() -> None:
    view = digest_position(tock, 4, {"game_type": "2v2"})
    assert len(view["recent"]) == 3
    assert any(e["kind"] == "capture" for move in view["recent"] for e in move)
    texts, _ = drawn_texts(view, names=NAMES)
    single = dict(view)
    del single["recent"]
    plain, _ = drawn_texts(single, names=NAMES)
    added = list(texts)
    for text in plain:
        added.remove(text)
    assert sorted(added) == ["1", "2", "3"]


def test_the_earlier_moves_and_their_captures_change_the_picture() -> None:
    view = digest_position(tock, 4, {"game_type": "2v2"})
    single = {k: v for k, v in view.items() if k != "recent"}
    from renderer import render_board

    with_moves = decode(render_board(view, names=NAMES))
    newest_only = decode(render_board(single, names=NAMES))
    assert with_moves.size == newest_only.size
    assert with_moves.tobytes() != newest_only.tobytes()
