"""The choice image of a race card: each option's number drawn once, where the option lands.

The texts are read from the drawing itself (``ImageDraw.text`` is instrumented, as the
legibility test does) together with the prompt's own controls, so the "3" a player reads on
the board is the "3." of the button or menu option that plays that move.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import discord
import pytest
from PIL import ImageDraw

from bot.discord_ui import race_prompts
from bot.discord_ui.race_prompts import SEGMENTS
from bot.discord_ui.rendering import Renderer
from bot.model.effects import PrivateInfo
from bot.model.table import Phase, Seat, TableRecord
from engine import get_game
from i18n.catalog import LOCALES, use_game_terms
from renderer import clear_caches, race_field_center
from renderer.race_choices import badge_centres, badge_spots, choice_marks, render_race_choices
from renderer.style import MIN_PHONE_TEXT, PHONE_WIDTH, keep_text_stamps
from tests.renderer.pixels import decode

#: (text, anchor point, font size, size of the image drawn on).
Drawn = list[tuple[str, tuple[float, float], float, tuple[int, int]]]

POSITIONS = {
    "seven": (
        {
            "game": "tock",
            "players": 4,
            "pawns": {"0": ["r3", "r20"], "1": ["r24", "r8"], "2": ["r40"]},
            "hands": {"0": ["7", "J", "9", "K", "4"]},
            "turn": 0,
        },
        "7",
    ),
    "jack": (
        {
            "game": "tock",
            "players": 4,
            "pawns": {"0": ["r3", "r20"], "1": ["r24", "r8"], "2": ["r40"]},
            "hands": {"0": ["7", "J", "9", "K", "4"]},
            "turn": 0,
        },
        "J",
    ),
    "king-out-and-capture": (
        {
            "game": "tock",
            "players": 4,
            "pawns": {"0": ["r5", "r61"], "3": ["r0", "r18"]},
            "hands": {"0": ["K", "2"]},
            "turn": 0,
        },
        "K",
    ),
    # A split 7 offered whole: both walks carry the option's number, and what a walk passes
    # is burnt (C-8.3).
    "dog-seven-burns": (
        {
            "game": "dog",
            "players": 4,
            "pawns": {"0": ["r5", "r40"], "1": ["r8"], "3": ["r10", "r44"]},
            "hands": {"0": ["7", "8"]},
            "turn": 0,
        },
        "7",
    ),
    # The rest of that 7 after its first walk: eight steps, one pawn already moved (its mark
    # is a tick, not a "7" that would be option 7's number a second time).
    "dog-seven-pending": (
        {
            "game": "dog",
            "players": 4,
            "pawns": {"0": ["r5", "r40"], "1": ["r8"], "3": ["r10", "r44"]},
            "hands": {"0": ["7", "8"]},
            "turn": 0,
            "then": "7:r5-r8",
        },
        SEGMENTS,
    ),
    "dog-joker": (
        {
            "game": "dog",
            "players": 4,
            "pawns": {"0": ["r5", "r40"], "1": ["r20"], "3": ["r60"]},
            "hands": {"0": ["X", "8"]},
            "turn": 0,
        },
        "X",
    ),
}


@contextmanager
def drawn_texts() -> Iterator[Drawn]:
    """Every text drawn meanwhile, with its anchor point, font size and the size of the
    image it is drawn on (a board drawn apart and pasted has its own coordinates)."""
    drawn: Drawn = []
    original = ImageDraw.ImageDraw.text

    def text(self, xy, text, fill=None, font=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        where = (float(xy[0]), float(xy[1]))
        drawn.append((str(text), where, float(font.size), tuple(self.im.size)))
        return original(self, xy, text, fill, font, *args, **kwargs)

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    keep_text_stamps(False)  # every text drawn where it lands, not from a cached stamp
    try:
        yield drawn
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
        keep_text_stamps(True)


def _info(position: dict[str, Any]) -> PrivateInfo:
    module: Any = get_game(position["game"])
    state = module.from_position({k: v for k, v in position.items() if k != "then"})
    if "then" in position:
        state = module.apply(state, position["then"])
    seats = list(module.view(state, None)["seats"])
    table = TableRecord(
        id=3,
        guild_id=1,
        channel_id=2,
        game=position["game"],
        options={},
        seed=1,
        host_id=10,
        seats=tuple(Seat(s, user_id=10 + s, name=f"Player {s}") for s in seats),
        phase=Phase.PLAYING,
        version=9,
        players=len(seats),
    )
    view = module.view(state, 0)
    legal = tuple(str(m) for m in module.legal_moves(state, 0))
    starts = {}
    for card in ("7", "X"):
        if card in view["hand"]:
            starts[card] = tuple(str(m) for m in module.seven_starts(state, card))
    return PrivateInfo(table, 0, view, legal, True, seven_starts=starts)


def _numbers_of_controls(items: list[Any]) -> dict[int, str]:
    """{number: label} of the numbered buttons and menu options of a prompt."""
    found = {}
    for item in items:
        control = item.item
        labels = []
        if isinstance(control, discord.ui.Button) and control.label:
            labels = [control.label]
        elif isinstance(control, discord.ui.Select):
            labels = [option.label for option in control.options]
        for label in labels:
            number, dot, _ = label.partition(". ")
            if dot and number.isdigit():
                found[int(number)] = label
    return found


@pytest.mark.parametrize("name", sorted(POSITIONS))
@pytest.mark.parametrize("locale", LOCALES)
async def test_every_number_is_drawn_once_where_its_option_lands(name: str, locale: str) -> None:
    position, card = POSITIONS[name]
    info = _info(position)
    view = info.view or {}
    use_game_terms(position["game"])
    if card == SEGMENTS:
        prompt = race_prompts.moves_prompt(info, SEGMENTS, locale=locale)
    else:
        index = list(view["hand"]).index(card)
        prompt = race_prompts.card_prompt(info, index, locale=locale)
    moves = list(prompt.moves)
    assert moves, "the card's prompt says which moves it offers"
    numbered = _numbers_of_controls(prompt.items)
    assert sorted(numbered) == list(range(1, len(moves) + 1)), "controls numbered 1…n"
    clear_caches()
    with drawn_texts() as drawn:
        png = await Renderer.load().race_choices(view, moves, [], locale)
    assert png is not None
    width = decode(png.fp.read()).width  # type: ignore[attr-defined]
    marks = choice_marks(view, moves)
    spots = badge_spots(view, moves)
    layout_r = race_field_center(view, "r1")  # any field: the pitch below
    pitch = math.dist(layout_r, race_field_center(view, "r2"))
    landing = [m for m in marks if m.landing is not None]
    assert landing, "some options land on the board"
    for mark in marks:
        texts = [(xy, size) for text, xy, size, _ in drawn if text == str(mark.number)]
        if mark.landing is None:
            assert texts == [], f"{mark.number} lands nowhere and is not drawn"
            continue
        # Once at each field where the option lands (both walks of a split 7), nowhere else.
        assert len(texts) == len(mark.landings), f"{mark.number} drawn {len(texts)} times"
        for field_name in mark.landings:
            (centre,) = [c for n, f, c in spots if n == mark.number and f == field_name]
            ((x, y), size) = min(texts, key=lambda each, c=centre: math.dist(each[0], c))
            assert math.dist((x, y - 1), centre) < 1.5
            field = race_field_center(view, field_name)
            # On its landing field, or beside it when the field holds a pawn or other numbers.
            assert math.dist((x, y), field) < 4.5 * pitch, (mark, (x, y), field)
            assert size * PHONE_WIDTH / width >= MIN_PHONE_TEXT
    small = [(text, size) for text, _, size, _ in drawn if size * PHONE_WIDTH / width < 9]
    assert small == [], "every text of the image stays 9 px tall on a phone"


def test_the_marks_say_what_each_option_does() -> None:
    info = _info(POSITIONS["jack"][0])
    jack = race_prompts.choices(info, "J")
    marks = {m.number: m for m in choice_marks(info.view or {}, jack)}
    swap = jack.index("J:r3<>r24") + 1
    assert marks[swap].pawns == ("r3",)
    assert marks[swap].partner == "r24"
    assert marks[swap].landing == "r24", "the Jack's pawn lands where its partner stood"
    king = _info(POSITIONS["king-out-and-capture"][0])
    out = choice_marks(king.view or {}, ["K:E", "K:r5-r18"])
    assert out[0].pawns == ("k0.1",)
    assert out[0].landing == "r0"
    assert out[0].captures == ("r0",), "bringing a pawn out takes the pawn on the start"
    assert out[1].captures == ("r18",)


def test_a_split_seven_burns_what_it_passes_and_numbers_both_walks() -> None:
    info = _info(POSITIONS["dog-seven-burns"][0])
    marks = {m.number: m for m in choice_marks(info.view or {}, ["7:r5-r10,r40-r42", "7:r5-r12"])}
    # r5 → r10 passes Blue's pawn on r8 and lands on Green's on r10: both are taken.
    assert set(marks[1].captures) == {"r8", "r10"}
    assert marks[1].landings == ("r10", "r42"), "the second walk carries the number too"
    assert set(marks[2].captures) == {"r8", "r10"}, "a single walk of 7 burns what it passes"
    assert marks[2].landings == ("r12",)
    # The walks are made in order: a pawn that moved out of the way first is not burnt.
    two = {"game": "tock", "players": 4, "pawns": {"0": ["r3", "r5"]}, "hands": {"0": ["7"]}}
    view = _info({**two, "turn": 0}).view or {}
    first, second = choice_marks(view, ["7:r5-r8,r3-r7", "7:r3-r7,r5-r8"])
    assert first.captures == (), "r5 moved on before r3 passed its field"
    assert second.captures[0] == "r5", "the mover's own pawn is burnt too (C-8.3)"


def test_the_steps_of_a_pending_seven_are_marked_too() -> None:
    module: Any = get_game("tock")
    state = module.apply(module.from_position(POSITIONS["seven"][0]), "7:r3-r5")
    view = module.view(state, 0)
    steps = [str(m) for m in module.legal_moves(state, 0)]
    marks = choice_marks(view, steps)
    assert [m.landing for m in marks] == [s.partition("-")[2] for s in steps]
    assert len(badge_centres(view, steps)) == len(steps)


def test_the_choice_image_is_a_board_with_its_legend() -> None:
    info = _info(POSITIONS["seven"][0])
    moves = race_prompts.choices(info, "7")
    png = render_race_choices(info.view or {}, moves, locale="de")
    image = decode(png)
    assert image.width == 900
    assert image.height > 900
    assert len(png) <= 300 * 1024


def test_the_tock_board_counts_the_deals_of_the_whole_game() -> None:
    from renderer import render_board
    from tests.renderer.pixels import recorded_texts

    module: Any = get_game("tock")
    state = module.new_game(2, {}, 5)
    while module.view(state, None)["deal"] < 7:
        state = module.apply(state, module.legal_moves(state, min(module.seats_to_act(state)))[0])
    view = module.view(state, 0)
    assert view["hand_number"] == 1, "a new deck: the hand restarts"
    clear_caches()
    with recorded_texts() as drawn:
        render_board(view)
    assert "Deal 7 · hand 1 of 6" in [text for text, _ in drawn]
