"""Answers first: a click that changes a table is answered as soon as the change is stored;
the board follows. Here the boards cannot be drawn until the test lets them: the person who
clicked has their answer all the same, and the board comes once it is drawn."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from typing import Any

import pytest

from bot.discord_ui import race_prompts
from bot.discord_ui.race_prompts import single_move
from tests.bot.discord.conftest import World, private_text
from tests.bot.discord.driving import find, open_prompt, press, to_act
from tests.bot.discord.test_lobby import open_table, start_for_two
from tests.bot.discord.test_tournaments import signup_post


def started(world: World, thread: Any) -> bool:
    return any(message.files for message in world.boards(thread))


async def test_start_is_answered_before_the_first_board_is_drawn(
    world: World, board_gate: threading.Event
) -> None:
    table_id, lobby = await open_table(world, "tock", players=2)
    await world.bob.click(lobby, label="Join")
    result = await world.alice.click(world.lobby(table_id), label="Start", wait=False)
    await world.wait(lambda: "The game has started" in result.text, "the answer came")
    thread = world.thread_of(world.lobby(table_id))
    assert not started(world, thread), "no board could be drawn yet"
    board_gate.set()
    await world.desk.deliveries_done()
    assert started(world, thread)
    assert world.newest_board(thread).files


async def test_a_move_is_answered_before_its_board_is_drawn(
    world: World, board_gate: threading.Event
) -> None:
    board_gate.set()  # the first board
    table_id, thread = await start_for_two(world, "tock", seed=21)
    user = to_act(world.newest_board(thread), [world.alice, world.bob])[0]
    hand = await open_prompt(world, user, world.newest_board(thread), "Show my hand")
    service = world.desk.service
    info = await service.private_info(table_id, user.id)
    cards = [str(card) for card in (info.view or {}).get("hand") or []]
    playing = [i for i, card in enumerate(cards) if single_move(info, card) is not None]
    if playing:
        custom_id = find(hand, f":card:{playing[0]}")["custom_id"]
    else:
        await press(world, user, hand, find(hand, ":card:0")["custom_id"])
        custom_id = next(c["custom_id"] for c in hand.buttons if ":mv:" in c["custom_id"])
    boards = len(world.boards(thread))
    board_gate.clear()
    await user.click(hand, custom_id=custom_id, wait=False)
    await world.wait(lambda: "You played" in hand.content, "the answer came")
    assert len(world.boards(thread)) == boards, "the move's board could not be drawn yet"
    board_gate.set()
    await world.desk.deliveries_done()
    assert len(world.boards(thread)) > boards, "the board follows the answer"
    assert world.newest_board(thread).files


# --- tournaments and seasons -------------------------------------------------------------


async def test_a_new_tournament_is_answered_before_its_signup_post_is_out(world: World) -> None:
    # Discord takes the sign-up post but its answer is held: the host's answer comes anyway.
    held = asyncio.Event()
    world.fake.faults.stall_answer("POST", f"/channels/{world.channel.id}/messages", held)
    result = await world.alice.slash(
        world.channel, "tournament new", game="tock", format="swiss", turn_time=60, wait=False
    )
    try:
        # The answer may come before the post even leaves: wait until Discord holds the post,
        # then the answer must be there (or come) while it is held.
        await world.wait(lambda: world.fake.faults.stalls == [], "the sign-up post on its way")
        await world.wait(lambda: "is open for sign-up" in result.text, "the answer came")
    finally:
        held.set()
    assert world.desk is not None
    await world.desk.deliveries_done()
    post = signup_post(world)
    record = (await world.desk.service.tournaments.of_guild(world.guild.id))[0]
    assert record.setup.get("post_id") == post.id, "the post is recorded once out"


async def test_a_tournament_start_is_answered_before_its_round_is_posted(world: World) -> None:
    await world.alice.slash(world.channel, "tournament new", game="tock", format="swiss")
    for user in (world.alice, world.bob):
        await user.click(signup_post(world), label="Join")
    held = asyncio.Event()
    world.fake.faults.stall_answer("POST", f"/channels/{world.channel.id}/messages", held)
    started = await world.alice.slash(world.channel, "tournament host", action="start", wait=False)
    try:
        await world.wait(lambda: "has started" in started.text, "the answer came")
        assert not seated(world), "the round's post could not be out yet"
    finally:
        held.set()
    assert world.desk is not None
    await world.desk.deliveries_done()
    assert len(seated(world)) == 1, "the round's post follows, once"


def seated(world: World) -> list[Any]:
    return [m for m in world.fake.messages(world.channel) if "take your seats" in m.text]


async def test_a_new_season_is_acknowledged_before_it_is_stored(world: World) -> None:
    admin = world.fake.add_user("admin", guild=world.guild, permissions=1 << 5)
    made = await admin.slash(
        world.channel,
        "season new",
        game="tock",
        name="Spring",
        start="2027-03-01",
        end="2027-05-31",
    )
    assert made.deferred, "acknowledged first: of two processes, one stores it"
    assert "Season Spring of Tock" in private_text(made, admin)


async def test_show_my_hand_is_answered_while_the_newest_board_is_still_being_drawn(
    world: World, board_gate: threading.Event
) -> None:
    board_gate.set()  # the first board
    table_id, thread = await start_for_two(world, "tock", seed=21)
    board = world.newest_board(thread)
    user = to_act(board, [world.alice, world.bob])[0]
    other = world.bob if user is world.alice else world.alice
    hand = await open_prompt(world, user, board, "Show my hand")
    info = await world.desk.service.private_info(table_id, user.id)
    cards = [str(card) for card in (info.view or {}).get("hand") or []]
    playing = [i for i, card in enumerate(cards) if single_move(info, card) is not None]
    if playing:
        custom_id = find(hand, f":card:{playing[0]}")["custom_id"]
    else:
        await press(world, user, hand, find(hand, ":card:0")["custom_id"])
        custom_id = next(c["custom_id"] for c in hand.buttons if ":mv:" in c["custom_id"])
    board_gate.clear()
    await user.click(hand, custom_id=custom_id, wait=False)
    await world.wait(lambda: "You played" in hand.content, "the answer came")
    # The thread's board is the old one, its successor is being drawn: the other player's
    # "Show my hand" on it is answered now, not once that drawing (and posting) is done.
    assert world.newest_board(thread).id == board.id
    other_hand = await open_prompt(world, other, board, "Show my hand")
    assert world.newest_board(thread).id == board.id, "answered before the new board came"
    assert other_hand.files, other_hand.text  # the hand's image: the hand itself
    assert "newest board" not in other_hand.text
    board_gate.set()
    await world.desk.deliveries_done()
    assert world.newest_board(thread).id != board.id


async def test_a_move_is_answered_in_words_when_its_hand_image_is_late_and_the_image_follows(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(race_prompts, "ANSWER_IMAGE_WAIT", 0.2)
    table_id, thread = await start_for_two(world, "tock", seed=21)
    user = to_act(world.newest_board(thread), [world.alice, world.bob])[0]
    hand = await open_prompt(world, user, world.newest_board(thread), "Show my hand")
    info = await world.desk.service.private_info(table_id, user.id)
    cards = [str(card) for card in (info.view or {}).get("hand") or []]
    playing = [i for i, card in enumerate(cards) if single_move(info, card) is not None]
    if playing:
        custom_id = find(hand, f":card:{playing[0]}")["custom_id"]
    else:
        await press(world, user, hand, find(hand, ":card:0")["custom_id"])
        custom_id = next(c["custom_id"] for c in hand.buttons if ":mv:" in c["custom_id"])
    closed = threading.Event()
    renderer = world.desk.renderer
    draw = renderer.render_hand
    assert draw is not None

    def slow_hand(*args: Any, **kwargs: Any) -> bytes:
        closed.wait(10)
        return draw(*args, **kwargs)

    monkeypatch.setattr(
        world.desk, "renderer", dataclasses.replace(renderer, render_hand=slow_hand)
    )
    try:
        await user.click(hand, custom_id=custom_id, wait=False)
        await world.wait(lambda: "You played" in hand.content, "the answer came")
        assert not hand.files, "not the hand before the move: no image until the new one"
        assert hand.buttons, "the hand's buttons came with the words"
    finally:
        closed.set()
    await world.wait(lambda: hand.files, "the hand image follows")
    assert "You played" in hand.content
