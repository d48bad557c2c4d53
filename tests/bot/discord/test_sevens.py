"""The split 7 played segment by segment, and the joker played as a 7."""

from __future__ import annotations

import random

from bot.discord_ui import race_prompts
from tests.bot.discord.clicks import clicks_of
from tests.bot.discord.conftest import World
from tests.bot.discord.driving import (
    Stats,
    choose,
    find,
    greedy_chooser,
    hand_of,
    move_score,
    play_race_turn,
    press,
    to_act,
)
from tests.bot.discord.secrecy import scan_public
from tests.bot.discord.test_lobby import open_table


def _steps(move: str) -> int:
    return move_score(move, 72) if "-r" in move and "h" not in move.split("-")[-1] else 99


async def test_a_seven_in_three_segments(world: World) -> None:
    world.bot_brain = greedy_chooser
    world.seeds.append(54)
    table_id, lobby = await open_table(world, "tock", players=2)
    await world.alice.click(lobby, label="Add bot")
    await world.alice.click(world.lobby(table_id), label="Start")
    thread = world.thread_of(world.lobby(table_id))
    rng, stats = random.Random(1), Stats()
    for _ in range(200):
        board = world.newest_board(thread)
        assert to_act(board, [world.alice]), board.content
        info = await world.desk.service.private_info(table_id, world.alice.id)
        hand = [str(c) for c in info.view["hand"]]
        # Too many ways to share the steps to list them whole: the 7 goes pawn by pawn.
        offered = race_prompts.choices(info, "7") if "7" in hand and info.to_act else []
        starts = [m for m in offered if 0 < _steps(m) < 7]
        if not starts:
            await play_race_turn(world, table_id, world.alice, thread, rng, stats)
            continue
        # Play the 7 one step at a time: 1 + 1 + ... the prompt asks for each next pawn.
        boards_before = len(world.boards(thread))
        logged = len(await world.desk.service.storage.load_log(table_id))
        prompt = await hand_of(world, table_id, world.alice, thread, stats)
        clicks = clicks_of(world.fake, world.alice)
        await press(
            world, world.alice, prompt, find(prompt, f":card:{hand.index('7')}")["custom_id"]
        )
        # The 7's choices come with the board marking where each lands (#36).
        assert [f.filename for f in prompt.attachments] == ["choices.png"]
        shortest = min(starts, key=_steps)
        await choose(
            world, world.alice, prompt, "7", race_prompts.choices(info, "7").index(shortest), stats
        )
        segments, lefts = 1, []
        while not prompt.content.startswith("You played"):
            assert "steps left" in prompt.content, prompt.content
            assert [f.filename for f in prompt.attachments] == ["choices.png"]
            lefts.append(int(prompt.content.split("**")[1].split()[0]))
            info = await world.desk.service.private_info(table_id, world.alice.id)
            offered = race_prompts.choices(info, "S")
            segment = min(offered, key=_steps) if len(lefts) < 2 else max(offered, key=_steps)
            await choose(world, world.alice, prompt, "S", offered.index(segment), stats)
            segments += 1
        # Each segment is stored as it is played (a last one with a single way is played
        # for alice, and said in the confirmation).
        log = await world.desk.service.storage.load_log(table_id)
        parts = [e.text for e in log[logged:] if e.seat == 0]
        assert len(parts) >= 3, parts
        # The card, then one click per segment (the last one may have played itself).
        assert clicks_of(world.fake, world.alice) - clicks <= len(parts) + 1
        assert segments >= 2
        assert lefts == sorted(lefts, reverse=True)
        assert lefts[0] < 7
        # Every segment was announced publicly as it happened.
        # Every segment was announced publicly as it happened, in one turn digest: a new
        # message at the first segment, edited with each next one.
        digest = world.boards(thread)[boards_before]
        said = [line for line in digest.content.splitlines() if line.startswith("alice: ")]
        assert len(said) >= segments, digest.content
        scan_public(world)
        return
    raise AssertionError("alice never held a 7 that could be split")


async def test_a_joker_played_as_a_seven(world: World) -> None:
    world.bot_brain = greedy_chooser
    world.seeds.append(12)
    table_id, _lobby = await open_table(world, "dog", players=4)
    for _ in range(3):
        await world.alice.click(world.lobby(table_id), label="Add bot")
    await world.alice.click(world.lobby(table_id), label="Start")
    thread = world.thread_of(world.lobby(table_id))
    rng, stats = random.Random(1), Stats()
    for _ in range(300):
        if "Game over" in world.boards(thread)[-1].content:
            break
        info = await world.desk.service.private_info(table_id, world.alice.id)
        hand = [str(c) for c in (info.view or {}).get("hand") or []]
        as_seven = race_prompts.choices(info, "X=7") if info.to_act and "X" in hand else []
        if not as_seven or (info.view or {}).get("phase") != "play":
            await play_race_turn(world, table_id, world.alice, thread, rng, stats)
            continue
        prompt = await hand_of(world, table_id, world.alice, thread, stats)
        await press(
            world, world.alice, prompt, find(prompt, f":card:{hand.index('X')}")["custom_id"]
        )
        if "joker stand for" in prompt.content:
            await press(world, world.alice, prompt, find(prompt, ":jok:7")["custom_id"])
        if ":mv:X:" in repr(prompt.components) or ":ms:X:" in repr(prompt.components):
            # Every kind in one list: the first play as a 7.
            index = race_prompts.choices(info, "X").index(as_seven[0])
            await choose(world, world.alice, prompt, "X", index, stats)
        elif len(as_seven) > 1:
            assert "joker as a 7" in prompt.content
            await choose(world, world.alice, prompt, "X=7", 0, stats)
        while not prompt.content.startswith("You played"):
            await choose(world, world.alice, prompt, "S", 0, stats)
        assert "Joker as 7" in prompt.content
        after = await world.desk.service.private_info(table_id, world.alice.id)
        assert len([c for c in after.view["hand"] if c == "X"]) == hand.count("X") - 1
        scan_public(world)
        return
    raise AssertionError("alice never held a joker that could be a 7")
