"""The placement image: each legal cell's number drawn once, on that cell, with the turns
legal there under it, the same as the board's menu offers for that number."""

from __future__ import annotations

import math
import random
from typing import Any

import discord
import pytest

from bot.discord_ui.tile_words import placement_controls, placement_effects_of
from engine import get_game
from renderer import clear_caches, render_placements
from renderer.carcassonne.board import plan_layout
from renderer.carcassonne.choices import TURN_ARROWS, placement_order, turn_marks
from renderer.style import MIN_PHONE_TEXT, PHONE_WIDTH
from tests.renderer.pixels import decode
from tests.renderer.test_race_choices import drawn_texts


def _position(seed: int, turns: int) -> tuple[Any, Any]:
    module: Any = get_game("carcassonne")
    state = module.new_game(3, {}, seed)
    rng = random.Random(seed)
    for _ in range(turns):
        state = module.apply(state, rng.choice(module.legal_moves(state)))
    if module.view(state, None)["phase"] != "place":
        state = module.apply(state, "none")
    return module, state


@pytest.mark.parametrize(("seed", "turns"), [(1, 30), (2, 61), (3, 8)])
@pytest.mark.parametrize("locale", ["en", "de", "hu"])
def test_each_cell_number_once_on_its_cell_with_its_own_turns(
    seed: int, turns: int, locale: str
) -> None:
    module, state = _position(seed, turns)
    view = module.view(state, 0)
    placements = module.legal_placements(state)
    order = placement_order(placements)
    layout = plan_layout(view, order)
    clear_caches()
    with drawn_texts() as drawn:
        png = render_placements(view, placements, locale=locale)
    width = decode(png).width
    assert [text for text, _, size, _ in drawn if size * PHONE_WIDTH / width < MIN_PHONE_TEXT] == []
    # The board's menu, numbered as the image.
    items = placement_controls(
        1, 2, placements, order, locale, effects=placement_effects_of(view), me=0, names={}
    )
    offered: dict[int, set[int]] = {}
    for item in items or ():
        control = item.item
        options = control.options if isinstance(control, discord.ui.Select) else []
        for option in options:
            index, _, rot = option.value.partition(".")
            offered.setdefault(int(index) + 1, set()).add(int(rot))
            assert option.description, "each placement says what it does"
    assert offered, "the menu offers the placements"
    for number, cell in enumerate(order, start=1):
        if not layout.contains(cell):
            continue
        cx, cy = layout.cell_centre(cell)
        # On the board (the score rows below it show points, not choices).
        found = [xy for text, xy, _, (_, h) in drawn if text == str(number) and h == layout.height]
        assert len(found) == 1, f"cell {number} numbered {len(found)} times"
        assert math.dist(found[0], (cx, cy)) < layout.tile * 0.3
        marks = turn_marks(placements[cell])
        below = [
            xy
            for text, xy, _, _ in drawn
            if text == marks and math.dist(xy, (cx, cy)) < layout.tile * 0.4
        ]
        assert len(below) == 1, (number, marks)
        assert {TURN_ARROWS[r] for r in offered[number]} == set(marks.split()), number
