"""More than 25 choices go into a select with pages; every choice stays reachable."""

from __future__ import annotations

import random

import discord

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


async def test_carcassonne_cells_beyond_25_are_reached_through_pages(world: World) -> None:
    world.seeds.append(9)
    table_id, lobby = await open_table(world, "carcassonne", players=2)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(world.lobby(table_id), label="Start")
    thread = world.thread_of(world.lobby(table_id))
    users = [world.alice, world.bob]
    rng, stats = random.Random(2), Stats()
    from bot.discord_ui import tile_prompts

    for _ in range(80):
        board = world.newest_board(thread)
        user = to_act(board, users)[0]
        info = await world.desk.service.private_info(table_id, user.id)
        cells = world.desk.renderer.order(tile_prompts.placements_of(info))
        if len(cells) > PAGE_SIZE:
            break
        await play_tile_turn(world, table_id, user, thread, rng, stats)
    else:
        raise AssertionError("never more than 25 legal cells")
    prompt = await open_prompt(world, user, board, "Place tile")
    menu = selects(prompt)[0]
    assert len(menu["options"]) == PAGE_SIZE
    assert menu["options"][0]["label"].startswith("1. ")
    await press(world, user, prompt, find(prompt, ":cpg:1")["custom_id"])
    menu = selects(prompt)[0]
    assert menu["options"][0]["label"].startswith(f"{PAGE_SIZE + 1}. ")
    index = PAGE_SIZE
    x, y = cells[index]
    assert f"({x}, {y})" in menu["options"][0]["label"]
    await press(world, user, prompt, menu["custom_id"], [str(index)])
    rotation = next(b for b in prompt.buttons if ":rot:" in b["custom_id"])
    await press(world, user, prompt, rotation["custom_id"])
    await press(
        world,
        user,
        prompt,
        find(prompt, f":fig:{index}:{rotation['custom_id'].split(':')[-1]}:0")["custom_id"],
    )
    log = await world.desk.service.storage.load_log(table_id)
    assert f" {x},{y}@" in log[-1].text or any(f" {x},{y}@" in e.text for e in log[-3:])
