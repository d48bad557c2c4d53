"""Carcassonne played to the end through buttons only."""

from __future__ import annotations

import random

import pytest

from tests.bot.discord.clicks import assert_two_clicks
from tests.bot.discord.conftest import World
from tests.bot.discord.driving import Stats, play_tiles_to_the_end
from tests.bot.discord.secrecy import scan_public
from tests.bot.discord.test_lobby import open_table, start_for_two


@pytest.mark.slow
async def test_carcassonne_three_players_river_inns_to_the_end(world: World) -> None:
    world.seeds.append(5)
    table_id, lobby = await open_table(
        world, "carcassonne", players=3, river=True, inns_cathedrals="full"
    )
    await world.bob.click(lobby, label="Join")
    await world.alice.click(world.lobby(table_id), label="Add bot")
    await world.alice.click(world.lobby(table_id), label="Start")
    stats = Stats()
    end = await play_tiles_to_the_end(
        world, table_id, [world.alice, world.bob], random.Random(4), stats
    )
    print(f"carcassonne: {stats.turns} turns, {stats.pages} pages")
    print(stats.log.summary("carcassonne"))
    assert_two_clicks(stats.log)
    tiles = stats.log.decisions
    assert all(d.clicks <= 2 for d in tiles), "a tile: placement, figure"
    assert all(d.clicks == 1 for d in tiles if not d.figure_possible), "no figure: one click"
    assert any(not d.figure_possible for d in tiles), "some tile has no figure spot"
    assert "won" in end
    assert stats.turns > 40
    assert scan_public(world) > stats.turns


async def test_figure_step_still_works_when_the_preview_fails(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.discord_ui import tile_prompts
    from tests.bot.discord.driving import find, press, selects, to_act

    def broken(view: object, placement: str) -> list[str]:
        raise RuntimeError("no preview")

    monkeypatch.setattr(tile_prompts, "figure_actions", broken)
    table_id, thread = await start_for_two(world, "carcassonne", seed=5)
    board = world.newest_board(thread)
    user = to_act(board, [world.alice, world.bob])[0]
    menu = selects(board)[0]
    result = await user.select(
        board, custom_id=menu["custom_id"], values=[menu["options"][0]["value"]]
    )
    prompt = result.visible_to(user)[0]
    assert "figure" in prompt.content
    await press(world, user, prompt, find(prompt, ":mv:F:0")["custom_id"])
    assert prompt.content.startswith("You placed")
    log = await world.desk.service.storage.load_log(table_id)
    assert [e.text for e in log][-1] == "none"


async def test_place_elsewhere_goes_back_to_the_placement_and_stores_nothing(
    world: World,
) -> None:
    from tests.bot.discord.driving import find, press, selects, to_act

    table_id, thread = await start_for_two(world, "carcassonne", seed=5)
    board = world.newest_board(thread)
    user = to_act(board, [world.alice, world.bob])[0]
    before = [e.text for e in await world.desk.service.storage.load_log(table_id)]
    for menu in selects(board):
        # A placement with a figure spot, so that the figure step opens.
        for option in menu["options"]:
            result = await user.select(board, custom_id=menu["custom_id"], values=[option["value"]])
            prompts = result.visible_to(user)
            if prompts and "figure" in prompts[0].content:
                break
        else:
            continue
        break
    prompt = prompts[0]
    elsewhere = find(prompt, ":again")
    assert elsewhere["label"] == "Place elsewhere"
    await press(world, user, prompt, elsewhere["custom_id"])
    after = [e.text for e in await world.desk.service.storage.load_log(table_id)]
    assert after == before, "nothing stored"
    assert "Where" in prompt.content or "cell" in prompt.content.lower(), prompt.content
    assert selects(prompt), "the placement's choices are offered again"
    assert prompt.attachments, "with the placement image"
