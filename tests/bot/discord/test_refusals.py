"""Every refusal is answered privately, never with Discord's silent "interaction failed"."""

from __future__ import annotations

import random

from bot.discord_ui.race_prompts import choices
from tests.bot.discord.conftest import World, private_text
from tests.bot.discord.driving import Stats, find, hand_of, open_prompt, play_race_turn, to_act
from tests.bot.discord.test_lobby import open_table, start_for_two
from tests.fakediscord.models import iter_components


async def start_tock_against_a_bot(world: World, seed: int = 21) -> tuple[int, object]:
    """Alice against one bot; returns the table id and its thread."""
    world.seeds.append(seed)
    table_id, lobby = await open_table(world, "tock", players=2)
    await world.alice.click(lobby, label="Add bot")
    await world.alice.click(world.lobby(table_id), label="Start")
    thread = world.thread_of(world.lobby(table_id))
    await world.wait(lambda: world.newest_board(thread))
    return table_id, thread


async def test_spectator_gets_private_not_seated(world: World) -> None:
    _table_id, thread = await start_tock_against_a_bot(world)
    board = world.newest_board(thread)
    result = await world.bob.click(board, label="Show my hand")
    assert "not seated" in private_text(result, world.bob)
    assert not world.alice.can_see(result.visible_to(world.bob)[0])


async def test_outdated_board_and_not_your_turn_are_private(world: World) -> None:
    table_id, thread = await start_tock_against_a_bot(world)
    first = world.newest_board(thread)
    await play_race_turn(world, table_id, world.alice, thread, random.Random(1), Stats())
    newest = world.newest_board(thread)
    assert newest.id != first.id
    assert not first.buttons, "the old board's controls are removed"
    # A stale prompt (opened from the board before) is refused privately.
    result = await world.alice.click(newest, label="Show my hand")
    assert "Your" in private_text(result, world.alice)


async def test_crafted_custom_id_is_answered_privately(world: World) -> None:
    _table_id, thread = await start_tock_against_a_bot(world)
    board = world.newest_board(thread)
    for crafted in ("t:1:v:1:nonsense:1:2:3:4:5", "x:evil", "t:999999:v:1:hand"):
        data = {"custom_id": crafted, "component_type": 2}
        result = await world.alice._interact(3, thread, data, message=board, wait=True, timeout=5)
        assert "not valid" in private_text(result, world.alice), crafted


async def test_actions_on_a_finished_table_are_refused(world: World) -> None:
    table_id, thread = await start_tock_against_a_bot(world)
    board = world.newest_board(thread)
    prompt = await open_prompt(world, world.alice, board, "Show my hand")
    card = next(b for b in prompt.buttons if not b.get("disabled"))
    await world.alice.slash(world.channel, "table abandon", table=table_id)
    assert not board.buttons, "the last board loses its controls when the table ends"
    # The open hand closes itself: no card is left to click.
    await world.wait(lambda: not prompt.components, "the open hand closed")
    assert "over" in prompt.text
    assert card["custom_id"] not in repr(prompt.components)
    join = await world.bob.slash(world.channel, "table join", table=table_id)
    assert private_text(join, world.bob)


async def test_not_your_turn_is_private(world: World) -> None:
    table_id, thread = await start_for_two(world, "carcassonne", seed=3)
    board = world.newest_board(thread)
    waiting = [
        u for u in (world.alice, world.bob) if u not in to_act(board, [world.alice, world.bob])
    ]
    # The placements are on the public board: anyone else who uses them is refused privately.
    menu = next(c for c in iter_components(board.components) if c["type"] == 3)
    value = menu["options"][0]["value"]
    result = await waiting[0].select(board, custom_id=menu["custom_id"], values=[value])
    assert "not your turn" in private_text(result, waiting[0]).lower()
    assert await world.desk.service.storage.load_log(table_id) == []
    acting = to_act(board, [world.alice, world.bob])[0]
    chosen = await acting.select(board, custom_id=menu["custom_id"], values=[value])
    prompt = chosen.visible_to(acting)[0]
    assert prompt.ephemeral
    assert not prompt.visible_for(waiting[0].user), "a prompt is seen by its user only"


async def test_back_returns_from_a_cards_moves_to_the_hand(world: World) -> None:
    from tests.bot.discord.driving import press

    table_id, thread = await start_tock_against_a_bot(world)
    stats = Stats()
    for _ in range(60):
        prompt = await hand_of(world, table_id, world.alice, thread, stats)
        info = await world.desk.service.private_info(table_id, world.alice.id)
        hand = [str(c) for c in info.view["hand"]]
        several = [
            i for i, c in enumerate(hand) if info.to_act and c != "X" and len(choices(info, c)) > 1
        ]
        if several:
            break
        await play_race_turn(world, table_id, world.alice, thread, random.Random(1), stats)
    else:
        raise AssertionError("alice never held a card with several moves")
    cards = [b["label"] for b in prompt.buttons]
    card = find(prompt, f":card:{several[0]}")
    await press(world, world.alice, prompt, card["custom_id"])
    assert prompt.content.startswith("Moves with")
    await press(world, world.alice, prompt, find(prompt, ":hand2")["custom_id"])
    assert [b["label"] for b in prompt.buttons] == cards
    assert prompt.files, "the hand image is shown again"


async def test_crafted_placement_values_are_refused_privately(world: World) -> None:
    table_id, thread = await start_for_two(world, "carcassonne", seed=3)
    board = world.newest_board(thread)
    acting = to_act(board, [world.alice, world.bob])[0]
    menu = next(c for c in iter_components(board.components) if c["type"] == 3)
    for crafted in ("x.y", "-1.0", "999.90", "0.45", "", "0"):
        data = {"custom_id": menu["custom_id"], "component_type": 3, "values": [crafted]}
        result = await acting._interact(3, thread, data, message=board, wait=True, timeout=5)
        text = private_text(result, acting)
        assert "not on offer" in text or "out of date" in text, crafted
    assert await world.desk.service.storage.load_log(table_id) == []
