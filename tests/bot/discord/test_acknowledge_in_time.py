"""Slow rendering never makes an interaction miss Discord's 3 s window: the bot defers first."""

from __future__ import annotations

import random
from typing import Any

import renderer as real
from bot.discord_ui.rendering import Renderer
from tests.bot.discord.conftest import World, private_text
from tests.bot.discord.driving import Stats, play_race_turn
from tests.bot.discord.test_refusals import start_tock_against_a_bot


async def test_slow_images_still_answer_every_click(world: World) -> None:
    clock = world.fake.clock

    def slow_board(view: Any, *, names: Any = None, highlight: Any = None) -> bytes:
        clock.advance(5)  # as if drawing took 5 s: an answer sent only now would be too late
        return real.render_board(view, names=names)

    def slow_hand(game: str, cards: Any, *, playable: Any = None) -> bytes:
        clock.advance(5)
        return real.render_hand(game, cards, playable=playable)

    world.renderer = Renderer(render_board=slow_board, render_hand=slow_hand)
    await world.restart()
    table_id, thread = await start_tock_against_a_bot(world, seed=9)
    stats = Stats()
    for _ in range(3):
        await play_race_turn(world, table_id, world.alice, thread, random.Random(7), stats)
    assert stats.turns == 3
    board = world.newest_board(thread)
    assert board.files, "the slow board image still arrives"
    spectator = await world.bob.click(board, label="Show my hand")
    assert "not seated" in private_text(spectator, world.bob)
    assert not world.fake.rejected, "no request was refused (none too late, none twice)"
