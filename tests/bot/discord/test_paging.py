"""More than 25 choices go into a select with pages; every choice stays reachable."""

from __future__ import annotations

import random

import discord

from bot.discord_ui.prompts import PAGE_SIZE, choice_controls
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


def _select(items: list) -> discord.ui.Select:
    return next(i.item for i in items if isinstance(i.item, discord.ui.Select))


def test_sixty_choices_make_three_pages() -> None:
    labels = [f"move {n}" for n in range(60)]
    seen: list[str] = []
    for page in range(3):
        items = choice_controls(1, 2, "Q", labels, page=page)
        menu = _select(items)
        seen += [option.value for option in menu.options]
        assert len(menu.options) == (PAGE_SIZE if page < 2 else 10)
        assert menu.options[0].label == f"{page * PAGE_SIZE + 1}. move {page * PAGE_SIZE}"
        buttons = [i.item.label for i in items if isinstance(i.item, discord.ui.Button)]
        assert ("◀ Previous" in buttons) == (page > 0)
        assert ("Next ▶" in buttons) == (page < 2)
        assert all(len(i.custom_id) <= 100 for i in items)
    assert seen == [str(n) for n in range(60)], "every choice on exactly one page"


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
