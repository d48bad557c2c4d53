"""What the board images get from the Discord layer: players' names, and for /table board
the whole map rather than the window around the latest move."""

from __future__ import annotations

import random
from typing import Any

from bot.discord_ui.rendering import Renderer
from tests.bot.discord.conftest import RecordingRenderer, World, private_text
from tests.bot.discord.driving import Stats, play_race_turn
from tests.bot.discord.test_refusals import start_tock_against_a_bot


async def test_table_board_asks_for_the_whole_map_with_the_players_names(world: World) -> None:
    calls: list[dict[str, Any]] = []
    png = RecordingRenderer().png

    def board(view: Any, *, names: Any = None, whole: bool = False, **_: Any) -> bytes:
        calls.append({"names": list(names or []), "whole": whole})
        return png

    world.renderer = Renderer(render_board=board)
    await world.restart()
    table_id, thread = await start_tock_against_a_bot(world, seed=5)
    await play_race_turn(world, table_id, world.alice, thread, random.Random(1), Stats())
    assert calls, "a move's board was drawn"
    assert not any(call["whole"] for call in calls)
    assert "alice" in calls[-1]["names"]
    assert any("bot" in name.lower() for name in calls[-1]["names"])
    again = await world.alice.slash(world.channel, "table board", table=table_id)
    assert "posted" in private_text(again, world.alice)
    assert calls[-1]["whole"] is True
