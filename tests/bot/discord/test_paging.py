"""More than 25 choices go into a select with pages; every choice stays reachable."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from bot.discord_ui.prompts import PAGE_SIZE, SELECTS_PER_PAGE, choice_controls
from tests.bot.discord.conftest import World
from tests.bot.discord.driving import (
    Stats,
    find,
    open_prompt,
    play_tile_turn,
    press,
    selects,
    to_act,
)
from tests.bot.discord.test_lobby import open_table


def _selects(items: list) -> list[discord.ui.Select]:
    return [i.item for i in items if isinstance(i.item, discord.ui.Select)]


def _buttons(items: list) -> list[str]:
    return [i.item.label for i in items if isinstance(i.item, discord.ui.Button)]


def test_sixty_choices_are_three_selects_on_one_page() -> None:
    labels = [f"move {n}" for n in range(60)]
    items = choice_controls(1, 2, "Q", labels)
    menus = _selects(items)
    assert [len(m.options) for m in menus] == [PAGE_SIZE, PAGE_SIZE, 10]
    assert [m.placeholder for m in menus] == [
        "Choose a move: 1–25",
        "Choose a move: 26–50",
        "Choose a move: 51–60",
    ]
    assert menus[1].options[0].label == "26. move 25"
    assert [o.value for m in menus for o in m.options] == [str(n) for n in range(60)]
    assert _buttons(items) == ["Back"], "no pages: every choice is one click away"
    assert all(len(i.custom_id) <= 100 for i in items)
    assert max(i.item.row for i in items) <= 4


def test_only_more_than_a_hundred_choices_need_pages() -> None:
    labels = [f"move {n}" for n in range(130)]
    seen: list[str] = []
    for page in range(2):
        items = choice_controls(1, 2, "Q", labels, page=page)
        menus = _selects(items)
        assert len(menus) == (SELECTS_PER_PAGE if page == 0 else 2)
        seen += [o.value for m in menus for o in m.options]
        assert ("◀ Previous" in _buttons(items)) == (page > 0)
        assert ("Next ▶" in _buttons(items)) == (page == 0)
        assert all(len(m.options) <= 25 for m in menus)
        assert max(i.item.row for i in items) <= 4
    assert seen == [str(n) for n in range(130)], "every choice on exactly one page"


def test_few_choices_are_buttons() -> None:
    items = choice_controls(1, 2, "K", ["K: bring a pawn out", "K: pawn on 3 → 16"])
    labels = [i.item.label for i in items]
    assert labels == ["K: bring a pawn out", "K: pawn on 3 → 16", "Back"]


async def _many_cells(world: World) -> tuple[int, Any, Any, list[tuple[int, int]]]:
    """A two-player Carcassonne played until the drawn tile has more than 25 cells."""
    from bot.discord_ui import tile_words

    world.seeds.append(9)
    table_id, lobby = await open_table(world, "carcassonne", players=2)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(world.lobby(table_id), label="Start")
    thread = world.thread_of(world.lobby(table_id))
    users = [world.alice, world.bob]
    rng, stats = random.Random(2), Stats()
    for _ in range(80):
        board = world.newest_board(thread)
        user = to_act(board, users)[0]
        info = await world.desk.service.private_info(table_id, user.id)
        cells = world.desk.renderer.order(tile_words.placements_of(info))
        if len(cells) > PAGE_SIZE:
            return table_id, user, board, cells
        await play_tile_turn(world, table_id, user, thread, rng, stats)
    raise AssertionError("never more than 25 legal cells")


async def test_carcassonne_placements_beyond_25_are_more_selects_on_the_board(
    world: World,
) -> None:
    from bot.discord_ui import tile_words

    table_id, user, board, cells = await _many_cells(world)
    info = await world.desk.service.private_info(table_id, user.id)
    placements = tile_words.placements_of(info)
    menus = selects(board)
    assert 1 < len(menus) <= SELECTS_PER_PAGE
    values = [o["value"] for m in menus for o in m["options"]]
    wanted = [f"{i}.{r}" for i, cell in enumerate(cells) for r in sorted(placements[cell])]
    assert values == wanted, "every placement once, numbered as the cells of the image"
    for menu in menus:
        assert len(menu["options"]) <= PAGE_SIZE
        assert len(menu["custom_id"]) <= 100
        numbers = {o["value"].split(".")[0] for o in menu["options"]}
        first, last = min(numbers, key=int), max(numbers, key=int)
        assert menu["placeholder"].endswith(f"{int(first) + 1}–{int(last) + 1}")
    # A cell's rotations are never split over two selects (they fit here).
    owners = [{o["value"].split(".")[0] for o in m["options"]} for m in menus]
    assert all(not (a & b) for n, a in enumerate(owners) for b in owners[n + 1 :])
    index = len(cells) - 1
    x, y = cells[index]
    rot = sorted(placements[(x, y)])[0]
    result = await user.select(board, custom_id=menus[-1]["custom_id"], values=[f"{index}.{rot}"])
    prompt = result.visible_to(user)[0]
    assert prompt.ephemeral
    if not prompt.content.startswith("You placed"):
        await press(world, user, prompt, find(prompt, f":fig:{index}:{rot}:0")["custom_id"])
    log = await world.desk.service.storage.load_log(table_id)
    assert any(f" {x},{y}@{rot}" in e.text for e in log[-3:])


async def test_carcassonne_cells_beyond_25_are_reached_through_pages_when_they_overflow(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    # More placements than the board's selects hold: the private step-by-step prompt.
    from bot.discord_ui import tile_words

    monkeypatch.setattr(tile_words, "placement_controls", lambda *args, **kwargs: None)
    table_id, user, board, cells = await _many_cells(world)
    prompt = await open_prompt(world, user, board, "Place tile")
    menu = selects(prompt)[0]
    assert len(menu["options"]) == PAGE_SIZE
    assert menu["options"][0]["label"] == "Cell 1"  # as the image numbers it, no coordinates
    await press(world, user, prompt, find(prompt, ":cpg:1")["custom_id"])
    menu = selects(prompt)[0]
    assert menu["options"][0]["label"] == f"Cell {PAGE_SIZE + 1}"
    index = PAGE_SIZE
    x, y = cells[index]
    await press(world, user, prompt, menu["custom_id"], [str(index)])
    rotation = [b for b in prompt.buttons if ":rot:" in b["custom_id"]]
    if rotation:  # one rotation only: no rotation step
        await press(world, user, prompt, rotation[0]["custom_id"])
    if not prompt.content.startswith("You placed"):
        figure = next(b for b in prompt.buttons if ":fig:" in b["custom_id"])
        await press(world, user, prompt, figure["custom_id"])
    log = await world.desk.service.storage.load_log(table_id)
    assert any(f" {x},{y}@" in e.text for e in log[-3:])


def test_placements_keep_each_cell_in_one_select_and_overflow_to_the_prompt() -> None:
    from bot.discord_ui.tile_words import placement_controls

    cells = [(x, 0) for x in range(9)]
    placements = {cell: [0, 90, 180, 270] for cell in cells}  # 36 placements
    items = placement_controls(1, 2, placements, cells)
    assert items is not None
    menus = _selects(items)
    assert [len(m.options) for m in menus] == [24, 12], "six whole cells, then three"
    assert [o.label for o in menus[0].options[:4]] == [
        "Cell 1, as drawn",
        "Cell 1, turned right",
        "Cell 1, upside down",
        "Cell 1, turned left",
    ]
    assert menus[1].options[0].value == "6.0"
    assert [m.placeholder for m in menus] == ["Place the tile: 1–6", "Place the tile: 7–9"]
    many = {(x, 0): [0, 90, 180, 270] for x in range(26)}  # 104: more than four selects hold
    assert placement_controls(1, 2, many, sorted(many)) is None


def test_a_single_placement_is_one_button_that_says_it() -> None:
    from bot.discord_ui.tile_words import placement_controls

    items = placement_controls(1, 2, {(3, 4): [90]}, [(3, 4)])
    assert items is not None
    # "Place the tile: Cell 1, turned right" passes Discord's 34 characters: the placement.
    assert [i.item.label for i in items] == ["Cell 1, turned right"]
    assert [i.item.label for i in placement_controls(1, 2, {(0, 1): [0]}, [(0, 1)])] == [
        "Place the tile: Cell 1, as drawn"
    ]
    assert isinstance(items[0].item, discord.ui.Button)
